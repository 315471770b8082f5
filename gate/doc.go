// Package gate judges a result against the gates a user writes: --assert on a whole result
// (CheckGates) and --abort-on over the live window of a running one (Window), in one grammar
// (ParseGate, ParseLiveGate) over the figures package stats lists. Each verdict is a
// stats.Verdict.
package gate
