// RUN: mesh-vk-opt %s -split-input-file --meshvk-unroll-grid --meshvk-lower-collectives --meshvk-outline-kernels --meshvk-fuse-kernels | FileCheck %s
// Elementwise launches merge into the launch of their producer (a matmul's
// epilogue, an elementwise chain); what must stay apart stays apart.

// matmul + bias + relu on 2 processes: ONE kernel per process (shared), the
// intermediate tensors are no launch results any more.
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-NEXT: %[[L0:.*]] = meshvk.launch @[[K:kernel_[0-9]+]](%arg0, %arg2, %arg4) on 0 : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %[[L1:.*]] = meshvk.launch @[[K]](%arg1, %arg3, %arg5) on 1
// CHECK-NEXT: return %[[L0]], %[[L1]]
// CHECK: func.func private @[[K]](%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3x5xf32>, %{{.*}}: tensor<5xf32>) -> tensor<2x5xf32> attributes {meshvk.kernel}
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.maxnumf
// CHECK: return
// CHECK-NOT: func.func private
func.func @matmul_bias_relu(%a: tensor<2x3xf32>, %w: tensor<3x5xf32>, %bias: tensor<5xf32>) -> tensor<2x5xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x5xf32>) outs(%f : tensor<2x5xf32>) -> tensor<2x5xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<2x5xf32>, tensor<5xf32>) outs(%e : tensor<2x5xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %r = arith.addf %v, %c : f32
      linalg.yield %r : f32
  } -> tensor<2x5xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.maxnumf %v, %z : f32
      linalg.yield %r : f32
  } -> tensor<2x5xf32>
  return %g : tensor<2x5xf32>
}

// -----

