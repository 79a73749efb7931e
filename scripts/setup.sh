#!/usr/bin/env bash
# Installs what building and testing Boxmaker needs on Debian 12, as root:
# Podman and runc (the tool runner), busybox-static (the tools image's
# shell for `run`), gcc for cgo, and Node.js with npm, which run Honcho's
# TypeScript SDK against the fake Honcho (core/honcho's conformance test;
# the SDK is pinned by core/testpeer/fakehoncho/sdk/package-lock.json and
# installed there with npm ci) and install TypeBox, which yaag embeds
# (scripts/build.sh), systemd-analyze (the units' checks) and debootstrap
# (the boot test's Debian), tmux (bxctl chat's tests on a real
# terminal) and sudo (the first hour as an ordinary user runs it). Does
# nothing for what is there.
set -euo pipefail
need=()
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
# crun, which starts a tool's container in about two thirds of runc's CPU
# (brokerd's runtime = "auto" takes it), only where it runs: crun 1.8
# refuses hybrid cgroups whose v2 tree holds a controller, and once
# installed it is Podman's default runtime for every podman run that names
# none (docs/runner.md; D1048).
crun_runs() {
  [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ] && return 0
  [ "$(stat -fc %T /sys/fs/cgroup/unified 2>/dev/null)" = cgroup2fs ] || return 0
  [ -z "$(cat /sys/fs/cgroup/unified/cgroup.controllers)" ]
}
command -v crun >/dev/null || ! crun_runs || need+=(crun)
# buildah (Debian's podman recommends it; named here in case recommends are
# off) makes the storage-only container core/runner's leftovers test needs.
command -v buildah >/dev/null || need+=(buildah)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v gcc >/dev/null || need+=(gcc libc6-dev)
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v debootstrap >/dev/null || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
command -v curl >/dev/null || need+=(curl)
command -v jq >/dev/null || need+=(jq)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
command -v tmux >/dev/null || need+=(tmux)
command -v sudo >/dev/null || need+=(sudo)
# Debian's translated manual pages: the sanitizer's benign prose in the
# languages its lexicons have rules for (sanitize/prose_test.go reads them
# where they are installed; Hindi, Arabic, Persian, Hebrew and Thai have
# none, and are read from the programs' translated messages).
for lang in es fr de it pt-br ru el ja zh id nl pl cs sv nb hu ro; do
  [ -e "/usr/share/doc/manpages-$lang" ] || need+=("manpages-$lang")
done
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
# Podman 4.3 gives each container a lock from a table of 2048 in
# /dev/shm/libpod_lock and loses it when a podman process is killed while
# it creates one, which the crash suites do on purpose (brokerd-crash: about
# 300 a run). Once the table is used up no container starts (the runbook's
# runner-unavailable, "exceeded num_locks"). When more than half is in use,
# the locks are given back with podman system renumber, which frees the
# whole table and numbers again the default store's containers: it must
# not run while any container runs or may be starting (one made within the
# hour and not running), in any store. A test's store left in /tmp by a
# test that was killed (one made within the hour may still be in use) has
# its containers removed first, which gives back their own locks; a store
# of brokerd's elsewhere (an operator's) holding any container keeps the
# table as it is (D1220). The count reads each group's 32-bit bitmap (a 56-byte
# header, then 64 groups of 1288 bytes).
locks=/dev/shm/libpod_lock
if [ -r "$locks" ] && [ "$(stat -c %s "$locks")" = 82488 ]; then
  used=$(od -An -v -tu4 "$locks" | tr -s ' ' '\n' | awk 'NF' |
    awk 'NR > 14 && (NR - 15) % 322 == 0 && c < 64 { n = $1; while (n > 0) { b += n % 2; n = int(n / 2) }; c++ } END { print b + 0 }')
  if [ "$used" -gt 1024 ]; then
    # busy: what keeps the table as it is (a container running or
    # perhaps starting, a pod, an operator's store's container).
    busy=""
    young() { # store flags: containers made within the hour, or unknown
      all=$(podman "$@" ps -aq 2>/dev/null) || { echo unknown; return; }
      old=$(podman "$@" ps -aq --filter until=1h 2>/dev/null) || { echo unknown; return; }
      [ "$(echo "$all" | awk NF | wc -l)" = "$(echo "$old" | awk NF | wc -l)" ] || echo young
    }
    busy="$busy$(podman ps -q 2>/dev/null || echo unknown)$(podman pod ps -q 2>/dev/null || echo unknown)$(young)"
    # brokerd's own stores (core/runner/store.go) share the table: each
    # names its root in /run/boxmaker-podman/<instance>/root.
    for link in /run/boxmaker-podman/*/root; do
      root=$(readlink "$link" 2>/dev/null) || continue
      [ -e "$root/libpod/bolt_state.db" ] || continue
      ids=$(podman --root "$root" ps -aq 2>/dev/null) || { busy="${busy}unknown"; continue; }
      [ -n "$ids" ] || continue
      case "$root" in
      /tmp/*)
        running=$(podman --root "$root" ps -q 2>/dev/null || echo unknown)
        fresh=$(young --root "$root")
        if [ -z "$running$fresh" ]; then
          echo "setup: removing the containers a killed test left in $root (made over an hour ago, not running)"
          podman --root "$root" rm -f $ids >/dev/null 2>&1 || busy="${busy}unknown"
        else
          busy="$busy$running$fresh"
        fi
        ;;
      *) busy="$busy$ids" ;;
      esac
    done
    if [ -z "$busy" ]; then
      echo "setup: $used of Podman's 2048 container locks are in use, most lost by killed podman processes: podman system renumber"
      podman system renumber
    else
      echo "setup: $used of Podman's 2048 container locks are in use, but a container runs or may be starting: podman system renumber left for later (the runbook's runner-unavailable entry says when to run it)"
    fi
  fi
fi
