#!/usr/bin/env bash
# capacity-accuracy.sh: how close a capacity search and a ladder come to a site of known
# capacity on this machine. Runs BenchmarkCapacityAccuracy (a search of a site of 4 workers
# of 40 ms, exactly 100 req/s, with p95<100ms) and BenchmarkLadderKnee (1 to 16 users against
# the same site) RUNS times each, and prints each search's answer, the median and the range,
# then the ladder's rates per step. These figures move with the machine's own load, which is
# why they are measured here and not asserted by the tests.
#
#   scripts/capacity-accuracy.sh [RUNS]      default: 5
set -euo pipefail
RUNS=${1:-5}
cd "$(dirname "$0")/.."

out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -run '^$' -bench 'CapacityAccuracy' -benchtime 1x -count "$RUNS" ./run/ | tee "$out" | grep -E '^Benchmark' || true
go test -run '^$' -bench 'LadderKnee' -benchtime 1x -count "$RUNS" ./run/ | tee -a "$out" | grep -E '^Benchmark' || true

awk '
/^BenchmarkCapacityAccuracy/ { for (i = 1; i < NF; i++) if ($(i+1) == "req/s-found") found[n++] = $i }
/^BenchmarkLadderKnee/ {
  for (i = 1; i < NF; i++) if ($(i+1) ~ /^req\/s@/) { u = $(i+1); sub(/req\/s@/, "", u); sub(/users/, "", u); rate[u] = rate[u] " " $i; users[u] = 1 }
}
END {
  if (n == 0) { print "no capacity search finished"; exit 1 }
  # sort the answers for the median and the range
  for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (found[j] < found[i]) { t = found[i]; found[i] = found[j]; found[j] = t }
  med = (n % 2) ? found[int(n/2)] : (found[n/2-1] + found[n/2]) / 2
  printf "\ncapacity search, true capacity 100 req/s, %d runs: median %.1f req/s (%.0f %% of true), range %.1f-%.1f\n", n, med, med, found[0], found[n-1]
  printf "ladder, req/s per step (capacity 100 req/s past 4 users):\n"
  for (u = 1; u <= 64; u++) if (u in users) printf "  %2d users:%s\n", u, rate[u]
}' "$out"
