// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv

// An op with no SPIR-V form is reported at the user's op (math.ipowi has no
// SPIR-V pattern and no expansion; erf, exp2, fpowi, cbrt, atan2, trunc,
// ctpop and cttz are expanded first).
func.func @ipowi(%a: tensor<8x4xi32>) -> tensor<8x4xi32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xi32>) outs(%e : tensor<8x4xi32>) {
    ^bb0(%x: i32, %o: i32):
      // expected-error @+1 {{failed to legalize operation 'math.ipowi'}}
      %y = math.ipowi %x, %x : i32
      linalg.yield %y : i32
  } -> tensor<8x4xi32>
  return %r : tensor<8x4xi32>
}
