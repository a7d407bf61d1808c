// RUN: mesh-vk-opt %s -split-input-file --meshvk-unroll-grid --meshvk-split-reductions | FileCheck %s
// Long reductions with few outputs become partials over chunks of their
// longest reduction loop, a tail for a ragged end, and a combine.

// A 64 MiB f32 sum: 4096 partials of 4096 elements (no tail), then one
// combine of the partials into the original init.
shard.grid @g1(shape = 1)
// CHECK-DAG: #[[CHUNK:.*]] = affine_map<(d0, d1) -> (d1 * 4096 + d0)>
// CHECK-DAG: #[[EXTENT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[PART:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @sum_64mib
// CHECK: %[[INIT:.*]] = linalg.fill {{.*}} -> tensor<f32>
// CHECK: %[[ZERO:.*]] = arith.constant {meshvk.process = 0 : i64} 0.000000e+00 : f32
// CHECK: %[[PF:.*]] = linalg.fill {meshvk.process = 0 : i64} ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4096xf32>)
// CHECK: %[[EXT:.*]] = tensor.empty() {meshvk.process = 0 : i64} : tensor<4096xf32>
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[CHUNK]], #[[EXTENT]], #[[PART]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME: ins(%arg0, %[[EXT]] : tensor<16777216xf32>, tensor<4096xf32>) outs(%[[PF]] : tensor<4096xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[P]] : tensor<4096xf32>) outs(%[[INIT]] : tensor<f32>) attrs = {meshvk.process = 0 : i64}
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @sum_64mib(%x: tensor<16777216xf32>) -> tensor<f32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %e = tensor.empty() : tensor<f32>
  %z = arith.constant 0.0 : f32
  %t = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<16777216xf32>) outs(%t : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %r : tensor<f32>
}

// -----

// A prime length: 96 chunks of 1032, a tail of the last 931 elements reduced
// from the neutral element, added to the combine elementwise. maxnumf's
// neutral element is -inf (not NaN: GLSL FMax of a NaN is undefined).
shard.grid @g1(shape = 1)
// CHECK-DAG: #[[TAIL:.*]] = affine_map<(d0) -> (d0 + 99072)>
// CHECK-LABEL: func.func @max_ragged
// CHECK: arith.constant {meshvk.process = 0 : i64} 0xFF800000 : f32
// CHECK: linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<100003xf32>, tensor<1032xf32>) outs(%{{.*}} : tensor<96xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<96xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK: arith.constant {meshvk.process = 0 : i64} 0xFF800000 : f32
// CHECK: %[[T:.*]] = linalg.generic {indexing_maps = [#[[TAIL]], {{.*}}]{{.*}} ins(%arg0, %{{.*}} : tensor<100003xf32>, tensor<931xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = []} ins(%[[T]], %[[C]] : tensor<f32>, tensor<f32>)
// CHECK: arith.maxnumf
// CHECK: return %[[SUM]]
func.func @max_ragged(%x: tensor<100003xf32>) -> tensor<f32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %e = tensor.empty() : tensor<f32>
  %z = arith.constant -3.0e38 : f32
  %t = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<100003xf32>) outs(%t : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.maxnumf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %r : tensor<f32>
}

// -----

// Four rows of 300001: too few outputs, and a row longer than llvmpipe runs
// in one loop. Each row is cut into 291 chunks of 1028 (partials 4x291).
shard.grid @g1(shape = 1)
// CHECK-DAG: #[[ROWCHUNK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2 * 1028 + d1)>
// CHECK-DAG: #[[ROWPART:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @long_rows
// CHECK: linalg.generic {indexing_maps = [#[[ROWCHUNK]], {{.*}}, #[[ROWPART]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: outs(%{{.*}} : tensor<4x291xi32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x291xi32>) outs(%{{.*}} : tensor<4xi32>)
func.func @long_rows(%x: tensor<4x300001xi32>) -> tensor<4xi32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %e = tensor.empty() : tensor<4xi32>
  %z = arith.constant 0 : i32
  %t = linalg.fill ins(%z : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = linalg.reduce ins(%x : tensor<4x300001xi32>) outs(%t : tensor<4xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %a = arith.addi %in, %acc : i32
      linalg.yield %a : i32
    }
  return %r : tensor<4xi32>
}

// -----

// Left alone: a short sum (one invocation is cheaper than a second dispatch),
// 4096 rows of 4096 (enough outputs, rows within the loop limit), a matmul
// with a long K (register tiles want it whole) and a body whose combiner is
// not commutative.
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-4: linalg.{{reduce|matmul|generic}}
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @unchanged(%a: tensor<8x6xf32>, %b: tensor<4096x4096xf32>, %c: tensor<8x65536xf32>,
                     %d: tensor<65536x8xf32>, %v: tensor<100000xf32>)
    -> (tensor<f32>, tensor<4096xf32>, tensor<8x8xf32>, tensor<f32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%a : tensor<8x6xf32>) outs(%f0 : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %x = arith.addf %in, %acc : f32
      linalg.yield %x : f32
    }
  %e1 = tensor.empty() : tensor<4096xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %rows = linalg.reduce ins(%b : tensor<4096x4096xf32>) outs(%f1 : tensor<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %x = arith.addf %in, %acc : f32
      linalg.yield %x : f32
    }
  %e2 = tensor.empty() : tensor<8x8xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%c, %d : tensor<8x65536xf32>, tensor<65536x8xf32>) outs(%f2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %diff = linalg.reduce ins(%v : tensor<100000xf32>) outs(%f0 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %x = arith.subf %acc, %in : f32
      linalg.yield %x : f32
    }
  return %s, %rows, %m, %diff : tensor<f32>, tensor<4096xf32>, tensor<8x8xf32>, tensor<f32>
}
