// Package judge passes verdicts on results: a comparison of runs with its tests of significance
// (compare, per-URL changes, content and status-mix changes, capacity and ladder steps, the
// database's statements), the --max-regression limits on it, and the nightly trend and change
// points of a history. The gates are package gate's. Each verdict is a stats.Verdict, so they
// print, count and become JUnit alike.
package judge
