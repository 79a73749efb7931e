#!/usr/bin/env bash
# Builds the static binary bin/boxmaker and the role links in bin/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
version=$(git describe --tags --always --dirty 2>/dev/null) || version=dev
commit=$(git rev-parse --verify -q HEAD 2>/dev/null) || commit=unknown
mkdir -p bin
go build -tags "$BOXMAKER_TAGS" -trimpath \
  -ldflags "-s -w -linkmode external -extldflags -static -X main.version=$version -X main.commit=$commit" \
  -o bin/boxmaker .
bin/boxmaker links bin >/dev/null
echo "build: bin/boxmaker ($version)"
