// RUN: mesh-vk-opt %s -split-input-file --meshvk-compile-plan | FileCheck %s
// Plans of the generic-body rewrites (GenericRewrites.cpp): what each process
// computes and what crosses processes. Bytes by hand in the comments.

// argmax over a split dimension (4x8 f32, columns over 2): each process
// reduces its 4 columns to a partial max and a partial index key; both are
// combined by an all-reduce (max, then min): 4 values x 4 B pulled each.
// The index reads a 4-element iota slice per process (16 B constant).
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @argmax_split
// CHECK-SAME: meshvk.collectives = [#meshvk.collective<id = 0, kind = "all_reduce", algorithm = "direct", group_size = 2, pulled_bytes = [16, 16]>, #meshvk.collective<id = 1, kind = "all_reduce", algorithm = "direct", group_size = 2, pulled_bytes = [16, 16]>]
// CHECK-SAME: constant_bytes = 16>
// CHECK-DAG: meshvk.constant dense<[0, 1, 2, 3]> : tensor<4xi32> {{.*}}meshvk.process = 0
// CHECK-DAG: meshvk.constant dense<[4, 5, 6, 7]> : tensor<4xi32> {{.*}}meshvk.process = 1
func.func @argmax_split(%x: tensor<4x8xf32>) -> tensor<4xi32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4x8xf32>
  %i = tosa.argmax %xs {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4xi32>
  return %i : tensor<4xi32>
}

// -----

// tosa.gather with the batch split over 2: the values (4x6x2 f32) are read by
// tensor.extract, so every process gathers them whole (all_gather: the other
// half, 2x6x2 x 4 B = 96 B pulled each) and its kernel takes them as a buffer.
shard.grid @grid(shape = 2)
// CHECK-LABEL: func.func @gather
// CHECK-SAME: meshvk.collectives = [#meshvk.collective<id = 0, kind = "all_gather", algorithm = "direct", group_size = 2, pulled_bytes = [96, 96]>]
// CHECK: func.func private @kernel_0(%{{.*}}: tensor<2x3xi32>, %{{.*}}: tensor<2xi32>, %{{.*}}: tensor<2xi32>, %[[V:.*]]: tensor<4x6x2xf32>) -> tensor<2x3x2xf32>
// CHECK: tensor.extract %[[V]]
func.func @gather(%v: tensor<4x6x2xf32>, %k: tensor<4x3xi32>) -> tensor<4x3x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %vs = shard.shard %v to %s annotate_for_users : tensor<4x6x2xf32>
  %ks = shard.shard %k to %s annotate_for_users : tensor<4x3xi32>
  %g = tosa.gather %vs, %ks : (tensor<4x6x2xf32>, tensor<4x3xi32>) -> tensor<4x3x2xf32>
  %gs = shard.shard %g to %s : tensor<4x3x2xf32>
  return %gs : tensor<4x3x2xf32>
}

// -----

// Empty shards: 3 rows over 4 processes (1, 1, 1, 0). Process 3 runs no
// kernel on its 0x4 shard: its result is a meshvk.empty (the artifact gives
// it one word), and its partial column sum is the fill alone (a reduction
// over 0 rows), which it still contributes to the all-reduce.
shard.grid @grid(shape = 4)
// CHECK-LABEL: func.func @empty_shard
// CHECK: meshvk.empty on 3 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 3, bytes = 0>]} : tensor<0x4xf32>
// CHECK-NOT: meshvk.launch @{{.*}}(%arg3
// CHECK: meshvk.launch @[[FILL:kernel_[0-9]+]]() on 3
// CHECK: func.func private @[[FILL]]() -> tensor<4xf32>
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: return
func.func @empty_shard(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<4xf32>) {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %s annotate_for_users : tensor<3x4xf32>
  %bs = shard.shard %b to %s annotate_for_users : tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %c = linalg.add ins(%as, %bs : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %cs = shard.shard %c to %s : tensor<3x4xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%cs : tensor<3x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
    (%x: f32, %y: f32) {
      %t = arith.addf %x, %y : f32
      linalg.yield %t : f32
    }
  return %cs, %r : tensor<3x4xf32>, tensor<4xf32>
}
