#!/usr/bin/env bash
# Runs meshvk's fuzz targets for a long time (ctest runs each for ~10 s).
#   scripts/fuzz-long.sh [SECONDS_PER_TARGET] [TARGET...]
# Default: 3600 s each, every target built in the sanitizer build
# (build-asan, see scripts/test.sh; MESHVK_ASAN_BUILD_DIR changes it: the
# .mvk loader, the tensor parsers, program creation and the ONNX importer
# under libFuzzer, fuzz_onnx_import, seeded with every libonnx-testdata
# model), and
# the compiler's mutation loops fuzz_compiler and fuzz_onnx_importer of the
# main build (MESHVK_BUILD_DIR; MESHVK_FUZZ_COMPILER=0 skips them when
# targets are named).
# Corpora grow in $BUILD/tests/fuzz/corpus/<target>/ (kept between runs);
# crashes are written there as crash-*/leak-*/timeout-* with the input that
# triggered them. Exit status: non-zero when any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
shift || true
build=${MESHVK_ASAN_BUILD_DIR:-build-asan}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in fuzz_artifact_loader fuzz_tensor_io fuzz_program_create fuzz_onnx_import; do
    for dir in "$build/tests/fuzz" "$build/tests/fuzz/standalone" "${MESHVK_BUILD_DIR:-build}/tests/fuzz/standalone"; do
      if [ -x "$dir/$t" ]; then targets+=("$dir/$t"); break; fi
    done
  done
fi
if [ ${#targets[@]} -eq 0 ] && [ ! -x "${MESHVK_BUILD_DIR:-build}/tests/fuzz/fuzz_compiler" ]; then
  echo "fuzz-long: no fuzz target built (run scripts/test.sh first)" >&2
  exit 2
fi
status=0
# The compiler's mutation campaigns (main build, any compiler; compiled the
# tools' way, in a child process): MLIR programs, then ONNX models. Their
# isolated upstream crashes are kept as isolated-N.* in their work folders.
main=${MESHVK_BUILD_DIR:-build}
if [ "${MESHVK_FUZZ_COMPILER:-1}" = 1 ]; then
  seed=$(date +%s)
  if [ -x "$main/tests/fuzz/fuzz_compiler" ]; then
    echo "== fuzz_compiler: $seconds s, seed $seed, work $main/tests/fuzz/compiler_fuzz_long"
    "$main/tests/fuzz/fuzz_compiler" "$seconds" "$seed" "$main/tests/fuzz/compiler_fuzz_long" \
      samples/programs/*.mlir tests/fuzz/compiler_seeds/*.mlir $(find third_party/mlir-test-inputs -name '*.mlir') ||
      status=1
  fi
  if [ -x "$main/tests/fuzz/fuzz_onnx_importer" ]; then
    echo "== fuzz_onnx_importer: $seconds s, seed $seed, work $main/tests/fuzz/compiler_fuzz_onnx_long"
    "$main/tests/fuzz/fuzz_onnx_importer" "$seconds" "$seed" "$main/tests/fuzz/compiler_fuzz_onnx_long" \
      /usr/share/libonnx-testdata/data/*/*/model.onnx || status=1
  fi
fi
source scripts/sanitizer-env.sh
for exe in "${targets[@]}"; do
  name=$(basename "$exe")
  corpus="$build/tests/fuzz/corpus/$name"
  seeds="$build/tests/fuzz/corpus/seed"
  [ "$name" = fuzz_tensor_io ] && seeds="$build/tests/fuzz/corpus/tensor_seed"
  extra=()
  if [ "$name" = fuzz_onnx_import ]; then
    seeds="$build/tests/fuzz/corpus/onnx_seed"
    cmake -DTESTDATA=/usr/share/libonnx-testdata/data -DOUT="$seeds" -P tests/fuzz/onnx_seeds.cmake
    extra=(-max_len=65536)
  fi
  mkdir -p "$corpus" "$seeds"
  echo "== $name: $seconds s, corpus $corpus"
  "$exe" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=30 -print_final_stats=1 "${extra[@]}" \
    -artifact_prefix="$corpus/" "$corpus" "$seeds" || status=1
done
exit $status
