#!/usr/bin/env bash
# Every check and every test: installs what the tests need, builds the
# static binary, then go vet, gofmt, boxmaker gate and go test -race
# (unit tests, fuzz seeds, and the end-to-end scripts against the real
# binary, real sockets and real Podman).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
. scripts/env.sh
echo "== go vet"
go vet -tags "$BOXMAKER_TAGS" ./...
echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== boxmaker gate"
bin/boxmaker gate
# The root package (every script and crash suite) takes 11-16 min here;
# 40 min leaves room on a loaded machine within CI's 90.
echo "== go test -race"
go test -race -tags "$BOXMAKER_TAGS" -timeout 40m ./...
