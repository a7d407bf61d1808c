// Upstream shard-partition alone miscompiles a reshard over two grid axes (one
// all_gather dropped, the result becomes tensor<8x3xf32>); meshvk-verify-abi
// catches that against the recorded ABI. With meshvk-decompose-reshards in
// between, the signature is kept and verification passes.
//
// RUN: mesh-vk-opt %s -verify-diagnostics --pass-pipeline='builtin.module(meshvk-record-abi,func.func(shard-partition),meshvk-verify-abi)'
// RUN: mesh-vk-opt %s --pass-pipeline='builtin.module(func.func(meshvk-decompose-reshards),meshvk-record-abi,func.func(shard-partition),meshvk-verify-abi)' | FileCheck %s
//
// tosa.matmul: sharding-propagation annotates it, but shard-partition leaves it
// whole, so the result would silently be the global tensor. (meshvk-check-sharding
// rejects tosa up front; without it, verify-abi still catches the result.)
// RUN: mesh-vk-opt %S/Inputs/tosa_matmul_unpartitioned.mlir -verify-diagnostics --pass-pipeline='builtin.module(func.func(sharding-propagation{traversal=forward-backward}),meshvk-record-abi,func.func(shard-partition),meshvk-verify-abi)'

shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @two_axes
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32>) -> tensor<8x6xf32>
// expected-error @+1 {{partitioning broke the signature of @two_axes: result #0 should be the local shard 'tensor<8x6xf32>' of the global tensor<8x6xf32> split #shard<axisarray[[]]> but is 'tensor<8x3xf32>' (upstream shard-partition did not partition it as annotated: a dropped resharding step, or an op it cannot partition)}}
func.func @two_axes(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %r = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %r annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

