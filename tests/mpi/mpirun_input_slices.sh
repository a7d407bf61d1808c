#!/usr/bin/env bash
# Each rank reads and holds only its processes' part of the input files:
#   mpirun_input_slices.sh KIND DATA_DIR MESH_VK_RUN PYTHON PROGRAMS_DIR [mesh-vk-run flags...]
# KIND stored | deflated: tiles_add_2x2 (x, y: 2048x2048 f32, 16 MiB each)
#   from a numpy.savez / numpy.savez_compressed archive on 2 ranks. Passes
#   when rank 0's result matches numpy, every rank read EXPECT_READ of the
#   33554432 input data bytes (half: by hand, its 2 of the 4 tiles of each),
#   holds exactly that many bytes of host inputs, and its resident set grew by
#   less than 3/4 of the whole 32 MiB while reading (holding the whole tensors,
#   as before, grows it by at least 32 MiB).
# KIND broken: the archive cut in half (found while opening it); corrupt: a
#   byte of a deflated member's data flipped (found while reading the data,
#   after program creation): every rank ends with exit 2 and one line says
#   what is wrong, no abort.
set -uo pipefail
kind=$1 data=$2 runner=$3 python=$4 programs=$5
shift 5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root; this test only
# The data (input_slices_data.py, numpy) is written once by the ctest fixture
# mpi.input_slices_data; made here when the script runs on its own.
mkdir -p "$data"
[ -f "$data/expected.npy" ] || "$python" "$(dirname "$0")/input_slices_data.py" "$data" ||
  { echo "FAIL: input_slices_data.py"; exit 1; }
if [ "$kind" = broken ] || [ "$kind" = corrupt ]; then
  want="broken.npz: truncated or corrupt .npz"
  [ "$kind" = broken ] || want="corrupt.npz: member 'x.npy': (corrupt deflate data|CRC mismatch|deflate data does not match)"
  out=$(timeout 60 mpirun --oversubscribe -np 2 "$runner" "$programs/tiles_add_2x2.mlir" "--input=@$data/$kind.npz" \
        "$@" 2>&1)
  rc=$?
  echo "$out"
  [ $rc -eq 2 ] || { echo "FAIL: mpirun exited $rc, expected 2"; exit 1; }
  n=$(grep -Ec "^mesh-vk-run: rank .*$want" <<<"$out")
  [ "$n" -eq 1 ] || { echo "FAIL: $n lines match '$want', expected 1"; exit 1; }
  [ "$(grep -c '^mesh-vk-run: ' <<<"$out")" -eq 1 ] || { echo "FAIL: more than one mesh-vk-run line"; exit 1; }
  ! grep -q "MPI_ABORT\|ending the job" <<<"$out" || { echo "FAIL: the job was aborted, not ended by agreement"; exit 1; }
  echo "PASS: $kind archive ends both ranks with exit 2"
  exit 0
fi
out=$(timeout 120 mpirun --oversubscribe -np 2 "$runner" "$programs/tiles_add_2x2.mlir" "--input=@$data/$kind.npz" \
      "--expected_output=@$data/expected.npy" --print-plan "$@" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: mpirun exited $rc"; exit 1; }
grep -q "^result 0: ok" <<<"$out" || { echo "FAIL: rank 0 did not report a matching result"; exit 1; }
lines=$(grep -c "input data bytes" <<<"$out")
[ "$lines" -eq 2 ] || { echo "FAIL: $lines of 2 ranks reported the input bytes they read"; exit 1; }
while read -r line; do
  read -r got whole held grew < <(sed -E 's/.*read ([0-9]+) of ([0-9]+) input data bytes, holds ([0-9]+) .*grew by (-?[0-9]+) bytes.*/\1 \2 \3 \4/' <<<"$line")
  [ "$got/$whole" = "$EXPECT_READ/33554432" ] || { echo "FAIL: expected $EXPECT_READ/33554432 read: $line"; exit 1; }
  [ "$held" = "$EXPECT_READ" ] || { echo "FAIL: holds $held bytes of host inputs, expected $EXPECT_READ: $line"; exit 1; }
  [ "$grew" -ge 0 ] && [ "$grew" -lt 25165824 ] ||
    { echo "FAIL: the resident set grew by $grew bytes (>= 3/4 of the whole inputs): $line"; exit 1; }
done < <(grep "input data bytes" <<<"$out")
echo "PASS: $kind archive read in parts on 2 ranks"
