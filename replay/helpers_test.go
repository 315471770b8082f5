package replay

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// logStart is the first second of the generated logs.
var logStart = time.Date(2026, 10, 10, 13, 55, 0, 0, time.UTC)

// line is one generated request: sec seconds after logStart, by client with agent.
type line struct {
	sec          int
	client, path string
	agent        string
	method       string
	status       int
}

// combined writes l in the combined format, as nginx does by default.
func (l line) combined() string {
	method, status, agent := l.method, l.status, l.agent
	if method == "" {
		method = "GET"
	}
	if status == 0 {
		status = 200
	}
	if agent == "" {
		agent = "Mozilla/5.0"
	}
	at := logStart.Add(time.Duration(l.sec) * time.Second).Format("02/Jan/2006:15:04:05 -0700")
	return fmt.Sprintf(`%s - - [%s] "%s %s HTTP/1.1" %d 512 "-" "%s"`, l.client, at, method, l.path, status, agent)
}

// writeLog writes lines (generated ones or raw strings) to a file in dir; gz compresses it.
func writeLog(t testing.TB, dir, name string, gz bool, lines ...any) string {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		switch l := l.(type) {
		case line:
			b.WriteString(l.combined())
		case string:
			b.WriteString(l)
		}
		b.WriteByte('\n')
	}
	data := []byte(b.String())
	if gz {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(data)
		w.Close()
		data = buf.Bytes()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// drain reads a stream to its end.
func drain(t testing.TB, s *Stream) []Event {
	t.Helper()
	var out []Event
	for {
		e, ok := s.Next()
		if !ok {
			break
		}
		out = append(out, e)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// site is the --site of the tests' options.
const site = "http://127.0.0.1:9"

// opts are options for logs with a site and the default filters.
func opts(logs ...string) Options {
	return Options{Logs: logs, Filter: urls.ImportOptions{Base: site}}
}

// urlsBase is import options with a base.
func urlsBase(base string) urls.ImportOptions { return urls.ImportOptions{Base: base} }
