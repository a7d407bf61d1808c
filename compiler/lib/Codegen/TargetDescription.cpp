// Target presets and the derived workgroup size (no MLIR here: a cheap TU).
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
  t.preferredWorkgroupInvocations = 64;
  // 8x8 accumulators per invocation: measured 1.7-2x faster than 4x4 (and
  // than the hand-written 4x8 vec4 kernel) for 256^3 and 512^3 f32 matmuls.
  t.registerTileRows = 8;
  t.registerTileCols = 8;
  // Two vec4s per invocation: ~1.1x over one on the 16M elementwise chain.
  t.elementwiseElementsPerInvocation = 8;
  return t;
}

bool lookupTarget(const std::string& name, TargetDescription* out) {
  if (name == "lavapipe") {
    *out = lavapipeTarget();
    return true;
  }
  if (name == "generic") {
    *out = TargetDescription();
    return true;
  }
  return false;
}

TargetDescription withPresetTuning(TargetDescription device) {
  // Mesa's lavapipe reports "llvmpipe (LLVM <version>, <bits> bits)".
  bool lavapipe = device.name.find("llvmpipe") != std::string::npos;
  TargetDescription preset = lavapipe ? lavapipeTarget() : TargetDescription();
  device.preferredWorkgroupInvocations = preset.preferredWorkgroupInvocations;
  device.registerTileRows = preset.registerTileRows;
  device.registerTileCols = preset.registerTileCols;
  device.elementwiseElementsPerInvocation = preset.elementwiseElementsPerInvocation;
  return device;
}

}  // namespace meshvk::codegen
