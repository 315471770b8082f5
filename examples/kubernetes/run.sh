#!/usr/bin/env bash
# run.sh: start the sharded run on the current kubectl context, wait for it, gather the shards'
# results and merge them into total.json.
#
#   examples/kubernetes/run.sh [SECONDS_UNTIL_START]     default 60: time for every pod to start
#
# The merge fails (exit 1) when the latest shard started more than MAX_LATENESS (default 1s;
# empty for no limit) after START_AT: a pod that was not running by then did not overlap the
# others.
set -euo pipefail
cd "$(dirname "$0")"
lead=${1:-60}
start=$(date -u -d "+${lead} seconds" +%Y-%m-%dT%H:%M:%SZ)
shards=$(awk '/completions:/ {print $2; exit}' job.yaml)
out=${OUT:-results}
late=${MAX_LATENESS-1s}
mkdir -p "$out"

kubectl apply -f configmap.yaml
kubectl delete job webload --ignore-not-found
sed "s/START_AT/$start/" job.yaml | kubectl apply -f -
echo "webload: $shards shards start at $start"
kubectl wait --for=condition=complete job/webload --timeout=24h

for i in $(seq 0 $((shards - 1))); do
  pod=$(kubectl get pods -l "job-name=webload,batch.kubernetes.io/job-completion-index=$i" -o name)
  kubectl logs "$pod" -c webload > "$out/shard-$i.json"
done
webload merge "$out"/shard-*.json -o "$out/total.json" --per-url ${late:+--max-lateness "$late"}
