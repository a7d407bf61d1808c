// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(sharding-propagation{traversal=forward-backward}),meshvk-record-abi)' | FileCheck %s
// The global signature, each argument's/result's split and every process's
// shard (offsets computed by hand below) are recorded before partitioning.

// 2x2 grid, argument split [[0], [1]] of an 8x6 tensor: shards are 4x3;
// process p = (i, j) row-major starts at (4*i, 3*j).
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @two_by_two
// CHECK-SAME: meshvk.abi = #meshvk.abi<grid = @g22, grid_shape = [2, 2],
// CHECK-SAME: args = [#meshvk.value_abi<type = tensor<8x6xf32>, split_axes = {{\[\[}}0], [1]], shard_shape = [4, 3], shard_offsets = [array<i64: 0, 0>, array<i64: 0, 3>, array<i64: 4, 0>, array<i64: 4, 3>]>]
// CHECK-SAME: results = [#meshvk.value_abi<type = tensor<8x6xf32>, split_axes = {{\[\[}}0]], shard_shape = [4, 6], shard_offsets = [array<i64: 0, 0>, array<i64: 0, 0>, array<i64: 4, 0>, array<i64: 4, 0>]>]
func.func @two_by_two(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %t = shard.sharding @g22 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// One dimension over both axes of a 2x2 grid: axis 0 is the major one, so
// process (i, j) owns rows [2*(2*i + j), +2).
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @dim_over_two_axes
// CHECK-SAME: shard_shape = [2], shard_offsets = [array<i64: 0>, array<i64: 2>, array<i64: 4>, array<i64: 6>]
func.func @dim_over_two_axes(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = shard.sharding @g22 split_axes = [[0, 1]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8xf32>
  %a1 = shard.shard %a0 to %s : tensor<8xf32>
  return %a1 : tensor<8xf32>
}

// -----

// An argument without annotation gets the sharding propagation gives it
// (replicated B of a row-split matmul); an unused one is replicated.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @propagated
// CHECK-SAME: args = [#meshvk.value_abi<type = tensor<4x2xf32>, {{.*}}>, #meshvk.value_abi<type = tensor<2x3xf32>, split_axes = {{\[\[}}]], shard_shape = [2, 3], shard_offsets = [array<i64: 0, 0>, array<i64: 0, 0>]>, #meshvk.value_abi<type = f32>]
func.func @propagated(%a: tensor<4x2xf32>, %b: tensor<2x3xf32>, %unused: f32) -> tensor<4x3xf32> {
  %rows = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %rows annotate_for_users : tensor<4x2xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = linalg.matmul ins(%a0, %b : tensor<4x2xf32>, tensor<2x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = shard.shard %c to %rows : tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A 0-d tensor (a scalar) has no dimension to split: propagation leaves it
// unannotated, and as an argument or a result it is replicated.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: args = [#meshvk.value_abi<type = tensor<f32>, split_axes = {{\[\[}}]], shard_shape = [], shard_offsets = [array<i64>, array<i64>]>]
// CHECK-SAME: results = [#meshvk.value_abi<type = tensor<f32>, split_axes = {{\[\[}}]], shard_shape = [], shard_offsets = [array<i64>, array<i64>]>]
func.func @scalars(%a: tensor<f32>) -> tensor<f32> {
  %rows = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

shard.grid @g2(shape = 2)
shard.grid @g4(shape = 4)
func.func @two_grids(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s2 = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{@two_grids uses grids @g2 and @g4; one function must run on one grid}}
  %s4 = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s2 annotate_for_users : tensor<8xf32>
  %b0 = shard.shard %b to %s4 annotate_for_users : tensor<8xf32>
  return %a0, %b0 : tensor<8xf32>, tensor<8xf32>
}

