// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv | FileCheck %s

// linalg.erf (tosa.erf) and math.exp2 have no SPIR-V pattern: they are
// expanded into supported ops (a polynomial, exp) before the conversion.
// CHECK-LABEL: spirv.module
// CHECK-NOT: math.erf
// CHECK-NOT: math.exp2
// CHECK: spirv.GL.Exp
func.func @erf_exp2(%a: tensor<8x4xf32>) -> tensor<8x4xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.erf ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<8x4xf32>) outs(%e2 : tensor<8x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = math.exp2 %x : f32
      linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}
