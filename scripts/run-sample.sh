#!/usr/bin/env bash
# Sets up (Debian packages), builds and runs the main sample: the Megatron MLP
# (samples/programs/mlp_megatron.mlir) compiled in-process and run on 4 logical
# devices, printing the plan and checking the result against host loops
# (inputs and expected output written by tests/e2e/make_sample_data, which
# never uses meshvk to compute them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Relative paths in ccache keys, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR="$PWD"
build_dir=${MESHVK_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" --target mesh-vk-run make_sample_data
data="$build_dir/sample-data"
mkdir -p "$data"
"$build_dir"/tests/e2e/make_sample_data "$data" mlp_megatron >/dev/null
"$build_dir"/samples/mesh-vk-run/mesh-vk-run samples/programs/mlp_megatron.mlir --devices=4 --print-plan \
    --input=32x64xf32=@"$data"/mlp_megatron.in0.npy \
    --input=64x256xf32=@"$data"/mlp_megatron.in1.npy \
    --input=256x64xf32=@"$data"/mlp_megatron.in2.npy \
    --expected_output=32x64xf32=@"$data"/mlp_megatron.expected0.npy --atol=1e-4 --rtol=1e-4
