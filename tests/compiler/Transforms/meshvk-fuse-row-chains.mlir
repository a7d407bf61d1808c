// RUN: mesh-vk-opt %s -split-input-file --meshvk-unroll-grid --meshvk-lower-collectives --meshvk-outline-kernels --meshvk-fuse-kernels --meshvk-fuse-row-chains | FileCheck %s
// Row reductions merge with the kernels that read them broadcast along the
// same rows (Softmax, LayerNorm: one kernel each); a reduction whose reader
// takes other rows' values, or a reduction over a leading dimension, stays
// apart.

#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
shard.grid @g1(shape = 1)
// Softmax over rows of 16: max, exp(x - max), sum, divide: ONE launch.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[L:.*]] = meshvk.launch @[[K:kernel_[0-9]+]](%arg0) on 0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[L]]
// CHECK: func.func private @[[K]]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: return
// CHECK-NOT: func.func private
func.func @softmax(%x: tensor<8x16xf32>) -> tensor<8x16xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%fm : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%v: f32, %mx: f32, %o: f32):
      %d = arith.subf %v, %mx : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x16xf32>) outs(%fs : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%v: f32, %sum: f32, %o: f32):
      %r = arith.divf %v, %sum : f32
      linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

#x3 = affine_map<(b, t, c) -> (b, t, c)>
#r3 = affine_map<(b, t, c) -> (b, t)>
#p3 = affine_map<(b, t, c) -> (c)>
#e2 = affine_map<(b, t) -> (b, t)>
shard.grid @g1(shape = 1)
// LayerNorm over rows of 8 in a 2x3 row space, with weight and bias (read
// without the rows: kernel inputs): mean, centre, variance, scale: ONE launch.
// CHECK-LABEL: func.func @layernorm
// CHECK-NEXT: %[[L:.*]] = meshvk.launch @[[K:kernel_[0-9]+]](%arg0, %arg1, %arg2) on 0 : (tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
// CHECK-NEXT: return %[[L]]
// CHECK: func.func private @[[K]]
// CHECK: math.rsqrt
// CHECK: return
// CHECK-NOT: func.func private
func.func @layernorm(%x: tensor<2x3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.generic {indexing_maps = [#x3, #r3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x3x8xf32>) outs(%f : tensor<2x3xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %mean = linalg.generic {indexing_maps = [#e2, #e2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<2x3xf32>) outs(%er : tensor<2x3xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.divf %v, %n : f32
      linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %c = linalg.generic {indexing_maps = [#x3, #r3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mean : tensor<2x3x8xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3x8xf32>) {
    ^bb0(%v: f32, %m: f32, %o: f32):
      %r = arith.subf %v, %m : f32
      linalg.yield %r : f32
  } -> tensor<2x3x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sq = linalg.generic {indexing_maps = [#x3, #r3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c : tensor<2x3x8xf32>) outs(%f2 : tensor<2x3xf32>) {
    ^bb0(%v: f32, %a: f32):
      %p = arith.mulf %v, %v : f32
      %r = arith.addf %p, %a : f32
      linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %inv = linalg.generic {indexing_maps = [#e2, #e2], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<2x3xf32>) outs(%er : tensor<2x3xf32>) {
    ^bb0(%v: f32, %o: f32):
      %var = arith.divf %v, %n : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#x3, #r3, #p3, #p3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %inv, %w, %b : tensor<2x3x8xf32>, tensor<2x3xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<2x3x8xf32>) {
    ^bb0(%v: f32, %i: f32, %wv: f32, %bv: f32, %o: f32):
      %s = arith.mulf %v, %i : f32
      %t = arith.mulf %s, %wv : f32
      %r = arith.addf %t, %bv : f32
      linalg.yield %r : f32
  } -> tensor<2x3x8xf32>
  return %y : tensor<2x3x8xf32>
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
shard.grid @g1(shape = 1)
// Not fused: the reader takes the row maxima by column (m[j] for element
// (i, j): other rows' values), so the two launches stay.
// CHECK-LABEL: func.func @reads_other_rows
// CHECK-NEXT: %[[M:.*]] = meshvk.launch @{{.*}}(%arg0) on 0 : (tensor<8x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[Y:.*]] = meshvk.launch @{{.*}}(%arg0, %[[M]]) on 0 : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @reads_other_rows(%x: tensor<8x8xf32>) -> tensor<8x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x8xf32>) outs(%fm : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
    ^bb0(%v: f32, %mx: f32, %o: f32):
      %r = arith.subf %v, %mx : f32
      linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#sumcols = affine_map<(j, i) -> (i, j)>
#out = affine_map<(j, i) -> (j)>
#col = affine_map<(i, j) -> (j)>
shard.grid @g1(shape = 1)
// Not fused: a reduction over the leading dimension (column sums of x, the
// reduction loop reads x's first index) normalising x by columns.
// CHECK-LABEL: func.func @reduces_leading_dim
// CHECK-NEXT: %[[S:.*]] = meshvk.launch @{{.*}}(%arg0) on 0 : (tensor<4x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[Y:.*]] = meshvk.launch @{{.*}}(%arg0, %[[S]]) on 0 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @reduces_leading_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#sumcols, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%f : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %sum: f32, %o: f32):
      %r = arith.divf %v, %sum : f32
      linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
shard.grid @g1(shape = 1)
// Not fused: the reversal reads its input with tensor.extract (ONNX ArgMin's
// select_last_index), an access no indexing map shows, so the negation that
// produces that input stays in its own launch.
// CHECK-LABEL: func.func @gathers_from_above
// CHECK-NEXT: %[[N:.*]] = meshvk.launch @{{.*}}(%arg0) on 0 : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: meshvk.launch @{{.*}}(%[[N]]
func.func @gathers_from_above(%x: tensor<8x8xf32>) -> tensor<8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %c7 = arith.constant 7 : index
  %e = tensor.empty() : tensor<8x8xf32>
  %er = tensor.empty() : tensor<8xf32>
  %n = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.negf %v : f32
      linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %g = linalg.generic {indexing_maps = [#row], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<8x8xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %jr = arith.subi %c7, %j : index
      %v = tensor.extract %n[%i, %jr] : tensor<8x8xf32>
      linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%g : tensor<8x8xf32>) outs(%fm : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

#x3 = affine_map<(b, t, s) -> (b, t, s)>
#m3 = affine_map<(b, t, s) -> (t, s)>
#r3 = affine_map<(b, t, s) -> (b, t)>
shard.grid @g1(shape = 1)
// The attention chain's mask: a causal mask [t, s] read under the rows
// [b, t] (every batch reads it: a kernel input read through a projected
// permutation), then the row max and the shift. ONE launch.
// CHECK-LABEL: func.func @masked_rows
// CHECK-NEXT: %[[L:.*]] = meshvk.launch @{{kernel_[0-9]+}}(%arg0, %arg1) on 0 : (tensor<2x4x4xf32>, tensor<4x4xi1>) -> tensor<2x4x4xf32>
// CHECK-NEXT: return %[[L]]
func.func @masked_rows(%x: tensor<2x4x4xf32>, %mask: tensor<4x4xi1>) -> tensor<2x4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %er = tensor.empty() : tensor<2x4xf32>
  %w = linalg.generic {indexing_maps = [#x3, #m3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %mask : tensor<2x4x4xf32>, tensor<4x4xi1>) outs(%e : tensor<2x4x4xf32>) {
    ^bb0(%v: f32, %k: i1, %o: f32):
      %r = arith.select %k, %v, %ninf : f32
      linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#x3, #r3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w : tensor<2x4x4xf32>) outs(%fm : tensor<2x4xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [#x3, #r3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4x4xf32>) {
    ^bb0(%v: f32, %mx: f32, %o: f32):
      %r = arith.subf %v, %mx : f32
      linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

// -----

#x2 = affine_map<(t, s) -> (t, s)>
#sk = affine_map<(t, s) -> (t + s)>
#r2 = affine_map<(t, s) -> (t)>
shard.grid @g1(shape = 1)
// Not fused: the bias is read at t + s (a window, no projected permutation:
// row tiles slice inputs by dims), so its reader stays apart from the row
// max; max and shift, reading the row, are one.
// CHECK-LABEL: func.func @window_read
// CHECK-NEXT: %[[W:.*]] = meshvk.launch @{{.*}}(%arg0, %arg1) on 0 : (tensor<4x4xf32>, tensor<7xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = meshvk.launch @{{.*}}(%[[W]]) on 0 : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @window_read(%x: tensor<4x4xf32>, %bias: tensor<7xf32>) -> tensor<4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %er = tensor.empty() : tensor<4xf32>
  %w = linalg.generic {indexing_maps = [#x2, #sk, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<4x4xf32>, tensor<7xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %r = arith.addf %v, %k : f32
      linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#x2, #r2], iterator_types = ["parallel", "reduction"]}
      ins(%w : tensor<4x4xf32>) outs(%fm : tensor<4xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#x2, #r2, #x2], iterator_types = ["parallel", "parallel"]}
      ins(%w, %m : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%v: f32, %mx: f32, %o: f32):
      %r = arith.subf %v, %mx : f32
      linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
shard.grid @g1(shape = 1)
// A weight that is a fill (a LayerNorm weight of ones, kept by the importer
// as a splat) is read without the rows like any constant: the row sum and
// its scaled reader are ONE launch.
// CHECK-LABEL: func.func @fill_weight
// CHECK-NEXT: %[[L:.*]] = meshvk.launch @{{kernel_[0-9]+}}(%arg0) on 0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[L]]
func.func @fill_weight(%x: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %ew = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%fs : tensor<4xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<4xf32>
  %w = linalg.fill ins(%two : f32) outs(%ew : tensor<8xf32>) -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#row, #red, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %w : tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %sum: f32, %wv: f32, %o: f32):
      %c = arith.subf %v, %sum : f32
      %r = arith.mulf %c, %wv : f32
      linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Attention's scores and their softmax: a matmul computing whole rows (its
// loops after the row are parallel, then the reduction) joins the row chain
// that reads it: ONE launch, each row tile computing its row's 16 dot
// products of 5 before the max, exp, sum and divide.
#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @scores_softmax
// CHECK-NEXT: %[[L:.*]] = meshvk.launch @[[K:kernel_[0-9]+]](%arg0, %arg1) on 0 : (tensor<8x5xf32>, tensor<5x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[L]]
// CHECK: func.func private @[[K]]
// CHECK: linalg.matmul
// CHECK: arith.maxnumf
// CHECK: arith.divf
// CHECK-NOT: func.func private
func.func @scores_softmax(%q: tensor<8x5xf32>, %k: tensor<5x16xf32>) -> tensor<8x16xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x = linalg.matmul ins(%q, %k : tensor<8x5xf32>, tensor<5x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%fm : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %ex = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%v: f32, %mx: f32, %o: f32):
      %d = arith.subf %v, %mx : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<8x16xf32>) outs(%fs : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%v: f32, %sum: f32, %o: f32):
      %r = arith.divf %v, %sum : f32
      linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Not merged: a row of the matmul is 16 dot products of 512, more than a row
// tile holds (kMaxRowTileElements): the matmul keeps its own tiles and the
// softmax follows as its own launch.
#row = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @long_dot_products
// CHECK-NEXT: %[[S:.*]] = meshvk.launch @{{kernel_[0-9]+}}(%arg0, %arg1) on 0 : (tensor<8x512xf32>, tensor<512x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: meshvk.launch @{{kernel_[0-9]+}}(%[[S]]) on 0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @long_dot_products(%q: tensor<8x512xf32>, %k: tensor<512x16xf32>) -> tensor<8x16xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x = linalg.matmul ins(%q, %k : tensor<8x512xf32>, tensor<512x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%fm : tensor<8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.maxnumf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%v: f32, %mx: f32, %o: f32):
      %d = arith.subf %v, %mx : f32
      linalg.yield %d : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
