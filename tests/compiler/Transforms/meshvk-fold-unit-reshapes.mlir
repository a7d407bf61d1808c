// RUN: mesh-vk-opt %s -split-input-file --meshvk-unroll-grid --meshvk-fold-unit-reshapes | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file --meshvk-unroll-grid --meshvk-fold-unit-reshapes --meshvk-outline-kernels --meshvk-fuse-kernels --meshvk-fuse-row-chains | FileCheck %s --check-prefix=PLAN
// Reshapes that only add or drop unit dims are read through by the
// linalg.generic inputs that read them (an added dim's index dropped, a
// dropped dim read at 0) and disappear; reshapes that split or merge real
// dims, reshapes read by named ops or returned, stay.

#x3 = affine_map<(b, t, c) -> (b, t, c)>
#r3 = affine_map<(b, t, c) -> (b, t)>
#red = affine_map<(b, t, c) -> (b, t, c)>
shard.grid @g1(shape = 1)
// LayerNorm's mean as imported: tosa.reduce_sum (linalg.reduce, then an
// expand_shape keeping the reduced dim), the divide on [2, 3, 1], a
// collapse_shape dropping the dim again, the broadcast subtract. Both
// reshapes go; the divide reads the sum with (b, t), the subtract reads the
// mean with (b, t, 0); the whole chain is ONE launch.
// CHECK-DAG: #[[R2:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ZERO:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-LABEL: func.func @mean_keepdims
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.reduce
// CHECK: linalg.generic {indexing_maps = [#[[R2]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3x1xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ZERO]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x3x8xf32>, tensor<2x3x1xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
// PLAN-LABEL: func.func @mean_keepdims
// PLAN-NEXT: %[[L:.*]] = meshvk.launch @{{kernel_[0-9]+}}(%arg0) on 0 : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// PLAN-NEXT: return %[[L]]
func.func @mean_keepdims(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %er = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = linalg.reduce ins(%x : tensor<2x3x8xf32>) outs(%f : tensor<2x3xf32>) dimensions = [2]
    (%v: f32, %a: f32) {
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
    }
  %kept = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %mean = linalg.generic {indexing_maps = [#red, #red], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%kept : tensor<2x3x1xf32>) outs(%e1 : tensor<2x3x1xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.divf %v, %n : f32
      linalg.yield %r : f32
  } -> tensor<2x3x1xf32>
  %m2 = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<2x3x1xf32> into tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3x8xf32>
  %c = linalg.generic {indexing_maps = [#x3, #r3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m2 : tensor<2x3x8xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3x8xf32>) {
    ^bb0(%v: f32, %m: f32, %o: f32):
      %r = arith.subf %v, %m : f32
      linalg.yield %r : f32
  } -> tensor<2x3x8xf32>
  return %c : tensor<2x3x8xf32>
}

// -----

#id2 = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>
shard.grid @g1(shape = 1)
// Not folded: the collapse merges two real dims (4x16 -> 64) and the expand
// splits one (64 -> 8x8): both move elements between dims, so they stay
// (and stay kernels of their own).
// CHECK-LABEL: func.func @real_reshapes
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] {{.*}}: tensor<4x16xf32> into tensor<64xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [8, 8] {{.*}}: tensor<64xf32> into tensor<8x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<8x8xf32>)
// PLAN-LABEL: func.func @real_reshapes
// PLAN-COUNT-3: meshvk.launch
// PLAN-NEXT: return
func.func @real_reshapes(%x: tensor<4x16xf32>) -> tensor<8x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %sq = tensor.expand_shape %flat [[0, 1]] output_shape [8, 8] : tensor<64xf32> into tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sq : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.exp %v : f32
      linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

