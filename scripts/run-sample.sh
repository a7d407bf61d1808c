#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs the main sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Relative paths in ccache keys, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR="$PWD"
build_dir=${MESHVK_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" --target mesh-vk-run
"$build_dir"/samples/mesh-vk-run/mesh-vk-run --list-devices --self-check --devices=4
