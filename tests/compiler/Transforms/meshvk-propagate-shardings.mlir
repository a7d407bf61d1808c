// RUN: mesh-vk-opt %s -split-input-file --meshvk-propagate-shardings | FileCheck %s
// Propagation runs on annotated functions; SPMD functions (collectives, no
// annotations) are left exactly as written (upstream propagation would refuse
// them: "sharding interface is not implemented").

shard.grid @g(shape = 2)

// The exp's result gets the row split of its operand.
// CHECK-LABEL: func.func @annotated
// CHECK: %[[E:.*]] = linalg.exp
// CHECK: shard.shard %[[E]] to %{{.*}} : tensor<8x4xf32>
func.func @annotated(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.exp ins(%x_s : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @spmd
// CHECK-NEXT: %[[R:.*]] = shard.all_reduce %arg0 on @g grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.exp ins(%[[R]] : tensor<4x4xf32>) outs(%[[E]] : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @spmd(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = shard.all_reduce %x on @g grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.exp ins(%r : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// tensor.collapse_shape has meshvk's reshape sharding rule: the row split of
// its operand (dimension 0 leads the group [0, 1]) propagates to the
// collapsed rows.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @collapse
// CHECK: %[[C:.*]] = tensor.collapse_shape
// CHECK: %[[S:.*]] = shard.sharding @g2 split_axes = {{\[\[}}0]]
// CHECK: shard.shard %[[C]] to %[[S]] : tensor<8x8xf32>
func.func @collapse(%x: tensor<4x2x8xf32>) -> tensor<8x8xf32> {
  %s = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<4x2x8xf32>
  %c = tensor.collapse_shape %x_s [[0, 1], [2]] : tensor<4x2x8xf32> into tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
