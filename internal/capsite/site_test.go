package capsite

import (
	"errors"
	"net/http"
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

// With a queue of 1 and one worker busy for long, a third request at once finds the queue full.
func TestFullQueueAnswers503(t *testing.T) {
	t.Parallel()
	site, err := Start(Config{Workers: 1, Service: 300 * time.Millisecond, Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	statuses, _ := get(t, site.URL(), 3)
	refused := 0
	for _, s := range statuses {
		if s == http.StatusServiceUnavailable {
			refused++
		}
	}
	if refused == 0 || site.Refused() != int64(refused) || site.Served()+site.Refused() != 3 {
		t.Errorf("statuses %v, served %d, refused %d: want a 503 among 3 requests at once", statuses, site.Served(), site.Refused())
	}
}
