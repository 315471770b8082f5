#!/usr/bin/env bash
# ci-gates.sh: proves that .ci/run fails when a test, a benchmark or a fuzz target fails, or when
# a fuzz target it lists is gone. It copies the repository's files (committed or not, as git
# lists them) to a scratch folder, checks that the copy passes, then adds one deliberately
# failing test at a time and checks that the step exits non-zero. The copy keeps the packages
# but none of their other tests (only the Kubernetes example's, which take a second), so a run
# takes under a minute: what is under test is the script, not the suite.
#
#   scripts/ci-gates.sh        prints one line per gate and exits 1 if any gate is open
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/repo
mkdir "$copy"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  if [ -e "$f" ]; then
    printf '%s\0' "$f"
  fi
done | tar --null -T - -cf - | tar -xf - -C "$copy"
find "$copy" -name '*_test.go' -not -path "$copy/examples/*" -delete
git -C "$copy" init -q
git -C "$copy" add -A

failures=0
# gate NAME WANT STEP: runs `.ci/run STEP` in the copy and checks its exit (pass or fail).
gate() {
  local name=$1 want=$2 step=$3 code=0
  (cd "$copy" && CI=true .ci/run "$step") >"$work/out" 2>&1 || code=$?
  if { [ "$want" = pass ] && [ "$code" -eq 0 ]; } || { [ "$want" = fail ] && [ "$code" -ne 0 ]; }; then
    echo "ok    $name: .ci/run $step exited $code"
  else
    echo "FAIL  $name: .ci/run $step exited $code, want $want; its output:"
    tail -20 "$work/out"
    failures=$((failures + 1))
  fi
}
# add FILE CONTENT: writes a Go test file into the copy; unadd FILE removes it.
add() { printf '%s\n' "$2" >"$copy/$1"; }
unadd() { rm -f "$copy/$1"; }

gate "the copy without failing tests" pass test

add stats/gate_test.go 'package stats

import "testing"

func TestGateFails(t *testing.T) { t.Fatal("deliberate failure") }'
gate "a failing test in the main module" fail test
unadd stats/gate_test.go

add examples/kubernetes/gate_test.go 'package kubernetes

import "testing"

func TestGateFails(t *testing.T) { t.Fatal("deliberate failure") }'
gate "a failing test in examples/kubernetes" fail test
unadd examples/kubernetes/gate_test.go

# The raw step runs the packages that send requests without the race detector: a test that
# fails only there (raw sockets are Linux's without the detector) fails it.
gate "the raw step without failing tests" pass raw
add loader/gate_test.go '//go:build !race

package loader

import "testing"

func TestGateFails(t *testing.T) { t.Fatal("deliberate failure") }'
gate "a failing test outside the race detector" fail raw
gate "the same test under the race detector" pass test
unadd loader/gate_test.go

# The cross step vets every system: a file only Unix compiles, without a build tag, fails it.
gate "the copy on every system" pass cross
add stats/gate_syscall.go 'package stats

import "syscall"

var _ = syscall.Mkfifo'
gate "a file that Windows cannot compile" fail cross
unadd stats/gate_syscall.go

# The maths step finds its tests by their call of testtier.Maths: one that passes passes the
# step, one that fails fails it, and none at all fails it too (it would test nothing).
gate "no maths test at all" fail maths
add stats/gate_test.go 'package stats

import (
	"testing"

	"github.com/webload/webload/internal/testtier"
)

func TestGateMaths(t *testing.T) { testtier.Maths(t) }'
gate "a passing maths test" pass maths
add stats/gate_test.go 'package stats

import (
	"testing"

	"github.com/webload/webload/internal/testtier"
)

func TestGateMaths(t *testing.T) {
	testtier.Maths(t)
	t.Fatal("deliberate failure")
}'
gate "a failing maths test" fail maths
unadd stats/gate_test.go

add stats/gate_test.go 'package stats

import "testing"

func BenchmarkGateFails(b *testing.B) { b.Fatal("deliberate failure") }'
gate "a failing benchmark" fail bench
if ! grep -q "deliberate failure" "$work/out"; then
  echo "FAIL  a failing benchmark: its message was not shown"
  failures=$((failures + 1))
fi
unadd stats/gate_test.go

# The copy has no fuzz targets: a target the fuzz step lists that is gone must fail it, or it
# would fuzz nothing and pass.
gate "a fuzz target that is gone" fail fuzz

add urls/fuzz_test.go 'package urls

import "testing"

func FuzzParse(f *testing.F) {
	f.Add("ok")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 3 {
			t.Fatal("deliberate failure")
		}
	})
}'
gate "a fuzz input that fails" fail fuzz
if ! grep -q "deliberate failure" "$work/out"; then
  echo "FAIL  a fuzz input that fails: its message was not shown"
  failures=$((failures + 1))
fi
unadd urls/fuzz_test.go

exit $((failures > 0))
