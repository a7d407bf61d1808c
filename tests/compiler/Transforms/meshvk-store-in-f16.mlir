// RUN: mesh-vk-opt %s -split-input-file --meshvk-store-in-f16 | FileCheck %s

// A linear layer: the weights become an f16 constant, the matmul reads f16
// and accumulates into its f32 fill, its result is truncated to f16 for the
// bias add, whose body computes in f32 and stores f16; the function's
// boundary is f16 (the artifact declares it F32).
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>) -> tensor<4x2xf16>
// CHECK: %[[W:.*]] = meshvk.constant dense<{{.*}}> : tensor<8x2xf16> : tensor<8x2xf16>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x8xf16>, tensor<8x2xf16>) outs(%[[ACC]] : tensor<4x2xf32>)
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4x2xf32>) outs(%{{.*}} : tensor<4x2xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<4x2xf16>) outs(%{{.*}} : tensor<4x2xf16>)
// CHECK: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK: %[[WIDE:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK: %[[SUM:.*]] = arith.addf %[[WIDE]], %{{.*}} : f32
// CHECK: %[[NARROW:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK: linalg.yield %[[NARROW]] : f16
// CHECK: return %[[R]] : tensor<4x2xf16>
func.func @linear(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %w = meshvk.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<8x2xf32> : tensor<8x2xf32>
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// A row sum keeps its f32 accumulator (the reduce reads f16, extended in its
// body); element-type-preserving ops (a slice, a reshape) take f16; an i32
// tensor stays i32.
// CHECK-LABEL: func.func @reduce_and_slice
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16>, %[[I:.*]]: tensor<4xi32>) -> (tensor<4xf16>, tensor<4xi32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][0, 0] [4, 4] [1, 1] : tensor<4x8xf16> to tensor<4x4xf16>
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[S]] : tensor<4x4xf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>)
// CHECK: return %{{.*}}, %[[I]] : tensor<4xf16>, tensor<4xi32>
func.func @reduce_and_slice(%x: tensor<4x8xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %s = tensor.extract_slice %x[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%s : tensor<4x4xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    }
  return %sum, %i : tensor<4xf32>, tensor<4xi32>
}
