#!/usr/bin/env bash
# One collective program under mpirun, checked end to end:
#   mpirun_collective.sh RANKS KIND DATA_DIR MESH_VK_RUN PYTHON PROGRAMS_DIR EXPECT [mesh-vk-run flags...]
# Input and expected result come from collective_data.py (numpy, never
# meshvk). Passes when rank 0 reports the result matches, the plan names the
# MPI call (EXPECT_CALL), every rank's bytes measured at MPI_Isend/MPI_Recv
# (an MPI collective counted as each block once per rank receiving it) equal
# the plan's and EXPECT ("S0/V0,S1/V1,...": sent/received per rank, derived
# by hand in CMakeLists.txt).
set -uo pipefail
ranks=$1 kind=$2 data=$3 runner=$4 python=$5 programs=$6 expect=$7
shift 7
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root; this test only
mkdir -p "$data"
"$python" "$(dirname "$0")/collective_data.py" "$kind" "$data" || { echo "FAIL: collective_data.py"; exit 1; }
out=$(timeout 120 mpirun --oversubscribe -np "$ranks" "$runner" "$programs/${kind}_2x2.mlir" \
      "--input=@$data/x.npy" "--expected_output=@$data/expected.npy" --validation --print-plan "$@" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: mpirun exited $rc"; exit 1; }
grep -q "^result 0: ok" <<<"$out" || { echo "FAIL: rank 0 did not report a matching result"; exit 1; }
grep -q "${EXPECT_CALL} among the ranks" <<<"$out" || { echo "FAIL: the plan makes no ${EXPECT_CALL}"; exit 1; }
IFS=, read -r -a want <<<"$expect"
for r in $(seq 0 $((ranks - 1))); do
  line=$(grep "^rank $r: MPI bytes" <<<"$out")
  [ -n "$line" ] || { echo "FAIL: rank $r reported no MPI bytes"; exit 1; }
  read -r s v s2 v2 < <(sed -E 's/.*sent ([0-9]+), received ([0-9]+) .*plan ([0-9]+), ([0-9]+)\)/\1 \2 \3 \4/' <<<"$line")
  [ "$s" = "$s2" ] && [ "$v" = "$v2" ] || { echo "FAIL: measured differs from the plan: $line"; exit 1; }
  [ "$s/$v" = "${want[$r]}" ] || { echo "FAIL: expected ${want[$r]} bytes sent/received: $line"; exit 1; }
done
echo "PASS: $kind on $ranks ranks"
