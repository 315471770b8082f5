package judge

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/webload/webload/stats"
)

// junitClass groups the checks' test cases in CI dashboards, apart from a project's own tests.
const junitClass = "webload.gates"

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite carries errors="0" because some consumers' schemas require the attribute; a gate
// either holds or fails, it never errors.
type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

// junitFailure repeats the message as its text, since some dashboards show only one of the two.
type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes verdicts, of gates or of limits, as JUnit XML, which CI servers show as test
// results: one testsuite named suite inside testsuites, one testcase per check named by its
// Check, and a failure, whose message is the verdict's Text, on each check that failed.
func WriteJUnit(w io.Writer, suite string, results []stats.Verdict) error {
	s := junitSuite{Name: suite, Tests: len(results)}
	for _, r := range results {
		c := junitCase{Name: r.Check, Classname: junitClass}
		if !r.Passed {
			s.Failures++
			c.Failure = &junitFailure{Message: r.Text, Text: r.Text}
		}
		s.Cases = append(s.Cases, c)
	}
	doc := junitSuites{Tests: s.Tests, Failures: s.Failures, Suites: []junitSuite{s}}
	var b strings.Builder
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	b.WriteString("\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	return nil
}
