// Package live holds the outputs written while a run goes, each a loader.Sink that passes every
// batch of results on to the next: the progress line, the -v lines of each request and the CSV
// of every request (--csv).
package live
