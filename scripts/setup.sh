#!/usr/bin/env bash
# Installs what building and testing Boxmaker needs on Debian 12, as root:
# Podman and runc (the tool runner), busybox-static (the tools image's
# shell for `run`), and gcc for cgo. Does nothing for what is there.
set -euo pipefail
need=()
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup: need ${need[*]}; run as root or install them" >&2
    exit 1
  fi
  echo "setup: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
command -v go >/dev/null || { echo "setup: Go 1.26 is needed on PATH" >&2; exit 1; }
