// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(sharding-propagation{traversal=forward-backward},meshvk-complete-shardings))' | FileCheck %s
// Ops that sharding-propagation leaves without annotations (shard-partition
// would segfault on them) run replicated, with a warning for those that read
// a tensor (a fill only overwrites its init: replicated, it costs nothing).

// The Megatron MLP with its result wanted split on rows: the second matmul's
// operands split the contraction over axis 0, the result rows want axis 0 too.
shard.grid @grid(shape = 4)
// CHECK-LABEL: func.func @mlp_result_rows
// CHECK: %[[REP:.*]] = shard.sharding @grid split_axes = {{\[\[}}]]
// CHECK: %[[ROWS:.*]] = shard.sharding @grid split_axes = {{\[\[}}0]]
// CHECK: %[[H:.*]] = shard.shard %{{.*}} to %[[REP]] annotate_for_users : tensor<32x256xf32>
// CHECK: %[[W:.*]] = shard.shard %{{.*}} to %[[REP]] annotate_for_users : tensor<256x64xf32>
// CHECK: %[[Y:.*]] = linalg.matmul ins(%[[H]], %[[W]] : {{.*}}) outs(%{{.*}} :
// CHECK: %[[YP:.*]] = shard.shard %[[Y]] to %[[REP]] : tensor<32x64xf32>
// CHECK: shard.shard %[[YP]] to %[[ROWS]] : tensor<32x64xf32>
func.func @mlp_result_rows(%h: tensor<32x256xf32>, %w2: tensor<256x64xf32>) -> tensor<32x64xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %h_s = shard.shard %h to %cols annotate_for_users : tensor<32x256xf32>
  %w2_s = shard.shard %w2 to %rows annotate_for_users : tensor<256x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  // expected-warning @+1 {{'linalg.matmul' runs replicated on every process: sharding-propagation found no consistent sharding for it (operand #2 has no sharding; operands [[], [0]], [[0]], [[]]; results [[0]])}}
  %y = linalg.matmul ins(%h_s, %w2_s : tensor<32x256xf32>, tensor<256x64xf32>)
                     outs(%acc : tensor<32x64xf32>) -> tensor<32x64xf32>
  %y_r = shard.shard %y to %rows : tensor<32x64xf32>
  return %y_r : tensor<32x64xf32>
}

// -----

// A batch_matmul whose operands split k (lhs) and n (rhs) over the same axis.
shard.grid @grid(shape = 4)
// CHECK-LABEL: func.func @batch_matmul_last_dim
// CHECK: %[[REP:.*]] = shard.sharding @grid split_axes = {{\[\[}}]]
// CHECK: %[[A:.*]] = shard.shard %{{.*}} to %[[REP]] annotate_for_users : tensor<8x32x64xf32>
// CHECK: %[[B:.*]] = shard.shard %{{.*}} to %[[REP]] annotate_for_users : tensor<8x64x48xf32>
// CHECK: linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<8x32x64xf32>, tensor<8x64x48xf32>)
// CHECK-NEXT: shard.shard %{{.*}} : tensor<8x32x48xf32>
func.func @batch_matmul_last_dim(%a: tensor<8x32x64xf32>, %b: tensor<8x64x48xf32>) -> tensor<8x32x48xf32> {
  %last = shard.sharding @grid split_axes = [[], [], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %last annotate_for_users : tensor<8x32x64xf32>
  %b_s = shard.shard %b to %last annotate_for_users : tensor<8x64x48xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x32x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8x32x48xf32>) -> tensor<8x32x48xf32>
  // expected-warning @+1 {{'linalg.batch_matmul' runs replicated}}
  %c = linalg.batch_matmul ins(%a_s, %b_s : tensor<8x32x64xf32>, tensor<8x64x48xf32>)
                           outs(%acc : tensor<8x32x48xf32>) -> tensor<8x32x48xf32>
  %c_r = shard.shard %c to %rep : tensor<8x32x48xf32>
  return %c_r : tensor<8x32x48xf32>
}

// -----

// Consistent programs are left as propagation made them: no warning.
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @consistent
// CHECK-NOT: split_axes = {{\[\[}}]]
// CHECK: return
func.func @consistent(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.exp ins(%a_s : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = shard.shard %0 to %rows : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A returned table constant (meshvk.constant, as normalize-input makes it)
// written before every annotation: its replicated annotation uses a
// sharding made at the top of the function (it was made after the first
// annotation: 'operand #1 does not dominate this use').
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @constant_first
// CHECK-NEXT: %[[REP:.*]] = shard.sharding @g split_axes = {{\[\[}}]]
// CHECK-NEXT: %[[C:.*]] = meshvk.constant dense<[100, 200]>
// CHECK-NEXT: shard.shard %[[C]] to %[[REP]] : tensor<2xi32>
func.func @constant_first(%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<2xi32>) {
  %row = meshvk.constant dense<[100, 200]> : tensor<2xi32> : tensor<2xi32>
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.add ins(%a0, %a0 : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r0 = shard.shard %r to %s : tensor<4xi32>
  return %r0, %row : tensor<4xi32>, tensor<2xi32>
}
