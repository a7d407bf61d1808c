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
