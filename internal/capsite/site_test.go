package capsite

import (
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestStartRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]Config{
		"no workers":     {Service: time.Millisecond},
		"no time":        {Workers: 1},
		"negative time":  {Workers: 1, Service: -time.Millisecond},
		"negative queue": {Workers: 1, Service: time.Millisecond, Queue: -1},
		"negative fail":  {Workers: 1, Service: time.Millisecond, FailAfter: -1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := Start(cfg); !errors.Is(err, ErrBadConfig) {
				t.Fatalf("Start(%+v) = %v, want ErrBadConfig", cfg, err)
			}
		})
	}
}

func TestCapacity(t *testing.T) {
	t.Parallel()
	if got := (Config{Workers: 8, Service: 20 * time.Millisecond}).Capacity(); got != 400 {
		t.Fatalf("capacity of 8 workers of 20 ms = %v, want 400", got)
	}
}

// get sends n requests at once and returns their statuses and how long all took.
func get(t *testing.T, url string, n int) ([]int, time.Duration) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			resp, err := client.Get(url)
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			statuses[i] = resp.StatusCode
			resp.Body.Close()
		})
	}
	wg.Wait()
	return statuses, time.Since(start)
}

// The site never serves faster than its capacity: 24 requests at once through 4 workers of
// 50 ms take at least 6 rounds of service.
func TestServesNoFasterThanCapacity(t *testing.T) {
	t.Parallel()
	site, err := Start(Config{Workers: 4, Service: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	statuses, took := get(t, site.URL(), 24)
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("request %d: status %d, want 200", i, s)
		}
	}
	if min := 6 * 50 * time.Millisecond; took < min {
		t.Errorf("24 requests through 4 workers of 50 ms took %v, less than %v", took, min)
	}
	if site.Served() != 24 || site.Refused() != 0 {
		t.Errorf("served %d, refused %d; want 24 and 0", site.Served(), site.Refused())
	}
}

// With a queue of 1 and its one worker busy, a request beyond the one waiting finds the queue
// full. The site holds its requests until the 503 has come, and each request is sent once the
// site holds the ones before it, so how fast the machine sends them does not matter.
func TestFullQueueAnswers503(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	site, err := Start(Config{Workers: 1, Service: time.Millisecond, Queue: 1, Hold: hold})
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 3}}
	statuses := make([]int, 3)
	var wg sync.WaitGroup
	for i, held := range []func() bool{
		func() bool { return len(site.workers) == 1 && site.Waiting() == 0 },
		func() bool { return site.Waiting() == 1 },
		func() bool { return site.Refused() == 1 },
	} {
		wg.Go(func() {
			resp, err := client.Get(site.URL())
			if err != nil {
				t.Errorf("request %d: %v", i, err)
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
		waitUntil(t, held)
	}
	close(hold)
	wg.Wait()
	if want := []int{200, 200, 503}; !slices.Equal(statuses, want) || site.Served() != 2 || site.Refused() != 1 {
		t.Errorf("statuses %v, served %d, refused %d: want %v, 2 and 1", statuses, site.Served(), site.Refused(), want)
	}
}

// After FailAfter answers the site has fallen over: every later request is a 503.
func TestFailAfter(t *testing.T) {
	t.Parallel()
	site, err := Start(Config{Workers: 2, Service: time.Millisecond, FailAfter: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	var got []int
	for range 5 {
		resp, err := http.Get(site.URL())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got = append(got, resp.StatusCode)
	}
	if want := []int{200, 200, 200, 503, 503}; !slices.Equal(got, want) || site.Served() != 3 || site.Refused() != 2 {
		t.Errorf("statuses %v, served %d, refused %d; want %v, 3 and 2", got, site.Served(), site.Refused(), want)
	}
}

// waitUntil polls cond, a bounded number of times (30 s at least).
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for range 30000 {
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the site never got there")
}