shard.grid @g1(shape = 1)
// Not folded: a named op (matmul) keeps its maps, so the unit-dim reshape it
// reads stays; so does one the function returns.
// CHECK-LABEL: func.func @named_and_returned
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] {{.*}}: tensor<1x4x8xf32> into tensor<4x8xf32>
// CHECK: linalg.matmul {{.*}}ins(%[[C]], %arg1
// CHECK: %[[E:.*]] = tensor.expand_shape
// CHECK: return %{{.*}}, %[[E]]
func.func @named_and_returned(%a: tensor<1x4x8xf32>, %b: tensor<8x2xf32>) -> (tensor<4x2xf32>, tensor<1x4x2xf32>)
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = linalg.matmul ins(%a2, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m3 = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 4, 2] : tensor<4x2xf32> into tensor<1x4x2xf32>
  return %m, %m3 : tensor<4x2xf32>, tensor<1x4x2xf32>
}

// -----

#in3 = affine_map<(i, j, k) -> (i, j, k)>
#out3 = affine_map<(i, j, k) -> (i, j)>
shard.grid @g1(shape = 1)
// Not folded: the sum over the added unit dim k reads it only through the
// expand, so dropping k's index would leave loop k unbound.
// CHECK-LABEL: func.func @reduces_added_dim
// CHECK: tensor.expand_shape
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<4x8x1xf32>)
func.func @reduces_added_dim(%x: tensor<4x8xf32>) -> tensor<4x8xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 8, 1] : tensor<4x8xf32> into tensor<4x8x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#in3, #out3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3 : tensor<4x8x1xf32>) outs(%f : tensor<4x8xf32>) {
    ^bb0(%v: f32, %a: f32):
      %r = arith.addf %v, %a : f32
      linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A matmul's epilogue through the expand back to [B, T, N] (how a MatMul of
// an [B, T, K] activation by a [K, N] weight is imported): the bias add and
// the activation after it are collapsed to the matmul's [B*T, N] space and
// read its result directly; the expand follows them. Outlined and fused,
// the matmul, bias and activation are ONE launch, followed by the expand's
// (which meshvk-plan-allocations turns into a view).
#id3 = affine_map<(b, t, n) -> (b, t, n)>
#bias3 = affine_map<(b, t, n) -> (n)>
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK-SAME: ins(%[[MM]], %{{.*}} : tensor<16x6xf32>, tensor<6xf32>) outs(%{{.*}} : tensor<16x6xf32>)
// CHECK: %[[ACT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[BIAS]] : tensor<16x6xf32>) outs(%{{.*}} : tensor<16x6xf32>)
// CHECK: %[[OUT:.*]] = tensor.expand_shape %[[ACT]] {{\[\[}}0, 1], [2]] output_shape [4, 4, 6] {meshvk.process = 0 : i64}
// CHECK: return %[[OUT]]
// PLAN-LABEL: func.func @matmul_epilogue
// PLAN: %[[K:.*]] = meshvk.launch @kernel_{{[0-9]+}}(%arg0, %arg1, %arg2) on 0 : (tensor<16x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<16x6xf32>
// PLAN-NEXT: meshvk.launch @kernel_{{[0-9]+}}(%[[K]]) on 0 : (tensor<16x6xf32>) -> tensor<4x4x6xf32>
// PLAN-NEXT: return
func.func @matmul_epilogue(%x: tensor<16x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>) -> tensor<4x4x6xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<16x6xf32>) -> tensor<16x6xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 4, 6] : tensor<16x6xf32> into tensor<4x4x6xf32>
  %e3 = tensor.empty() : tensor<4x4x6xf32>
  %biased = linalg.generic {indexing_maps = [#id3, #bias3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %b : tensor<4x4x6xf32>, tensor<6xf32>) outs(%e3 : tensor<4x4x6xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x4x6xf32>
  %act = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%biased : tensor<4x4x6xf32>) outs(%e3 : tensor<4x4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<4x4x6xf32>
  return %act : tensor<4x4x6xf32>
}

// -----

// Not collapsed: a reader of the expanded matmul that also reads a row value
// by (b, t) (a LayerNorm's mean): collapsing it would split its row chain.
#id3 = affine_map<(b, t, n) -> (b, t, n)>
#row3 = affine_map<(b, t, n) -> (b, t)>
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @row_reader_stays
// CHECK: %[[MM3:.*]] = tensor.expand_shape
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[MM3]], %{{.*}} : tensor<4x4x6xf32>, tensor<4x4xf32>)
func.func @row_reader_stays(%x: tensor<16x8xf32>, %w: tensor<8x6xf32>, %mean: tensor<4x4xf32>) -> tensor<4x4x6xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<16x6xf32>) -> tensor<16x6xf32>
  %mm3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [4, 4, 6] : tensor<16x6xf32> into tensor<4x4x6xf32>
  %e3 = tensor.empty() : tensor<4x4x6xf32>
  %centered = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm3, %mean : tensor<4x4x6xf32>, tensor<4x4xf32>) outs(%e3 : tensor<4x4x6xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.subf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x4x6xf32>
  return %centered : tensor<4x4x6xf32>
}

