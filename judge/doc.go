// Package judge passes verdicts on results: a comparison of runs with its tests of significance
// (compare, per-URL changes, content and status-mix changes, capacity and ladder steps), the
// --max-regression limits on it, the nightly trend of a history, and the --assert and --abort-on
// gates on a result or on the live window of a running one. Each verdict is a stats.Verdict, so
// they print, count and become JUnit alike.
package judge
