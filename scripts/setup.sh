#!/usr/bin/env bash
# Installs every Debian 12 package meshvk needs to build and test, and nothing
# when all of them are already present. Used by both README commands and by CI.
set -euo pipefail

# llvm-14: Debian's clang-14 ASan runtime calls /usr/bin/llvm-symbolizer-14
# (hard-coded); without it every sanitizer report gains a warning line.
# libpng-dev: samples/embed-render writes its frame as PNG.
# libopenblas-dev: tests/bench's CPU reference (cblas_sgemm) for the matmul/conv.
# abigail-tools: abidw/abidiff hold the C API to its ABI baseline (tests/abi).
# scripts/check-fresh-machine.sh proves this list on a bare Debian 12 root.
packages=(
  build-essential cmake ninja-build ccache pkg-config python3 git ca-certificates
  clang libclang-rt-14-dev llvm-14 clang-format-22
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libvulkan-dev libvulkan-volk-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  spirv-tools spirv-headers libshaderc-dev glslc glslang-tools
  libflatbuffers-dev flatbuffers-compiler
  libgtest-dev libgmock-dev libbenchmark-dev libopenblas-dev
  libcli11-dev zlib1g-dev libpng-dev graphviz
  python3-dev python3-numpy python3-pybind11 pybind11-dev python3-pytest
  libopenmpi-dev openmpi-bin
  libonnx-dev libprotobuf-dev protobuf-compiler python3-onnx libonnx-testdata
  abigail-tools
  python3-torch python3-torchvision
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "meshvk setup: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
