// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-partition | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-compile-plan | FileCheck %s --check-prefix=PLAN
// tensor.pad and tensor.concat (decomposed by meshvk-normalize-input into a
// fill or empty plus insert_slices) and tensor.extract_slice / insert_slice
// in sharded programs (SliceSharding.cpp): a dimension the slice takes whole
// stays split and each process slices its own shard; a dimension it does not
// take whole runs replicated (all-gather before, all-slice after).

shard.grid @g(shape = 2)

// Padding columns of a row-split tensor is local: no collective.
// CHECK-LABEL: func.func @pad_cols
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xi32>) -> tensor<4x6xi32>
// CHECK-NOT: shard.all_gather
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<4x6xi32>)
// CHECK: tensor.insert_slice %[[X]] into %[[F]][0, 1] [4, 4] [1, 1] : tensor<4x4xi32> into tensor<4x6xi32>
// PLAN-LABEL: func.func @pad_cols
// PLAN: meshvk.collectives = []
// PLAN: meshvk.copy %arg0[0, 0] from 0 into %{{.*}}[0, 1] on 0 sizes [4, 4]
// PLAN: meshvk.copy %arg1[0, 0] from 1 into %{{.*}}[0, 1] on 1 sizes [4, 4]
func.func @pad_cols(%x: tensor<8x4xi32>) -> tensor<8x6xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x4xi32>
  %c = arith.constant 7 : i32
  %p = tensor.pad %x_s low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<8x4xi32> to tensor<8x6xi32>
  %p_s = shard.shard %p to %s : tensor<8x6xi32>
  return %p_s : tensor<8x6xi32>
}

// -----

shard.grid @g(shape = 2)

// Padding the split dimension: gathered, padded, cut again (11 rows: 6 + 5).
// CHECK-LABEL: func.func @pad_rows
// CHECK: %[[G:.*]] = shard.all_gather %arg0 on @g grid_axes = [0] gather_axis = 0 : tensor<4x4xi32> -> tensor<8x4xi32>
// CHECK: %[[I:.*]] = tensor.insert_slice %[[G]] into %{{.*}}[1, 0] [8, 4] [1, 1] : tensor<8x4xi32> into tensor<11x4xi32>
// CHECK: meshvk.reshard %[[I]] on @g global_shape [11, 4] from {{\[\[\]\]}} offsets [] to {{\[\[0\]\]}} offsets [0, 6, 11]
func.func @pad_rows(%x: tensor<8x4xi32>) -> tensor<11x4xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x4xi32>
  %c = arith.constant -1 : i32
  %p = tensor.pad %x_s low[1, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<8x4xi32> to tensor<11x4xi32>
  %p_s = shard.shard %p to %s : tensor<11x4xi32>
  return %p_s : tensor<11x4xi32>
}

// -----

shard.grid @g(shape = 2)

// Concatenating columns of row-split tensors: one local insert per operand.
// CHECK-LABEL: func.func @concat_cols
// CHECK-SAME: (%[[A:.*]]: tensor<4x4xi32>, %[[B:.*]]: tensor<4x2xi32>) -> tensor<4x6xi32>
// CHECK-NOT: shard.all_gather
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x6xi32>
// CHECK: %[[I:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [4, 4] [1, 1]
// CHECK: tensor.insert_slice %[[B]] into %[[I]][0, 4] [4, 2] [1, 1]
func.func @concat_cols(%a: tensor<8x4xi32>, %b: tensor<8x2xi32>) -> tensor<8x6xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : tensor<8x4xi32>
  %b_s = shard.shard %b to %s annotate_for_users : tensor<8x2xi32>
  %c = tensor.concat dim(1) %a_s, %b_s : (tensor<8x4xi32>, tensor<8x2xi32>) -> tensor<8x6xi32>
  %c_s = shard.shard %c to %s : tensor<8x6xi32>
  return %c_s : tensor<8x6xi32>
}

// -----

shard.grid @g(shape = 2)