// A chain of the same elementwise op (one kernel function reused by every
// step) becomes one kernel; a transpose in the chain fuses too.
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[L:.*]] = meshvk.launch @[[K:kernel_[0-9]+]](%arg0) on 0 : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[L]]
// CHECK: func.func private @[[K]]
// CHECK-COUNT-3: linalg.exp
// CHECK: linalg.transpose
// CHECK-NOT: func.func private
func.func @chain(%x: tensor<3x4xf32>) -> tensor<4x3xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %e = tensor.empty() : tensor<3x4xf32>
  %0 = linalg.exp ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = linalg.exp ins(%0 : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = linalg.exp ins(%1 : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %et = tensor.empty() : tensor<4x3xf32>
  %3 = linalg.transpose ins(%2 : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>) permutation = [1, 0]
  return %3 : tensor<4x3xf32>
}

// -----

// A result with a second user after the consumer (here: returned) stays a
// result of the merged kernel: computed once, written to its own buffer
// beside the consumer's (the consumer's results first).
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @second_user
// CHECK-NEXT: %[[M:.*]]:2 = meshvk.launch @{{.*}}(%arg0, %arg1) on 0 : (tensor<2x3xf32>, tensor<3x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
// CHECK-NEXT: return %[[M]]#1, %[[M]]#0
func.func @second_user(%a: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x5xf32>) outs(%f : tensor<2x5xf32>) -> tensor<2x5xf32>
  %r = linalg.exp ins(%m : tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %m, %r : tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

// Collectives: exp after an all_gather reads the gathered copy, not the
// matmul, so nothing fuses across it; and an add that reads both the
// matmul and the gathered tensor does not fuse the matmul either, since the
// copies sit between the two launches (fusion never moves work across data
// movement).
shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @across_collective
// CHECK: %[[M0:.*]] = meshvk.launch @[[MM:kernel_[0-9]+]](%arg0, %arg2) on 0
// CHECK: %[[M1:.*]] = meshvk.launch @[[MM]](%arg1, %arg3) on 1
// CHECK: meshvk.copy %[[M0]]
// CHECK: meshvk.copy %[[M1]]
// CHECK: meshvk.launch @[[EXP:kernel_[0-9]+]](%{{.*}}) on 0 : (tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: meshvk.launch @[[EXP]](%{{.*}}) on 1 : (tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: func.func private @[[MM]]
// CHECK-NOT: linalg.exp
// CHECK: return
func.func @across_collective(%a: tensor<2x3xf32>, %w: tensor<3x5xf32>) -> tensor<4x5xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x5xf32>) outs(%f : tensor<2x5xf32>) -> tensor<2x5xf32>
  %g = shard.all_gather %m on @g2 grid_axes = [0] gather_axis = 0 : tensor<2x5xf32> -> tensor<4x5xf32>
  %e4 = tensor.empty() : tensor<4x5xf32>
  %r = linalg.exp ins(%g : tensor<4x5xf32>) outs(%e4 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

shard.grid @g2(shape = 2)
// CHECK-LABEL: func.func @copy_in_between
// CHECK: %[[M0:.*]] = meshvk.launch @[[MM:kernel_[0-9]+]](%arg0, %arg2) on 0 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK: meshvk.copy
// CHECK: meshvk.launch @{{.*}}(%[[M0]], %{{.*}}) on 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @copy_in_between(%a: tensor<2x3xf32>, %w: tensor<3x4xf32>, %x: tensor<2x4xf32>) -> tensor<2x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g2, grid_shape = [2], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %t = shard.all_to_all %x on @g2 grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4xf32> -> tensor<4x2xf32>
  %t2 = shard.all_to_all %t on @g2 grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xf32> -> tensor<2x4xf32>
  %s = linalg.add ins(%m, %t2 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// Not fused: a result read through a broadcast (it would be recomputed for
// every row), a row reduction feeding an elementwise op (codegen would
// recompute the reduction per tile), and an elementwise producer of a
// matmul operand (no prologues).
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-6: meshvk.launch
// CHECK-NOT: meshvk.launch
func.func @not_fused(%v: tensor<5xf32>, %x: tensor<4x5xf32>, %w: tensor<5x3xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x3xf32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<5xf32>
  %ev = linalg.exp ins(%v : tensor<5xf32>) outs(%e5 : tensor<5xf32>) -> tensor<5xf32>
  %e = tensor.empty() : tensor<4x5xf32>
  %bc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %ev : tensor<4x5xf32>, tensor<5xf32>) outs(%e : tensor<4x5xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%f4 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %sub = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<4x5xf32>, tensor<4xf32>) outs(%e : tensor<4x5xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.subf %a, %b : f32
      linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %ex = linalg.exp ins(%x : tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %e43 = tensor.empty() : tensor<4x3xf32>
  %f43 = linalg.fill ins(%z : f32) outs(%e43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm = linalg.matmul ins(%ex, %w : tensor<4x5xf32>, tensor<5x3xf32>) outs(%f43 : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %bc, %sub, %mm : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x3xf32>
}

// -----

// A convolution's window sums (meshvk-conv-windows: contractions of the
// same output) with their sum, bias and activation: the first contraction
// takes the sum, bias and relu as its epilogue; the second stays a kernel
// of its own (at most one contraction per kernel: a second one would be
// computed per tile into private temporaries, measured slower).
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @window_sums
// CHECK-NEXT: %[[C:.*]] = meshvk.launch @[[K0:kernel_[0-9]+]](%{{.*}}, %{{.*}}) on 0 : (tensor<6x4xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK-NEXT: meshvk.launch @[[K:kernel_[0-9]+]](%{{.*}}, %{{.*}}, %[[C]], %arg4) on 0 : (tensor<6x4xf32>, tensor<4x3xf32>, tensor<6x3xf32>, tensor<3xf32>) -> tensor<6x3xf32>
// CHECK-NEXT: return
// CHECK: func.func private @[[K]]
// CHECK-COUNT-1: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: "reduction"
// CHECK: return
func.func @window_sums(%x0: tensor<6x4xf32>, %w0: tensor<4x3xf32>, %x1: tensor<6x4xf32>, %w1: tensor<4x3xf32>, %bias: tensor<3xf32>) -> tensor<6x3xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x3xf32>) -> tensor<6x3xf32>
  %c0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x0, %w0 : tensor<6x4xf32>, tensor<4x3xf32>) outs(%f : tensor<6x3xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<6x3xf32>
  %c1 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x1, %w1 : tensor<6x4xf32>, tensor<4x3xf32>) outs(%f : tensor<6x3xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
  } -> tensor<6x3xf32>
  %sum = linalg.add ins(%c0, %c1 : tensor<6x3xf32>, tensor<6x3xf32>) outs(%e : tensor<6x3xf32>) -> tensor<6x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%sum, %bias : tensor<6x3xf32>, tensor<3xf32>) outs(%e : tensor<6x3xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %r = arith.addf %v, %c : f32
      %m = arith.maxnumf %r, %z : f32
      linalg.yield %m : f32
  } -> tensor<6x3xf32>
  return %b : tensor<6x3xf32>
}

// -----

// A chain of 33 adds, each reading an argument of its own: merged whole it
// would bind 34 inputs and its result, more than a kernel may (32,
// codegen::kMaxKernelBindings: the runtime refuses more). The merges stop
// there: two launches, the first binding 31 inputs and its result.
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @bindings_cap
// CHECK-NEXT: %[[A:.*]] = meshvk.launch @{{kernel_[0-9]+}}(%arg0, %arg1, {{.*}}, %arg30) on 0 : ({{.*}}) -> tensor<4xf32>
// CHECK-NEXT: %[[B:.*]] = meshvk.launch @{{kernel_[0-9]+}}(%[[A]], %arg31, %arg32, %arg33) on 0
// CHECK-NEXT: return %[[B]]
func.func @bindings_cap(%x: tensor<4xf32>, %a1: tensor<4xf32>, %a2: tensor<4xf32>, %a3: tensor<4xf32>, %a4: tensor<4xf32>, %a5: tensor<4xf32>, %a6: tensor<4xf32>, %a7: tensor<4xf32>, %a8: tensor<4xf32>, %a9: tensor<4xf32>, %a10: tensor<4xf32>, %a11: tensor<4xf32>, %a12: tensor<4xf32>, %a13: tensor<4xf32>, %a14: tensor<4xf32>, %a15: tensor<4xf32>, %a16: tensor<4xf32>, %a17: tensor<4xf32>, %a18: tensor<4xf32>, %a19: tensor<4xf32>, %a20: tensor<4xf32>, %a21: tensor<4xf32>, %a22: tensor<4xf32>, %a23: tensor<4xf32>, %a24: tensor<4xf32>, %a25: tensor<4xf32>, %a26: tensor<4xf32>, %a27: tensor<4xf32>, %a28: tensor<4xf32>, %a29: tensor<4xf32>, %a30: tensor<4xf32>, %a31: tensor<4xf32>, %a32: tensor<4xf32>, %a33: tensor<4xf32>) -> tensor<4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %e = tensor.empty() : tensor<4xf32>
  %s1 = linalg.add ins(%x, %a1 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s2 = linalg.add ins(%s1, %a2 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s3 = linalg.add ins(%s2, %a3 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s4 = linalg.add ins(%s3, %a4 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s5 = linalg.add ins(%s4, %a5 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s6 = linalg.add ins(%s5, %a6 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s7 = linalg.add ins(%s6, %a7 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s8 = linalg.add ins(%s7, %a8 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s9 = linalg.add ins(%s8, %a9 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s10 = linalg.add ins(%s9, %a10 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s11 = linalg.add ins(%s10, %a11 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s12 = linalg.add ins(%s11, %a12 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s13 = linalg.add ins(%s12, %a13 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s14 = linalg.add ins(%s13, %a14 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s15 = linalg.add ins(%s14, %a15 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s16 = linalg.add ins(%s15, %a16 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s17 = linalg.add ins(%s16, %a17 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s18 = linalg.add ins(%s17, %a18 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s19 = linalg.add ins(%s18, %a19 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s20 = linalg.add ins(%s19, %a20 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s21 = linalg.add ins(%s20, %a21 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s22 = linalg.add ins(%s21, %a22 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s23 = linalg.add ins(%s22, %a23 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s24 = linalg.add ins(%s23, %a24 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s25 = linalg.add ins(%s24, %a25 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s26 = linalg.add ins(%s25, %a26 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s27 = linalg.add ins(%s26, %a27 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s28 = linalg.add ins(%s27, %a28 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s29 = linalg.add ins(%s28, %a29 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s30 = linalg.add ins(%s29, %a30 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s31 = linalg.add ins(%s30, %a31 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s32 = linalg.add ins(%s31, %a32 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s33 = linalg.add ins(%s32, %a33 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %s33 : tensor<4xf32>
}
