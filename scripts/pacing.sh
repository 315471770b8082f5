#!/usr/bin/env bash
# pacing.sh: how exactly the open model keeps its rate. Starts nginx on 127.0.0.1 with a config
# of its own, runs `webload --rate R -t D` a few times against a 100-byte file and prints, per
# run, the requests sent and unsent against those due, and the scheduling error (actual minus
# intended send time). Stops nginx by its pid at the end.
#
#   scripts/pacing.sh [RATE] [SECONDS] [RUNS]      defaults: 500 10 3
set -euo pipefail
RATE=${1:-500}; SECS=${2:-10}; RUNS=${3:-3}
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light; }
command -v jq >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq; }

work=$(mktemp -d)
port=18380
mkdir -p "$work/site"
printf '%-99s\n' "pacing check" > "$work/site/small"
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $work/tmp;
    server { listen 127.0.0.1:$port; root $work/site; }
}
CONF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
trap 'kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null; sleep 0.5; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/small" && break; sleep 0.1; done

go build -o "$work/webload" ./cmd/webload
due=$(awk -v r="$RATE" -v s="$SECS" 'BEGIN { n = r * s; printf "%d", (n == int(n)) ? n : int(n) + 1 }')
printf 'rate %s/s for %s s: %s requests due\n\n' "$RATE" "$SECS" "$due"
printf '| run | sent | unsent | sent/due | lag p50 | lag p99 | lag max | response p50 | response p99 |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for run in $(seq "$RUNS"); do
  "$work/webload" -j --rate "$RATE" -t "${SECS}S" "http://127.0.0.1:$port/small" 2>/dev/null > "$work/out.json"
  jq -r --arg run "$run" --argjson due "$due" '
    def ms: . * 1000 | . * 1000 | round / 1000 | tostring + " ms";
    [$run, .schedule.sent, .schedule.unsent,
     ((.schedule.sent / $due * 10000 | round) / 100 | tostring + " %"),
     (.schedule.lag_p50 | ms), (.schedule.lag_p99 | ms), (.schedule.lag_max | ms),
     (.percentiles.p50 | ms), (.percentiles.p99 | ms)] | "| " + (map(tostring) | join(" | ")) + " |"' "$work/out.json"
done