// Concatenating along the split dimension: both operands gathered first.
// CHECK-LABEL: func.func @concat_rows
// CHECK-DAG: shard.all_gather %arg0 on @g grid_axes = [0] gather_axis = 0 : tensor<4x4xi32> -> tensor<8x4xi32>
// CHECK-DAG: shard.all_gather %arg1 on @g grid_axes = [0] gather_axis = 0 : tensor<1x4xi32> -> tensor<2x4xi32>
// CHECK: shard.all_slice %{{.*}} on @g grid_axes = [0] slice_axis = 0 : tensor<10x4xi32> -> tensor<5x4xi32>
func.func @concat_rows(%a: tensor<8x4xi32>, %b: tensor<2x4xi32>) -> tensor<10x4xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : tensor<8x4xi32>
  %b_s = shard.shard %b to %s annotate_for_users : tensor<2x4xi32>
  %c = tensor.concat dim(0) %a_s, %b_s : (tensor<8x4xi32>, tensor<2x4xi32>) -> tensor<10x4xi32>
  %c_s = shard.shard %c to %s : tensor<10x4xi32>
  return %c_s : tensor<10x4xi32>
}

// -----

shard.grid @g(shape = 2x2)

// Blocks on a 2x2 grid: a column window keeps the row split and gathers the
// columns; a row window keeps the column split and gathers the rows.
// CHECK-LABEL: func.func @windows_2x2
// CHECK: %[[R:.*]] = shard.all_gather %arg0 on @g grid_axes = [0] gather_axis = 0 : tensor<4x4xi32> -> tensor<8x4xi32>
// CHECK: %[[C:.*]] = shard.all_gather %arg0 on @g grid_axes = [1] gather_axis = 1 : tensor<4x4xi32> -> tensor<4x8xi32>
// CHECK: tensor.extract_slice %[[C]][0, 2] [4, 4] [1, 1] : tensor<4x8xi32> to tensor<4x4xi32>
// CHECK: tensor.extract_slice %[[R]][2, 0] [4, 4] [1, 1] : tensor<8x4xi32> to tensor<4x4xi32>
func.func @windows_2x2(%x: tensor<8x8xi32>) -> (tensor<8x4xi32>, tensor<4x8xi32>) {
  %s = shard.sharding @g split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x8xi32>
  %a = tensor.extract_slice %x_s[0, 2] [8, 4] [1, 1] : tensor<8x8xi32> to tensor<8x4xi32>
  %b = tensor.extract_slice %x_s[2, 0] [4, 8] [1, 1] : tensor<8x8xi32> to tensor<4x8xi32>
  %a_s = shard.shard %a to %s : tensor<8x4xi32>
  %b_s = shard.shard %b to %s : tensor<4x8xi32>
  return %a_s, %b_s : tensor<8x4xi32>, tensor<4x8xi32>
}

// -----

shard.grid @g(shape = 3)

// Uneven rows (8 over 3: 3, 3, 2): the slice size is the process's own
// extent, dynamic after partitioning, a constant per process in the plan.
// CHECK-LABEL: func.func @pad_cols_uneven
// CHECK: %[[S:.*]]:2 = shard.shard_shape dims = [8, 6]
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1] [%[[S]]#0, 4] [1, 1] : tensor<?x4xi32> into tensor<?x6xi32>
// PLAN-LABEL: func.func @pad_cols_uneven
// PLAN: meshvk.copy %arg0[0, 0] from 0 into %{{.*}}[0, 1] on 0 sizes [3, 4]
// PLAN: meshvk.copy %arg1[0, 0] from 1 into %{{.*}}[0, 1] on 1 sizes [3, 4]
// PLAN: meshvk.copy %arg2[0, 0] from 2 into %{{.*}}[0, 1] on 2 sizes [2, 4]
func.func @pad_cols_uneven(%x: tensor<8x4xi32>) -> tensor<8x6xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x4xi32>
  %c = arith.constant 7 : i32
  %p = tensor.pad %x_s low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<8x4xi32> to tensor<8x6xi32>
  %p_s = shard.shard %p to %s : tensor<8x6xi32>
  return %p_s : tensor<8x6xi32>
}

// -----

shard.grid @g(shape = 2)

func.func @pad_by_position(%x: tensor<8x4xi32>) -> tensor<8x6xi32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<8x4xi32>
  // expected-error @+1 {{'tensor.pad' whose padding value depends on the position is not supported: yield a value defined outside its region (a constant)}}
  %p = tensor.pad %x_s low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %v = arith.index_cast %j : index to i32
    tensor.yield %v : i32
  } : tensor<8x4xi32> to tensor<8x6xi32>
  %p_s = shard.shard %p to %s : tensor<8x6xi32>
  return %p_s : tensor<8x6xi32>
}
