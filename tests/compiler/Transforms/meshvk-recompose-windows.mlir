// RUN: mesh-vk-opt %s -split-input-file --meshvk-partition --meshvk-recompose-windows | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file --meshvk-compile-plan | FileCheck %s --check-prefix=PLAN
// After partitioning, a convolution or pooling whose windows read only the
// process's own shard is rebuilt as one op from the template ConvWindows kept:
// the input padded once (a fill and one insert of the shard), the whole
// filter, no meshvk.window, no filter slices, no sums of tap groups. Ops whose
// windows cross a split dimension keep the decomposition (their borders come
// from the neighbours). The template module is gone either way.

// A 3x3 'same' convolution with its batch split: every window is local.
// CHECK-NOT: meshvk_window_ops
// CHECK-LABEL: func.func @conv_batch(%arg0: tensor<1x6x6x3xf32>, %arg1: tensor<4x3x3x3xf32>)
// CHECK-NOT: meshvk.window
// CHECK-DAG: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x6x4xf32>)
// CHECK-DAG: %[[PAD:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x8x8x3xf32>)
// CHECK: %[[XP:.*]] = tensor.insert_slice %arg0 into %[[PAD]][0, 1, 1, 0] [1, 6, 6, 3] [1, 1, 1, 1]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME: ins(%[[XP]], %arg1 : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) outs(%[[ACC]] : tensor<1x6x6x4xf32>)
// CHECK-NOT: linalg.generic
// CHECK-NOT: extract_slice
// CHECK-NOT: linalg.add
// CHECK: return
// One kernel for the convolution, the pad a fill and a copy per process:
// PLAN-LABEL: func.func @conv_batch
// PLAN-COUNT-2: meshvk.launch @kernel_{{[0-9]+}}() on
// PLAN-NOT: meshvk.window
shard.grid @g(shape = 2)
func.func @conv_batch(%x: tensor<2x6x6x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x6x6x4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x6x6x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x6x6x3xf32> to tensor<2x8x8x3xf32>
  %e = tensor.empty() : tensor<2x6x6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x6x4xf32>) -> tensor<2x6x6x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x8x8x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<2x6x6x4xf32>) -> tensor<2x6x6x4xf32>
  %ys = shard.shard %y to %s : tensor<2x6x6x4xf32>
  return %ys : tensor<2x6x6x4xf32>
}

// -----

// Rows split: the windows shifted along rows need the neighbour's border
// rows, so the decomposition stays (and its tags are dropped).
// CHECK-LABEL: func.func @conv_rows
// CHECK: meshvk.window %arg0 shifts [0, -1, -1, 0]
// CHECK-NOT: meshvk.window_op
// CHECK-NOT: meshvk.window_roles
// CHECK: linalg.add
shard.grid @g(shape = 2)
func.func @conv_rows(%x: tensor<1x8x6x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x8x6x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<1x8x6x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x6x3xf32> to tensor<1x10x8x3xf32>
  %e = tensor.empty() : tensor<1x8x6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x4xf32>) -> tensor<1x8x6x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x8x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x8x6x4xf32>) -> tensor<1x8x6x4xf32>
  %ys = shard.shard %y to %s : tensor<1x8x6x4xf32>
  return %ys : tensor<1x8x6x4xf32>
}

// -----

// Stride 2, 'valid', with tosa's bias: the stride comes back into the map
// (the decomposition computed stride-1 outputs and sliced them), the bias
// broadcast is the accumulator again (the decomposition summed into zeros and
// added it after), x needs no pad.
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>
// CHECK-LABEL: func.func @conv_strided_bias
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<3xf32>) outs(%{{.*}} : tensor<1x3x3x3xf32>)
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], {{.*}} ins(%arg0, %arg1 : tensor<1x7x7x2xf32>, tensor<3x3x3x2xf32>) outs(%[[BIAS]] : tensor<1x3x3x3xf32>)
// CHECK-NOT: extract_slice
// CHECK-NOT: linalg.add
// CHECK: return
func.func @conv_strided_bias(%x: tensor<1x7x7x2xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x3x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x7x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3xf32>
  return %c : tensor<1x3x3x3xf32>
}

// -----

// A max pool (its taps chain through the running maximum): padded with the
// lowest f32 once, one op over the 3x3 window.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[PAD:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x7x7x2xf32>)
// CHECK: %[[XP:.*]] = tensor.insert_slice %arg0 into %[[PAD]][0, 1, 1, 0] [1, 6, 6, 2]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[XP]], %{{.*}} : tensor<1x7x7x2xf32>, tensor<3x3xf32>)
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @max_pool(%x: tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32> {
  %m = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32>
  return %m : tensor<1x3x3x2xf32>
}
