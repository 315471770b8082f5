package run

import (
	"strings"
	"testing"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// TestBannerNamesTheHosts: the banner says where the load goes, so a list pointed at the
// wrong stack shows before the run, not in the server's logs afterwards.
func TestBannerNamesTheHosts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		urls []string
		want string
	}{
		{"one host", []string{"http://127.0.0.1:8101/wiki/A", "http://127.0.0.1:8101/wiki/B?x=1"},
			"** 20 users, 10 requests each, over 2 URLs on http://127.0.0.1:8101\n"},
		{"two hosts, in the list's order", []string{"https://b.example/", "http://a.example:8080/x", "https://b.example/y"},
			"** 20 users, 10 requests each, over 3 URLs on https://b.example and http://a.example:8080\n"},
		{"many hosts", []string{"http://a/", "http://b/", "http://c/", "http://d/", "http://e/"},
			"** 20 users, 10 requests each, over 5 URLs on http://a, http://b, http://c and 2 more hosts\n"},
		{"no password shown", []string{"http://bob:secret@127.0.0.1:8101/"},
			"** 20 users, 10 requests each, over 1 URL on http://127.0.0.1:8101\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := Spec{Config: loader.Config{Users: 20, Reps: 10}}
			for _, u := range tt.urls {
				s.Targets = append(s.Targets, urls.Target{Method: "GET", URL: u})
			}
			got := banner(&s)
			if !strings.Contains(got, tt.want) {
				t.Errorf("banner:\n%s\nwant the line %q", got, tt.want)
			}
		})
	}
}
