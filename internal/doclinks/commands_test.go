package doclinks

import (
	"reflect"
	"testing"
)

// TestCommands: webload commands are found in shell code blocks, with their assignments, quotes
// removed, continuation lines joined, comments dropped and each command of a line apart; other
// programs, other blocks' languages and text outside code are not commands.
func TestCommands(t *testing.T) {
	t.Parallel()
	md := "Run `webload -c 1 URL` in a span: no command.\n\n" +
		"```sh\n" +
		"webload demo --serve --addr 127.0.0.1:8080 &   # the shop\n" +
		"SITE=http://127.0.0.1:8080 webload -c 20 -r 50 --check 'status==200 && body!~\"x y\"' \\\n" +
		"  --label \"MariaDB 10.0\" -f urls.txt\n" +
		"go install ./cmd/webload   # no run of webload\n" +
		"go run ./cmd/webload demo\n" +
		"webload -j -c 2 URL | jq .percentiles\n" +
		"webload urls import --base '$(SITE)' access.log* > urls.txt 2>&1\n" +
		"parallel \"ssh {1} '$bin -c 2'\" ::: a b && webload merge shard-*.json -o total.json\n" +
		"SITE=http://127.0.0.1:$port ./webload -q\n" +
		"dir=/srv/webload bin=/usr/local/bin/webload\n" +
		"```\n\n" +
		"```ini\nwebload -c 1 not-shell\n```\n\n" +
		"```\n$ webload compare old.json new.json\n```\n"
	want := []Command{
		{Line: 4, Block: 0, Args: []string{"demo", "--serve", "--addr", "127.0.0.1:8080"}, Background: true},
		{Line: 5, Block: 0, Env: []string{"SITE=http://127.0.0.1:8080"},
			Args: []string{"-c", "20", "-r", "50", "--check", `status==200 && body!~"x y"`, "--label", "MariaDB 10.0", "-f", "urls.txt"}},
		{Line: 8, Block: 0, Args: []string{"demo"}},
		{Line: 9, Block: 0, Args: []string{"-j", "-c", "2", "URL"}, Piped: true},
		{Line: 10, Block: 0, Args: []string{"urls", "import", "--base", "$(SITE)", "access.log*"}, Stdout: "urls.txt", Expands: true},
		{Line: 11, Block: 0, Args: []string{"merge", "shard-*.json", "-o", "total.json"}, Expands: true},
		{Line: 12, Block: 0, Env: []string{"SITE=http://127.0.0.1:$port"}, Args: []string{"-q"}, Expands: true},
		{Line: 21, Block: 2, Args: []string{"compare", "old.json", "new.json"}},
	}
	got := Commands(md)
	for i := range got {
		got[i].Text = ""
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if c := Commands(md); len(c) > 1 && c[1].Text != `SITE=http://127.0.0.1:8080 webload -c 20 -r 50 --check 'status==200 && body!~"x y"'    --label "MariaDB 10.0" -f urls.txt` {
		t.Errorf("text of a continued command: %q", c[1].Text)
	}
}
