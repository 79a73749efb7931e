#!/usr/bin/env bash
# The main job: installs what is needed, builds Boxmaker, and runs
# `boxmaker demo` on its embedded default (a scripted model stand-in).
# Extra arguments go to the demo (such as --model-url URL).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec bin/boxmaker demo "$@"
