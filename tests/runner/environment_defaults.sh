#!/usr/bin/env bash
# The environment variables mesh-vk-run turns into create-info fields
# (samples/common/meshvk_environment.h), seen from outside:
#   environment_defaults.sh RUNNER DATA_DIR
# MESHVK_PIPELINE_CACHE: a directory gets the cache file, `off` writes none,
# unset leaves the library's default ($XDG_CACHE_HOME/meshvk); a bad
# MESHVK_RANK_COLLECTIVES or MESHVK_DEVICE_TIMEOUT_MS is one line, exit 2.
set -uo pipefail
runner=$1 data=$2
cd "$data" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
AB=(--input=4x3xf32=@a.npy --input=4x3xf32=@b.npy)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
files() { find "$1" -name 'pipelines-*.bin' 2>/dev/null | wc -l; }
run() { env -u MESHVK_PIPELINE_CACHE -u MESHVK_RANK_COLLECTIVES -u MESHVK_DEVICE_TIMEOUT_MS "$@" >/dev/null 2>"$tmp/err"; }

run XDG_CACHE_HOME="$tmp/xdg" "$runner" add.mvk "${AB[@]}" || fail "default run: $(cat "$tmp/err")"
[[ $(files "$tmp/xdg/meshvk") == 1 ]] || fail "unset: no cache file under \$XDG_CACHE_HOME/meshvk"

run XDG_CACHE_HOME="$tmp/xdg2" MESHVK_PIPELINE_CACHE="$tmp/chosen" "$runner" add.mvk "${AB[@]}" ||
  fail "chosen run: $(cat "$tmp/err")"
[[ $(files "$tmp/chosen") == 1 ]] || fail "MESHVK_PIPELINE_CACHE=DIR: no cache file in DIR"
[[ $(files "$tmp/xdg2") == 0 ]] || fail "MESHVK_PIPELINE_CACHE=DIR: a file under \$XDG_CACHE_HOME as well"

run XDG_CACHE_HOME="$tmp/xdg3" MESHVK_PIPELINE_CACHE=off "$runner" add.mvk "${AB[@]}" || fail "off run: $(cat "$tmp/err")"
[[ $(files "$tmp/xdg3") == 0 && ! -e off ]] || fail "MESHVK_PIPELINE_CACHE=off: a cache file was written"

for bad in "MESHVK_RANK_COLLECTIVES=mpi|MESHVK_RANK_COLLECTIVES=mpi: expected transport, staged, ring or copies" \
  "MESHVK_DEVICE_TIMEOUT_MS=-5|MESHVK_DEVICE_TIMEOUT_MS='-5': expected milliseconds"; do
  setting=${bad%%|*} expected=${bad#*|}
  run "$setting" "$runner" add.mvk "${AB[@]}"
  rc=$?
  [[ $rc == 2 ]] || fail "$setting: exit $rc, expected 2"
  [[ $(wc -l <"$tmp/err") == 1 ]] || fail "$setting: stderr is not one line: $(cat "$tmp/err")"
  grep -qF -- "$expected" "$tmp/err" || fail "$setting: stderr lacks '$expected': $(cat "$tmp/err")"
done
echo "$failures failure(s)"
exit $((failures > 0))
