// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-unroll-grid -canonicalize | FileCheck %s --check-prefix=CANON
// A partitioned (SPMD) function becomes one straight-line program per process:
// process indices are constants, branches on them fold away, every op carries
// meshvk.process, collectives share one meshvk.collective_id.

shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @contraction
// CHECK-SAME: (%[[A0:.*]]: tensor<8x4xf32> {meshvk.process = 0 : i64}, %[[A1:.*]]: tensor<8x4xf32> {meshvk.process = 1 : i64}, %{{.*}}: tensor<8x4xf32> {meshvk.process = 2 : i64}, %{{.*}}: tensor<8x4xf32> {meshvk.process = 3 : i64},
// CHECK-SAME: -> (tensor<8x6xf32> {meshvk.process = 0 : i64}, tensor<8x6xf32> {meshvk.process = 1 : i64}, tensor<8x6xf32> {meshvk.process = 2 : i64}, tensor<8x6xf32> {meshvk.process = 3 : i64})
// CHECK-SAME: meshvk.plan = #meshvk.plan<grid = @g4, grid_shape = [4], peered_axes = [0]>
// CHECK-NOT: scf.if
// CHECK-NOT: shard.process_multi_index
// CHECK: %[[M0:.*]] = linalg.matmul {meshvk.process = 0 : i64} ins(%[[A0]],
// CHECK: %[[M1:.*]] = linalg.matmul {meshvk.process = 1 : i64} ins(%[[A1]],
// CHECK: %[[R0:.*]] = shard.all_reduce %[[M0]] on @g4 grid_axes = [0] {meshvk.collective_id = 0 : i64, meshvk.process = 0 : i64}
// CHECK: %[[R1:.*]] = shard.all_reduce %[[M1]] on @g4 grid_axes = [0] {meshvk.collective_id = 0 : i64, meshvk.process = 1 : i64}
// CHECK: return %[[R0]], %[[R1]], %{{.*}}, %{{.*}} :
func.func @contraction(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>) -> tensor<8x6xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [], results = []>} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %p = shard.process_multi_index on @g4 axes = [0] : index
  %is0 = arith.cmpi eq, %p, %c0 : index
  %init = scf.if %is0 -> (tensor<8x6xf32>) {
    scf.yield %f : tensor<8x6xf32>
  } else {
    %e2 = tensor.empty() : tensor<8x6xf32>
    %f2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<8x6xf32>) -> tensor<8x6xf32>
    scf.yield %f2 : tensor<8x6xf32>
  }
  %m = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%init : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = shard.all_reduce %m on @g4 grid_axes = [0] : tensor<8x6xf32> -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// The multi-index on a 2x2 grid, row-major: processes 0..3 are (0,0), (0,1),
// (1,0), (1,1). Results: axis 0 of p0..p3, axis 1 of p0..p3, linear index.
shard.grid @g22(shape = 2x2)
// (Constants stay per process in the plan; canonicalize merges them here.)
// CANON-LABEL: func.func @indices
// CANON-DAG: %[[C0:.*]] = arith.constant 0 : index
// CANON-DAG: %[[C1:.*]] = arith.constant 1 : index
// CANON-DAG: %[[C2:.*]] = arith.constant 2 : index
// CANON-DAG: %[[C3:.*]] = arith.constant 3 : index
// CANON: return %[[C0]], %[[C0]], %[[C1]], %[[C1]], %[[C0]], %[[C1]], %[[C0]], %[[C1]], %[[C0]], %[[C1]], %[[C2]], %[[C3]] : index, index, index, index, index, index, index, index, index, index, index, index
func.func @indices() -> (index, index, index)
    attributes {meshvk.abi = #meshvk.abi<grid = @g22, grid_shape = [2, 2], args = [], results = []>} {
  %i:2 = shard.process_multi_index on @g22 : index, index
  %l = shard.process_linear_index on @g22 : index
  return %i#0, %i#1, %l : index, index, index
}

// -----

