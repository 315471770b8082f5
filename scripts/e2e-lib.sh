# Sourced by the end-to-end scripts (slurm-e2e.sh, k8s-e2e.sh) after they set E2E_NAME: their
# progress lines on stderr, and how they stop on a failure.
log() { printf '%s %s: %s\n' "$(date +%H:%M:%S)" "$E2E_NAME" "$*" >&2; }
die() {
  log "FAIL: $*"
  exit 1
}
