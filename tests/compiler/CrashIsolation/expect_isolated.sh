#!/usr/bin/env bash
# expect_isolated.sh OUT_DIR REGEX -- TOOL ARGS...: the tool refuses an input
# whose compilation crashes upstream code: exit 2, exactly one line on stderr
# matching REGEX (the stage and the place), no core, no output file left in
# OUT_DIR, and it takes no longer than a normal refusal.
set -uo pipefail
out=$1 regex=$2
shift 3
rm -rf "$out" && mkdir -p "$out"
err=$(cd "$out" && timeout 120 "$@" 2>&1 >/dev/null)
rc=$?
echo "[exit $rc] $*"
echo "stderr: $err"
[[ $rc == 2 ]] || { echo "FAIL: exit $rc, expected 2 (a signal is 128+N)"; exit 1; }
[[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || { echo "FAIL: stderr is not one line"; exit 1; }
[[ $err =~ $regex ]] || { echo "FAIL: stderr does not match '$regex'"; exit 1; }
left=$(ls -A "$out")
[[ -z $left ]] || { echo "FAIL: files left behind: $left"; exit 1; }
echo PASS
