// Package section declares what an optional part of a result offers the rest of webload: the
// figures a user may name in --assert, --abort-on, --max-regression and compare, and its block
// of the text report. A feature's package implements it on its own summary type and lists its
// figures once, so the feature needs neither the result's model nor the judgement of results;
// the model lists the sections once and every gate, table and report goes through that list.
package section

// Kind says what a figure measures, which decides the units a gate's limit takes and how a
// verdict shows values.
type Kind uint8

const (
	// Count is a whole number: transactions, failures, bytes.
	Count Kind = iota
	// Rate is a plain number shown with 2 decimals: a rate, the concurrency, a load.
	Rate
	// Time is in seconds; a gate's limit is written with a unit.
	Time
	// Percent is in percent; a gate's limit takes an optional %.
	Percent
)

// Column is how `webload compare` shows a figure: its JSON key, its title, the unit the table
// shows, the scale from the figure's base unit to that one, and the decimals.
type Column struct {
	Key, Title, Unit string
	Scale            float64
	Decimals         int
}

// Figure is one figure a section offers. Its values are in the figure's base unit: seconds for
// times, percent, MB for memory, plain numbers otherwise.
type Figure struct {
	// Name is the canonical name, the one verdicts print; Aliases are other accepted names.
	Name    string
	Aliases []string
	Kind    Kind
	// HigherIsBetter tells which way a change is a regression.
	HigherIsBetter bool
	// Summary titles the figure's row in the HTML summary; "" for none.
	Summary string
	// Unit is shown after a gate's values, with its leading space ("" for a percent or time).
	Unit string
	// Needs says what a run needs to measure the figure, such as "--db".
	Needs  string
	Column Column
	// Table puts the figure in the comparison's table whenever a result compared measured it.
	Table bool
	// Counted marks a figure whose unit depends on what measured it (see Counter): results
	// that count different things are not compared on it.
	Counted bool
}

// Run is what a section's figures may take from the run around it.
type Run struct {
	// Transactions are the run's transactions, for figures per transaction.
	Transactions int64
	// ElapsedTime is the run's length in seconds.
	ElapsedTime float64
}

// Line is one line of a section's block in the text report: the label is aligned with the
// report's other labels, the value follows it as written. A line without a label continues the
// block, such as a table's row: its value is written alone.
type Line struct {
	Label, Value string
}

// Section is an optional part of a result, such as what the databases or the server did during
// the run.
type Section interface {
	// Value reads one of the section's figures by its canonical name; ok is false when this
	// result did not measure it.
	Value(figure string, run Run) (v float64, ok bool)
	// Lines are the section's block of the text report, in order.
	Lines(run Run) []Line
}

// Counter is a section whose Counted figures count what its source measured: "statements" or
// "transactions", with the counters they came from; "" when it measured none.
type Counter interface {
	Counts() (unit, sources string)
}
