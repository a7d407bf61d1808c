#!/bin/bash
# Compiles every sample x grid (and tests/e2e/programs) with both presets and dumps the
# .mvk files and kernels, so two compiler versions can be compared byte for byte:
#   scripts/compile-all-samples.sh . build /tmp/new && diff -r /tmp/old /tmp/new
# usage: compile-all-samples.sh REPO BUILD OUTDIR   -> writes OUTDIR/<sample>_<grid>_<target>.mvk and
#        OUTDIR/<sample>_<grid>_<target>/<kernel>.spv|.spvasm for every sample x grid (tests/e2e/samples.cc)
# compare two runs with: diff -r OUTDIR1 OUTDIR2 && echo IDENTICAL
set -u
repo=$1; build=$2; out=$3
tool=$(find "$build" -name mesh-vk-compile -type f -perm -u+x | head -1)
rm -rf "$out"; mkdir -p "$out"
declare -A grids=(
  [seed_matmul]="1 2 2x2" [matmul_rows]="1 2 4 2x2" [matmul_cols]="1 2 4 2x2"
  [matmul_contraction]="1 2 4 2x2" [mlp_megatron]="1 2 4 2x2" [reduce_rows]="1 2 4 2x2"
  [batch_matmul]="1 2 4 2x2" [transpose_reshard]="1 2 4 2x2" [batch_rows]="1 2 3 4 2x2"
  [mlp_data_tensor_parallel]="1x1 2x1 1x2 2x2 4x1 1x4")
fail=0; n=0
for s in "${!grids[@]}"; do
  for g in ${grids[$s]}; do
    for t in lavapipe generic; do
      name=${s}_${g}_${t}
      if ! "$tool" "$repo/samples/programs/$s.mlir" -o "$out/$name.mvk" --grid-shape=$g --target-device=$t \
           --dump-kernels="$out/$name" 2>"$out/$name.err"; then echo "FAIL $name: $(cat $out/$name.err)"; fail=1; fi
      [ -s "$out/$name.err" ] || rm -f "$out/$name.err"
      n=$((n+1))
    done
  done
done
for p in "$repo"/tests/e2e/programs/*.mlir; do
  name=prog_$(basename "$p" .mlir)
  "$tool" "$p" -o "$out/$name.mvk" --dump-kernels="$out/$name" 2>"$out/$name.err" || { echo "FAIL $name"; fail=1; }
  [ -s "$out/$name.err" ] || rm -f "$out/$name.err"; n=$((n+1))
done
echo "$n compilations, $(find "$out" -name '*.mvk' | wc -l) .mvk, $(find "$out" -name '*.spv' | wc -l) .spv into $out"
exit $fail
