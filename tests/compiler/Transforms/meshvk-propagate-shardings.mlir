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
