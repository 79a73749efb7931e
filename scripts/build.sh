#!/usr/bin/env bash
# Builds the static binary bin/boxmaker and the role links in bin/, after
# the TypeBox prelude it embeds.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
version=$(git describe --tags --always --dirty 2>/dev/null) || version=dev
commit=$(git rev-parse --verify -q HEAD 2>/dev/null) || commit=unknown
# TypeBox for yaag programs: the npm package pinned by the lockfile, bundled
# into the prelude the binary embeds (core/yaag/typebox; nothing of it is
# committed).
(cd core/yaag/typebox && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
go generate ./core/yaag/typebox
mkdir -p bin
go build -tags "$BOXMAKER_TAGS" -trimpath \
  -ldflags "-s -w -linkmode external -extldflags -static -X main.version=$version -X main.commit=$commit" \
  -o bin/boxmaker .
bin/boxmaker links bin >/dev/null
echo "build: bin/boxmaker ($version)"
