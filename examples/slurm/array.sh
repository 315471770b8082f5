#!/bin/bash
# array.sh: submits a sharded webload run as a Slurm array job, one task per shard
# (array.sbatch), and a merge job that runs once every shard has succeeded (afterok). Run it in
# the run's directory, on a filesystem every node sees.
#
#   examples/slurm/array.sh SHARDS WEBLOAD-OPTIONS...
#   e.g. examples/slurm/array.sh 4 -c 50 -t 5M -f urls.txt
#
# Settings (environment): WEBLOAD (the binary, default webload on PATH), LEAD (seconds from
# now to the planned start, default 60), MAX_LATENESS (fail the merge job when the latest shard
# started more than this late, default 1s; empty for no limit).
#
# Slurm starts array tasks one by one as CPUs free up: on a busy cluster some can start after
# the planned start, late or not overlapping. Prefer gang.sbatch, which starts all or none.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 SHARDS WEBLOAD-OPTIONS..." >&2
  exit 2
fi
n=$1
shift
webload=${WEBLOAD:-webload}
start=$(date -u -d "+${LEAD:-60} seconds" +%Y-%m-%dT%H:%M:%SZ)
jid=$(sbatch --parsable --array="0-$((n - 1))" --export="ALL,START_AT=$start" "$here/array.sbatch" "$@")
merge=("$webload" merge)
for ((i = 0; i < n; i++)); do merge+=("shard-$i.json"); done
merge+=(-o total.json)
late=${MAX_LATENESS-1s}
if [ -n "$late" ]; then merge+=(--max-lateness "$late"); fi
mid=$(sbatch --parsable --dependency="afterok:${jid%%;*}" --job-name=webload-merge \
  --output=webload-merge-%j.log --wrap "$(printf '%q ' "${merge[@]}")")
echo "webload: $n shards (job $jid) start at $start; merge job $mid writes total.json"
