#!/usr/bin/env bash
# Concurrency soak: 8 mesh-vk-run processes at a time over several programs,
# every result checked against the host oracle, for N rounds (ctest runs 2).
#   scripts/soak.sh [ROUNDS]      (default 100; MESHVK_BUILD_DIR picks the build)
# Needs the test data that `ctest -R runner_make_data` writes.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MESHVK_BUILD_DIR:-build}
data="$build/tests/runner/data"
[ -f "$data/add2.mvk" ] || ctest --test-dir "$build" -R 'runner_setup|runner_make_data' >/dev/null
SOAK_ROUNDS=${1:-100} exec bash tests/runner/hardening.sh soak "$build/samples/mesh-vk-run/mesh-vk-run" "$data"
