// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv

// An op with no SPIR-V form is reported at the user's op (math.cbrt has no
// SPIR-V pattern and no expansion; erf, exp2 and fpowi are expanded first).
func.func @cbrt(%a: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      // expected-error @+1 {{failed to legalize operation 'math.cbrt'}}
      %y = math.cbrt %x : f32
      linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
