#!/usr/bin/env bash
# A program the device cannot hold is refused before any input is read or
# allocated: huge_add_2 (60000x60000 f32 splat inputs, 14.4 GB each) with at
# most 4 GiB of address space per process, so allocating an input first
# would end in "out of host memory" (exit 3) instead of the refusal.
#   refuse_before_inputs.sh single|mpirun MESH_VK_RUN PROGRAMS_DIR
# single: one process; mpirun: 2 ranks, both refuse: exit 2 and ONE line
# (the job agrees before any work, no abort).
set -uo pipefail
mode=$1 runner=$2 programs=$3
if [[ -n ${MESHVK_SANITIZE:-} ]]; then
  echo "skipped: \`ulimit -v\` cannot work under AddressSanitizer (it reserves terabytes of shadow address space)"
  exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root; this test only
args=("$programs/huge_add_2.mlir" --input=60000x60000xf32=1 --input=60000x60000xf32=2)
if [ "$mode" = single ]; then
  out=$( (ulimit -v 4194304; exec timeout 60 "$runner" "${args[@]}" --devices=2) 2>&1 >/dev/null)
  rc=$?
else
  # shellcheck disable=SC2016
  out=$(timeout 90 mpirun --oversubscribe -np 2 bash -c 'ulimit -v 4194304; exec "$@"' bash "$runner" "${args[@]}" 2>&1)
  rc=$?
fi
echo "$out"
echo "exit $rc"
[ $rc -eq 2 ] || { echo "FAIL: exit $rc, expected 2 (the device limit refusal)"; exit 1; }
n=$(grep -c "^mesh-vk-run: .*maxMemoryAllocationSize" <<<"$out")
[ "$n" -eq 1 ] || { echo "FAIL: $n lines name maxMemoryAllocationSize, expected 1"; exit 1; }
! grep -q "out of host memory\|ending the job" <<<"$out" || { echo "FAIL: inputs were allocated or the job aborted"; exit 1; }
echo "PASS: refused before reading inputs ($mode)"
