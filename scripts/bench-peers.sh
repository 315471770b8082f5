#!/usr/bin/env bash
# bench-peers.sh: webload beside wrk, bombardier and siege, against the same nginx on 127.0.0.1.
#
#   scripts/bench-peers.sh [ROUNDS] [SECONDS]          defaults: 3 rounds of 10 s
#   scripts/bench-peers.sh scale [ROUNDS] [SECONDS]    10 000 users; defaults: 1 round of 10 s
#
# Installs what is missing (nginx, wrk, siege from Debian; bombardier from the Go module proxy),
# serves a 100-byte file and a 50-page site from nginx with a config of its own, then runs the
# tools in turns (webload, wrk, bombardier, siege, webload, wrk, ...) at 20 and 200 connections on
# the small file, and webload and siege on the 50-page list. It prints, per tool and case, the
# median requests/s, the ratio to wrk, client CPU per request (user + system time of the client
# process), peak RSS, and p50/p99 as each tool reports them. nginx is stopped by its pid.
# Client and server share the machine: read the CPU per request, not only the rate.
#
# The scale mode runs 10 000 connections instead: webload's closed model with 10 000 users,
# its open model at --rate 20000 --max-users 10000, wrk and bombardier with 10 000 connections,
# and reports peak RSS and the requests that failed beside the rate.
set -euo pipefail
MODE=speed
if [ "${1:-}" = scale ]; then MODE=scale; shift; fi
if [ $MODE = scale ]; then ROUNDS=${1:-1}; else ROUNDS=${1:-3}; fi
SECS=${2:-10}
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH)/bin"

need=()
for p in nginx:nginx-light wrk:wrk siege:siege jq:jq python3:python3 /usr/bin/time:time; do
  command -v "${p%%:*}" >/dev/null || need+=("${p#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
command -v bombardier >/dev/null || go install github.com/codesenberg/bombardier@v1.2.6

work=$(mktemp -d)
keep=${BENCH_OUT:-${TMPDIR:-/tmp}/webload-bench-peers.$(date +%Y%m%d-%H%M%S)}
port=18480
base="http://127.0.0.1:$port"
mkdir -p "$work/site/p" "$work/tmp"
printf '%-99s\n' "a 100-byte file for load testing" > "$work/site/small"
for i in $(seq 1 50); do
  head -c $(( (2 + (37 * i) % 59) * 1024 )) /dev/zero | tr '\0' 'x' > "$work/site/p/$i"
  echo "$base/p/$i" >> "$work/urls.txt"
done
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log warn;
worker_rlimit_nofile 40000;
events { worker_connections 20000; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $work/tmp;
    default_type text/plain;
    server { listen 127.0.0.1:$port backlog=16384; root $work/site; }
}
CONF
# nginx's workers run as an unprivileged user: mktemp's folder is private to us.
chmod 755 "$work"
chmod -R a+rX "$work/site"
# 10 000 connections need as many descriptors in each client (webload raises its own limit).
ulimit -n "$(ulimit -Hn)"
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
code=$(curl -s -o /dev/null -w '%{http_code}' "$base/p/1")
[ "$code" = 200 ] || { echo "nginx answers $code for $base/p/1, not 200: see $work/error.log" >&2; exit 1; }
trap 'kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null; sleep 0.5; mkdir -p "$keep"; cp -r "$work/out" "$keep/" 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/webload" ./cmd/webload
printf 'connection = keep-alive\njson_output = true\nparser = false\nprotocol = HTTP/1.1\n' > "$work/siegerc"

# run TOOL CASE CONC ROUND: one measured run, its output in $work/out/TOOL.CASE.CONC.ROUND.*
run() {
  local tool=$1 case=$2 c=$3 r=$4 url="$base/small" f
  f="$work/out/$tool.$case.$c.$r"; mkdir -p "$work/out"
  local cmd
  case $tool in
    webload-open) cmd=("$work/webload" -j --rate 20000 --max-users "$c" -t "${SECS}S" "$url") ;;
    webload) if [ "$case" = list ]; then cmd=("$work/webload" -b -j -c "$c" -t "${SECS}S" -f "$work/urls.txt")
             else cmd=("$work/webload" -b -j -c "$c" -t "${SECS}S" "$url"); fi ;;
    wrk) cmd=(wrk -t2 -c "$c" -d "${SECS}s" --latency "$url") ;;
    bombardier) cmd=(bombardier -c "$c" -d "${SECS}s" -l -p r -o json "$url") ;;
    siege) if [ "$case" = list ]; then cmd=(siege -R "$work/siegerc" -b -c "$c" -t "${SECS}S" -f "$work/urls.txt")
           else cmd=(siege -R "$work/siegerc" -b -c "$c" -t "${SECS}S" "$url"); fi ;;
  esac
  HOME="$work" /usr/bin/time -f '%U %S %M' -o "$f.time" timeout -k 5 $((SECS * 3 + 30)) "${cmd[@]}" > "$f.out" 2> "$f.err" || true
  echo "$tool $case $c $r" > "$f.id"
  sleep 1
}

