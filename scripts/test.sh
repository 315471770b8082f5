#!/usr/bin/env bash
# test.sh: the suite, by tier. With no tier it runs everything, as the README's test command:
#
#   scripts/test.sh [all|race|maths|raw|short] [go test flags...]
#
#   race   every package under the race detector, except the tests of pure maths
#   maths  the tests of pure maths (those that call testtier.Maths), without the detector,
#          which only slows them tenfold: they share nothing between goroutines
#   raw    the packages that send requests (loader, run, cmd/webload) without the detector:
#          on Linux their connections then read and write the socket with raw system calls,
#          which the detector cannot follow, so under it they go through net.Conn
#   short  the edit loop: go test -short, without the tests that start databases, Chromium or
#          exporters, or take more than about 2 s
#   all    race, then maths, then raw, then the Kubernetes example's own module
#
# Flags after the tier go to every go test, e.g. scripts/test.sh all -count=1.
set -euo pipefail
cd "$(dirname "$0")/.."
tier=${1:-all}
[ $# -gt 0 ] && shift

# maths_tests prints the file and name of each test that calls testtier.Maths, found in the
# source (new files included) so that a new one is never left out.
maths_tests() {
  git ls-files --cached --others --exclude-standard '*_test.go' | xargs awk '
    /^func Test[A-Za-z0-9_]*\(/ { name = $2; sub(/\(.*/, "", name) }
    /testtier\.Maths\(/ && name != "" { print FILENAME, name; name = "" }'
}

run_race() { go test -race "$@" ./...; }
run_short() { go test -short "$@" ./...; }
run_maths() {
  local found names pkgs
  found=$(maths_tests)
  if [ -z "$found" ]; then
    echo "test.sh: no test calls testtier.Maths" >&2
    return 1
  fi
  names=$(awk '{print $2}' <<<"$found" | sort -u | paste -sd'|')
  pkgs=$(awk '{n = split($1, p, "/"); d = "."; for (i = 1; i < n; i++) d = d "/" p[i]; print d "/"}' <<<"$found" | sort -u)
  # shellcheck disable=SC2086 # one argument a package
  go test -run "^($names)\$" "$@" $pkgs
}
run_raw() { go test "$@" ./loader/ ./run/ ./cmd/webload/; }
run_kubernetes() { (cd examples/kubernetes && go test "$@" ./...); }

case $tier in
  race) run_race "$@" ;;
  maths) run_maths "$@" ;;
  raw) run_raw "$@" ;;
  short) run_short "$@" ;;
  all)
    run_race "$@"
    run_maths "$@"
    run_raw "$@"
    run_kubernetes "$@"
    ;;
  *) echo "test.sh: unknown tier $tier; tiers: all race maths raw short" >&2; exit 2 ;;
esac