shard.grid @g2(shape = 2)
func.func @collective_in_loop(%a: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %a) -> tensor<4xf32> {
    // expected-error @+1 {{collectives inside control flow are not supported}}
    %y = shard.all_reduce %x on @g2 grid_axes = [0] : tensor<4xf32> -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

shard.grid @g2(shape = 2)
func.func @left_annotation(%a: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  // A sharding description stays (shard.shard_shape reads it); an
  // annotation does not.
  %s = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard' is left after partitioning; meshvk cannot unroll it into per-process plans}}
  %0 = shard.shard %a to %s : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A hand-written ABI that does not match the grid is refused, not trusted.
shard.grid @g2(shape = 2)
// expected-error @+1 {{meshvk.abi names grid @g2 with shape array<i64: 4>, which is not a static shard.grid of this module}}
func.func @abi_mismatch(%a: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [4], args = [], results = []>} {
  return %a : tensor<4xf32>
}

// -----

// Uneven shards: shard.shard_shape becomes each process's size, the dynamic
// shapes become static (10 rows over 4: 3, 3, 2, 2), and the plan signature
// carries each process's own shard type.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: (%{{.*}}: tensor<3x4xf32> {meshvk.process = 0 : i64}, %{{.*}}: tensor<3x4xf32> {meshvk.process = 1 : i64}, %{{.*}}: tensor<2x4xf32> {meshvk.process = 2 : i64}, %{{.*}}: tensor<2x4xf32> {meshvk.process = 3 : i64})
// CHECK-SAME: -> (tensor<3x4xf32> {meshvk.process = 0 : i64}, tensor<3x4xf32> {meshvk.process = 1 : i64}, tensor<2x4xf32> {meshvk.process = 2 : i64}, tensor<2x4xf32> {meshvk.process = 3 : i64})
// CHECK: tensor.empty() {meshvk.process = 0 : i64} : tensor<3x4xf32>
// CHECK: tensor.empty() {meshvk.process = 3 : i64} : tensor<2x4xf32>
// CHECK: linalg.exp {meshvk.process = 0 : i64} ins(%{{.*}} : tensor<3x4xf32>) outs(%{{.*}} : tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: linalg.exp {meshvk.process = 3 : i64} ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @uneven(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [#meshvk.value_abi<type = tensor<10x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>, array<i64: 6, 0>, array<i64: 8, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 3, 4>, array<i64: 2, 4>, array<i64: 2, 4>]>], results = [#meshvk.value_abi<type = tensor<10x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>, array<i64: 6, 0>, array<i64: 8, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 3, 4>, array<i64: 2, 4>, array<i64: 2, 4>]>]>} {
  %sharding = shard.sharding @g4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 8, 10] : !shard.sharding
  %idx = shard.process_multi_index on @g4 : index
  %shape:2 = shard.shard_shape dims = [10, 4] sharding = %sharding device = [%idx] : index, index
  %0 = tensor.empty(%shape#0) : tensor<?x4xf32>
  %1 = linalg.exp ins(%arg0 : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// A shape upstream derives from another process's index is refused.
shard.grid @g2(shape = 2)
func.func @other_shard_shape(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [#meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 2, 4>]>], results = [#meshvk.value_abi<type = tensor<5x4xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 2, 4>]>]>} {
  %sharding = shard.sharding @g2 split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'shard.shard_shape' of another process's shard or of dynamic dimensions is not supported}}
  %shape:2 = shard.shard_shape dims = [5, 4] sharding = %sharding device = [%c0] : index, index
  %0 = tensor.empty(%shape#0) : tensor<?x4xf32>
  %1 = linalg.exp ins(%arg0 : tensor<?x4xf32>) outs(%0 : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// Reshapes of uneven shards (tosa.reduce_*'s kept unit dimension): each
// process's expand_shape / collapse_shape gets its static shape.
shard.grid @g2u(shape = 2)
// CHECK-LABEL: func.func @reshape_uneven
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] {meshvk.process = 0 : i64} : tensor<3xf32> into tensor<3x1xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 1] {meshvk.process = 1 : i64} : tensor<2xf32> into tensor<2x1xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] {meshvk.process = 0 : i64} : tensor<3x1xf32> into tensor<3xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] {meshvk.process = 1 : i64} : tensor<2x1xf32> into tensor<2xf32>
func.func @reshape_uneven(%arg0: tensor<?xf32>, %arg1: tensor<?x1xf32>) -> (tensor<?x1xf32>, tensor<?xf32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g2u, grid_shape = [2], args = [#meshvk.value_abi<type = tensor<5xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808], shard_offsets = [array<i64: 0>, array<i64: 3>], shard_shapes = [array<i64: 3>, array<i64: 2>]>, #meshvk.value_abi<type = tensor<5x1xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 1], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 1>, array<i64: 2, 1>]>], results = [#meshvk.value_abi<type = tensor<5x1xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808, 1], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>], shard_shapes = [array<i64: 3, 1>, array<i64: 2, 1>]>, #meshvk.value_abi<type = tensor<5xf32>, split_axes = [[0]], shard_shape = [-9223372036854775808], shard_offsets = [array<i64: 0>, array<i64: 3>], shard_shapes = [array<i64: 3>, array<i64: 2>]>]>} {
  %sharding = shard.sharding @g2u split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !shard.sharding
  %idx = shard.process_multi_index on @g2u : index
  %shape:2 = shard.shard_shape dims = [5, 1] sharding = %sharding device = [%idx] : index, index
  %e = tensor.expand_shape %arg0 [[0, 1]] output_shape [%shape#0, 1] : tensor<?xf32> into tensor<?x1xf32>
  %c = tensor.collapse_shape %arg1 [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  return %e, %c : tensor<?x1xf32>, tensor<?xf32>
}
