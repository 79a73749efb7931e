#!/usr/bin/env bash
# Installs what building and testing Boxmaker needs on Debian 12, as root:
# Podman and runc (the tool runner), busybox-static (the tools image's
# shell for `run`), gcc for cgo, and Node.js with npm, which run Honcho's
# TypeScript SDK against the fake Honcho (core/honcho's conformance test;
# the SDK is pinned by core/testpeer/fakehoncho/sdk/package-lock.json and
# installed there with npm ci) and install TypeBox, which yaag embeds
# (scripts/build.sh), systemd-analyze (the units' checks) and debootstrap
# (the boot test's Debian). Does nothing for what is there.
set -euo pipefail
need=()
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
command -v curl >/dev/null || need+=(curl)
command -v jq >/dev/null || need+=(jq)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
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
# The fake Mattermost's conformance module (Mattermost's model package,
# pinned in its go.sum): fetched once, then the module cache has it.
(cd "$(dirname "$0")/../core/testpeer/fakemattermost/conformance" && GOWORK=off go mod download)
sdk="$(dirname "$0")/../core/testpeer/fakehoncho/sdk"
# node_modules/.boxmaker-lock is the lockfile it was installed from.
if ! cmp -s "$sdk/package-lock.json" "$sdk/node_modules/.boxmaker-lock" 2>/dev/null; then
  echo "setup: npm ci in core/testpeer/fakehoncho/sdk (Honcho's SDK, pinned)"
  npm ci --prefix "$sdk" --no-audit --no-fund --loglevel=error >/dev/null
  cp "$sdk/package-lock.json" "$sdk/node_modules/.boxmaker-lock"
fi
