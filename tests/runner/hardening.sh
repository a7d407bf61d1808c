#!/usr/bin/env bash
# mesh-vk-run under hostile conditions, one case per ctest entry:
#   hardening.sh CASE RUNNER DATA_DIR [FAULT_LAYER_DIR]
# Cases: resources (huge shapes, /dev/zero, sparse multi-GiB files under
# `ulimit -v`), outputs (umask, symlinks, all-or-nothing), drop (a GPU that
# stops answering), faults (an injected Vulkan error at each call of each
# entry point: exit 3, one line, no output file), soak (8 concurrent runs).
# Each check prints what it ran; the first failure exits 1 with the reason.
set -uo pipefail
case_name=$1 runner=$2 data=$3 layer_dir=${4:-}
cd "$data" || exit 1
out=$(mktemp -d "$data/out/hardening.XXXXXX")
trap 'rm -rf "$out"' EXIT
AB=(--input=4x3xf32=@a.npy --input=4x3xf32=@b.npy)
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect RC SECONDS STDERR_REGEX -- command...: exit code, wall-time bound,
# one line on stderr for an error exit, no crash.
expect() {
  local rc=$1 limit=$2 regex=$3
  shift 4
  local start=$SECONDS err
  err=$("$@" 2>&1 >/dev/null)
  local got=$?
  local took=$((SECONDS - start))
  echo "[$got in ${took}s] $*"
  [[ $got == "$rc" ]] || { fail "exit $got, expected $rc: $*: $err"; return; }
  (( took <= limit )) || fail "took ${took}s > ${limit}s: $*"
  if [[ $rc == 2 || $rc == 3 ]]; then
    [[ $(printf '%s\n' "$err" | wc -l) == 1 && -n $err ]] || fail "stderr is not one line: $*: $err"
  fi
  [[ $err =~ $regex ]] || fail "stderr does not match '$regex': $err"
}

# Runs the runner with at most 1 GiB of address space: a refusal must come
# before anything large is reserved.
small() { (ulimit -v 1048576; exec timeout 30 "$runner" "$@"); }

# A timed-out device is abandoned, not destroyed (its GPU may still be
# running): the driver's allocations are then reachable only from it, which
# LeakSanitizer reports by design. Only the cases with a hung device use this.
no_leak_check() { export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0; }

case $case_name in
resources)
  if [[ -n ${MESHVK_SANITIZE:-} ]]; then
    echo "skipped: \`ulimit -v\` cannot work under AddressSanitizer (it reserves terabytes of shadow address space);"
    echo "the sanitizer build covers these parsers through fuzz_tensor_io and the other cases"
    exit 77
  fi
  expect 2 5 "given, argument 0 of 'main' is 4x3xf32" -- small add.mvk --input=65536x65536xf32=1 --input=4x3xf32=1
  expect 2 5 "more than 2\^32 elements" -- small add.mvk --input=4294967296x4294967296xf32=1 --input=4x3xf32=1
  expect 2 5 "more than 2\^32 elements" -- small add.mvk --input=65536x65536x2xf32=@a.npy --input=4x3xf32=1
  expect 2 5 "rank 9" -- small add.mvk --input=1x1x1x1x1x1x1x1x1xf32=1 --input=4x3xf32=1
  expect 2 5 "/dev/zero: more than 48 bytes" -- small add.mvk --input=4x3xf32=@/dev/zero --input=4x3xf32=1
  expect 2 5 "/dev/zero: not a .npy file|/dev/zero: .*" -- small add.mvk --input=4x3xf32=@/dev/zero.npy --input=4x3xf32=1
  expect 2 5 "/dev/null: 0 bytes" -- small add.mvk --input=4x3xf32=@/dev/null --input=4x3xf32=1
  expect 2 5 "/dev/zero: " -- small /dev/zero "${AB[@]}"
  # Sparse files of 8 GiB: refused from their size or header, never read.
  truncate -s 8G "$out/sparse.bin"
  expect 2 5 "sparse.bin: 8589934592 bytes, 4x3xf32 needs 48" -- small add.mvk --input=4x3xf32=@"$out/sparse.bin" --input=4x3xf32=1
  cp a.npy "$out/sparse.npy" && truncate -s 8G "$out/sparse.npy"
  expect 2 5 "sparse.npy: 8589934464 data bytes, shape 4x3 of f32 needs 48 \(trailing bytes\)" -- small add.mvk --input=4x3xf32=@"$out/sparse.npy" --input=4x3xf32=1
  cp big_header.npy "$out/big.npy" && truncate -s $(($(stat -c %s big_header.npy) + 8589934592)) "$out/big.npy"
  expect 2 5 "big.npy holds 65536x32768xf32 but the spec says 4x3xf32" -- small add.mvk --input=4x3xf32=@"$out/big.npy" --input=4x3xf32=1
  expect 2 5 "given, argument 0 of 'main' is 4x3xf32" -- small add.mvk --input=65536x32768xf32=@"$out/big.npy" --input=4x3xf32=1
  cp add.mvk "$out/sparse.mvk" && truncate -s 8G "$out/sparse.mvk"
  expect 2 5 "sparse.mvk: .*(larger than|limit)" -- small "$out/sparse.mvk" "${AB[@]}"
  mkfifo "$out/fifo.mvk"
  (head -c 100000000 /dev/zero > "$out/fifo.mvk" &) 2>/dev/null
  expect 2 10 "fifo.mvk: " -- small "$out/fifo.mvk" "${AB[@]}"
  ;;

