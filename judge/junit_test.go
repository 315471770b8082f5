package judge

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/webload/webload/gate"
	"github.com/webload/webload/internal/gatetest"
	"github.com/webload/webload/stats"
)

// junitDoc is what a JUnit consumer reads, declared apart from the writer's structs so that a
// change to those cannot make this test agree with itself.
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Suites  []struct {
		Name     *string `xml:"name,attr"`
		Tests    *string `xml:"tests,attr"`
		Failures *string `xml:"failures,attr"`
		Cases    []struct {
			Name      *string `xml:"name,attr"`
			Classname *string `xml:"classname,attr"`
			Failures  []struct {
				Message *string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestWriteJUnit(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		exprs []string
	}{
		{"mixed", []string{"p95<800ms", "availability>=99", "url:/checkout p99<2s", "url:/nope p99<2s", "failed==10"}},
		{"all pass", []string{"p95<1s", "failed<=10"}},
		{"all fail", []string{"p95<1ms", `url:/a"<&>' p99<1s`}},
		{"none", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var gates []gate.Gate
			for _, e := range c.exprs {
				g, err := gate.ParseGate(e)
				if err != nil {
					t.Fatal(err)
				}
				gates = append(gates, g)
			}
			results := gate.CheckGates(gatetest.Report(), gates)
			var buf bytes.Buffer
			if err := WriteJUnit(&buf, "webload "+c.name, results); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(buf.String(), xml.Header) {
				t.Fatalf("output does not start with the XML header:\n%s", buf.String())
			}
			names := make([]string, len(c.exprs))
			for i, e := range c.exprs {
				names[i] = strings.TrimSpace(e)
			}
			checkJUnit(t, buf.Bytes(), "webload "+c.name, names, results)
		})
	}
}

// checkJUnit reads the XML back as a consumer would: one suite, and one case per verdict named
// names[i], with a failure carrying the verdict's text when it failed.
func checkJUnit(t *testing.T, out []byte, suite string, names []string, results []stats.Verdict) {
	t.Helper()
	var doc junitDoc
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("unmarshal: %v\n%s", err, out)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("got %d testsuite elements; want 1\n%s", len(doc.Suites), out)
	}
	s := doc.Suites[0]
	failures := 0
	for _, r := range results {
		if !r.Passed {
			failures++
		}
	}
	if junitAttr(s.Name) != suite || junitAttr(s.Tests) != strconv.Itoa(len(results)) || junitAttr(s.Failures) != strconv.Itoa(failures) {
		t.Errorf("testsuite name=%q tests=%q failures=%q; want %q, %d, %d",
			junitAttr(s.Name), junitAttr(s.Tests), junitAttr(s.Failures), suite, len(results), failures)
	}
	if len(s.Cases) != len(results) {
		t.Fatalf("got %d testcases; want %d\n%s", len(s.Cases), len(results), out)
	}
	for i, tc := range s.Cases {
		r := results[i]
		if junitAttr(tc.Name) != names[i] || junitAttr(tc.Classname) != "webload.gates" {
			t.Errorf("testcase %d name=%q classname=%q; want %q, webload.gates", i, junitAttr(tc.Name), junitAttr(tc.Classname), names[i])
		}
		switch {
		case r.Passed && len(tc.Failures) != 0:
			t.Errorf("testcase %q passed but has a failure element", names[i])
		case !r.Passed && len(tc.Failures) != 1:
			t.Errorf("testcase %q failed but has %d failure elements; want 1", names[i], len(tc.Failures))
		case !r.Passed && junitAttr(tc.Failures[0].Message) != r.Text:
			t.Errorf("testcase %q failure message=%q; want %q", names[i], junitAttr(tc.Failures[0].Message), r.Text)
		}
	}
}

// junitAttr tells a missing attribute, "<absent>", from an empty one.
func junitAttr(p *string) string {
	if p == nil {
		return "<absent>"
	}
	return *p
}
