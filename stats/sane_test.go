package stats

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// A result webload never writes is refused on load, with the JSON key that gives it away.
func TestSaneRefusesCorruptFigures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, fixture string
		corrupt       func(r *Report)
		key           string // "" for a result that must load
	}{
		{"untouched", "closed", func(*Report) {}, ""},
		{"untouched browser", "browser", func(*Report) {}, ""},
		{"untouched ladder", "ladder", func(*Report) {}, ""},
		// Failed checks of an earlier release: their answers in no status count.
		{"failed checks, before their statuses were kept", "checks", func(*Report) {}, ""},
		{"failed checks with their statuses", "checks", keepCheckStatuses, ""},
		{"check statuses disagree with failed checks", "checks", func(r *Report) {
			keepCheckStatuses(r)
			r.CheckStatusCodes["404"]--
		}, "check_status_codes count 7 answers"},
		{"negative check status", "checks", func(r *Report) {
			keepCheckStatuses(r)
			r.CheckStatusCodes["404"] = -8
		}, `check_status_codes["404"] is -8`},
		{"check cost", "checks", func(r *Report) { r.Checks = &CheckStats{Answers: 8, Time: 0.5, Mean: 0.0625} }, ""},
		{"negative check answers", "checks", func(r *Report) { r.Checks = &CheckStats{Answers: -8} }, "checks.answers is -8"},
		{"negative check time", "checks", func(r *Report) { r.Checks = &CheckStats{Answers: 8, Time: -1} }, "checks.time is -1"},
		{"more answers judged than requests", "checks", func(r *Report) {
			r.Checks = &CheckStats{Answers: r.Requests + 1}
		}, "checks.answers is"},
		{"negative status", "closed", func(r *Report) { r.StatusCodes["200"] = -100 }, `status_codes["200"] is -100`},
		{"negative error", "closed", func(r *Report) { r.Errors["timeout"] = -8 }, `errors["timeout"] is -8`},
		{"negative bytes", "closed", func(r *Report) { r.BodyBytes = -1 }, "body_bytes is -1"},
		{"negative transactions", "closed", func(r *Report) { r.Transactions = -24 }, "transactions is -24"},
		{"requests disagree", "closed", func(r *Report) { r.Requests++ }, "requests is 49"},
		{"successful beyond transactions", "closed", func(r *Report) { r.SuccessfulTransactions = 25 }, "successful_transactions is 25"},
		{"statuses disagree", "closed", func(r *Report) { r.StatusCodes["200"] += 5 }, "status_codes count 37"},
		{"errors disagree", "closed", func(r *Report) { r.Errors["timeout"] = 9 }, "errors count 17"},
		{"statuses overflow", "closed", func(r *Report) {
			r.StatusCodes["200"], r.StatusCodes["404"] = math.MaxInt64, math.MaxInt64
		}, "status_codes add up beyond any count"},
		{"negative URL hits", "closed", func(r *Report) { r.URLs[0].Hits = -1 }, "urls[0].hits is -1"},
		{"negative URL status", "closed", func(r *Report) { r.URLs[1].StatusCodes["404"] = -4 }, `urls[1].status_codes["404"] is -4`},
		{"URLs disagree", "closed", func(r *Report) { r.URLs[5].Failures++ }, "urls count"},
		{"negative timeline count", "closed", func(r *Report) { r.Timeline[0].Failed = -2 }, "timeline[0].failed is -2"},
		{"timeline disagrees", "closed", func(r *Report) { r.Timeline[0].Requests = 47 }, "timeline counts 47 requests"},
		{"p95 beyond the histogram", "closed", func(r *Report) { r.Percentiles.P95 = 9999 }, "percentiles.p95 is 9999 s, but histogram puts it at"},
		{"p50 below the histogram", "closed", func(r *Report) { r.Percentiles.P50 /= 2 }, "percentiles.p50"},
		{"longest beyond the histogram", "closed", func(r *Report) {
			r.LongestTransaction, r.Percentiles.Max = 9999, 9999
		}, "longest_transaction is 9999 s, but histogram ends at"},
		{"mean beyond the histogram", "closed", func(r *Report) { r.ResponseTime *= 3 }, "response_time is"},
		{"shortest below the histogram", "closed", func(r *Report) { r.ShortestTransaction = 0 }, "shortest_transaction is 0 s"},
		{"max apart from the percentiles'", "closed", func(r *Report) { r.Percentiles.Max = 0.001 }, "percentiles.max is 0.001 s"},
		{"histogram of another count", "closed", func(r *Report) { r.Histogram = r.URLs[0].Histogram }, "histogram holds"},
		{"histogram missing", "closed", func(r *Report) { r.Histogram = "" }, "histogram is missing"},
		{"service time beyond its histogram", "open", func(r *Report) { r.ServiceTime.P99 *= 10 }, "service_time.p99 is"},
		{"URL p95 beyond its histogram", "closed", func(r *Report) { r.URLs[0].P95 = 3600 }, "urls[0].p95 is 3600 s"},
		{"URL max beyond its histogram", "closed", func(r *Report) { r.URLs[0].Max = 60 }, "urls[0].max is 60 s"},
		{"URL percentiles out of order", "closed", func(r *Report) { r.URLs[0].P50 = r.URLs[0].Max }, "urls[0].p50"},
		{"times of a URL never reached", "closed", func(r *Report) {
			r.URLs[4].P95 = 1
		}, "urls[4].p95 is 1 s, beyond urls[4].max 0 s"},
		{"timeline max beyond its histogram", "closed", func(r *Report) { r.Timeline[0].Max = 1 }, "timeline[0].max is 1 s"},
		{"negative timeline time", "closed", func(r *Report) { r.Timeline[0].P50 = -1 }, "timeline[0].p50 is -1 s"},
		{"negative elapsed time", "closed", func(r *Report) { r.ElapsedTime = -1 }, "elapsed_time is -1"},
		{"a repeat's negative status", "repeat", func(r *Report) { r.Repeats[1].StatusCodes["200"] = -1 }, `repeats[1].status_codes["200"] is -1`},
		{"a step's p95", "ladder", func(r *Report) { r.Steps[2].Percentiles.P95 = 9999 }, "steps[2].percentiles.p95 is 9999 s"},
		{"URL page's negative resources", "browser", func(r *Report) {
			for i := range r.URLs {
				if r.URLs[i].Pages != nil {
					r.URLs[i].Pages.Resources = -3
					return
				}
			}
			panic("browser.json has no page")
		}, "pages.resources is -3"},
		{"untouched open", "open", func(*Report) {}, ""},
		{"pages failed beyond pages", "browser", func(r *Report) { r.Pages.Failed = r.Pages.Pages + 1 }, "pages.failed is"},
		{"page p95 beyond its histogram", "browser", func(r *Report) { r.Pages.Percentiles.P95 = 9999 }, "pages.percentiles.p95 is 9999 s"},
		{"steady state disagrees", "open", func(r *Report) { r.SteadyState.Failed++ }, "steady_state.requests is"},
		{"steady state p50 beyond its histogram", "open", func(r *Report) {
			r.SteadyState.Percentiles.P50 = r.SteadyState.Percentiles.Max
		}, "steady_state.percentiles.p50 is"},
		{"negative unsent", "open", func(r *Report) { r.Schedule.Unsent = -5 }, "schedule.unsent is -5"},
		{"lag beyond its histogram", "open", func(r *Report) { r.Schedule.LagP99, r.Schedule.LagMax = 60, 60 }, "schedule.lag_max is 60 s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := loadSaved(t, tc.fixture)
			tc.corrupt(&r)
			err := r.sane()
			switch {
			case tc.key == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.key == "":
			case err == nil:
				t.Fatalf("loaded; want an error naming %q", tc.key)
			case !errors.Is(err, ErrCorruptResult) || !strings.Contains(err.Error(), tc.key):
				t.Errorf("got %v; want ErrCorruptResult naming %q", err, tc.key)
			}
		})
	}
}

// The corrupted fixtures are refused by ReadJSON, one line naming the file and the key.
func TestReadJSONRefusesCorruptFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, want string }{
		{"negative-status.json", `status_codes["200"] is -100, a count below zero`},
		{"p95-beyond.json", "percentiles.p95 is 9999 s, but histogram puts it at 0.00696"},
		{"nan.json", `after key "response_time": invalid character 'N'`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", "corrupt", tc.file)
			_, err := ReadJSON(path)
			if err == nil {
				t.Fatal("read; want an error")
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("got %q; want one line naming %s and %q", msg, path, tc.want)
			}
		})
	}
}

// keepCheckStatuses turns the checks fixture's result into what this release writes for the same
// run: the 8 answers that failed a check (404s) in status_codes, and by status in
// check_status_codes.
func keepCheckStatuses(r *Report) {
	r.StatusCodes["404"] += 8
	r.CheckStatusCodes = map[string]int64{"404": 8}
}
