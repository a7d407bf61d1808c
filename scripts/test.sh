#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs the whole meshvk test suite, then
# the sanitizer suite: a second build (build-asan) of the runtime, the runner
# and the loader/parser fuzz targets with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, without the compiler (so it stays cheap) but
# with the ONNX importer (MESHVK_BUILD_IMPORTER: libonnx/protobuf parsing and
# meshvk's importer, under libFuzzer: fuzz_onnx_import), and its tests.
# MESHVK_SKIP_SANITIZERS=1 runs only the first part.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Relative paths in ccache keys, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR="$PWD"
build_dir=${MESHVK_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure -j2

if [ "${MESHVK_SKIP_SANITIZERS:-0}" = 1 ]; then exit 0; fi
asan_dir=${MESHVK_ASAN_BUILD_DIR:-build-asan}
CC=clang CXX=clang++ cmake -S . -B "$asan_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMESHVK_BUILD_COMPILER=OFF -DMESHVK_BUILD_IMPORTER=ON -DMESHVK_BUILD_BENCHMARKS=OFF \
  -DMESHVK_SANITIZE=address,undefined
cmake --build "$asan_dir"
source scripts/sanitizer-env.sh
ctest --test-dir "$asan_dir" --output-on-failure -j2
