#!/usr/bin/env bash
# mesh-vk-run --list-devices shows each device's UUIDs and driver (issue 28),
# as the emulation layer's separate modes present them: the same UUIDs for
# lavapipe twice, its own deviceUUID per device with UUIDS=distinct, and also
# its own driverUUID and driver with DRIVERS=mixed.
#   list_devices_ids.sh RUNNER   (the layer's environment is set by ctest)
set -uo pipefail
runner=$1
failures=0
# count MODE_ENV... -> "DEVICE_UUIDS DRIVER_UUIDS DRIVERS" (distinct values)
count() {
  local out
  out=$(env "$@" "$runner" --list-devices) || { echo "FAIL: --list-devices exited $? ($*)"; exit 1; }
  local lines
  lines=$(printf '%s\n' "$out" | grep -E '^      device UUID [0-9a-f-]{36}, driver UUID [0-9a-f-]{36}, driver ')
  [[ $(printf '%s\n' "$lines" | wc -l) == 2 ]] || { echo "FAIL: not one UUID line per device ($*):"; echo "$out"; exit 1; }
  printf '%s %s %s' \
    "$(printf '%s\n' "$lines" | sed -E 's/.*device UUID ([^,]*),.*/\1/' | sort -u | wc -l)" \
    "$(printf '%s\n' "$lines" | sed -E 's/.*driver UUID ([^,]*),.*/\1/' | sort -u | wc -l)" \
    "$(printf '%s\n' "$lines" | sed -E 's/.*, driver (.*)$/\1/' | sort -u | wc -l)"
}
expect() {
  local want=$1
  shift
  local got
  got=$(count "$@")
  echo "[$got] $*"
  [[ $got == "$want" ]] || { echo "FAIL: distinct (device UUIDs, driver UUIDs, drivers) = $got, expected $want"; failures=$((failures + 1)); }
}
expect "1 1 1" MESHVK_EMULATED_UUIDS=shared
expect "2 1 1" MESHVK_EMULATED_UUIDS=distinct
expect "2 2 2" MESHVK_EMULATED_DRIVERS=mixed
[[ $failures == 0 ]] && echo PASS
exit $((failures > 0))
