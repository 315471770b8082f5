#!/usr/bin/env bash
# page-users.sh: webload's peak resident memory (RSS) with many users reading pages of a real
# size, as the site sends them plain and compressed. A loopback site (internal/pagesite) serves
# 50 distinct HTML pages of about 30 KB, each answer with a token of its own, so that no two
# answers are alike; USERS users read them REPS times each with a run's defaults, which ask for
# gzip, deflate and br (webload -c USERS -r REPS -f urls.txt). One row for each way the site
# answers: plain, gzip, br. Measures with /usr/bin/time -v; set WEBLOAD to a built webload to
# measure it instead of this tree's, to set two releases side by side.
#
#   scripts/page-users.sh [USERS] [REPS]    default: 5000 3
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-5000} reps=${2:-3}
if [ "$(ulimit -Hn)" -lt $((users + 100)) ]; then
  echo "open-files limit $(ulimit -Hn) < $((users + 100)): give fewer users" >&2
  exit 1
fi
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
webload=${WEBLOAD:-$work/webload}
[ -n "${WEBLOAD:-}" ] || go build -o "$webload" ./cmd/webload
go build -o "$work/pagesite" ./internal/pagesite/serve
port=18541
site=
trap 'if [ -n "$site" ]; then kill "$site" 2>/dev/null; fi; wait 2>/dev/null; rm -rf "$work"' EXIT
seq 0 49 | sed "s|^|http://127.0.0.1:$port/p/|" >"$work/urls.txt"

printf '%-8s %8s %10s   %s\n' "site" "peak MiB" "bytes/user" "webload's summary"
for encoding in plain gzip br; do
  flags=()
  [ "$encoding" = plain ] || flags=(-encoding "$encoding")
  "$work/pagesite" "${flags[@]}" "127.0.0.1:$port" &
  site=$!
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/p/0" && break; sleep 0.05; done
  if ! timeout 600 /usr/bin/time -v "$webload" -c "$users" -r "$reps" -f "$work/urls.txt" >"$work/out" 2>"$work/time"; then
    echo "webload failed on the $encoding site:" >&2
    tail -5 "$work/out" "$work/time" >&2
  fi
  kill "$site" 2>/dev/null
  wait "$site" 2>/dev/null || true
  site=
  kib=$(awk '/Maximum resident set size/ {print $6}' "$work/time")
  summary=$(awk -F'\t+' '/^(Transactions|Availability):/ {sub(/^ */, "", $2); printf "%s%s", sep, $2; sep=", "}' "$work/out")
  printf '%-8s %8d %10d   %s\n' "$encoding" $((kib / 1024)) $((kib * 1024 / users)) "$summary"
done
