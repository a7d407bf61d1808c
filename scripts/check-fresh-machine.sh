#!/usr/bin/env bash
# Proves the README's commands on a bare Debian 12 machine: builds a
# `debootstrap --variant=minbase bookworm` root from this machine's own apt
# sources, clones the repository's committed HEAD into it (a clean clone: no
# build outputs, no uncommitted files) and runs `bash .ci/run` there, exactly
# as CI does. Run it (as root) after changing scripts/setup.sh or adding a
# dependency: this machine has more installed than a user's, so a green build
# here does not prove the setup.
#
#   scripts/check-fresh-machine.sh [--setup-only] [ROOT]
#
# ROOT defaults to /var/tmp/meshvk-fresh (reused when it already holds a
# bootstrapped root: delete it for a truly fresh run). --setup-only stops after
# scripts/setup.sh and the CMake configure step (minutes instead of the whole
# suite): enough to catch a missing package. Exit status: that of the run.
set -euo pipefail

setup_only=0
if [ "${1:-}" = --setup-only ]; then setup_only=1; shift; fi
root=${1:-/var/tmp/meshvk-fresh}
repo=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
  echo "check-fresh-machine: needs root (debootstrap and chroot)" >&2
  exit 2
fi
if ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

# The first Debian mirror this machine's apt uses (deb822 or one-line form).
mirror=$(grep -hoE '^URIs: *[^ ]+' /etc/apt/sources.list.d/*.sources 2>/dev/null |
  awk '{print $2}' | grep -m1 '/debian$' || true)
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list)
fi
mirror=${mirror:-http://deb.debian.org/debian}

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "check-fresh-machine: debootstrap minbase bookworm into $root from $mirror" >&2
  debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
fi
# The root gets this machine's apt sources (security and updates included) and
# name resolution, nothing else.
rm -f "$root/etc/apt/sources.list"
mkdir -p "$root/etc/apt/sources.list.d"
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"

rm -rf "$root/meshvk"
git clone -q --no-hardlinks "$repo" "$root/meshvk"

mounts=(proc sys dev dev/pts)
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount -l "$root/${mounts[$i]}" 2>/dev/null || true
  done
}
trap cleanup EXIT
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts" 2>/dev/null || true

if [ "$setup_only" = 1 ]; then
  run='bash scripts/setup.sh && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release'
else
  run='bash .ci/run'
fi
# apt-get needs a package list before the first install; setup.sh runs
# `apt-get update` itself only when something is missing, which it always is here.
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 CI="${CI:-}" bash -c "cd /meshvk && $run"
