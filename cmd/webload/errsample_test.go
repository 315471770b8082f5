package main

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A response whose headers do not parse is reported by the class of its fault: the Set-Cookie
// value it carried appears in no output, not the text report, the JSON (error_samples) or the
// HTML report, nor the error of -g.
func TestBrokenHeadersQuoteNoCookie(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	const reply = "HTTP/1.1 200 OK\r\nSet-Cookie: session=SECRET-c00kie\r\nBroken header SECRET-line\r\nContent-Length: 2\r\n\r\nok"
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // the test is over
			}
			go func() {
				defer c.Close()
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				r := bufio.NewReader(c)
				for line := ""; line != "\r\n"; {
					if line, err = r.ReadString('\n'); err != nil {
						return
					}
				}
				_, _ = c.Write([]byte(reply))
			}()
		}
	}()
	dir := t.TempDir()
	out, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	target := "http://" + ln.Addr().String() + "/"
	stdout, stderr, _ := webload(t, nil, "-v", "-c", "2", "-r", "2", "-o", out, "--html", html, target)
	jsonOut, jsonErr, _ := webload(t, nil, "-j", "-c", "1", "-r", "2", target)
	getOut, getErr, _ := webload(t, nil, "-g", target)
	everything := stdout + stderr + jsonOut + jsonErr + getOut + getErr
	for _, f := range []string{out, html} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		everything += string(data)
	}
	if !strings.Contains(jsonOut, "malformed header line") {
		t.Errorf("the JSON should describe the fault:\n%s", jsonOut)
	}
	if strings.Contains(everything, "SECRET") {
		i := strings.Index(everything, "SECRET")
		t.Errorf("response bytes appear in an output: %q", everything[max(0, i-80):min(len(everything), i+40)])
	}
}
