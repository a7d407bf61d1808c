// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-normalize-input | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-compile-plan | FileCheck %s --check-prefix=PLAN
// Stride-1, dilation-1 convolutions and poolings of a constant tensor.pad
// that keeps the input's size become one linalg.generic over the taps'
// shifted windows (meshvk.window) and filter slices: projected
// permutations, so spatial splits partition and exchange only borders.
// Strided, dilated and unpadded ('valid') ones are refused with one line.

// A 3x1 convolution over rows (the filter's kw is 1): three taps, rows
// shifted by -1, 0, +1; the filter slices drop the window dimensions.
// Rows over 2 (4 rows of 2 x 3 f32 = 24 B each): each process pulls one
// row from its neighbour for one tap: 24 B.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @conv_rows
// CHECK-NOT: linalg.conv_2d
// CHECK-DAG: %[[UP:.*]] = meshvk.window %{{.*}} shifts [0, -1, 0, 0] pad 0.000000e+00 : f32 : tensor<1x8x2x3xf32>
// CHECK-DAG: %[[W0:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [4, 1, 1, 3] [1, 1, 1, 1] : tensor<4x3x1x3xf32> to tensor<4x3xf32>
// CHECK-DAG: %[[DN:.*]] = meshvk.window %{{.*}} shifts [0, 1, 0, 0] pad 0.000000e+00 : f32 : tensor<1x8x2x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[UP]], %[[W0]], %{{.*}}, %{{.*}}, %[[DN]], %{{.*}} :
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: arith.addf
// PLAN-LABEL: func.func @conv_rows
// PLAN-SAME: #meshvk.collective<id = 0, kind = "window", algorithm = "window", group_size = 2, pulled_bytes = [0, 24]>, #meshvk.collective<id = 1, kind = "window", algorithm = "window", group_size = 2, pulled_bytes = [24, 0]>]
func.func @conv_rows(%x: tensor<1x8x2x3xf32>, %w: tensor<4x3x1x3xf32>) -> tensor<1x8x2x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<1x8x2x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x2x3xf32> to tensor<1x10x2x3xf32>
  %e = tensor.empty() : tensor<1x8x2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x2x3xf32>, tensor<4x3x1x3xf32>) outs(%f : tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>
  %ys = shard.shard %y to %s : tensor<1x8x2x4xf32>
  return %ys : tensor<1x8x2x4xf32>
}

// -----

// Max pooling 3x1 (stride 1): the window operand is unused by the body and
// dropped; the body (max) runs once per tap.
shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @max_pool_rows
// CHECK: %[[UP:.*]] = meshvk.window %{{.*}} shifts [0, -1, 0, 0] pad -3.40282347E+38 : f32
// CHECK: %[[DN:.*]] = meshvk.window %{{.*}} shifts [0, 1, 0, 0] pad -3.40282347E+38 : f32
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[UP]], %{{.*}}, %[[DN]] :
// CHECK-COUNT-3: arith.maximumf
func.func @max_pool_rows(%x: tensor<1x8x2x3xf32>) -> tensor<1x8x2x3xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<1x8x2x3xf32>
  %low = arith.constant -3.40282347E+38 : f32
  %p = tensor.pad %xs low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %low : f32
  } : tensor<1x8x2x3xf32> to tensor<1x10x2x3xf32>
  %window = tensor.empty() : tensor<3x1xf32>
  %e = tensor.empty() : tensor<1x8x2x3xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<1x8x2x3xf32>) -> tensor<1x8x2x3xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %window : tensor<1x10x2x3xf32>, tensor<3x1xf32>) outs(%f : tensor<1x8x2x3xf32>) -> tensor<1x8x2x3xf32>
  %ys = shard.shard %y to %s : tensor<1x8x2x3xf32>
  return %ys : tensor<1x8x2x3xf32>
}

// -----

func.func @strided(%x: tensor<1x9x9x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' reads its input through affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>, a strided or dilated window: not supported (meshvk runs stride-1, dilation-1 convolutions and poolings, as sums of shifted windows); write the stride-1 op and keep every n-th element with a strided tensor.extract_slice}}
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x3xf32>, tensor<4x3x3x3xf32>) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

func.func @dilated(%x: tensor<1x9x9x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x5x5x4xf32> {
  %e = tensor.empty() : tensor<1x5x5x4xf32>
  // expected-error @+1 {{a strided or dilated window: not supported}}
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x3xf32>, tensor<4x3x3x3xf32>) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  return %y : tensor<1x5x5x4xf32>
}

// -----

func.func @valid(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' is supported only on a tensor.pad of its input with a constant value that keeps the window dimensions' size ('same' padding: each tap then reads a shifted window of the input); pad the input so that the output keeps its size, then take the part you need with tensor.extract_slice}}
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}
