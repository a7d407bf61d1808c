// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(meshvk-uneven-shards))' | FileCheck %s
// Uneven splits get explicit offsets (numpy.array_split's rule); reshards
// that involve offsets go through meshvk.reshard.

// 10 rows over 4: 3, 3, 2, 2; the gather to replicated is a meshvk.reshard.
shard.grid @g(shape = 4)
// CHECK-LABEL: func.func @rows
// CHECK: %[[S:.*]] = shard.sharding @g split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 3, 6, 8, 10]
// CHECK: %[[A:.*]] = shard.shard %arg0 to %[[S]] : tensor<10x4xf32>
// CHECK: %[[R:.*]] = meshvk.reshard %[[A]] on @g global_shape [10, 4] from {{\[\[}}0]] offsets [0, 3, 6, 8, 10] to {{\[\[}}]] offsets [] : tensor<10x4xf32> -> tensor<10x4xf32>
// CHECK: %[[P:.*]] = shard.shard %[[R]] to %{{.*}} : tensor<10x4xf32>
// CHECK: shard.shard %[[P]] to %{{.*}} annotate_for_users : tensor<10x4xf32>
func.func @rows(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %0 = shard.shard %a to %rows : tensor<10x4xf32>
  %1 = shard.shard %0 to %rep annotate_for_users : tensor<10x4xf32>
  return %1 : tensor<10x4xf32>
}

// -----

// Even splits are left to upstream (no offsets, no meshvk.reshard).
shard.grid @g(shape = 4)
// CHECK-LABEL: func.func @even
// CHECK-NOT: sharded_dims_offsets
// CHECK-NOT: meshvk.reshard
func.func @even(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g split_axes = [[]] : !shard.sharding
  %0 = shard.shard %a to %rows : tensor<8x4xf32>
  %1 = shard.shard %0 to %rep annotate_for_users : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// The user's offsets are reused for a sharding propagation derived without
// them (same dimension size and grid axis), so no reshard is needed between.
shard.grid @g(shape = 4)
// CHECK-LABEL: func.func @user_offsets
// CHECK-COUNT-2: sharded_dims_offsets = [0, 2, 5, 9, 14]
// CHECK-NOT: meshvk.reshard
func.func @user_offsets(%a: tensor<4x14xf32>) -> tensor<4x14xf32> {
  %cols = shard.sharding @g split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %derived = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %0 = shard.shard %a to %cols : tensor<4x14xf32>
  %1 = shard.shard %0 to %derived annotate_for_users : tensor<4x14xf32>
  return %1 : tensor<4x14xf32>
}

// -----

// Two different offsets for one dimension size and axis are refused.
shard.grid @g(shape = 2)
func.func @conflicting_offsets(%a: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<6xf32> {
  %s1 = shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 2, 6] : !shard.sharding
  // expected-error @+1 {{two different sharded_dims_offsets for a dimension of size 6 split over the same grid axes}}
  %s2 = shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 4, 6] : !shard.sharding
  %0 = shard.shard %a to %s1 annotate_for_users : tensor<6xf32>
  %1 = shard.shard %b to %s2 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}
