package loader

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/webload/webload/internal/holdsite"
	"github.com/webload/webload/urls"
)

// BenchmarkManyUsersMemory is the memory each user holds while it waits for an answer, the
// figure that decides how many users a machine can run: 1 000 users (the defaults of a run:
// pages parsed, cookies, redirects; the 4 KiB header buffer 10 000 users get) against a server that never answers, the heap and stacks
// in use once every user's request is in flight, less what was in use before. It measures one
// such run whatever b.N is; bytes/user is the figure, not ns/op.
func BenchmarkManyUsersMemory(b *testing.B) {
	const users = 1000
	site, err := holdsite.Start("127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer site.Close()
	tg, err := urls.ParseLine("http://"+site.Addrs()[0]+"/", urls.Options{})
	if err != nil {
		b.Fatal(err)
	}
	l, err := New(Config{Users: users, Timeout: time.Minute, UserAgent: "bench", HeaderBuffer: 4 << 10}, []urls.Target{tg})
	if err != nil {
		b.Fatal(err)
	}
	before := inUse()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Run(ctx, &discard{})
	}()
	for i := 0; i < 3000 && site.Held() < users; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := site.Held(); got < users {
		b.Fatalf("%d of %d users' connections held after 30 s", got, users)
	}
	time.Sleep(100 * time.Millisecond) // the last requests written after their connections
	after := inUse()
	cancel()
	site.Close() // the held requests fail at once, and the run ends
	<-done
	b.ReportMetric(float64(after-before)/users, "bytes/user")
}

// inUse is the heap and goroutine stacks in use after a collection.
func inUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}
