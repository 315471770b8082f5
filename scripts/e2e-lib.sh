# Sourced by the end-to-end scripts (slurm-e2e.sh, k8s-e2e.sh) after they set E2E_NAME: their
# progress lines on stderr, and how they stop on a failure.
log() { printf '%s %s: %s\n' "$(date +%H:%M:%S)" "$E2E_NAME" "$*" >&2; }
die() {
  log "FAIL: $*"
  exit 1
}

# start_site BIN PORT MAX_TIME starts the counting site BIN on 127.0.0.1:PORT for at most
# MAX_TIME, its output in $work/site.log, and waits until it listens; site_pid is its process.
start_site() {
  local bin=$1 port=$2 max=$3 i
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "127.0.0.1:$port is taken; set PORT"; fi
  "$bin" -addr "127.0.0.1:$port" -max-time "$max" >"$work/site.log" 2>&1 &
  site_pid=$!
  for ((i = 0; i < 50; i++)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    kill -0 "$site_pid" 2>/dev/null || die "the site did not start: $(cat "$work/site.log")"
    sleep 0.2
  done
}

# stop_site stops the counting site start_site started, if it still runs.
stop_site() {
  if [ -n "${site_pid:-}" ] && kill -0 "$site_pid" 2>/dev/null; then
    kill -TERM "$site_pid" 2>/dev/null || true
    wait "$site_pid" 2>/dev/null || true
  fi
}
