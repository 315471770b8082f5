#!/usr/bin/env bash
# run.sh: start the sharded run on the current kubectl context, wait for it, gather the shards'
# results and merge them into total.json.
#
#   examples/kubernetes/run.sh [SECONDS_UNTIL_START]     default 60: time for every pod to start
#
# It fails (exit 1), showing the pods' state and each failed shard's messages, when the pods
# are not all running by the planned start (a shard that starts late does not overlap the
# others), when a shard fails (the Job fails at once: backoffLimit 0), or when the Job has not
# completed TIMEOUT seconds after the start (default: job.yaml's -t plus 300 s, or 3600 s with
# no -t). A Job it gives up on is deleted.
# The merge fails (exit 1) when the latest shard started more than MAX_LATENESS (default 1s;
# empty for no limit) after START_AT.
set -euo pipefail
cd "$(dirname "$0")"
lead=${1:-60}
start=$(date -u -d "+${lead} seconds" +%Y-%m-%dT%H:%M:%SZ)
shards=$(awk '/completions:/ {print $2; exit}' job.yaml)
out=${OUT:-results}
late=${MAX_LATENESS-1s}
mkdir -p "$out"
rm -f "$out"/shard-*.json "$out/total.json"

# The run's own length, from the "-t" argument in job.yaml (siege's NUMBER[SMH]).
runtime=$(awk '
  prev ~ /^"?-t"?$/ { v = $2; gsub(/"/, "", v); n = v + 0; u = toupper(substr(v, length(v)))
                      print (u == "H" ? n * 3600 : u == "M" ? n * 60 : n); exit }
  { prev = $2 }' job.yaml)
timeout=${TIMEOUT:-$((${runtime:-3300} + 300))}

uid= stop=
# fail MESSAGE: the pods' state and every failed shard's messages (its log but the JSON
# document), then exit 1; with stop set, after deleting the Job.
fail() {
  if [ -n "$uid" ]; then
    kubectl get pods -l "batch.kubernetes.io/controller-uid=$uid" -o wide >&2 || true
    # Why a pod is not running: the scheduler's message (Insufficient cpu) or the kubelet's
    # (ImagePullBackOff).
    kubectl get pods -l "batch.kubernetes.io/controller-uid=$uid" -o jsonpath='{range .items[*]}{.metadata.name}: {.status.conditions[?(@.type=="PodScheduled")].message} {.status.containerStatuses[0].state.waiting.reason} {.status.containerStatuses[0].state.waiting.message}{"\n"}{end}' |
      awk 'NF > 1' >&2 || true
    for pod in $(kubectl get pods -l "batch.kubernetes.io/controller-uid=$uid" --field-selector=status.phase=Failed -o name); do
      echo "--- $pod:" >&2
      kubectl logs "$pod" -c webload | awk '!(/^[{}]$/ || /^  /)' | tail -n 20 >&2 || true
    done
  fi
  echo "run.sh: $*" >&2
  # A run given up on is stopped: its other shards would go on loading the site alone.
  if [ -n "$stop" ]; then
    kubectl delete job webload --wait=false >&2 || true
  fi
  exit 1
}

kubectl apply -f configmap.yaml
# Foreground: the old Job's pods are gone before the new Job's are made.
kubectl delete job webload --ignore-not-found --cascade=foreground
sed "s/START_AT/$start/" job.yaml | kubectl apply -f -
uid=$(kubectl get job webload -o jsonpath='{.metadata.uid}')
echo "webload: $shards shards start at $start"

# Every shard must be running (each waits for START_AT in its pod) by the planned start.
until [ "$(kubectl get pods -l "batch.kubernetes.io/controller-uid=$uid" -o name | wc -l)" -ge "$shards" ]; do
  [ "$(date +%s)" -lt "$(date -d "$start" +%s)" ] || { stop=1; fail "the Job made fewer than $shards pods by $start"; }
  sleep 1
done
left=$(($(date -d "$start" +%s) - $(date +%s)))
if ! kubectl wait pods -l "batch.kubernetes.io/controller-uid=$uid" --for=condition=Ready --timeout="$((left > 1 ? left : 1))s" >/dev/null; then
  stop=1
  fail "not every shard was running at $start: a late one would not overlap the others"
fi

# The Job ends Complete, or Failed as soon as one shard fails (backoffLimit 0): wait for
# whichever comes first, bounded.
kubectl wait job/webload --for=condition=Complete --timeout="${timeout}s" >/dev/null &
complete=$!
kubectl wait job/webload --for=condition=Failed --timeout="${timeout}s" >/dev/null &
failed=$!
wait -n "$complete" "$failed" || true
kill "$complete" "$failed" 2>/dev/null || true
wait "$complete" "$failed" 2>/dev/null || true
state=$(kubectl get job webload -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type} {end}')
case " $state" in
  *" Complete "*) ;;
  *" Failed "*) fail "the Job failed: $(kubectl get job webload -o jsonpath='{.status.conditions[?(@.type=="Failed")].message}')" ;;
  *)
    stop=1
    fail "the Job did not complete within ${timeout}s (conditions: ${state:-none})" ;;
esac

# A container's log holds its stderr lines among its stdout lines, and kubectl (1.34) has no
# option to read one stream alone: the API's "stream" is behind an alpha feature gate. webload's -j document is "{", lines indented by two spaces
# and "}", while its stderr lines never begin with a space or a brace: result.awk keeps the
# document and drops any other line, wherever it falls.
for i in $(seq 0 $((shards - 1))); do
  pod=$(kubectl get pods -l "batch.kubernetes.io/controller-uid=$uid,batch.kubernetes.io/job-completion-index=$i" \
    --field-selector=status.phase=Succeeded -o name)
  [ -n "$pod" ] || fail "no succeeded pod for shard $i"
  kubectl logs "$pod" -c webload | awk -f result.awk > "$out/shard-$i.json"
done
webload merge "$out"/shard-*.json -o "$out/total.json" --per-url ${late:+--max-lateness "$late"}
