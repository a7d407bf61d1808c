#!/usr/bin/env bash
# One sample under mpirun on this machine, checked end to end:
#   mpirun_sample.sh RANKS SAMPLE DATA_DIR MESH_VK_RUN MAKE_SAMPLE_DATA SAMPLES_DIR [mesh-vk-run flags...]
# Inputs and expected results come from make_sample_data (host loops, never
# meshvk). Passes when rank 0 reports the result matches, every rank's bytes
# measured at MPI_Isend/MPI_Recv equal the plan's, and, when EXPECT_RANK_BYTES
# ("SENT/RECEIVED", derived by hand) is set, every rank moved exactly that.
# Under mpirun each rank reads only its shards of the inputs (EXPECT_INPUT_BYTES below).
# OpenMPI refuses to run as root without these two (CI runs as root); set
# here, for this test only.
set -uo pipefail
ranks=$1 sample=$2 data=$3 runner=$4 make_data=$5 samples=$6
shift 6
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$data"
flags=$("$make_data" "$data" "$sample" | sed -n "s/^$sample: //p")
[ -n "$flags" ] || { echo "make_sample_data gave no flags for $sample"; exit 1; }
# shellcheck disable=SC2086
out=$(timeout 120 mpirun --oversubscribe -np "$ranks" "$runner" "$samples/$sample.mlir" $flags \
      --atol=1e-3 --rtol=1e-4 --validation --print-plan "$@" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: mpirun exited $rc"; exit 1; }
grep -q "^result 0: ok" <<<"$out" || { echo "FAIL: rank 0 did not report a matching result"; exit 1; }
measured=$(grep -c "measured at MPI_Isend/MPI_Recv" <<<"$out")
[ "$measured" -eq "$ranks" ] || { echo "FAIL: $measured of $ranks ranks reported their MPI bytes"; exit 1; }
while read -r line; do
  # rank R: MPI bytes sent S, received V (measured at MPI_Isend/MPI_Recv; plan S2, V2)
  read -r s v s2 v2 < <(sed -E 's/.*sent ([0-9]+), received ([0-9]+) .*plan ([0-9]+), ([0-9]+)\)/\1 \2 \3 \4/' <<<"$line")
  [ "$s" = "$s2" ] && [ "$v" = "$v2" ] || { echo "FAIL: measured differs from the plan: $line"; exit 1; }
  if [ -n "${EXPECT_RANK_BYTES:-}" ] && [ "$s/$v" != "$EXPECT_RANK_BYTES" ]; then
    echo "FAIL: expected $EXPECT_RANK_BYTES bytes sent/received: $line"; exit 1
  fi
done < <(grep "measured at MPI_Isend/MPI_Recv" <<<"$out")
# Each rank reads only its processes' part of the input files; with
# EXPECT_INPUT_BYTES ("READ/TOTAL", derived by hand) every rank read exactly that.
if [ -n "${EXPECT_INPUT_BYTES:-}" ]; then
  read_lines=$(grep -c "input data bytes" <<<"$out")
  [ "$read_lines" -eq "$ranks" ] || { echo "FAIL: $read_lines of $ranks ranks reported the input bytes they read"; exit 1; }
  while read -r line; do
    got=$(sed -E 's/.*read ([0-9]+) of ([0-9]+) input.*/\1\/\2/' <<<"$line")
    [ "$got" = "$EXPECT_INPUT_BYTES" ] || { echo "FAIL: expected $EXPECT_INPUT_BYTES input bytes: $line"; exit 1; }
  done < <(grep "input data bytes" <<<"$out")
fi
echo "PASS: $sample on $ranks ranks"
