#!/usr/bin/env bash
# busy-tests.sh: does the suite hold on a busy machine? Runs a test command RUNS times while a
# busy loop spins on every core, and prints each run's outcome, time and failing tests, then
# a tally. The default command is the README's test command; anything after -- replaces it.
# Each run's whole output is kept in a folder named at the end.
#
#   scripts/busy-tests.sh [RUNS] [-- COMMAND...]     default: 10 runs of the README's command
#   scripts/busy-tests.sh 20 -- go test -count=1 -run TestMySQLCounters ./dbload/
set -uo pipefail
RUNS=10
if [ $# -gt 0 ] && [ "$1" != "--" ]; then RUNS=$1; shift; fi
[ "${1:-}" = "--" ] && shift
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- scripts/test.sh all -count=1
fi

logs=$(mktemp -d)
busy=()
for _ in $(seq "$(nproc)"); do
  (while :; do :; done) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
echo "busy loops on $(nproc) cores: ${busy[*]}; command: $*"

passed=0
declare -A failures
for i in $(seq "$RUNS"); do
  start=$(date +%s)
  if "$@" >"$logs/run$i.log" 2>&1; then
    outcome=ok
    passed=$((passed + 1))
  else
    outcome=FAILED
  fi
  took=$(( $(date +%s) - start ))
  failed=$(grep -E '^\s*--- FAIL: ' "$logs/run$i.log" | sed -E 's/^\s*--- FAIL: ([^ ]+).*/\1/' | sort -u | tr '\n' ' ')
  printf 'run %2d: %-6s %4d s  %s\n' "$i" "$outcome" "$took" "$failed"
  for f in $failed; do failures[$f]=$(( ${failures[$f]:-0} + 1 )); done
done
echo "passed $passed of $RUNS with $(nproc) busy loops; outputs in $logs"
for f in "${!failures[@]}"; do
  printf '  %-70s failed %d time(s)\n' "$f" "${failures[$f]}"
done
[ "$passed" -eq "$RUNS" ]
