// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-tile-and-distribute

func.func @dense_constant() -> tensor<2xf32> attributes {meshvk.kernel} {
  // expected-error @+1 {{non-splat tensor constant inside a kernel is not supported; pass it as a kernel argument}}
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

func.func @full_reduction(%a: tensor<64xf32>) -> tensor<f32> attributes {meshvk.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{reduction to a 0-d result is not supported by the kernel tiler}}
  %r = linalg.reduce ins(%a : tensor<64xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// expected-error @+1 {{meshvk.kernel has no results}}
func.func @no_results(%a: tensor<4xf32>) attributes {meshvk.kernel} {
  return
}