outputs)
  no_leak_check
  # The umask decides the mode, as for numpy.save.
  (umask 027; "$runner" add.mvk "${AB[@]}" --output=@"$out/m027.npy") || fail "umask 027 run"
  [[ $(stat -c %a "$out/m027.npy") == 640 ]] || fail "umask 027 gave mode $(stat -c %a "$out/m027.npy"), expected 640"
  (umask 002; "$runner" add.mvk "${AB[@]}" --output=@"$out/m002.npy") || fail "umask 002 run"
  [[ $(stat -c %a "$out/m002.npy") == 664 ]] || fail "umask 002 gave mode $(stat -c %a "$out/m002.npy"), expected 664"
  # A symlink at the output path is replaced; its target is not written.
  cp b.npy "$out/target.npy" && ln -s target.npy "$out/link.npy"
  "$runner" add.mvk "${AB[@]}" --output=@"$out/link.npy" || fail "symlink run"
  [[ ! -L $out/link.npy ]] || fail "the symlink was not replaced"
  cmp -s "$out/target.npy" b.npy || fail "the symlink's target was written"
  cmp -s "$out/link.npy" expected_c.npy || fail "the new file has the wrong content"
  # Two results: the second cannot be written -> the first keeps its old
  # content, and no temporary is left.
  cp a.npy "$out/first.npy"
  long=$(printf 'x%.0s' {1..246}).npy  # 250 bytes: its temporary's name is too long
  expect 3 30 "cannot create a temporary file" -- "$runner" add2.mvk "${AB[@]}" --output=@"$out/first.npy" --output=@"$out/$long"
  cmp -s "$out/first.npy" a.npy || fail "first output replaced although the second failed"
  mkdir "$out/dir.npy"
  expect 2 5 "dir.npy: is a directory" -- "$runner" add.mvk "${AB[@]}" --output=@"$out/dir.npy"
  expect 2 5 "is also --output\[0\]" -- "$runner" add2.mvk "${AB[@]}" --output=@"$out/same.npy" --output=@"$out/same.npy"
  "$runner" add2.mvk "${AB[@]}" --output=@"$out/r0.npy" --output=@"$out/r1.npy" || fail "two outputs"
  cmp -s "$out/r0.npy" expected_c.npy && cmp -s "$out/r1.npy" expected_c.npy || fail "two outputs: wrong content"
  # SIGTERM while the run waits on a device that stopped answering: no output,
  # no temporary.
  if [[ -n $layer_dir ]]; then
    VK_LAYER_PATH=$layer_dir VK_INSTANCE_LAYERS=VK_LAYER_MESHVK_fault_injection MESHVK_FAULT_DROP_SUBMIT=1 \
      "$runner" add.mvk "${AB[@]}" --output=@"$out/killed.npy" &
    pid=$!
    sleep 2
    kill -TERM $pid
    wait $pid
    echo "[killed: exit $?]"
  fi
  leftovers=$(ls "$out" | grep -E '\.tmp\.|killed|^x' || true)
  [[ -z $leftovers ]] || fail "left behind: $leftovers"
  ;;

