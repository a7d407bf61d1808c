// Target presets, the derived workgroup size, and the one mapping from a
// physical device to a target (no MLIR here: a cheap TU).
#include "meshvk/Codegen/TargetDescription.h"

#include <algorithm>

namespace meshvk::codegen {

uint32_t TargetDescription::workgroupInvocations() const {
  uint32_t limit = std::min(maxWorkgroupInvocations, maxWorkgroupSize[0]);
  uint32_t want = preferredWorkgroupInvocations;
  if (want == 0) {
    // Two subgroups' worth of 4x4 register tiles keeps a 32x32 contraction tile
    // at 64 invocations; on GPUs with 32/64-wide subgroups use 4 subgroups.
    want = std::max<uint32_t>(64, subgroupSize * 4);
    want = std::min<uint32_t>(want, 256);
  }
  want = std::max<uint32_t>(1, std::min(want, limit));
  return want;
}

TargetDescription lavapipeTarget() {
  TargetDescription t;
  t.name = "lavapipe";
  t.maxWorkgroupSize[0] = 1024;
  t.maxWorkgroupSize[1] = 1024;
  t.maxWorkgroupSize[2] = 1024;
  t.maxWorkgroupInvocations = 1024;
  t.maxSharedMemoryBytes = 32768;
  t.subgroupSize = 8;
  t.maxWorkgroupCount = 65535;
  // vulkaninfo on Mesa 22.3.6: shaderFloat16 and storageBuffer16BitAccess = true.
  t.shaderFloat16 = true;
  t.storageBuffer16BitAccess = true;
  t.shaderFloat64 = true; // vulkaninfo: shaderFloat64 = true
  t.preferredWorkgroupInvocations = 64;
  // 16x16 accumulators per invocation. llvmpipe (Mesa 22.3) runs every
  // storage-buffer load as a loop over the SIMD lanes, one guarded scalar
  // load per lane and component, so FMAs per loaded component
  // (rows*cols/(rows+cols)) is what counts: 8x8 measured 1.7-2x faster than
  // 4x4 for 256^3/512^3, 16x16 1.3x faster than 8x8 for 1024^3 (tests/bench
  // BM_MatmulRoof, MESHVK_BENCH_VS A/B in one process).
  t.registerTileRows = 16;
  t.registerTileCols = 16;
  // Two vec4s per invocation: ~1.1x over one on the 16M elementwise chain.
  t.elementwiseElementsPerInvocation = 8;
  return t;
}

TargetDescription gpuTarget() {
  TargetDescription t;
  t.name = "gpu";
  t.family = KernelFamily::Gpu;
  t.maxWorkgroupSize[0] = 1024;
  t.maxWorkgroupSize[1] = 1024;
  t.maxWorkgroupSize[2] = 64;
  t.maxWorkgroupInvocations = 1024;
  t.maxSharedMemoryBytes = 32768;
  t.subgroupSize = 32;
  t.maxWorkgroupCount = 65535;
  // Measured on an NVIDIA H200 (driver 580, mesh-vk-run --benchmark, GPU
  // median of the kernel; sweep of 64/128/256 invocations x 4x4/4x8/8x4/8x8):
  // f32 matmul 1024^3 0.231 ms at 256 x 4x4, 0.167 ms at 128 x 8x8; 4096^3
  // 9.80 -> 6.55 ms (21 TFLOP/s; cuBLAS fp32 2.75 ms). A 3x3 convolution
  // (64 channels, 56x56, batch 8) wants 4x4: 0.589 ms against 1.006 ms at
  // 4x8, with 128 invocations (0.661 ms at 64).
  t.preferredWorkgroupInvocations = 128;
  t.registerTileRows = 8;
  t.registerTileCols = 8;
  t.convRegisterTileRows = 4;
  t.convRegisterTileCols = 4;
  t.elementwiseElementsPerInvocation = 4;
  return t;
}

bool lookupTarget(const std::string &name, TargetDescription *out) {
  if (name == "lavapipe") {
    *out = lavapipeTarget();
    return true;
  }
  if (name == "gpu") {
    *out = gpuTarget();
    return true;
  }
  if (name == "generic") {
    *out = TargetDescription();
    return true;
  }
  return false;
}

TargetDescription targetForDevice(const DeviceProperties &device) {
  // VkPhysicalDeviceType values.
  constexpr uint32_t kIntegrated = 1, kDiscrete = 2, kVirtual = 3, kCpu = 4;
  TargetDescription t;
  if (device.deviceType == kCpu)
    t = lavapipeTarget();
  else if (device.deviceType == kIntegrated || device.deviceType == kDiscrete ||
           device.deviceType == kVirtual)
    t = gpuTarget();
  // No type reported: Mesa's lavapipe names itself "llvmpipe (LLVM <version>, <bits> bits)".
  else if (device.deviceType == 0 && device.name.find("llvmpipe") != std::string::npos)
    t = lavapipeTarget();
  t.name = device.name;
  auto reported = [](uint32_t value, uint32_t preset) { return value ? value : preset; };
  for (int i = 0; i < 3; ++i)
    t.maxWorkgroupSize[i] = reported(device.maxWorkgroupSize[i], t.maxWorkgroupSize[i]);
  t.maxWorkgroupCount = reported(device.maxWorkgroupCount[0], t.maxWorkgroupCount);
  t.maxWorkgroupInvocations = reported(device.maxWorkgroupInvocations, t.maxWorkgroupInvocations);
  t.maxSharedMemoryBytes = reported(device.maxSharedMemoryBytes, t.maxSharedMemoryBytes);
  t.subgroupSize = reported(device.subgroupSize, t.subgroupSize);
  t.shaderFloat16 = device.shaderFloat16;
  t.storageBuffer16BitAccess = device.storageBuffer16BitAccess;
  t.shaderFloat64 = device.shaderFloat64;
  return t;
}

TargetDescription commonTarget(const std::vector<TargetDescription> &devices) {
  if (devices.empty())
    return TargetDescription();
  TargetDescription t = devices.front();
  // A knob the devices disagree on is derived from the common limits instead.
  auto agreed = [](uint32_t &common, uint32_t other) { common = common == other ? common : 0; };
  std::vector<std::string> names;
  for (const TargetDescription &d : devices) {
    if (std::find(names.begin(), names.end(), d.name) == names.end())
      names.push_back(d.name);
    for (int i = 0; i < 3; ++i)
      t.maxWorkgroupSize[i] = std::min(t.maxWorkgroupSize[i], d.maxWorkgroupSize[i]);
    t.maxWorkgroupInvocations = std::min(t.maxWorkgroupInvocations, d.maxWorkgroupInvocations);
    t.maxSharedMemoryBytes = std::min(t.maxSharedMemoryBytes, d.maxSharedMemoryBytes);
    t.maxWorkgroupCount = std::min(t.maxWorkgroupCount, d.maxWorkgroupCount);
    t.subgroupSize = std::min(t.subgroupSize, d.subgroupSize);
    t.shaderFloat16 = t.shaderFloat16 && d.shaderFloat16;
    t.storageBuffer16BitAccess = t.storageBuffer16BitAccess && d.storageBuffer16BitAccess;
    t.shaderFloat64 = t.shaderFloat64 && d.shaderFloat64;
    agreed(t.preferredWorkgroupInvocations, d.preferredWorkgroupInvocations);
    agreed(t.registerTileRows, d.registerTileRows);
    agreed(t.registerTileCols, d.registerTileCols);
    agreed(t.convRegisterTileRows, d.convRegisterTileRows);
    agreed(t.convRegisterTileCols, d.convRegisterTileCols);
    agreed(t.elementwiseElementsPerInvocation, d.elementwiseElementsPerInvocation);
    // Mixed families: the CPU family's defaults (knobs derived from the limits).
    if (t.family != d.family)
      t.family = KernelFamily::Cpu;
  }
  t.name = names.front();
  for (size_t i = 1; i < names.size(); ++i)
    t.name += " + " + names[i];
  // Rows and columns are one tile: derive both when either differs.
  if (t.registerTileRows == 0 || t.registerTileCols == 0)
    t.registerTileRows = t.registerTileCols = 0;
  if (t.convRegisterTileRows == 0 || t.convRegisterTileCols == 0)
    t.convRegisterTileRows = t.convRegisterTileCols = 0;
  return t;
}

} // namespace meshvk::codegen
