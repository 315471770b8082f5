#!/usr/bin/env bash
# k8s-e2e.sh: examples/kubernetes end to end on a real one-node cluster whose node is this
# machine (pods with hostNetwork reach its loopback). It builds a static webload and the counting
# site (scripts/countsite), has IMAGE_LOAD put the binary on the node as webload:dev (job.yaml's
# image), serves the sample shop on 127.0.0.1:PORT, copies run.sh, result.awk, job.yaml and
# configmap.yaml and changes only what this cluster and a short run need (printed as a diff):
#   configmap.yaml  SITE= the loopback site;
#   job.yaml        hostNetwork: true (no pod network: the site is on the node's loopback);
#                   -c 200 -t 5M -> -c USERS -r REPS (a run of a known number of requests).
# Then it runs the copied run.sh unchanged and checks that
# - run.sh succeeded, its merge included (which fails past --max-lateness 1s);
# - the merged result's pages equal USERS x REPS (each a request, plus its resources the first
#   time a user meets them), and its requests the shards' sum and the site's own count;
# - every shard that got no user (USERS < shards) said so in its log, and its result still merged.
# It takes a few minutes on a 2-core machine; too slow to set up for every CI run.
#
#   IMAGE_LOAD=path/to/kubernetes/image.sh scripts/k8s-e2e.sh    with KUBECONFIG set
#
# Settings (environment): IMAGE_LOAD, a command run as "IMAGE_LOAD BINARY webload:dev" (kind:
# a script running "kind load image-archive"; the one-node cluster of the shared cluster
# scripts: its kubernetes/image.sh); USERS of the whole run (8), REPS per user (25), LEAD
# seconds to the planned start (20), PORT of the site (18091), KEEP=1 keeps the files.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
users=${USERS:-8} reps=${REPS:-25} lead=${LEAD:-20} port=${PORT:-18091}
load=${IMAGE_LOAD:?set IMAGE_LOAD to a command that puts a binary on the node as an image}
started=$SECONDS

E2E_NAME=k8s-e2e
# shellcheck source=e2e-lib.sh
. "$repo/scripts/e2e-lib.sh"

work=$(mktemp -d /tmp/webload-k8s-e2e.XXXXXX)
site_pid=
cleanup() {
  local code=$?
  trap - EXIT
  stop_site
  if [ "${KEEP:-}" = 1 ]; then
    log "files kept in $work; the Job and ConfigMap too"
  else
    kubectl delete job webload --ignore-not-found --wait=false >/dev/null 2>&1 || true
    kubectl delete configmap webload-urls --ignore-not-found >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
  [ "$code" = 0 ] || log "failed (exit $code) after $((SECONDS - started)) s"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# top KEY FILE: a top-level number of webload's indented JSON.
top() { awk -v k="^  \"$1\": " '$0 ~ k { gsub(/[ ,]/, "", $2); print $2; exit }' "$2"; }

kubectl get nodes >/dev/null || die "no cluster: set KUBECONFIG"
log "building webload (static: the image has no libc) and the counting site"
mkdir -p "$work/bin" "$work/k8s"
CGO_ENABLED=0 go build -trimpath -o "$work/bin/webload" ./cmd/webload
go build -o "$work/bin/countsite" ./scripts/countsite
$load "$work/bin/webload" webload:dev

start_site "$work/bin/countsite" "$port" 30m

ex=$repo/examples/kubernetes
cp "$ex/run.sh" "$ex/result.awk" "$work/k8s/"
awk -v site="http://127.0.0.1:$port" '/^ *SITE=/ { sub(/SITE=.*/, "SITE=" site) } { print }' \
  "$ex/configmap.yaml" >"$work/k8s/configmap.yaml"
awk -v users="$users" -v reps="$reps" '
  { line = $0; ind = $0; sub(/[^ ].*/, "", ind) }
  prev == "\"-c\"" { sub(/"[0-9]+"/, "\"" users "\"", line) }
  $2 == "\"-t\"" { sub(/"-t"/, "\"-r\"", line) }
  prev == "\"-t\"" { sub(/"[^"]*"/, "\"" reps "\"", line) }
  $1 == "restartPolicy:" { print line; print ind "hostNetwork: true"; prev = $2; next }
  { print line; prev = $2 }' "$ex/job.yaml" >"$work/k8s/job.yaml"
for want in "SITE=http://127.0.0.1:$port"; do
  grep -qF -- "$want" "$work/k8s/configmap.yaml" || die "could not set $want in configmap.yaml"
done
for want in 'hostNetwork: true' '- "-r"' "- \"$reps\"" "- \"$users\""; do
  grep -qF -- "$want" "$work/k8s/job.yaml" || die "could not set '$want' in job.yaml: update this script"
done
echo "== the copies' changes for this cluster"
(cd "$work/k8s" && diff -u "$ex/job.yaml" job.yaml; diff -u "$ex/configmap.yaml" configmap.yaml) | sed -n '/^[-+@]/p' || true
shards=$(awk '/completions:/ { print $2; exit }' "$work/k8s/job.yaml")

log "run.sh: $users users x $reps requests over $shards shards, start in ${lead} s"
set +e
(cd "$work/k8s" && PATH="$work/bin:$PATH" OUT="$work/results" TIMEOUT=300 timeout $((lead + 420)) ./run.sh "$lead") 2>&1 | tee "$work/run.log"
rc=${PIPESTATUS[0]}
set -e

kill -TERM "$site_pid"
wait "$site_pid" || die "the site failed: $(cat "$work/site.log")"
site_pid=
served=$(awk '/^served [0-9]+ requests$/ { print $2 }' "$work/site.log")
[ "$rc" = 0 ] || die "run.sh failed (exit $rc)"

merged=$(top requests "$work/results/total.json")
pages=$(awk '/^  "pages": [{]/ { in_pages = 1 } in_pages && /^    "pages": / { gsub(/[ ,]/, "", $2); print $2; exit }' "$work/results/total.json")
parts=()
sum=0
for ((i = 0; i < shards; i++)); do
  n=$(top requests "$work/results/shard-$i.json")
  parts+=("$n")
  sum=$((sum + n))
done
late=$(awk '/"lateness": / { gsub(/[ ,]/, "", $2); print $2; exit }' "$work/results/total.json")
echo "merged: $pages pages (want $users x $reps = $((users * reps))), $merged requests with the pages' resources ($(IFS=+; echo "${parts[*]}")); the site served: $served; latest shard: $(awk -v s="$late" 'BEGIN { printf "%.1f", s * 1000 }') ms after the planned start"
[ "$pages" = $((users * reps)) ] || die "the merge counts $pages pages, not $users x $reps"
[ "$merged" = "$sum" ] || die "the merge counts $merged requests, the shards $sum"
[ "$merged" = "$served" ] || die "the merge counts $merged requests, the site $served"
if [ "$users" -lt "$shards" ]; then
  empty=$(kubectl logs -l job-name=webload -c webload --tail=-1 | grep -c ' has no users: ' || true)
  [ "$empty" = $((shards - users)) ] || die "$empty shards said they had no users, want $((shards - users))"
  echo "shards without users: $empty, each said so in its log and merged"
fi
log "PASS in $((SECONDS - started)) s"
