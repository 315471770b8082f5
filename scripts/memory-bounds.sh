#!/usr/bin/env bash
# memory-bounds.sh: webload's peak resident memory (RSS) where the docs state a bound. Serves
# distinct pages of about 30 KB on 127.0.0.1 (internal/pagesite), then measures with
# /usr/bin/time -v:
#   - content fingerprints over PAGES distinct pages, each fetched once (-r once), saved with -o;
#   - a 1 000 000-URL list: its start, up to the first answer (the high-water mark then, read
#     from /proc), and a short run of 1 000 requests saved with -o.
# Prints one row per case: peak RSS in MiB and the bound the docs state. A few minutes on 2
# cores, most of it the 100 000 pages.
#
#   scripts/memory-bounds.sh [PAGES...]        default: 10000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 10000 100000
work=$(mktemp -d)
go build -o "$work/webload" ./cmd/webload
go build -o "$work/pagesite" ./internal/pagesite/serve
port=18521
"$work/pagesite" "127.0.0.1:$port" &
site=$!
trap 'kill "$site" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/p/0" && break; sleep 0.05; done

# list N: a file of N distinct page URLs.
list() { seq 0 $(($1 - 1)) | sed "s|^|http://127.0.0.1:$port/p/|" >"$work/urls-$1.txt"; }

# peak CMD...: runs CMD (bounded to 10 minutes) and prints its peak RSS in MiB.
peak() {
  if ! timeout 600 /usr/bin/time -v "$@" >/dev/null 2>"$work/time"; then
    echo "failed: $*" >&2
    tail -5 "$work/time" >&2
    return 1
  fi
  awk '/Maximum resident set size/ {printf "%d", $6/1024}' "$work/time"
}

# start N: starts webload over the N-URL list, waits for its first answer (-v prints a line per
# request), prints its peak RSS so far in MiB and the seconds it took, then stops it (Ctrl-C;
# it would stop by itself after 2 minutes).
start() {
  local t0 pid hwm=""
  t0=$(date +%s%N)
  "$work/webload" -v -c 1 -t 120s -d 0.5 --no-parser -f "$work/urls-$1.txt" >"$work/start.out" 2>/dev/null &
  pid=$!
  for _ in $(seq 6000); do
    if [ -s "$work/start.out" ]; then
      hwm=$(awk '/^VmHWM:/ {printf "%d", $2/1024}' "/proc/$pid/status")
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  local secs=$(( ($(date +%s%N) - t0) / 10000000 ))
  kill -INT "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -n "$hwm" ] || { echo "webload gave no answer over the $1-URL list" >&2; return 1; }
  printf '%s %d.%02d\n' "$hwm" $((secs / 100)) $((secs % 100))
}

rows=()
row() { rows+=("$(printf '%-44s %8s   %s' "$1" "$2" "$3")"); }

for n in "$@"; do
  list "$n"
  rss=$(peak "$work/webload" -q -b -c 20 -r once --no-parser -f "$work/urls-$n.txt" -o "$work/pages.json")
  row "fingerprints, $n distinct 30 KB pages, -o" "$rss" "learners keep at most 256 MiB; see docs/checks-and-content.md"
done

list 1000000
read -r rss secs < <(start 1000000)
row "1 000 000 URLs, start (first answer ${secs}s)" "$rss" "under 500 MB, about 4 s"
rss=$(peak "$work/webload" -q -b -c 10 -r 100 --no-parser -f "$work/urls-1000000.txt" -o "$work/long.json")
row "1 000 000 URLs, 1 000 requests, -o" "$rss" "see docs/misbehaving-servers.md"

printf '%-44s %8s   %s\n' "case" "peak MiB" "stated bound"
printf '%s\n' "${rows[@]}"
