#!/usr/bin/env bash
# The C API's ABI against its stored baseline (libabigail; tests/abi/CMakeLists.txt).
#
#   check_abi.sh check|update|selftest PROBE_LIBRARY RUNTIME_LIBRARY BASELINE_DIR WORK_DIR
#
# check:    abidw the probe (every public type and signature), abidiff against
#           BASELINE_DIR/meshvk_runtime.abi, and the runtime's exported symbols
#           (name@version) against BASELINE_DIR/meshvk_runtime.symbols. Fails
#           on a changed or removed function, variable, type or symbol, on a
#           tool error, and on a symbol outside a MESHVK_1.x version node.
#           Additions pass and are printed.
# update:   rewrite both baseline files from the libraries as built.
# selftest: the check must fail on a deliberately changed struct (a baseline
#           with meshvk_invoke_info_s's `timeout` 64 bits later) and on a
#           removed symbol (a baseline exporting one the library lacks).
set -euo pipefail
mode=$1 probe=$2 library=$3 baseline_dir=$4 work=$5
abidw=${MESHVK_ABIDW:-abidw}
abidiff=${MESHVK_ABIDIFF:-abidiff}
mkdir -p "$work"
abi=$baseline_dir/meshvk_runtime.abi
symbols=$baseline_dir/meshvk_runtime.symbols

"$abidw" --no-corpus-path --no-show-locs --out-file "$work/current.abi" "$probe"
objdump -T "$library" | awk '/ meshvk_/ {print $NF "@" $(NF-1)}' | sort > "$work/current.symbols"

# compare BASELINE.abi BASELINE.symbols: 0 when only additions, 1 otherwise.
compare() {
  local base_abi=$1 base_symbols=$2 failed=0 rc
  set +e
  "$abidiff" "$base_abi" "$work/current.abi" > "$work/abidiff.report" 2>&1
  rc=$?
  set -e
  if (( rc & 1 || rc & 2 )); then
    echo "check_abi: abidiff failed (exit $rc):"
    cat "$work/abidiff.report"
    return 1
  fi
  # A change to a type or signature shows as a Changed (or Removed) function or
  # variable of the probe; only Added entries are compatible.
  if (( rc & 8 )) || grep -Eq '(^|, )[1-9][0-9]* (Removed|Changed)' "$work/abidiff.report"; then
    echo "check_abi: FAILED: the C API's types or signatures changed (against $(basename "$base_abi")):"
    cat "$work/abidiff.report"
    failed=1
  elif (( rc & 4 )); then
    echo "check_abi: additions (refresh the baseline when they ship: check_abi.sh update):"
    cat "$work/abidiff.report"
  fi
  local removed added
  removed=$(comm -23 "$base_symbols" "$work/current.symbols")
  added=$(comm -13 "$base_symbols" "$work/current.symbols")
  if [ -n "$removed" ]; then
    echo "check_abi: FAILED: symbols the baseline exports and the library does not (or under another version):"
    echo "$removed"
    failed=1
  fi
  [ -n "$added" ] && { echo "check_abi: new symbols:"; echo "$added"; }
  local unversioned
  unversioned=$(grep -v '@MESHVK_1\.' "$work/current.symbols" || true)
  if [ -n "$unversioned" ]; then
    echo "check_abi: FAILED: exported without a MESHVK_1.x version node: $unversioned"
    failed=1
  fi
  return $failed
}

case $mode in
update)
  cp "$work/current.abi" "$abi"
  cp "$work/current.symbols" "$symbols"
  echo "check_abi: baseline written: $abi, $symbols"
  ;;
check)
  compare "$abi" "$symbols"
  echo "check_abi: the ABI matches the baseline ($(wc -l < "$work/current.symbols") symbols under MESHVK_1.x)"
  ;;
selftest)
  python3 - "$abi" "$work/moved.abi" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
start = text.index("<class-decl name='meshvk_invoke_info_s'")
end = text.index('</class-decl>', start)
body = text[start:end]
member = re.search(r"layout-offset-in-bits='(\d+)'>\s*<var-decl name='timeout'", body)
if not member:
    sys.exit("check_abi selftest: no member timeout in meshvk_invoke_info_s of the baseline")
moved = member.group(0).replace(member.group(1), str(int(member.group(1)) + 64), 1)
open(sys.argv[2], 'w').write(text[:start] + body.replace(member.group(0), moved, 1) + text[end:])
PY
  if compare "$work/moved.abi" "$symbols" > "$work/selftest.moved" 2>&1; then
    echo "check_abi selftest: FAILED: a moved member of meshvk_invoke_info_s passed:"
    cat "$work/selftest.moved"
    exit 1
  fi
  { cat "$symbols"; echo "meshvk_abi_removed_symbol@MESHVK_1.0"; } | sort > "$work/extra.symbols"
  if compare "$abi" "$work/extra.symbols" > "$work/selftest.removed" 2>&1; then
    echo "check_abi selftest: FAILED: a symbol missing from the library passed:"
    cat "$work/selftest.removed"
    exit 1
  fi
  echo "check_abi selftest: a moved struct member and a removed symbol both fail the check:"
  grep -m1 "offset changed" "$work/selftest.moved" || true
  grep -m1 "meshvk_abi_removed_symbol" "$work/selftest.removed" || true
  ;;
*)
  echo "check_abi: unknown mode $mode" >&2
  exit 2
  ;;
esac
