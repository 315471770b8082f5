#!/usr/bin/env bash
# slurm-e2e.sh: examples/slurm/gang.sbatch end to end on a real Slurm. It starts a one-host
# cluster (scripts/slurm-cluster.sh, which installs Slurm from Debian when it is missing), serves
# the sample shop on a loopback port with a server that counts what it answers
# (scripts/countsite), submits the gang job as it is with SHARDS tasks, and checks that
# - the job succeeded, its merge included (which fails past --max-lateness 1s);
# - the merged result's requests equal the site's own count, and are more than none;
# - the latest shard started less than a second after the planned start.
# Everything it started is stopped on the way out, whatever happens; its files go too, unless
# KEEP=1.
#
#   scripts/slurm-e2e.sh          as root; about a minute once Slurm is installed
#
# Settings (environment): SHARDS (4), USERS of the whole run, split over the shards (8), DURATION (5S), LEAD seconds to the
# planned start (5), PORT of the site (18090), and slurm-cluster.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
shards=${SHARDS:-4} users=${USERS:-8} duration=${DURATION:-5S} lead=${LEAD:-5} port=${PORT:-18090}
started=$SECONDS

E2E_NAME=slurm-e2e
# shellcheck source=e2e-lib.sh
. "$repo/scripts/e2e-lib.sh"

work=$(mktemp -d /tmp/webload-slurm-e2e.XXXXXX)
chmod 755 "$work" # munged, started as its own user, keeps its files in here
site_pid=
cleanup() {
  local code=$?
  trap - EXIT
  stop_site
  scripts/slurm-cluster.sh stop "$work/slurm" || true
  if [ "$code" != 0 ]; then
    log "failed (exit $code) after $((SECONDS - started)) s"
    for f in "$work"/run/webload-*.log "$work/slurm/log/slurmctld.log" "$work/slurm/log/slurmd.log"; do
      if [ -f "$f" ]; then
        echo "--- last lines of $(basename "$f"):" >&2
        tail -n 20 "$f" >&2
      fi
    done
  fi
  if [ "${KEEP:-}" = 1 ]; then log "files kept in $work"; else rm -rf "$work"; fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# top KEY FILE: a top-level number of webload's indented JSON; deeper keys of the same name
# are indented further.
top() { awk -v k="^  \"$1\": " '$0 ~ k { gsub(/[ ,]/, "", $2); print $2; exit }' "$2"; }

log "building webload and the counting site"
mkdir -p "$work/bin" "$work/run"
go build -o "$work/bin/webload" ./cmd/webload
go build -o "$work/bin/countsite" ./scripts/countsite

scripts/slurm-cluster.sh start "$work/slurm"
. "$work/slurm/env.sh"

start_site "$work/bin/countsite" "$port" 10m
{
  echo "SITE=http://127.0.0.1:$port"
  grep -v '^#' examples/shop-urls.txt | grep .
} >"$work/run/urls.txt"

secs=${duration%[SsMm]}
case $duration in *[Mm]) secs=$((secs * 60)) ;; esac
bound=$((lead + secs + 120))
log "submitting examples/slurm/gang.sbatch: $users users over $shards shards for $duration, start in ${lead} s"
jid=$(sbatch --parsable --chdir "$work/run" --ntasks="$shards" \
  --export="ALL,WEBLOAD=$work/bin/webload,LEAD=$lead,MAX_LATENESS=1s" \
  "$repo/examples/slurm/gang.sbatch" -c "$users" -t "$duration" -f urls.txt --label slurm-e2e)
# sbatch --wait polls ever more slowly; a second's poll ends the wait with the job.
for ((i = 0; i < bound; i++)); do
  squeue -h -j "$jid" 2>/dev/null | grep -q . || break
  sleep 1
done
job=$(scontrol show job "$jid" | grep -o 'JobState=[A-Z_]*\|[^:]ExitCode=[0-9:]*' | xargs)

kill -TERM "$site_pid"
wait "$site_pid" || die "the site failed: $(cat "$work/site.log")"
site_pid=
served=$(awk '/^served [0-9]+ requests$/ { print $2 }' "$work/site.log")

log "job $jid ended: $job"
sed -n '/^== merged result/,$p' "$work"/run/webload-*.log | grep -E '^(Transactions|Elapsed time|Shards):' || true
[ "$job" = "JobState=COMPLETED ExitCode=0:0" ] || die "the gang job did not succeed within ${bound} s"
[ -s "$work/run/total.json" ] || die "no merged total.json"
merged=$(top requests "$work/run/total.json")
parts=()
for ((i = 0; i < shards; i++)); do parts+=("$(top requests "$work/run/shard-$i.json")"); done
late=$(awk '/"lateness": / { gsub(/[ ,]/, "", $2); print $2; exit }' "$work/run/total.json")
sum=$(IFS=+; echo "${parts[*]}")
echo "merged requests: $merged ($sum); the site served: $served; latest shard: $(awk -v s="$late" 'BEGIN { printf "%.1f", s * 1000 }') ms after the planned start"
[ -n "$merged" ] && [ -n "$served" ] || die "a count is missing (merged '$merged', site '$served')"
[ "$merged" -gt 0 ] || die "no request was made"
[ "$merged" = "$served" ] || die "the merge counts $merged requests, the site $served"
awk -v s="$late" 'BEGIN { exit !(s != "" && s < 1) }' || die "the latest shard started ${late} s late"
log "PASS in $((SECONDS - started)) s"
