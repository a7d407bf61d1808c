#!/usr/bin/env bash
# A job whose rank 1 fails must end on every rank, quickly, non-zero:
#   mpirun_fault.sh KIND DATA_DIR MESH_VK_RUN MAKE_SAMPLE_DATA SAMPLES_DIR
# KIND: bad-input (rank 1 gets a broken .npy: it must say so in one line and
#       both ranks exit 2), killed (rank 1 is killed with SIGKILL mid-run: mpirun must end
#       rank 0), killed-in-allreduce (the same with axis 1 over the ranks, so
#       every invoke's all_reduce is an MPI_Allreduce between the two ranks:
#       rank 0 is left inside the collective), misfit (3 ranks on a 2x2 grid:
#       exit 2 before any work).
set -uo pipefail
kind=$1 data=$2 runner=$3 make_data=$4 samples=$5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$data"
sample=mlp_data_tensor_parallel
flags=$("$make_data" "$data" "$sample" | sed -n "s/^$sample: //p")
program="$samples/$sample.mlir"
start=$(date +%s)
case $kind in
  bad-input)
    printf 'not a numpy file' > "$data/broken.npy"
    bad=$(sed -E "s#@[^ ]*in0.npy#@$data/broken.npy#" <<<"$flags")
    # shellcheck disable=SC2016
    out=$(timeout 60 mpirun --oversubscribe -np 2 bash -c \
          'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exec "$0" "$1" $3; else exec "$0" "$1" $2; fi' \
          "$runner" "$program" "$flags" "$bad" 2>&1)
    rc=$?
    want="rank 1 of 2: --input\[0\]"
    ;;
  killed | killed-in-allreduce)
    # --benchmark keeps both ranks exchanging bytes until one disappears.
    extra=""
    [ "$kind" = killed ] || extra="--rank-axes=1 --print-plan"
    # shellcheck disable=SC2016
    out=$(timeout 60 mpirun --oversubscribe -np 2 bash -c \
          '"$0" "$1" $2 $3 --benchmark=1000000 & pid=$!
           if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then sleep 3; kill -9 $pid; fi; wait $pid' \
          "$runner" "$program" "$flags" "$extra" 2>&1)
    rc=$?
    want="signal 9|exited on signal|exit code 137|non-zero status"
    if [ "$kind" = killed-in-allreduce ] && ! grep -q "then MPI_Allreduce among the ranks" <<<"$out"; then
      echo "$out"; echo "FAIL: the plan runs no all_reduce through MPI_Allreduce"; exit 1
    fi
    ;;
  misfit)
    # shellcheck disable=SC2086
    out=$(timeout 60 mpirun --oversubscribe -np 3 "$runner" "$program" $flags 2>&1)
    rc=$?
    want="3 ranks do not fit the 2x2 grid"
    ;;
  *) echo "unknown kind $kind"; exit 1 ;;
esac
elapsed=$(( $(date +%s) - start ))
echo "$out"
echo "mpirun exited $rc after ${elapsed}s"
[ $rc -ne 0 ] || { echo "FAIL: the job succeeded"; exit 1; }
[ $rc -ne 124 ] || { echo "FAIL: the job hung (killed by the 60 s timeout)"; exit 1; }
grep -Eq "$want" <<<"$out" || { echo "FAIL: no line matching '$want'"; exit 1; }
if [ "$kind" = misfit ]; then [ $rc -eq 2 ] || { echo "FAIL: expected exit 2"; exit 1; }; fi
# A bad input is found before the invoke: the ranks agree (exit 2 on both,
# one line from rank 1), no abort.
if [ "$kind" = bad-input ]; then
  [ $rc -eq 2 ] || { echo "FAIL: expected exit 2"; exit 1; }
  [ "$(grep -c '^mesh-vk-run: ' <<<"$out")" -eq 1 ] || { echo "FAIL: expected one mesh-vk-run line"; exit 1; }
  ! grep -q "ending the job\|MPI_ABORT" <<<"$out" || { echo "FAIL: the job was aborted, not ended by agreement"; exit 1; }
fi
echo "PASS: $kind"
