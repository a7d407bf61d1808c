// RUN: mesh-vk-opt %s -verify-diagnostics --meshvk-tile-and-distribute=target=generic
// RUN: not mesh-vk-opt %s --meshvk-tile-and-distribute=target=nosuchgpu 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute=target=lavapipe | FileCheck %s --check-prefix=F16

// UNKNOWN: unknown codegen target 'nosuchgpu'; expected lavapipe, gpu or generic

// lavapipe has shaderFloat16 + storageBuffer16BitAccess:
// F16: memref<8x8xf16>
// F16: gpu.launch

// The generic target has no 16-bit support:
// expected-error @+1 {{kernel uses f16 but target 'generic' lacks shaderFloat16 + storageBuffer16BitAccess}}
func.func @half(%a: tensor<8x8xf16>) -> tensor<8x8xf16> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x8xf16>
  %r = linalg.transpose ins(%a : tensor<8x8xf16>) outs(%e : tensor<8x8xf16>) permutation = [1, 0]
  return %r : tensor<8x8xf16>
}
