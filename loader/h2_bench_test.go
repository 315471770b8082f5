package loader

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// h2cChildEnv, set in the environment of this test binary, makes it serve HTTP/1.1 and h2c
// instead of running tests: the server of BenchmarkSendClient and BenchmarkSendHTTP2Client, in a
// process of its own so that its allocations and CPU are not counted as the client's.
const h2cChildEnv = "WEBLOAD_TEST_H2C_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(h2cChildEnv) != "" {
		if err := serveH2CChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveH2CChild serves h2cServer's 100-byte answer, over HTTP/1.1 or h2c with prior knowledge
// as the client speaks, on a loopback port whose address it writes
// as one line to out, until in ends: the parent holds in open, so the child goes when the
// parent does, killed or not.
func serveH2CChild(in io.Reader, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening for h2c: %w", err)
	}
	body := make([]byte, 100)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) })}
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	go func() { _ = srv.Serve(ln) }()
	if _, err := fmt.Fprintln(out, ln.Addr()); err != nil {
		return fmt.Errorf("telling the h2c address: %w", err)
	}
	_, _ = io.Copy(io.Discard, in)
	return srv.Close()
}

// h2cChildServer starts this test binary again as an h2c server (serveH2CChild) and returns
// its base URL; the child ends with the benchmark or test.
func h2cChildServer(tb testing.TB) string {
	tb.Helper()
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), h2cChildEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = stdin.Close() // the child's own way out
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		addr <- strings.TrimSpace(line)
	}()
	select {
	case a := <-addr:
		if a == "" {
			tb.Fatal("the h2c server process told no address")
		}
		return "http://" + a
	case <-time.After(10 * time.Second):
		tb.Fatal("the h2c server process told no address within 10 s")
		return ""
	}
}

// BenchmarkSendClient is BenchmarkSend with its server in another process: the HTTP/1.1 path's
// allocations and CPU (cpu-ns/op), the client's only.
func BenchmarkSendClient(b *testing.B) { benchSendClient(b, false) }

// BenchmarkSendHTTP2Client is BenchmarkSendHTTP2 with its server in another process: the
// HTTP/2 path's allocations and CPU (cpu-ns/op), the client's only.
func BenchmarkSendHTTP2Client(b *testing.B) { benchSendClient(b, true) }

func benchSendClient(b *testing.B, http2 bool) {
	l := benchLoaderFor(b, h2cChildServer(b), http2)
	x := l.newExchange()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		if res, _ := l.send(x, 0, 0); res.Status != 200 || res.Err != ErrNone {
			b.Fatalf("result %+v", res)
		}
	}
	// The process's CPU, user and system, per request: what a request costs the client on a
	// machine that also runs the server, which wall time per request does not tell.
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkSendHTTP2ClientUsers is BenchmarkSendHTTP2Client with 20 users at once on the one
// connection, as a browser's or h2load's streams share it: where the flusher's batching of
// the requests that go out together shows, in the client's CPU per request.
func BenchmarkSendHTTP2ClientUsers(b *testing.B) {
	const users = 20
	l := benchLoaderFor(b, h2cChildServer(b), true)
	b.ReportAllocs()
	b.SetParallelism(max(1, users/runtime.GOMAXPROCS(0)))
	cpu := cpuTime(b)
	b.RunParallel(func(pb *testing.PB) {
		x := l.newExchange()
		for pb.Next() {
			if res, _ := l.send(x, 0, 0); res.Status != 200 || res.Err != ErrNone {
				b.Errorf("result %+v", res)
				return
			}
		}
	})
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
}
