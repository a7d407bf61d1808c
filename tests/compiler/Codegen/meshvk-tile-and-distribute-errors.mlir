// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-tile-and-distribute

func.func @dense_constant() -> tensor<2xf32> attributes {meshvk.kernel} {
  // expected-error @+1 {{non-splat tensor constant inside a kernel is not supported; pass it as a kernel argument}}
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

// expected-error @+1 {{meshvk.kernel has no results}}
func.func @no_results(%a: tensor<4xf32>) attributes {meshvk.kernel} {
  return
}
