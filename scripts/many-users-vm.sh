#!/usr/bin/env bash
# many-users-vm.sh: the open model's case of scripts/many-users.sh (defaults, every request
# waiting for an answer from internal/holdsite on four loopback ports, peak RSS from
# /usr/bin/time -v) inside a QEMU guest, for machines whose open-file limit is below the
# requests in flight asked for: 100 000 in flight needs as many sockets in webload and again in
# the site, and a container's hard limit (20 000, say) cannot be raised without
# CAP_SYS_RESOURCE. The guest is the host's Debian kernel with an initramfs of busybox, webload,
# the site and /usr/bin/time; it raises its own limits and port range, runs each case against a
# site of its own, and powers off. Installs qemu-system-x86, busybox-static, cpio and
# linux-image-amd64 when missing (Debian, as root).
#
# Without KVM (ACCEL=tcg, the default; ACCEL=kvm where KVM boots the guest) the guest runs
# several times slower than the host, so its arrivals come at RATE a second (default 1200, about
# what a guest on 2 cores keeps up with); what a request holds barely depends on the rate (see
# docs/speed.md). Each case runs until INFLIGHT requests have arrived (the summary says how
# many did), and a little longer. The guest has as many CPUs as the host and MEM_MIB of memory
# (default 8192: 100 000 in flight take about 1 GiB in webload, and the site and the kernel's
# sockets take more).
#
#   scripts/many-users-vm.sh [RATE] [INFLIGHT...]     default: 1200 18000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-1200}
shift || true
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(18000 100000)
accel=${ACCEL:-tcg}
mem=${MEM_MIB:-8192}

need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v cpio >/dev/null || need+=(cpio)
compgen -G '/boot/vmlinuz-*' >/dev/null || need+=(linux-image-amd64)
if [ ${#need[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >/dev/null
fi
kernel=$(ls /boot/vmlinuz-* | sort -V | tail -1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,usr/bin,proc,sys,dev,tmp}
CGO_ENABLED=0 go build -o "$root/bin/webload" ./cmd/webload
CGO_ENABLED=0 go build -o "$root/bin/holdsite" ./internal/holdsite/serve
cp /bin/busybox "$root/bin/"
for a in sh mount ip sleep cat awk sysctl poweroff kill grep; do ln -s busybox "$root/bin/$a"; done
cp /usr/bin/time "$root/usr/bin/"
for lib in $(ldd /usr/bin/time | grep -o '/[^ ]*'); do
  mkdir -p "$root$(dirname "$lib")"
  cp "$lib" "$root$lib"
done

# Each case runs 1.3 times as long as its arrivals take, and 10 s more; the guest is bounded by three
# times that, and 30 s, a case (each stops its site and ends its requests), and 2 minutes to boot.
secs=() bound=120
for n in "${cases[@]}"; do
  secs+=($((n * 13 / 10 / rate + 10)))
  bound=$((bound + 3 * secs[-1] + 30))
done

{
  cat <<'EOF'
#!/bin/sh
export PATH=/bin:/usr/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
ip link set lo up
# One client address reaches about 28 000 connections to a port with the usual ephemeral range.
sysctl -qw net.ipv4.ip_local_port_range="1024 65535"
sysctl -qw net.core.somaxconn=65535
sysctl -qw net.ipv4.tcp_max_syn_backlog=65535
ulimit -n 400000
for p in 18531 18532 18533 18534; do echo "http://127.0.0.1:$p/"; done >/tmp/urls.txt
# The console's first line begins with the firmware's escapes: the cases' lines come after it.
echo "guest: $(grep -c ^processor /proc/cpuinfo) CPUs, $(awk '/MemTotal/ {print $2}' /proc/meminfo) KiB, open files $(ulimit -n)"
# run INFLIGHT RATE SECS: one case against a fresh site; prints a line starting "== ".
run() {
  holdsite -for $(($3 * 3 + 120))s 127.0.0.1:18531 127.0.0.1:18532 127.0.0.1:18533 127.0.0.1:18534 >/tmp/site 2>&1 &
  site=$!
  sleep 1
  /usr/bin/time -v webload --rate "$2" -r "$1" --max-users "$1" -t "$3S" --timeout $(($3 + 3)) -f /tmp/urls.txt >/tmp/out 2>/tmp/time
  kill $site
  sleep 2
  echo "== $1 $(awk '/Maximum resident/ {print $6}' /tmp/time) $(awk '/^accepted/ {print $2}' /tmp/site) $(grep -E '^Requests:' /tmp/out | sed 's/^Requests:[[:space:]]*//')"
}
EOF
  for i in "${!cases[@]}"; do
    echo "run ${cases[i]} $rate ${secs[i]}"
  done
  echo 'poweroff -f'
} >"$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.gz"

case $accel in
kvm) q=(-enable-kvm -cpu host) ;;
*) q=(-accel tcg,thread=multi -cpu max) ;;
esac
timeout "$bound" qemu-system-x86_64 "${q[@]}" -smp "$(nproc)" -m "$mem" -nographic -no-reboot \
  -kernel "$kernel" -initrd "$work/initrd.gz" -append "console=ttyS0 quiet rdinit=/init panic=-1" \
  >"$work/console" 2>&1 || true

printf '%-28s %8s %10s %9s   %s\n' "case (in the guest)" "peak MiB" "bytes/each" "accepted" "requests (webload's summary)"
grep -ao '== .*' "$work/console" | while read -r _ n kib accepted requests; do
  printf '%-28s %8d %10d %9s   %s\n' "open, $n in flight" $((kib / 1024)) $((kib * 1024 / n)) "$accepted" "$requests"
done
grep -aq '== ' "$work/console" || { tail -20 "$work/console" >&2; exit 1; }
