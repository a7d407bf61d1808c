// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-partition | FileCheck %s
// The partition pipeline: input checks, upstream sharding-propagation
// (forward-backward) + shard-partition, reshard decomposition, ABI record and
// verification. Functions take and return LOCAL shard types afterwards.

// 1-D grid of 2, row split of matmul kept split: no communication at all.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @matmul_rows_2
// CHECK-SAME: (%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NOT: shard.all_
// CHECK: linalg.matmul
// CHECK-NOT: shard.all_
// CHECK: return
func.func @matmul_rows_2(%a: tensor<8x4xf32>, %b: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %rows = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %rows annotate_for_users : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %c = linalg.matmul ins(%a0, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = shard.shard %c to %rows : tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// 1-D grid of 4, row split, replicated result: one all_gather of the rows.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @matmul_rows_4
// CHECK-SAME: (%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x6xf32>) -> tensor<16x6xf32>
// CHECK: %[[C:.*]] = linalg.matmul
// CHECK: shard.all_gather %[[C]] on @g4 grid_axes = [0] gather_axis = 0 : tensor<4x6xf32> -> tensor<16x6xf32>
func.func @matmul_rows_4(%a: tensor<16x4xf32>, %b: tensor<4x6xf32>) -> tensor<16x6xf32> {
  %rows = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %rows annotate_for_users : tensor<16x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x6xf32>) -> tensor<16x6xf32>
  %c = linalg.matmul ins(%a0, %b : tensor<16x4xf32>, tensor<4x6xf32>) outs(%f : tensor<16x6xf32>) -> tensor<16x6xf32>
  %r = shard.shard %c to %rep : tensor<16x6xf32>
  return %r : tensor<16x6xf32>
}

// -----

// Column split of B: each process owns a block of columns of C.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @matmul_cols
// CHECK-SAME: (%{{.*}}: tensor<8x4xf32>, %{{.*}}: tensor<4x2xf32>) -> tensor<8x8xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x2xf32>
// CHECK: shard.all_gather %{{.*}} on @g4 grid_axes = [0] gather_axis = 1 : tensor<8x2xf32> -> tensor<8x8xf32>
func.func @matmul_cols(%a: tensor<8x4xf32>, %b: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %cols = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %b0 = shard.shard %b to %cols annotate_for_users : tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c = linalg.matmul ins(%a, %b0 : tensor<8x4xf32>, tensor<4x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = shard.shard %c to %rep : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Contraction split: partial products summed by one all_reduce; only process 0
// keeps the accumulator init (branch on the process index).
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @matmul_contraction
// CHECK-SAME: (%{{.*}}: tensor<8x4xf32>, %{{.*}}: tensor<4x6xf32>) -> tensor<8x6xf32>
// CHECK: shard.process_multi_index on @g4 axes = [0]
// CHECK: scf.if
// CHECK: %[[P:.*]] = linalg.matmul
// CHECK: shard.all_reduce %[[P]] on @g4 grid_axes = [0] : tensor<8x6xf32> -> tensor<8x6xf32>
func.func @matmul_contraction(%a: tensor<8x16xf32>, %b: tensor<16x6xf32>) -> tensor<8x6xf32> {
  %kc = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %kr = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %kc annotate_for_users : tensor<8x16xf32>
  %b0 = shard.shard %b to %kr annotate_for_users : tensor<16x6xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %c = linalg.matmul ins(%a0, %b0 : tensor<8x16xf32>, tensor<16x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = shard.shard %c to %rep : tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// 2-layer MLP, W1 by columns then W2 by rows: exactly one all_reduce and
// nothing else between the layers.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%{{.*}}: tensor<8x16xf32>, %{{.*}}: tensor<16x8xf32>, %{{.*}}: tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: shard.all_gather
// CHECK-NOT: shard.all_to_all
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: linalg.matmul
// CHECK: shard.all_reduce
// CHECK-NOT: shard.all_
// CHECK: return
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %cols = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %w1s = shard.shard %w1 to %cols annotate_for_users : tensor<16x32xf32>
  %w2s = shard.shard %w2 to %rows annotate_for_users : tensor<32x16xf32>
  %z = arith.constant 0.0 : f32
  %he = tensor.empty() : tensor<8x32xf32>
  %hf = linalg.fill ins(%z : f32) outs(%he : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1s : tensor<8x16xf32>, tensor<16x32xf32>) outs(%hf : tensor<8x32xf32>) -> tensor<8x32xf32>
  %re = tensor.empty() : tensor<8x32xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x32xf32>) outs(%re : tensor<8x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.maxnumf %v, %z : f32
      linalg.yield %m : f32
  } -> tensor<8x32xf32>
  %ye = tensor.empty() : tensor<8x16xf32>
  %yf = linalg.fill ins(%z : f32) outs(%ye : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%relu, %w2s : tensor<8x32xf32>, tensor<32x16xf32>) outs(%yf : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = shard.shard %y to %rep : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Batch-split batch_matmul: every process multiplies its batches, no
// communication until the result is assembled.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @batch_matmul
// CHECK-SAME: (%{{.*}}: tensor<1x2x3xf32>, %{{.*}}: tensor<1x3x5xf32>) -> tensor<1x2x5xf32>
// CHECK-NOT: shard.all_
// CHECK: linalg.batch_matmul {{.*}} -> tensor<1x2x5xf32>
// CHECK-NOT: shard.all_
// CHECK: return
func.func @batch_matmul(%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>) -> tensor<4x2x5xf32> {
  %batch = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %batch annotate_for_users : tensor<4x2x3xf32>
  %b0 = shard.shard %b to %batch annotate_for_users : tensor<4x3x5xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x2x5xf32>) -> tensor<4x2x5xf32>
  %c = linalg.batch_matmul ins(%a0, %b0 : tensor<4x2x3xf32>, tensor<4x3x5xf32>) outs(%f : tensor<4x2x5xf32>) -> tensor<4x2x5xf32>
  %r = shard.shard %c to %batch : tensor<4x2x5xf32>
  return %r : tensor<4x2x5xf32>
}

// -----

// Reduction over the split dimension: local partial sums, then all_reduce.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @reduce_split_dim
// CHECK-SAME: (%{{.*}}: tensor<8x4xf32>) -> tensor<8xf32>
// CHECK: %[[S:.*]] = linalg.reduce ins(%{{.*}} : tensor<8x4xf32>)
// CHECK: shard.all_reduce %[[S]] on @g4 grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
func.func @reduce_split_dim(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %cols = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %cols annotate_for_users : tensor<8x16xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x0 : tensor<8x16xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %r = shard.shard %s to %rep : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Transpose of a row-sharded tensor: all_to_all to column shards, local
// transpose, then the gather the replicated result needs.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%{{.*}}: tensor<4x8xi32>) -> tensor<8x16xi32>
// CHECK: shard.all_to_all %{{.*}} on @g4 grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xi32> -> tensor<16x2xi32>
// CHECK: linalg.transpose
// CHECK: shard.all_gather %{{.*}} on @g4 grid_axes = [0] gather_axis = 0 : tensor<2x16xi32> -> tensor<8x16xi32>
func.func @transpose(%x: tensor<16x8xi32>) -> tensor<8x16xi32> {
  %rows = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %rows : tensor<16x8xi32>
  %x1 = shard.shard %x0 to %cols annotate_for_users : tensor<16x8xi32>
  %e = tensor.empty() : tensor<8x16xi32>
  %t = linalg.transpose ins(%x1 : tensor<16x8xi32>) outs(%e : tensor<8x16xi32>) permutation = [1, 0]
  %t0 = shard.shard %t to %rows : tensor<8x16xi32>
  %t1 = shard.shard %t0 to %rep annotate_for_users : tensor<8x16xi32>
  return %t1 : tensor<8x16xi32>
}

// -----

// 2x2 grid, reshard over ONE axis: gather grid axis 1 only.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @reshard_one_axis
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[G:.*]] = shard.all_gather %{{.*}} on @g22 grid_axes = [1] gather_axis = 1 : tensor<4x3xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[G]]
func.func @reshard_one_axis(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %t = shard.sharding @g22 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// 2x2 grid, reshard over TWO axes at once (upstream alone drops one gather and
// returns tensor<8x3xf32>): decomposed into one gather per grid axis.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @reshard_two_axes
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>) -> tensor<8x6xf32>
// CHECK-DAG: shard.all_gather %{{.*}} on @g22 grid_axes = [0] gather_axis = 0
// CHECK-DAG: shard.all_gather %{{.*}} on @g22 grid_axes = [1] gather_axis = 1
// CHECK: return %{{.*}} : tensor<8x6xf32>
func.func @reshard_two_axes(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %r = shard.sharding @g22 split_axes = [[], []] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %r annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// 2x2 grid, swap the grid axes of the two dimensions (two axes move).
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @reshard_swap_axes
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: return %{{.*}} : tensor<4x3xf32>
func.func @reshard_swap_axes(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %t = shard.sharding @g22 split_axes = [[1], [0]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Uneven shards get explicit offsets (numpy.array_split's rule: 3, 3, 2, 2)
// and a dynamic local size read from shard.shard_shape.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: (%{{.*}}: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-SAME: meshvk.abi = #meshvk.abi<grid = @g4, grid_shape = [4], args = [#meshvk.value_abi<type = tensor<10x4xf32>, split_axes = {{\[\[}}0]], shard_shape = [-9223372036854775808, 4], shard_offsets = [array<i64: 0, 0>, array<i64: 3, 0>, array<i64: 6, 0>, array<i64: 8, 0>], shard_shapes = [array<i64: 3, 4>, array<i64: 3, 4>, array<i64: 2, 4>, array<i64: 2, 4>]>]
// CHECK: shard.shard_shape dims = [10, 4] sharding = %{{.*}} device = [%{{.*}}]
// CHECK: linalg.exp ins(%{{.*}} : tensor<?x4xf32>)
func.func @uneven(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %rows = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %rows annotate_for_users : tensor<10x4xf32>
  %e = tensor.empty() : tensor<10x4xf32>
  %x = linalg.exp ins(%a0 : tensor<10x4xf32>) outs(%e : tensor<10x4xf32>) -> tensor<10x4xf32>
  %x0 = shard.shard %x to %rows : tensor<10x4xf32>
  return %x0 : tensor<10x4xf32>
}

// -----

// An unused argument is replicated and stays in the signature (upstream
// shard-partition segfaulted on it before meshvk-normalize-input annotated it).
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @unused_argument
// CHECK-SAME: (%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<4xf32>) -> tensor<2xf32>
func.func @unused_argument(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : tensor<4xf32>
  return %a_s : tensor<4xf32>
}

// -----

// Constant halo sizes in a global program that no window reads are dropped
// with a warning (same results; upstream shard-partition crashed on the
// halo-sharded tanh). meshvk-windows.mlir has the windows that use them.
shard.grid @g(shape = 4)
// CHECK-LABEL: func.func @ew_chain_with_halo
// CHECK-SAME: (%{{.*}}: tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK: linalg.generic
// CHECK-NOT: update_halo
func.func @ew_chain_with_halo(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-warning @+1 {{halo_sizes = [2, 1] has no effect: no shifted window (tensor.extract_slice of a constant tensor.pad) reads a tensor annotated with it, so there is no border to exchange (same results; each process keeps its shard without borders)}}
  %h = shard.sharding @g split_axes = [[0]] halo_sizes = [2, 1] : !shard.sharding
  %x_h = shard.shard %x to %h annotate_for_users : tensor<8x16xf32>
  %t = tosa.tanh %x_h : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-warning @+1 {{halo_sizes = [2, 1] has no effect}}
  %h2 = shard.sharding @g split_axes = [[0]] halo_sizes = [2, 1] : !shard.sharding
  %t_h = shard.shard %t to %h2 : tensor<8x16xf32>
  return %t_h : tensor<8x16xf32>
}

// -----

// A split non-splat constant keeps its global value through partitioning and
// records the sharding (uneven: explicit offsets); meshvk-unroll-grid cuts
// each process's rows out of it. A replicated one stays whole.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @constants
// CHECK: meshvk.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xi32> on @g split {{\[\[}}0]] offsets [0, 3, 5] : tensor<?x2xi32>
// CHECK: meshvk.constant dense<[100, 200]> : tensor<2xi32> : tensor<2xi32>
func.func @constants(%a: tensor<5x2xi32>) -> (tensor<5x2xi32>, tensor<2xi32>) {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<5x2xi32>
  %t = arith.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xi32>
  %row = arith.constant dense<[100, 200]> : tensor<2xi32>
  %e = tensor.empty() : tensor<5x2xi32>
  %r = linalg.add ins(%a0, %t : tensor<5x2xi32>, tensor<5x2xi32>) outs(%e : tensor<5x2xi32>) -> tensor<5x2xi32>
  %r0 = shard.shard %r to %s : tensor<5x2xi32>
  return %r0, %row : tensor<5x2xi32>, tensor<2xi32>
}

// -----

// Merging a dimension split into uneven shards (8 rows over 3: 3, 3, 2) with
// another non-unit dimension is refused: the merged dimension's shards (12,
// 12, 8) are not the ones meshvk gives a dimension of 32 (11, 11, 10).
shard.grid @g3(shape = 3)
func.func @collapse_uneven(%a: tensor<8x4xf32>) -> tensor<32xf32> {
  %s = shard.sharding @g3 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8x4xf32>
  // expected-error @+1 {{'tensor.collapse_shape' op cannot be partitioned: it merges a dimension split into uneven shards with other dimensions ('tensor<8x4xf32>'); split it over a process count that divides it, or reshape before splitting}}
  %c = tensor.collapse_shape %a0 [[0, 1]] : tensor<8x4xf32> into tensor<32xf32>
  return %c : tensor<32xf32>
}
