#!/usr/bin/env bash
# many-users.sh: webload's peak resident memory (RSS) with many requests in flight at once.
# A loopback server (internal/holdsite) accepts every connection and never answers, so every
# request webload sends stays in flight until the run stops. Measures with /usr/bin/time -v:
#   - the closed model with USERS users (-c USERS), each waiting for an answer;
#   - the open model starting INFLIGHT requests (--rate RATE, --max-users INFLIGHT), all of
#     them in flight by the end;
#   - both again with --bare, which on Linux takes the event loop.
# Each run stops after SECS seconds (-t) and its requests time out just after (--timeout), so
# webload's summary counts them as failed timeouts, which here is as it should be. The
# site listens on 4 ports: one client address opens at most about 28 000 connections to one
# port. INFLIGHT connections need as many open files in each of client and site: the script
# raises the soft limit to the hard one, and says so when the hard one is lower (where the
# system allows no more, give a lower INFLIGHT and read the bytes per request in flight, or run
# scripts/many-users-vm.sh, which runs the open model's case in a guest with limits of its own).
# Each case gets a site of its own, started empty: the site holds the connections a finished
# run closed (it reads nothing, so it never sees them go), and a site kept from an earlier case
# would run out of open files and leave requests waiting to connect, which hold less memory
# than requests waiting for an answer. The "accepted" column says how many connections it took.
#
#   scripts/many-users.sh [USERS] [INFLIGHT] [RATE] [SECS]    default: 10000 100000 25000 12
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-10000} inflight=${2:-100000} rate=${3:-25000} secs=${4:-12}
files=$((inflight + 1000))
if [ "$(ulimit -Hn)" -lt "$files" ]; then
  ulimit -Hn "$files" 2>/dev/null || echo "open-files limit $(ulimit -Hn) < $files: the open model will not reach $inflight in flight" >&2
fi
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d)
go build -o "$work/webload" ./cmd/webload
go build -o "$work/holdsite" ./internal/holdsite/serve
ports="18531 18532 18533 18534"
addrs=() urls=()
for p in $ports; do addrs+=("127.0.0.1:$p"); urls+=("http://127.0.0.1:$p/"); done
site=
trap 'if [ -n "$site" ]; then kill "$site" 2>/dev/null; fi; wait 2>/dev/null; rm -rf "$work"' EXIT
printf '%s\n' "${urls[@]}" >"$work/urls.txt"

# peak NAME CMD...: runs CMD (bounded) against a site of its own, prints a row with its peak
# RSS, what it reported and how many connections the site accepted.
peak() {
  local name=$1
  shift
  "$work/holdsite" -for $((3 * secs + 120))s "${addrs[@]}" >"$work/site" 2>&1 &
  site=$!
  sleep 0.5
  timeout $((3 * secs + 60)) /usr/bin/time -v "$@" >"$work/out" 2>"$work/time" || true
  kill "$site" 2>/dev/null
  wait "$site" 2>/dev/null || true
  site=
  local kib requests accepted
  kib=$(awk '/Maximum resident set size/ {print $6}' "$work/time")
  requests=$(awk -F'\t+' '/^Requests:/ {print $2}' "$work/out" | sed 's/^ *//')
  accepted=$(awk '/^accepted/ {print $2}' "$work/site")
  printf '%-34s %8d %10d %9s   %s\n' "$name" $((kib / 1024)) $((kib * 1024 / n)) "${accepted:-?}" "$requests"
}

printf '%-34s %8s %10s %9s   %s\n' "case" "peak MiB" "bytes/each" "accepted" "requests (webload's summary)"
n=$users peak "closed, -c $users" \
  "$work/webload" -c "$users" -t "${secs}S" --timeout "$((secs + 3))" -f "$work/urls.txt"
n=$inflight peak "open, $inflight in flight" \
  "$work/webload" --rate "$rate" -r "$inflight" --max-users "$inflight" -t "${secs}S" --timeout "$((secs + 3))" -f "$work/urls.txt"
# --bare on Linux: the event loop (the closed model's on one port, as it keeps one connection a user).
n=$users peak "closed, -c $users, --bare, one port" \
  "$work/webload" --bare -c "$users" -t "${secs}S" --timeout "$((secs + 3))" "${urls[0]}"
n=$inflight peak "open, $inflight in flight, --bare" \
  "$work/webload" --bare --rate "$rate" -r "$inflight" --max-users "$inflight" -t "${secs}S" --timeout "$((secs + 3))" -f "$work/urls.txt"
