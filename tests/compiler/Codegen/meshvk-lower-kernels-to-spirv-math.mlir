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

// cbrt and atan2 (upstream's f32 approximations; f16 through f32), trunc
// (ceil / floor by sign), ctpop and cttz (shifts, masks, one multiply).
// CHECK-LABEL: spirv.module
// CHECK-NOT: math.
// CHECK: spirv.GL.Ceil
// CHECK: spirv.GL.Floor
// CHECK: spirv.ShiftRightLogical
func.func @cbrt_atan2_trunc_bits(%a: tensor<8x4xf32>, %b: tensor<8x4xf16>, %c: tensor<8x4xi32>)
    -> (tensor<8x4xf32>, tensor<8x4xf16>, tensor<8x4xi32>) attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = math.cbrt %x : f32
      %z = math.atan2 %y, %x : f32
      %t = math.trunc %z : f32
      linalg.yield %t : f32
  } -> tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<8x4xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x4xf16>) outs(%e2 : tensor<8x4xf16>) {
    ^bb0(%x: f16, %o: f16):
      %y = math.cbrt %x : f16
      %t = math.trunc %y : f16
      linalg.yield %t : f16
  } -> tensor<8x4xf16>
  %e3 = tensor.empty() : tensor<8x4xi32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x4xi32>) outs(%e3 : tensor<8x4xi32>) {
    ^bb0(%x: i32, %o: i32):
      %p = math.ctpop %x : i32
      %q = math.cttz %x : i32
      %s = arith.addi %p, %q : i32
      linalg.yield %s : i32
  } -> tensor<8x4xi32>
  return %r, %h, %n : tensor<8x4xf32>, tensor<8x4xf16>, tensor<8x4xi32>
}
