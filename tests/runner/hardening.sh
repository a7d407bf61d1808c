#!/usr/bin/env bash
# mesh-vk-run under hostile conditions, one case per ctest entry:
#   hardening.sh CASE RUNNER DATA_DIR [FAULT_LAYER_DIR]
# Cases: resources (huge shapes, /dev/zero, sparse multi-GiB files under
# `ulimit -v`), outputs (umask, symlinks, all-or-nothing), drop (a GPU that
# stops answering), faults (an injected Vulkan error at each call of each
# entry point: exit 3, one line, no output file), soak (8 concurrent runs),
# campaign (round-3 findings: refused kernels, env values, device flags,
# host memory, SIGINT, concurrent writers, FIFOs).
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
  ln -s /dev/zero "$out/zero.npy"
  expect 2 5 "zero.npy: not a .npy file" -- small add.mvk --input=4x3xf32=@"$out/zero.npy" --input=4x3xf32=1
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
  # Twice: a program run (module, program, invoke) and --self-check (the
  # buffer, executable, command buffer and semaphore calls directly).
  export VK_LAYER_PATH=$layer_dir VK_INSTANCE_LAYERS=VK_LAYER_MESHVK_fault_injection
  runs=0
  sweep() {  # sweep NAME ARGS...: the command's calls, each failed in turn
    local label=$1
    shift
    MESHVK_FAULT_COUNTS=$out/counts "$runner" "$@" >/dev/null || fail "$label: counting run"
    while read -r name count; do
      for call in 1 2 $count; do
        (( call <= count )) || continue
        for error in ${FAULT_ERRORS:-out-of-device-memory device-lost}; do
          rm -f "$out/report" "$out/f.npy"
          local extra=()
          [[ $label == program ]] && extra=(--output=@"$out/f.npy")
          err=$(MESHVK_FAULT_ENTRY_POINT=$name MESHVK_FAULT_CALL=$call MESHVK_FAULT_ERROR=$error \
                MESHVK_FAULT_REPORT=$out/report timeout 60 "$runner" "$@" "${extra[@]}" 2>&1 >/dev/null)
          rc=$?
          runs=$((runs + 1))
          what="$label: $name call $call/$count $error"
          [[ -s $out/report ]] || { fail "$what: the fault did not fire"; continue; }
          if [[ $rc == 0 ]]; then
            [[ $label != program ]] || cmp -s "$out/f.npy" expected_c.npy || fail "$what: exit 0 with a wrong result"
            echo "[0] $what (tolerated, result correct)"
            continue
          fi
          echo "[$rc] $what: $err"
          [[ $rc == 3 ]] || fail "$what: exit $rc, expected 3"
          [[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || fail "$what: stderr is not one line: $err"
          [[ $err == *"$name"* || $err == *VK_ERROR* || $err == *"lost"* || $err == *"answering"* ]] ||
            fail "$what: message names neither the call nor the error: $err"
          [[ ! -e $out/f.npy ]] || fail "$what: output file written"
        done
      done
    done < "$out/counts"
  }
  sweep program add.mvk "${AB[@]}" --expected-output=4x3xf32=@expected_c.npy
  sweep self-check --self-check --devices=2
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
        0) cmd=(add.mvk "${AB[@]}" --expected-output=4x3xf32=@expected_c.npy) ;;
        1) cmd=(allgather4.mvk --input=8xf32=@x.npy --expected-output=8xf32=@x.npy) ;;
        2) cmd=(allgather_i32.mvk "--input=4xi32=1 -2 3 2147483647" --expected-output=4xi32=1,-2,3,2147483647) ;;
        3) cmd=(add2.mvk "${AB[@]}" --expected-output=4x3xf32=@expected_c.npy --expected-output=4x3xf32=@expected_c.npy) ;;
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

