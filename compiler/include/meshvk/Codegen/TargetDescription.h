//===- TargetDescription.h - the device kernels are tiled for ---*- C++ -*-===//
//
// What the kernel code generator knows about the device that will run the
// kernels: its limits and the tuning knobs measured for it. Plain structs (no
// MLIR, no Vulkan), so that tools linking the runtime fill them without the
// compiler linking Vulkan. Tile sizes are chosen from these (DESIGN.md §2).
//
//===----------------------------------------------------------------------===//
#ifndef MESHVK_CODEGEN_TARGETDESCRIPTION_H_
#define MESHVK_CODEGEN_TARGETDESCRIPTION_H_

#include <cstdint>
#include <string>
#include <vector>

namespace meshvk::codegen {

// The family of codegen choices a target's kernels get (its tuning knobs'
// defaults; DESIGN.md §2). Chosen from what the device reports, never from
// its name: targetForDevice.
enum class KernelFamily : uint8_t {
  // Devices that run a workgroup's invocations as SIMD lanes of CPU cores
  // (VK_PHYSICAL_DEVICE_TYPE_CPU: lavapipe): few invocations, big register
  // tiles (every buffer load is a per-lane loop there).
  Cpu,
  // Discrete, integrated and virtual GPUs: more invocations (128 per
  // workgroup), register tiles of 8x8 for matmuls and 4x4 for convolutions
  // (gpuTarget: measured on an NVIDIA H200), one vec4 per invocation for
  // elementwise ops.
  Gpu,
};

// The most elements of one row a row tile holds: the row's temporaries (an
// exp row both a sum and a division read) live in invocation-private memory.
// meshvk-fuse-row-chains merges only rows this long, so what it merges
// codegen can tile.
constexpr int64_t kMaxRowTileElements = 4096;

// The most buffers one kernel binds (its arguments and results): the
// runtime's artifact verifier refuses more (kMaxBindings in
// runtime/src/module/artifact_verifier.h). Kernel merges stop short of it.
constexpr int64_t kMaxKernelBindings = 32;

struct TargetDescription {
  std::string name = "generic";
  KernelFamily family = KernelFamily::Cpu;
  // VkPhysicalDeviceLimits::maxComputeWorkGroupSize / Invocations.
  uint32_t maxWorkgroupSize[3] = {128, 128, 64};
  uint32_t maxWorkgroupInvocations = 128;
  // VkPhysicalDeviceLimits::maxComputeSharedMemorySize (bytes).
  uint32_t maxSharedMemoryBytes = 16384;
  // VkPhysicalDeviceSubgroupProperties::subgroupSize.
  uint32_t subgroupSize = 32;
  // VkPhysicalDeviceLimits::maxComputeWorkGroupCount[0]: the default workgroup
  // count recorded for a kernel is clamped to it (kernels are grid-stride, so
  // any count >= 1 is correct).
  uint32_t maxWorkgroupCount = 65535;
  // VkPhysicalDeviceShaderFloat16Int8Features::shaderFloat16 and
  // VkPhysicalDevice16BitStorageFeatures::storageBuffer16BitAccess: both are
  // needed for f16 kernels.
  bool shaderFloat16 = false;
  bool storageBuffer16BitAccess = false;
  // VkPhysicalDeviceFeatures::shaderFloat64: f64 kernels (an ONNX DOUBLE
  // tensor is computed as f64 where it is set, as f32 elsewhere).
  bool shaderFloat64 = false;
  // Invocations per workgroup the tiler aims for (a multiple of subgroupSize,
  // at most maxWorkgroupInvocations). 0: derive from the limits.
  uint32_t preferredWorkgroupInvocations = 0;
  // Per-invocation register tile of a contraction's output (rows x columns).
  // 0: derive from the target.
  uint32_t registerTileRows = 0;
  uint32_t registerTileCols = 0;
  // The cap on a convolution's register tile (an op with several reduction
  // loops: the window loops nest around the tile's body). 0: 4 x 8.
  uint32_t convRegisterTileRows = 0;
  uint32_t convRegisterTileCols = 0;
  // Consecutive elements per invocation for elementwise ops whose rows allow
  // it (a multiple of 4; 4 is the fallback). 0: 4.
  uint32_t elementwiseElementsPerInvocation = 0;

  bool supportsF16() const { return shaderFloat16 && storageBuffer16BitAccess; }
  // The workgroup size the tiler uses (resolves the 0 = derive defaults).
  uint32_t workgroupInvocations() const;
};

// Mesa lavapipe 22.3 (llvmpipe): subgroup 8, 1024 invocations, 32 KiB shared
// memory, shaderFloat16 + storageBuffer16BitAccess, shaderFloat64.
TargetDescription lavapipeTarget();

// The GPU family's preset (mesh-vk-compile --target-device=gpu, Python
// target="gpu"): limits every desktop GPU and lavapipe meet (1024
// invocations, 32 KiB shared memory, subgroup 32), 128 invocations per
// workgroup, 8x8 register tiles (4x4 for convolutions), 4 elements per
// invocation. Forced on any device (lavapipe included) its kernels run
// correctly, tiled for a GPU.
TargetDescription gpuTarget();

// Named presets: "lavapipe", "gpu", "generic". Returns false for an unknown name.
bool lookupTarget(const std::string &name, TargetDescription *out);

// What a physical device reports (VkPhysicalDeviceProperties, limits and
// features), as the runtime's discovery gives it. 0 = not reported.
struct DeviceProperties {
  std::string name; // VkPhysicalDeviceProperties::deviceName
  // VkPhysicalDeviceProperties::deviceType (VkPhysicalDeviceType: 1
  // integrated, 2 discrete, 3 virtual GPU, 4 CPU; 0 other/not reported).
  uint32_t deviceType = 0;
  uint32_t maxWorkgroupSize[3] = {0, 0, 0};
  uint32_t maxWorkgroupCount[3] = {0, 0, 0};
  uint32_t maxWorkgroupInvocations = 0;
  uint32_t maxSharedMemoryBytes = 0;
  uint32_t subgroupSize = 0;
  bool shaderFloat16 = false;
  bool storageBuffer16BitAccess = false;
  bool shaderFloat64 = false;
};

// THE mapping from a physical device to the codegen target (mesh-vk-compile
// --target-device=auto, mesh-vk-run compiling .mlir in-process, the codegen
// tests): limits and features from the device; the family, the tuning knobs
// (preferred workgroup invocations, register tile, elementwise elements per
// invocation) and any limit the device does not report from the preset of
// its device type — a CPU device gets lavapipe's (the CPU family), an
// integrated, discrete or virtual GPU gpuTarget()'s, any other generic's (0
// = derive from the limits); a device that reports no type and whose name
// says llvmpipe gets lavapipe's — so a probed device is tiled like its preset.
TargetDescription targetForDevice(const DeviceProperties &device);

// One target whose kernels run on every device of `devices` (a run over
// several, possibly different, GPUs: the artifact holds one SPIR-V per kernel,
// so each process's device must accept it): each limit the smallest, f16 only
// where every device has it, the subgroup size the smallest, and a tuning knob
// kept only when every device's target has the same value (else 0: derive
// from the common limits). The name joins the distinct device names with
// " + ". Identical devices give that device's target; none gives generic's.
TargetDescription commonTarget(const std::vector<TargetDescription> &devices);

} // namespace meshvk::codegen

#endif // MESHVK_CODEGEN_TARGETDESCRIPTION_H_
