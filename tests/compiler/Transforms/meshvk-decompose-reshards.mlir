// RUN: mesh-vk-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(meshvk-decompose-reshards))' | FileCheck %s
// Every reshard becomes steps that each gather, slice or move the LAST grid
// axis of one dimension's split (the only changes upstream partitions).

shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @two_axes_to_replicated
// CHECK: %[[S:.*]] = shard.sharding @g22 split_axes = {{\[\[}}0], [1]]
// CHECK: %[[R:.*]] = shard.sharding @g22 split_axes = {{\[\[}}]]
// CHECK: %[[A0:.*]] = shard.shard %{{.*}} to %[[S]] :
// CHECK: %[[M:.*]] = shard.sharding @g22 split_axes = {{\[\[}}], [1]]
// CHECK: %[[U:.*]] = shard.shard %[[A0]] to %[[M]] annotate_for_users
// CHECK: %[[P:.*]] = shard.shard %[[U]] to %[[M]] :
// CHECK: shard.shard %[[P]] to %[[R]] annotate_for_users
func.func @two_axes_to_replicated(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %r = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %r annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// One axis changes: left to upstream (one all_gather / all_slice / all_to_all).
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @one_axis
// CHECK-COUNT-2: = shard.sharding @
// CHECK-NOT: = shard.sharding @
// CHECK: return
func.func @one_axis(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %t = shard.sharding @g22 split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Replicated to a split over both axes: two slices, the first over axis 0.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @replicated_to_two_axes
// CHECK: %[[M:.*]] = shard.sharding @g22 split_axes = {{\[\[}}0]]
// CHECK: shard.shard %{{.*}} to %[[M]] annotate_for_users
func.func @replicated_to_two_axes(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %r = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %a0 = shard.shard %a to %r : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %s annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Swapping the axes of two dimensions: gather axis 0, move axis 1 to the
// rows (one all_to_all), slice axis 0 into the columns.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @swap_axes
// CHECK: shard.sharding @g22 split_axes = {{\[\[}}], [1]]
// CHECK: shard.sharding @g22 split_axes = {{\[\[}}1]]
// CHECK-NOT: shard.sharding @g22 split_axes = {{\[\[}}]]
func.func @swap_axes(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %t = shard.sharding @g22 split_axes = [[1], [0]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Removing the FIRST axis of a two-axis split (upstream has no pattern for it
// and crashed): gather the last axis, then the first, then slice again.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @drop_first_of_two
// CHECK: shard.sharding @g22 split_axes = {{\[\[}}0]]
// CHECK: shard.sharding @g22 split_axes = {{\[\[}}]]
// CHECK: shard.shard %{{.*}} to %{{.*}} annotate_for_users
// CHECK: return
func.func @drop_first_of_two(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0, 1]] : !shard.sharding
  %t = shard.sharding @g22 split_axes = [[1]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Two producer annotations in a row are a reshard too.
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @producer_chain
// CHECK: shard.sharding @g22 split_axes = {{\[\[}}0]]
// CHECK: return
func.func @producer_chain(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0, 1]] : !shard.sharding
  %r = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %r : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Three axes over both dimensions of a 2x2x2 grid, reordered.
shard.grid @g222(shape = 2x2x2)
// CHECK-LABEL: func.func @three_axes
// CHECK-COUNT-2: shard.sharding @g222
// CHECK: shard.sharding @g222 split_axes = {{\[\[}}0], [2]]
// CHECK: shard.sharding @g222 split_axes = {{\[\[}}], [2]]
// CHECK: shard.sharding @g222 split_axes = {{\[\[}}2]]
// CHECK: shard.sharding @g222 split_axes = {{\[\[}}2], [1]]
// CHECK-NEXT: = shard.shard %
// CHECK-NEXT: = shard.shard %
// CHECK-NEXT: = shard.shard %{{.*}} to %{{.*}} annotate_for_users
// CHECK-NEXT: return
func.func @three_axes(%a: tensor<8x8xi32>) -> tensor<8x8xi32> {
  %s = shard.sharding @g222 split_axes = [[0, 1], [2]] : !shard.sharding
  %t = shard.sharding @g222 split_axes = [[2], [1, 0]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x8xi32>
  %a1 = shard.shard %a0 to %t annotate_for_users : tensor<8x8xi32>
  return %a1 : tensor<8x8xi32>
}
