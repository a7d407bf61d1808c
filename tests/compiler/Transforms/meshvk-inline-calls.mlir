// RUN: mesh-vk-opt %s --meshvk-partition | FileCheck %s
// RUN: not mesh-vk-opt %S/Inputs/recursive-call.mlir --meshvk-partition 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// Helper functions are inlined before sharding (a plan is one function and
// calls have no sharding rule); private helpers are dropped afterwards.

// A private activation called twice, with the annotation inside the callee.
// CHECK-NOT: func.func private @act
// CHECK-LABEL: func.func @main
// CHECK-SAME: tensor<4x4xf32>
// CHECK-NOT: func.call
// CHECK: math.exp
// CHECK: math.exp
// CHECK: return {{.*}} : tensor<4x4xf32>
shard.grid @g(shape = 2)
func.func private @act(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %s annotate_for_users : tensor<8x4xf32>
  %e = math.exp %as : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s : tensor<8x4xf32>
  %y = func.call @act(%xs) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %z = func.call @act(%y) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %zs = shard.shard %z to %s annotate_for_users : tensor<8x4xf32>
  return %zs : tensor<8x4xf32>
}

// Recursion cannot be inlined: one level is inlined into @main and the call
// left is refused by name.
// RECURSIVE: recursive-call.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'func.call' cannot be partitioned