for r in $(seq "$ROUNDS"); do
  if [ $MODE = scale ]; then
    for tool in webload webload-open wrk bombardier; do run "$tool" scale 10000 "$r"; done
    continue
  fi
  for c in 20 200; do
    for tool in webload wrk bombardier siege; do run "$tool" small "$c" "$r"; done
    for tool in webload siege; do run "$tool" list "$c" "$r"; done
  done
done

python3 - "$work/out" <<'PY'
import glob, json, os, re, statistics, sys
out = sys.argv[1]
rows = {}
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)", v)
    return float(m[1]) * {"us": 0.001, "ms": 1, "s": 1000}[m[2]] if m else None
for idf in glob.glob(os.path.join(out, "*.id")):
    tool, case, c, r = open(idf).read().split()
    base = idf[:-3]
    try:
        u, s, rss = open(base + ".time").read().split()[-3:]
    except ValueError:
        continue
    text = open(base + ".out", errors="replace").read()
    n = rate = p50 = p99 = None
    bad = 0  # responses other than 2xx, and requests without a response
    try:
        if tool.startswith("webload"):
            j = json.loads(text); n, rate = j["requests"], j["transaction_rate"]
            p50, p99 = j["percentiles"]["p50"] * 1000, j["percentiles"]["p99"] * 1000
            bad = n - sum(v for k, v in j["status_codes"].items() if k.startswith("2"))
        elif tool == "siege":
            j = json.loads(text[text.index("{"):]); n, rate = j["transactions"] + j["failed_transactions"], j["transaction_rate"]
            bad = j["failed_transactions"]
        elif tool == "bombardier":
            j = json.loads(text)["result"]
            n = sum(j[k] for k in ("req1xx", "req2xx", "req3xx", "req4xx", "req5xx", "others"))
            rate = n / j["timeTakenSeconds"]
            p50, p99 = j["latency"]["percentiles"]["50"] / 1000, j["latency"]["percentiles"]["99"] / 1000
            bad = n - j["req2xx"]
        elif tool == "wrk":
            n = int(re.search(r"(\d+) requests in", text)[1]); rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text)[1])
            p50 = ms(re.search(r"^\s*50%\s+(\S+)", text, re.M)[1]); p99 = ms(re.search(r"^\s*99%\s+(\S+)", text, re.M)[1])
            m = re.search(r"Non-2xx or 3xx responses: (\d+)", text); bad = int(m[1]) if m else 0
            m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
            bad += sum(int(x) for x in m.groups()) if m else 0
    except (ValueError, KeyError, TypeError, AttributeError):
        continue
    if not n:
        continue
    rows.setdefault((case, int(c), tool), []).append(
        dict(rate=rate, cpu=(float(u) + float(s)) * 1e6 / n, rss=int(rss) / 1024, p50=p50, p99=p99, bad=bad))
TOOLS = ["webload", "webload-open", "wrk", "bombardier", "siege"]
def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None
def f(v, fmt):
    return "-" if v is None else fmt.format(v)
print("| case | conn | tool | req/s (median) | vs wrk | CPU µs/req | peak RSS MB | p50 ms | p99 ms | not 2xx | runs |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for (case, c, tool) in sorted(rows, key=lambda k: (k[0] != "small", k[0], k[1], TOOLS.index(k[2]))):
    rs = rows[(case, c, tool)]
    rate = med([x["rate"] for x in rs])
    wrk = med([x["rate"] for x in rows.get((case, c, "wrk"), [])])
    print(f"| {case} | {c} | {tool} | {rate:,.0f} | {f(rate / wrk if wrk else None, '{:.2f}')} | "
          f"{f(med([x['cpu'] for x in rs]), '{:.1f}')} | {max(x['rss'] for x in rs):.0f} | "
          f"{f(med([x['p50'] for x in rs]), '{:.3f}')} | {f(med([x['p99'] for x in rs]), '{:.3f}')} | "
          f"{sum(x['bad'] for x in rs)} | {len(rs)} |")
PY
echo "raw outputs kept in $keep"
