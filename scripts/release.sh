#!/usr/bin/env bash
# release.sh [OUT]: builds webload for Linux, macOS and Windows on amd64 and arm64 into OUT
# (default dist/), one archive each (tar.gz, zip for Windows) with the binary, README.md and
# LICENSE, and SHA256SUMS over the archives; then checks the sums. Static binaries (no cgo),
# paths trimmed, the commit recorded when the tree is a git checkout (webload -V shows it).
# Needs only Go and tar: the Windows zip archives are written by scripts/zipdir.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
version=$(sed -n 's/^const version = "\(.*\)"$/\1/p' cmd/webload/main.go)
[ -n "$version" ] || { echo "release: no version in cmd/webload/main.go" >&2; exit 1; }
vcs=false
git rev-parse --git-dir >/dev/null 2>&1 && vcs=true
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
  os=${target%/*} arch=${target#*/}
  name=webload_${version}_${os}_${arch}
  exe=webload
  [ "$os" = windows ] && exe=webload.exe
  mkdir -p "$work/$name"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -buildvcs=$vcs -ldflags '-s -w' -o "$work/$name/$exe" ./cmd/webload
  cp README.md LICENSE "$work/$name/"
  if [ "$os" = windows ]; then
    go run ./scripts/zipdir "$work/$name" "$out/$name.zip"
  else
    tar -C "$work" -czf "$out/$name.tar.gz" "$name"
  fi
  echo "built $name"
done
(cd "$out" && sha256sum -- *.tar.gz *.zip > SHA256SUMS && sha256sum --quiet -c SHA256SUMS)
echo "release: $(ls "$out" | wc -l) files in $out, sums checked"
