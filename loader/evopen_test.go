//go:build linux

package loader

import (
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webload/webload/urls"
)

// TestArrivalsShareTheSchedule: the loops of a shard take every arrival the shard owns, each
// once, with the target the one schedule gives it, and count as unsent, together, what the
// shard had left when the run stopped.
func TestArrivalsShareTheSchedule(t *testing.T) {
	t.Parallel()
	var targets []urls.Target
	for i := range 7 {
		tg, err := urls.ParseLine(fmt.Sprintf("http://127.0.0.1:1/p%d", i), urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tg)
	}
	for _, tc := range []struct{ loops, shard, shards, total int }{
		{1, 0, 1, 50}, {2, 0, 1, 50}, {3, 0, 1, 50}, {2, 1, 3, 50}, {3, 2, 4, 61}, {5, 0, 2, 3},
	} {
		t.Run(fmt.Sprintf("%d loops, shard %d of %d", tc.loops, tc.shard, tc.shards), func(t *testing.T) {
			cfg := Config{Rate: 100, MaxUsers: 10, Reps: tc.total, Shard: tc.shard, Shards: tc.shards, Random: true, Seed: 7,
				Timeout: time.Second}
			l, err := New(cfg, targets)
			if err != nil {
				t.Fatal(err)
			}
			// The schedule as runOpen walks it.
			want := map[int64]int{}
			p := openPicker(&l.cfg, len(targets), l.mix)
			for i := range int64(tc.total) {
				if ti := p.Next(); l.cfg.ownsRequest(i) {
					want[i] = ti
				}
			}
			got := map[int64]int{}
			var ids atomic.Int32
			for k := range tc.loops {
				w, ok := l.newLoopWire(lookupIPv4)
				if !ok {
					t.Fatal("no wire")
				}
				a := newArrivals(l, w, k, tc.loops, &ids)
				for a.seek() {
					if _, seen := got[a.i]; seen {
						t.Fatalf("arrival %d taken twice", a.i)
					}
					got[a.i] = a.picker.Next()
					a.i++
					a.o++
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("arrivals taken %v, want %v", got, want)
			}
			// Unsent: whatever the shard had taken (its first m arrivals) when the run stopped
			// before arrival end, the loops' counts add up to the rest.
			owned := ownedBefore(&l.cfg, int64(tc.total))
			for m := range owned + 1 {
				for end := m; end <= owned; end++ {
					var sum int64
					for k := range tc.loops {
						a := &arrivals{k: int64(k), n: int64(tc.loops)}
						sum += max(0, a.mine(end)-a.mine(m))
					}
					if sum != end-m {
						t.Fatalf("taken %d, stopped at %d: %d unsent, want %d", m, end, sum, end-m)
					}
				}
			}
		})
	}
}

// TestOpenLoopIdleConnectionClosed: a server closes a kept-alive connection while its user
// waits for the next arrival. The next request finds it closed and goes again on a new one:
// resent, on either engine, and no failure.
func TestOpenLoopIdleConnectionClosed(t *testing.T) {
	t.Parallel()
	srv := newRawServer(t, func(c net.Conn, _ *http.Request, _ int) bool {
		writeOK(c)
		return false // closed at once, 250 ms before the next arrival
	})
	tg, err := urls.ParseLine(srv.url("/a"), urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Rate: 4, MaxUsers: 1, Reps: 3, Timeout: 10 * time.Second}
	loopRes, _, _ := runOpenBothEngines(t, cfg, []urls.Target{tg})
	resent := 0
	for _, r := range loopRes {
		if r.Resent {
			resent++
		}
	}
	if len(loopRes) != 3 || resent != 2 {
		t.Errorf("%d results, %d resent; want 3, the last 2 resent", len(loopRes), resent)
	}
}

// TestOpenLoopSeveralAddresses: arrivals for two servers, one user between them, its
// connection closed and opened again at each switch; the results are the goroutine engine's,
// whose pool keeps a connection to each.
func TestOpenLoopSeveralAddresses(t *testing.T) {
	t.Parallel()
	var targets []urls.Target
	for range 2 {
		srv := newRawServer(t, func(c net.Conn, _ *http.Request, _ int) bool { return writeOK(c) })
		tg, err := urls.ParseLine(srv.url("/a"), urls.Options{})
		if err != nil {
			t.Fatal(err)
		}
		targets = append(targets, tg)
	}
	for _, users := range []int{1, 3} {
		cfg := Config{Rate: 500, MaxUsers: users, Reps: 10, Timeout: 10 * time.Second}
		loopRes, loopOut, _ := runOpenBothEngines(t, cfg, targets)
		if loopOut.Users > users || len(loopRes) != 10 {
			t.Errorf("%d users: %d results from %d users on the loop", users, len(loopRes), loopOut.Users)
		}
	}
}

// TestOpenLoopWithoutPwait2: where epoll_pwait2 is missing or refused, the loop waits in
// milliseconds, and the run's results are the same.
func TestOpenLoopWithoutPwait2(t *testing.T) {
	t.Parallel()
	srv := newRawServer(t, func(c net.Conn, _ *http.Request, _ int) bool { return writeOK(c) })
	tg, err := urls.ParseLine(srv.url("/a"), urls.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Rate: 200, MaxUsers: 2, Reps: 10, Timeout: 10 * time.Second, noPwait2: true}
	loopRes, loopOut, _ := runOpenBothEngines(t, cfg, []urls.Target{tg})
	if len(loopRes) != 10 || loopOut.Unsent != 0 {
		t.Errorf("%d results, %d unsent; want 10, 0", len(loopRes), loopOut.Unsent)
	}
}
