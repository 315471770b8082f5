package urls

import (
	"strings"
	"testing"
)

func TestSiteVariableWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		env        map[string]string
		want       []string // fragments, one per warning, in order
	}{
		{"absolute URLs while SITE is set", "#@weight 3\nhttp://127.0.0.1:8101/wiki/A\nhttp://127.0.0.1:8101/wiki/B POST a=1\n",
			map[string]string{"SITE": "http://127.0.0.1:8102"},
			[]string{"SITE is set (http://127.0.0.1:8102) but urls.txt never uses $(SITE): its URLs go to http://127.0.0.1:8101 as written"}},
		{"host without scheme", "127.0.0.1:8101/a\n", map[string]string{"BASE_URL": "https://staging.example"},
			[]string{"BASE_URL is set (https://staging.example) but urls.txt never uses $(BASE_URL): its URLs go to 127.0.0.1:8101 as written"}},
		{"two variables", "http://a.example/\n", map[string]string{"TARGET": "http://b.example", "SITE": "http://c.example"},
			[]string{"SITE is set", "TARGET is set"}},
		{"the list uses $(SITE)", "$(SITE)/a\n$(SITE)/b\n", map[string]string{"SITE": "http://x"}, nil},
		{"the list uses ${SITE} and $SITE", "${SITE}/a\n$SITE/b\n", map[string]string{"SITE": "http://x"}, nil},
		{"the list defines SITE itself", "SITE=http://127.0.0.1:8101\n$(SITE)/a\n", map[string]string{"SITE": "http://127.0.0.1:8102"},
			[]string{"SITE is set (http://127.0.0.1:8102) but urls.txt:1 defines SITE, which wins over the environment"}},
		{"the same value in the file", "SITE=http://x # the default\n$(SITE)/a\n", map[string]string{"SITE": "http://x"}, nil},
		{"hosts from another variable", "$(HOST)/a\nhttp://$(HOST)/b\n", map[string]string{"HOST": "http://h", "SITE": "http://x"}, nil},
		{"not a URL: a machine name", "http://a.example/\n", map[string]string{"HOST": "laptop"}, nil},
		{"not a site variable", "http://a.example/\n", map[string]string{"HTTP_PROXY": "http://proxy:3128", "GITHUB_SERVER_URL": "https://github.com"}, nil},
		{"nothing set", "http://a.example/\n", nil, nil},
		{"comments are not uses", "# use $(SITE) here\nhttp://a.example/\n", map[string]string{"SITE": "http://x"}, []string{"SITE is set"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			getenv := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			got := SiteVariableWarnings(strings.NewReader(tt.file), "urls.txt", getenv)
			if len(got) != len(tt.want) {
				t.Fatalf("warnings %q, want %d like %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d is %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}
