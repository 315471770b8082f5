#!/usr/bin/env bash
# soak.sh: does webload stay flat over a long run? Serves the sample shop on 127.0.0.1, loads it
# at a fixed rate for a while, and every 10 s samples webload's resident memory (RSS) and its
# number of goroutines (from --pprof). Prints one line per sample and a summary at the end.
#
#   scripts/soak.sh [RATE] [DURATION]        defaults: 1000 10M (requests/s, siege-style time)
set -euo pipefail
RATE=${1:-1000}; DURATION=${2:-10M}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
go build -o "$work/webload" ./cmd/webload
shop_port=18391; pprof_port=18392

"$work/webload" demo --serve --addr "127.0.0.1:$shop_port" --slowdown 0.1 2>/dev/null &
shop=$!
trap 'kill "$shop" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$shop_port/" && break; sleep 0.1; done

SITE="http://127.0.0.1:$shop_port" "$work/webload" -q -i --rate "$RATE" -t "$DURATION" \
  -f examples/shop-urls.txt --pprof "127.0.0.1:$pprof_port" -o "$work/result.json" &
load=$!
sleep 2
printf '%8s %10s %11s\n' "elapsed" "RSS (MB)" "goroutines"
start=$(date +%s)
while kill -0 "$load" 2>/dev/null; do
  rss=$(awk '/^VmRSS:/ {printf "%.1f", $2/1024}' "/proc/$load/status" 2>/dev/null || echo -)
  gor=$(curl -s "http://127.0.0.1:$pprof_port/debug/pprof/goroutine?debug=1" | awk 'NR==1 {print $NF}')
  [ -n "$gor" ] && printf '%7ss %10s %11s\n' "$(( $(date +%s) - start ))" "$rss" "$gor" | tee -a "$work/samples"
  sleep 10
done
wait "$load" || echo "webload exited with $?"
jq -r '"requests \(.requests), failed \(.failed_transactions), rate \(.transaction_rate|floor)/s, p99 \(.percentiles.p99*1000) ms"' "$work/result.json"
awk '{ r=$2; g=$3; if (NR==1 || r<rmin) rmin=r; if (r>rmax) rmax=r; if (NR==1 || g<gmin) gmin=g; if (g>gmax) gmax=g }
     END { printf "RSS %.1f-%.1f MB, goroutines %d-%d over %d samples\n", rmin, rmax, gmin, gmax, NR }' "$work/samples"
