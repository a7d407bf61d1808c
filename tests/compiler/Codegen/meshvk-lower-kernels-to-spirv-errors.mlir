// RUN: mesh-vk-opt %s -verify-diagnostics --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv

// An op with no SPIR-V form is reported at the user's op: linalg.erf's payload
// (math.erf) is built by upstream without a location and takes linalg.erf's.
func.func @erf(%a: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x4xf32>
  // expected-error @+1 {{failed to legalize operation 'math.erf'}}
  %r = linalg.erf ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
