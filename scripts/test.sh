#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs the whole meshvk test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Relative paths in ccache keys, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR="$PWD"
build_dir=${MESHVK_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure -j2