campaign)
  # Issue 13 round 3: hostile inputs beyond the issue's examples, each once a
  # crash, a silent default or a wrong exit code.
  # Kernels the verifier refuses at load (exit 2), before any device work.
  expect 2 10 "push_mismatch.mvk: executables\[0\].push_constant_size: 12 bytes declared, the push-constant block of 'main' in its SPIR-V needs 8" -- \
    "$runner" push_mismatch.mvk --input=12xf32=1 --input=12xf32=1
  expect 2 10 "builtin_flip.mvk: executables\[0\].spirv: built-in %[0-9]+ \(LocalInvocationIndex\) is a 3-component vector of 32-bit integers; Vulkan requires a 32-bit integer" -- \
    "$runner" builtin_flip.mvk --input=12xf32=1 --input=12xf32=1
  # Usage errors found by the runtime: exit 2, not 3.
  expect 2 10 "physical device 0 listed twice" -- "$runner" add.mvk "${AB[@]}" --devices=0,0
  # A bad wait bound in the environment is refused, not silently replaced by
  # 60 s (18446744073710 ms wrapped to a 0.4 s bound in ns).
  expect 2 10 "MESHVK_DEVICE_TIMEOUT_MS='abc': expected milliseconds, 1..86400000" -- \
    env MESHVK_DEVICE_TIMEOUT_MS=abc "$runner" add.mvk "${AB[@]}"
  expect 2 10 "MESHVK_DEVICE_TIMEOUT_MS='18446744073710'" -- env MESHVK_DEVICE_TIMEOUT_MS=18446744073710 "$runner" add.mvk "${AB[@]}"
  expect 0 30 "^$" -- env MESHVK_DEVICE_TIMEOUT_MS=30000 "$runner" add.mvk "${AB[@]}" --expected-output=4x3xf32=@expected_c.npy
  # Arguments the signature allows (2^32 elements) but a 1 GiB process cannot
  # hold (was std::bad_alloc -> abort, exit 134; then exit 3 "out of host
  # memory"): the device limit refuses the program before any input is
  # allocated, one line and exit 2 (inputs are read after program creation).
  if [[ -z ${MESHVK_SANITIZE:-} ]]; then
    expect 2 10 "17179869184 bytes > the device's maxMemoryAllocationSize" -- \
      small huge_args.mvk --input=4294967296xf32=1 --input=4294967296xf32=1
  fi
  # SIGINT during a run (a long benchmark): the run ends, the old output stays,
  # no temporary is left.
  mkdir -p "$out/sig" && echo old > "$out/sig/c.npy"
  timeout -s INT 2 "$runner" add.mvk "${AB[@]}" --benchmark=1000000 --output=@"$out/sig/c.npy" > /dev/null 2>&1
  rc=$?
  echo "[$rc] SIGINT during --benchmark=1000000"
  [[ $rc == 124 ]] || fail "SIGINT run: exit $rc (124: timeout sent SIGINT and the run ended)"
  [[ $(cat "$out/sig/c.npy") == old ]] || fail "SIGINT run: the old output was replaced"
  [[ $(ls "$out/sig") == c.npy ]] || fail "SIGINT run left files: $(ls "$out/sig")"
  # Two runs writing the same output at once: both succeed, the file is one
  # complete result (rename is atomic), no temporaries.
  for i in 1 2 3; do
    "$runner" add.mvk "${AB[@]}" --output=@"$out/sig/same.npy" > /dev/null 2>&1 &
    p1=$!
    "$runner" add.mvk "${AB[@]}" --output=@"$out/sig/same.npy" > /dev/null 2>&1 || fail "concurrent run $i (second)"
    wait $p1 || fail "concurrent run $i (first)"
    cmp -s "$out/sig/same.npy" expected_c.npy || fail "concurrent run $i: the output is not the expected result"
  done
  [[ $(ls "$out/sig" | tr '\n' ' ') == "c.npy same.npy " ]] || fail "concurrent runs left files: $(ls "$out/sig")"
  echo "[0] 3 pairs of concurrent runs writing one output"
  # An input FIFO with a writer is read like a file.
  mkfifo "$out/in.npy"
  (cat a.npy > "$out/in.npy" &) 2>/dev/null
  expect 0 30 "^$" -- "$runner" add.mvk --input=4x3xf32=@"$out/in.npy" --input=4x3xf32=@b.npy --expected-output=4x3xf32=@expected_c.npy
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