// -----

// Attention's heads: Q and K are [B, T, H, D] = [2, 4, 3, 5], transposed to
// [B, H, T, D] and [B, H, D, T] and multiplied as one batch_matmul over the
// collapsed batch B*H = 6; the scores are expanded back and transposed to
// [B, T, H, T]. The batch_matmul iterates (b, h, m, n, k) and reads Q and K
// where they are, so both transposes before it go; the one after reads it
// directly and fuses as its epilogue: ONE launch.
shard.grid @g1(shape = 1)
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-LABEL: func.func @attention_heads
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[Q]], #[[K]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>) outs(%{{.*}} : tensor<2x3x4x4xf32>)
// CHECK: meshvk.process = 0
// CHECK: linalg.transpose ins(%[[S]] : tensor<2x3x4x4xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: return
// PLAN-LABEL: func.func @attention_heads
// PLAN-NEXT: %[[K:.*]] = meshvk.launch @kernel_{{[0-9]+}}(%arg0, %arg1) on 0 : (tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x4x3x4xf32>
// PLAN-NEXT: return %[[K]]
func.func @attention_heads(%q: tensor<2x4x3x5xf32>, %k: tensor<2x4x3x5xf32>) -> tensor<2x4x3x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x3x4x5xf32>
  %qt = linalg.transpose ins(%q : tensor<2x4x3x5xf32>) outs(%eq : tensor<2x3x4x5xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<2x3x5x4xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x3x5xf32>) outs(%ek : tensor<2x3x5x4xf32>) permutation = [0, 2, 3, 1]
  %qc = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x3x5x4xf32> into tensor<6x5x4xf32>
  %es = tensor.empty() : tensor<6x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  %s = linalg.batch_matmul ins(%qc, %kc : tensor<6x4x5xf32>, tensor<6x5x4xf32>) outs(%acc : tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 3, 4, 4] : tensor<6x4x4xf32> into tensor<2x3x4x4xf32>
  %eo = tensor.empty() : tensor<2x4x3x4xf32>
  %o = linalg.transpose ins(%s4 : tensor<2x3x4x4xf32>) outs(%eo : tensor<2x4x3x4xf32>) permutation = [0, 2, 1, 3]
  return %o : tensor<2x4x3x4xf32>
}

// -----

// Not expanded: the batch of 6 is collapsed from [2, 3] in the operand and
// expanded to [3, 2] in the result (no one split of the loop serves both).
shard.grid @g1(shape = 1)
// CHECK-LABEL: func.func @batch_split_disagrees
// CHECK: linalg.batch_matmul
// CHECK-SAME: outs(%{{.*}} : tensor<6x4x4xf32>)
func.func @batch_split_disagrees(%a: tensor<2x3x4x5xf32>, %b: tensor<6x5x4xf32>) -> tensor<3x2x4x4xf32>
    attributes {meshvk.abi = #meshvk.abi<grid = @g1, grid_shape = [1], args = [], results = []>} {
  %zero = arith.constant 0.0 : f32
  %ac = tensor.collapse_shape %a [[0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
  %es = tensor.empty() : tensor<6x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%es : tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  %s = linalg.batch_matmul ins(%ac, %b : tensor<6x4x5xf32>, tensor<6x5x4xf32>) outs(%acc : tensor<6x4x4xf32>) -> tensor<6x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [3, 2, 4, 4] : tensor<6x4x4xf32> into tensor<3x2x4x4xf32>
  return %s4 : tensor<3x2x4x4xf32>
}
