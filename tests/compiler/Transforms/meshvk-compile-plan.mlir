// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-compile-plan | FileCheck %s
// The whole of compiler part 1: shard-annotated functions to per-process plans.
// Expected bytes are computed by hand in the comments.

// Megatron 2-layer MLP on 4 processes: x 8x16 replicated (512 B), W1 16x32
// split by columns (16x8, 512 B), W2 32x16 split by rows (8x16, 512 B):
// 1536 B of arguments per process. Exactly one collective, the all_reduce of
// the 8x16 f32 partial (512 B), direct: 3 * 512 = 1536 B pulled per process.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: meshvk.collectives = [#meshvk.collective<id = 0, kind = "all_reduce", algorithm = "direct", group_size = 4, pulled_bytes = [1536, 1536, 1536, 1536]>]
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 1536, result_bytes = 512
// CHECK-SAME: meshvk.plan = #meshvk.plan<grid = @g4, grid_shape = [4], peered_axes = [0]>
// CHECK-COUNT-3: meshvk.copy {{.*}} on 0
// CHECK-NOT: meshvk.copy {{.*}} on 0 sizes
// CHECK: return
// CHECK-NOT: = shard.
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %cols = shard.sharding @g4 split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %w1s = shard.shard %w1 to %cols annotate_for_users : tensor<16x32xf32>
  %w2s = shard.shard %w2 to %rows annotate_for_users : tensor<32x16xf32>
  %z = arith.constant 0.0 : f32
  %he = tensor.empty() : tensor<8x32xf32>
  %hf = linalg.fill ins(%z : f32) outs(%he : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1s : tensor<8x16xf32>, tensor<16x32xf32>) outs(%hf : tensor<8x32xf32>) -> tensor<8x32xf32>
  %re = tensor.empty() : tensor<8x32xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x32xf32>) outs(%re : tensor<8x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.maxnumf %v, %z : f32
      linalg.yield %m : f32
  } -> tensor<8x32xf32>
  %ye = tensor.empty() : tensor<8x16xf32>
  %yf = linalg.fill ins(%z : f32) outs(%ye : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%relu, %w2s : tensor<8x32xf32>, tensor<32x16xf32>) outs(%yf : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = shard.shard %y to %rep : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Data x tensor parallel MLP on a 2x2 grid (samples/programs shapes): the
// batch over axis 0, the hidden dimension over axis 1. x 32x64 -> 16x64
// (4096 B), W1 64x128 -> 64x64 (16384 B), W2 128x64 -> 64x64 (16384 B):
// 36864 B of arguments. all_reduce over axis 1 (n = 2) of a 16x64 f32 partial:
// 4096 B; all_gather over axis 0 of 16x64 (n = 2): 4096 B; result 32x64 =
// 8192 B. Process 1 = (0, 1) reduces with process 0 = (0, 0) only. (Annotated
// straight to replicated instead, upstream propagation gathers h first.)
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @mlp_dp_tp
// CHECK-SAME: id = 0, kind = "all_reduce", algorithm = "{{[^"]*}}", group_size = 2, pulled_bytes = [4096, 4096, 4096, 4096]
// CHECK-SAME: id = 1, kind = "all_gather", algorithm = "{{[^"]*}}", group_size = 2, pulled_bytes = [4096, 4096, 4096, 4096]
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 36864, result_bytes = 8192,
// CHECK-NOT: from 2 into %{{.*}} on 1 sizes [16, 64] {{.*}}: tensor<16x64xf32> into tensor<16x64xf32>
// CHECK: meshvk.copy %{{.*}}[0, 0] from 0 into %{{.*}}[0, 0] on 1 sizes [16, 64] {{.*}}: tensor<16x64xf32> into tensor<16x64xf32>
func.func @mlp_dp_tp(%x: tensor<32x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %batch = shard.sharding @g22 split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @g22 split_axes = [[], [1]] : !shard.sharding
  %rows = shard.sharding @g22 split_axes = [[1]] : !shard.sharding
  %rep = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %batch annotate_for_users : tensor<32x64xf32>
  %w1s = shard.shard %w1 to %cols annotate_for_users : tensor<64x128xf32>
  %w2s = shard.shard %w2 to %rows annotate_for_users : tensor<128x64xf32>
  %z = arith.constant 0.0 : f32
  %he = tensor.empty() : tensor<32x128xf32>
  %hf = linalg.fill ins(%z : f32) outs(%he : tensor<32x128xf32>) -> tensor<32x128xf32>
  %h0 = linalg.matmul ins(%xs, %w1s : tensor<32x64xf32>, tensor<64x128xf32>) outs(%hf : tensor<32x128xf32>) -> tensor<32x128xf32>
  %re = tensor.empty() : tensor<32x128xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h0 : tensor<32x128xf32>) outs(%re : tensor<32x128xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.maxnumf %v, %z : f32
      linalg.yield %m : f32
  } -> tensor<32x128xf32>
  %ye = tensor.empty() : tensor<32x64xf32>
  %yf = linalg.fill ins(%z : f32) outs(%ye : tensor<32x64xf32>) -> tensor<32x64xf32>
  %y = linalg.matmul ins(%h, %w2s : tensor<32x128xf32>, tensor<128x64xf32>) outs(%yf : tensor<32x64xf32>) -> tensor<32x64xf32>
  %yb = shard.shard %y to %batch : tensor<32x64xf32>
  %r = shard.shard %yb to %rep annotate_for_users : tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// 2x2 two-axis reshard end to end: each process gathers over axis 0 (pulls
// one 4x3 f32 block, 48 B), then over axis 1 (one 8x3 block, 96 B).
shard.grid @g22(shape = 2x2)
// CHECK-LABEL: func.func @reshard_two_axes
// CHECK-SAME: (%{{.*}}: tensor<4x3xf32> {meshvk.process = 0 : i64}
// CHECK-SAME: -> (tensor<8x6xf32> {meshvk.process = 0 : i64}
// CHECK-SAME: kind = "all_gather", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [48, 48, 48, 48]
// CHECK-SAME: kind = "all_gather", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [96, 96, 96, 96]
func.func @reshard_two_axes(%a: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %s = shard.sharding @g22 split_axes = [[0], [1]] : !shard.sharding
  %r = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %s : tensor<8x6xf32>
  %a1 = shard.shard %a0 to %r annotate_for_users : tensor<8x6xf32>
  return %a1 : tensor<8x6xf32>
}

// -----

// Only grid axis 0 shares memory; the all_reduce over axis 1 is refused.
shard.grid @g22(shape = 2x2) {meshvk.peered_memory_axes = array<i64: 0>}
func.func @not_peered(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %kc = shard.sharding @g22 split_axes = [[], [1]] : !shard.sharding
  %kr = shard.sharding @g22 split_axes = [[1]] : !shard.sharding
  %rep = shard.sharding @g22 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %kc annotate_for_users : tensor<4x8xf32>
  %b0 = shard.shard %b to %kr annotate_for_users : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // The partitioner gives the all_reduce of the partial products the matmul's location.
  // expected-error @+1 {{'shard.all_reduce' over grid axis 1 of @g22, whose devices do not share memory (not in meshvk.peered_memory_axes): not supported yet}}
  %c = linalg.matmul ins(%a0, %b0 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = shard.shard %c to %rep : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Max over a split dimension written with arith.maxnumf: upstream marks the
// all_reduce `generic`; meshvk reads the combiner and reduces with maxnumf.
// 4 f32 partial maxima (16 B), n = 2: 16 B pulled per process. (Upstream
// starts process 1's accumulator at NaN, which maxnumf ignores.)
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @max_over_split_dim
// CHECK-SAME: kind = "all_reduce", algorithm = "{{[^"]*}}", group_size = {{[0-9]+}}, pulled_bytes = [16, 16]
// CHECK: func.func private @kernel_2(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK: arith.maxnumf
func.func @max_over_split_dim(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %c = shard.sharding @g2 split_axes = [[], [0]] : !shard.sharding
  %r = shard.sharding @g2 split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %c annotate_for_users : tensor<4x8xf32>
  %z = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x0 : tensor<4x8xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.maxnumf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %o = shard.shard %s to %r : tensor<4xf32>
  return %o : tensor<4xf32>
}

// -----

// A returned splat tensor constant still gets a buffer: a kernel fills it,
// per process its own shard (2 of the 4 elements).
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @constant_result
// CHECK: meshvk.launch @kernel_0() on 0 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 0, bytes = 8>]} : () -> tensor<2xf32>
// CHECK: meshvk.launch @kernel_0() on 1 {meshvk.buffers = [#meshvk.buffer<kind = result, index = 1, bytes = 8>]} : () -> tensor<2xf32>
// CHECK: func.func private @kernel_0() -> tensor<2xf32> attributes {meshvk.kernel}
// CHECK-NEXT: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: tensor.empty() : tensor<2xf32>
// CHECK-NEXT: linalg.fill
func.func @constant_result() -> tensor<4xf32> {
  %s = shard.sharding @g2 split_axes = [[0]] : !shard.sharding
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %r = shard.shard %c to %s : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Uneven shards: 10 rows over 4 processes (3, 3, 2, 2), exp, gathered to
// replicated through box copies. Bytes: process p pulls the 10 - own rows of
// 4 f32 = 16 B each: p0, p1: 7 * 16 = 112; p2, p3: 8 * 16 = 128.
shard.grid @g4(shape = 4)
// CHECK-LABEL: func.func @uneven_rows
// CHECK-SAME: %{{.*}}: tensor<3x4xf32> {meshvk.process = 0 : i64}
// CHECK-SAME: %{{.*}}: tensor<2x4xf32> {meshvk.process = 3 : i64}
// CHECK-SAME: meshvk.collectives = [#meshvk.collective<id = 0, kind = "reshard", algorithm = "box_copies", group_size = 4, pulled_bytes = [112, 112, 128, 128]>]
// CHECK: meshvk.launch @kernel_{{[0-9]+}}(%arg0) on 0 {{.*}} : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: meshvk.launch @kernel_{{[0-9]+}}(%arg3) on 3 {{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: %[[E:.*]] = meshvk.empty on 3 {{.*}} : tensor<10x4xf32>
// CHECK: %[[C0:.*]] = meshvk.copy %{{.*}}[0, 0] from 0 into %[[E]][0, 0] on 3 sizes [3, 4]
// CHECK: %[[C1:.*]] = meshvk.copy %{{.*}}[0, 0] from 1 into %[[C0]][3, 0] on 3 sizes [3, 4]
// CHECK: %[[C2:.*]] = meshvk.copy %{{.*}}[0, 0] from 2 into %[[C1]][6, 0] on 3 sizes [2, 4]
// CHECK: meshvk.copy %{{.*}}[0, 0] from 3 into %[[C2]][8, 0] on 3 sizes [2, 4]
func.func @uneven_rows(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %rows = shard.sharding @g4 split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @g4 split_axes = [[]] : !shard.sharding
  %a0 = shard.shard %a to %rows annotate_for_users : tensor<10x4xf32>
  %e = tensor.empty() : tensor<10x4xf32>
  %x = linalg.exp ins(%a0 : tensor<10x4xf32>) outs(%e : tensor<10x4xf32>) -> tensor<10x4xf32>
  %x0 = shard.shard %x to %rows : tensor<10x4xf32>
  %x1 = shard.shard %x0 to %rep annotate_for_users : tensor<10x4xf32>
  return %x1 : tensor<10x4xf32>
}

// -----

// Non-splat constants (meshvk-normalize-input -> meshvk.constant): the split
// table keeps only each process's rows (5 over 2: 3 and 2 rows, 24 B and
// 16 B), the replicated row is whole on both (8 B); a returned constant is
// copied into its result buffer. Constant buffers are never transients.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @constants
// CHECK-SAME: meshvk.memory = [#meshvk.process_memory<argument_bytes = 24, result_bytes = 32, transient_bytes = 0, transient_unshared_bytes = 0, constant_bytes = 32>, #meshvk.process_memory<argument_bytes = 16, result_bytes = 24, transient_bytes = 0, transient_unshared_bytes = 0, constant_bytes = 24>]
// CHECK: %[[T0:.*]] = meshvk.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32> {meshvk.buffers = [#meshvk.buffer<kind = constant, index = 0, bytes = 24>], meshvk.process = 0 : i64}
// CHECK: %[[T1:.*]] = meshvk.constant dense<{{\[\[}}7, 8], [9, 10]]> : tensor<2x2xi32> {meshvk.buffers = [#meshvk.buffer<kind = constant, index = 0, bytes = 16>], meshvk.process = 1 : i64}
// CHECK: %[[R0:.*]] = meshvk.constant dense<[100, 200]> : tensor<2xi32> {meshvk.buffers = [#meshvk.buffer<kind = constant, index = 1, bytes = 8>], meshvk.process = 0 : i64}
// CHECK: meshvk.launch @{{.*}}(%arg0, %[[T0]]) on 0
// CHECK: meshvk.launch @{{.*}}(%arg1, %[[T1]]) on 1
// CHECK: meshvk.copy %[[R0]][0] from 0 into %{{.*}}[0] on 0 sizes [2] {meshvk.buffers = [#meshvk.buffer<kind = result, index = 2, bytes = 8>]}
func.func @constants(%a: tensor<5x2xi32>) -> (tensor<5x2xi32>, tensor<2xi32>) {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %a0 = shard.shard %a to %s annotate_for_users : tensor<5x2xi32>
  %t = arith.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]> : tensor<5x2xi32>
  %row = arith.constant dense<[100, 200]> : tensor<2xi32>
  %e = tensor.empty() : tensor<5x2xi32>
  %r = linalg.add ins(%a0, %t : tensor<5x2xi32>, tensor<5x2xi32>) outs(%e : tensor<5x2xi32>) -> tensor<5x2xi32>
  %r0 = shard.shard %r to %s : tensor<5x2xi32>
  return %r0, %row : tensor<5x2xi32>, tensor<2xi32>
}