drop)
  no_leak_check
  # A GPU that stops answering: the run ends within the timeout (+ teardown
  # margin) with exit 3 and one line naming the device and the operation.
  export VK_LAYER_PATH=$layer_dir VK_INSTANCE_LAYERS=VK_LAYER_MESHVK_fault_injection
  for n in 1 2; do
    MESHVK_FAULT_DROP_SUBMIT=$n expect 3 12 "(llvmpipe|device).*(timed out|deadline|timeout)" -- \
      timeout 60 "$runner" add.mvk "${AB[@]}" --device-timeout=2 --output=@"$out/drop$n.npy"
    [[ ! -e $out/drop$n.npy ]] || fail "drop $n: output written"
  done
  MESHVK_FAULT_DROP_SUBMIT=1 MESHVK_DEVICE_TIMEOUT_MS=1500 expect 3 12 "(timed out|deadline|timeout)" -- \
    timeout 60 "$runner" allgather4.mvk --input=8xf32=@x.npy
  ;;

faults)
  # Every entry point the runner calls, failed at its first, second and last
  # call, with each error kind: exit 3 (or exit 0 with the right result when
  # the runtime tolerates that failure), one line, no output file, no hang.
  export VK_LAYER_PATH=$layer_dir VK_INSTANCE_LAYERS=VK_LAYER_MESHVK_fault_injection
  args=(add.mvk "${AB[@]}" --expected_output=4x3xf32=@expected_c.npy)
  MESHVK_FAULT_COUNTS=$out/counts "$runner" "${args[@]}" >/dev/null || fail "counting run"
  runs=0
  while read -r name count; do
    for call in 1 2 $count; do
      (( call <= count )) || continue
      for error in ${FAULT_ERRORS:-out-of-device-memory device-lost}; do
        rm -f "$out/report" "$out/f.npy"
        err=$(MESHVK_FAULT_ENTRY_POINT=$name MESHVK_FAULT_CALL=$call MESHVK_FAULT_ERROR=$error \
              MESHVK_FAULT_REPORT=$out/report timeout 60 "$runner" "${args[@]}" --output=@"$out/f.npy" 2>&1 >/dev/null)
        rc=$?
        runs=$((runs + 1))
        what="$name call $call/$count $error"
        [[ -s $out/report ]] || { fail "$what: the fault did not fire"; continue; }
        if [[ $rc == 0 ]]; then
          cmp -s "$out/f.npy" expected_c.npy || fail "$what: exit 0 with a wrong result"
          echo "[0] $what (tolerated, result correct)"
          continue
        fi
        echo "[$rc] $what: $err"
        [[ $rc == 3 ]] || fail "$what: exit $rc, expected 3"
        [[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || fail "$what: stderr is not one line: $err"
        [[ $err == *"$name"* || $err == *VK_ERROR* || $err == *"lost"* ]] || fail "$what: message names neither the call nor the error: $err"
        [[ ! -e $out/f.npy ]] || fail "$what: output file written"
      done
    done
  done < "$out/counts"
  echo "$runs fault runs"
  ;;

soak)
  # 8 concurrent runner processes x 4 programs, SOAK_ROUNDS rounds; every
  # result checked against the host oracle.
  rounds=${SOAK_ROUNDS:-2}
  for ((r = 0; r < rounds; ++r)); do
    pids=()
    for i in 0 1 2 3 4 5 6 7; do
      case $((i % 4)) in
        0) cmd=(add.mvk "${AB[@]}" --expected_output=4x3xf32=@expected_c.npy) ;;
        1) cmd=(allgather4.mvk --input=8xf32=@x.npy --expected_output=8xf32=@x.npy) ;;
        2) cmd=(allgather_i32.mvk "--input=4xi32=1 -2 3 2147483647" --expected_output=4xi32=1,-2,3,2147483647) ;;
        3) cmd=(add2.mvk "${AB[@]}" --expected_output=4x3xf32=@expected_c.npy --expected_output=4x3xf32=@expected_c.npy) ;;
      esac
      timeout 120 "$runner" "${cmd[@]}" > "$out/soak.$i.log" 2>&1 &
      pids+=($!)
    done
    for i in "${!pids[@]}"; do
      wait "${pids[$i]}" || fail "round $r process $i: exit $?: $(cat "$out/soak.$i.log")"
    done
    echo "round $r: 8 runs done"
  done
  ;;

*)
  echo "unknown case $case_name"
  exit 2
  ;;
esac
if (( failures > 0 )); then
  echo "$failures failure(s)"
  exit 1
fi
echo "ok"
