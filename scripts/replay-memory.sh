#!/usr/bin/env bash
# replay-memory.sh: webload replay's peak resident memory (RSS) against the length of the log.
# Generates combined-format logs of N lines (100 requests a logged second, over 1 000 distinct
# URLs and 5 000 visitors, so the per-URL figures are the same at every length), serves a tiny
# page on 127.0.0.1, and replays each log at --speed 1000 (as fast as the machine goes) with
# /usr/bin/time -v. Prints one row per log: lines, peak RSS in MiB, seconds, requests sent and
# the dispatcher's lateness p99 and max.
#
#   scripts/replay-memory.sh [LINES...]        default: 10000 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 10000 1000000
work=$(mktemp -d)
go build -o "$work/webload" ./cmd/webload
cat >"$work/site.go" <<'GO'
package main

import (
	"net/http"
	"os"
)

func main() {
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	if err := http.ListenAndServe(os.Args[1], nil); err != nil {
		panic(err)
	}
}
GO
(cd "$work" && go build -o site site.go)
port=18531
"$work/site" "127.0.0.1:$port" &
site=$!
trap 'kill "$site" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.05; done

# log N: N combined-format lines, 100 per second from 10/Oct/2026:00:00:00 +0000.
log() {
  awk -v n="$1" 'BEGIN {
    split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon, " ")
    for (i = 0; i < n; i++) {
      s = int(i / 100); d = 10 + int(s / 86400); h = int(s % 86400 / 3600); m = int(s % 3600 / 60); sec = s % 60
      printf "10.0.%d.%d - - [%02d/Oct/2026:%02d:%02d:%02d +0000] \"GET /p/%d?q=%d HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 (%d)\"\n", \
        int(i % 5000 / 250), i % 250, d, h, m, sec, i % 1000, i % 7, i % 3
    }
  }' >"$work/access-$1.log"
}

printf '%10s %10s %8s %10s %14s %14s\n' lines peak_MiB seconds sent lateness_p99 lateness_max
for n in "$@"; do
  log "$n"
  t0=$(date +%s%N)
  if ! timeout 900 /usr/bin/time -v "$work/webload" replay -q "$work/access-$n.log" --site "http://127.0.0.1:$port" \
    --speed 1000 --max-users 50 -o "$work/result-$n.json" 2>"$work/time-$n"; then
    echo "failed on $n lines:" >&2
    tail -5 "$work/time-$n" >&2
    exit 1
  fi
  secs=$(( ($(date +%s%N) - t0) / 10000000 ))
  rss=$(awk '/Maximum resident set size/ {printf "%d", $6/1024}' "$work/time-$n")
  read -r sent p99 max < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["replay"]; print(r["sent"], "%.1fms" % (r["lateness_p99"]*1000), "%.1fms" % (r["lateness_max"]*1000))' "$work/result-$n.json")
  printf '%10s %10s %5d.%02d %10s %14s %14s\n' "$n" "$rss" $((secs / 100)) $((secs % 100)) "$sent" "$p99" "$max"
done
