// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-normalize-input | FileCheck %s
// RUN: mesh-vk-opt %s -split-input-file -verify-diagnostics --meshvk-compile-plan | FileCheck %s --check-prefix=PLAN
// Convolutions and poolings become linalg.generics over the taps' shifted
// windows (meshvk.window) and filter slices (groups of taps of at most nine
// operands, chained through their sums): projected permutations, so
// spatial splits partition and exchange only borders.
// Where the output is not the input's size at stride 1 ('valid' padding,
// strides) the generic runs over the input's extent and a strided
// extract_slice keeps the op's outputs; dilation widens the shifts.

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
// The taps' products are summed first and added to the accumulator once
// (the body stays `out + v`, a sum the partitioner recognizes):
// CHECK-NEXT: ^bb0(%[[X0:[^:]*]]: f32, %[[F0:[^:]*]]: f32, %[[X1:[^:]*]]: f32, %[[F1:[^:]*]]: f32, %[[X2:[^:]*]]: f32, %[[F2:[^:]*]]: f32, %[[OUT:[^:]*]]: f32):
// CHECK-NEXT: %[[P0:.*]] = arith.mulf %[[X0]], %[[F0]]
// CHECK-NEXT: %[[P1:.*]] = arith.mulf %[[X1]], %[[F1]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[P0]], %[[P1]]
// CHECK-NEXT: %[[P2:.*]] = arith.mulf %[[X2]], %[[F2]]
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[P2]]
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[OUT]], %[[S2]]
// CHECK-NEXT: linalg.yield %[[R]]
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

// 'valid' (no pad): the taps shift the input itself by 0..2; the generic
// runs over the input's 8x8 and an extract_slice keeps the 6x6 outputs. The
// accumulator (a filled tensor.empty; an unfilled one is refused by
// meshvk-check-initialized) becomes a fill of 8x8.
// CHECK-LABEL: func.func @valid
// CHECK-NOT: linalg.conv_2d
// CHECK-DAG: meshvk.window %{{.*}} shifts [0, 2, 2, 0] pad 0.000000e+00 : f32 : tensor<1x8x8x3xf32>
// CHECK-DAG: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x8x8x4xf32>)
// Nine taps of two operands each run in three generics of at most nine
// operands; the channels reduce in each, so each sums into zeros (the first
// into the accumulator) and the sums are added:
// CHECK: %[[G0:.*]] = linalg.generic
// CHECK-SAME: outs(%[[ACC]] : tensor<1x8x8x4xf32>)
// CHECK: %[[G1:.*]] = linalg.generic
// CHECK: %[[S1:.*]] = linalg.add ins(%[[G0]], %[[G1]] :
// CHECK: %[[G2:.*]] = linalg.generic
// CHECK: %[[S2:.*]] = linalg.add ins(%[[S1]], %[[G2]] :
// CHECK-NOT: linalg.generic
// CHECK: tensor.extract_slice %[[S2]][0, 0, 0, 0] [1, 6, 6, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> to tensor<1x6x6x4xf32>
func.func @valid(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}

// -----

// Stride 2: output o is the stride-1 output at 2o, kept by a strided slice;
// the fill's value carries over to the 9x9 accumulator.
// CHECK-LABEL: func.func @strided
// CHECK-DAG: meshvk.window %{{.*}} shifts [0, 2, 2, 0]
// CHECK-DAG: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x9x9x4xf32>)
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[ACC]] : tensor<1x9x9x4xf32>)
// CHECK: %[[S:.*]] = linalg.add
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: %[[T:.*]] = linalg.add ins(%[[S]], %[[G]] :
// CHECK: tensor.extract_slice %[[T]][0, 0, 0, 0] [1, 4, 4, 4] [1, 2, 2, 1] : tensor<1x9x9x4xf32> to tensor<1x4x4x4xf32>
func.func @strided(%x: tensor<1x9x9x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

// A 3x3 max pooling, 'valid': nothing reduces but the taps, so the second
// group (one tap) continues the first's maximum (eight taps), read as an
// input like the output.
// CHECK-LABEL: func.func @max_pool_valid
// CHECK: %[[G0:.*]] = linalg.generic
// CHECK-SAME: ins(%{{[^)]*}}, %{{[^)]*}}, %{{[^)]*}}, %{{[^)]*}}, %{{[^)]*}}, %{{[^)]*}}, %{{[^)]*}}, %{{[^)]*}} :
// CHECK-COUNT-8: arith.maximumf
// CHECK: %[[G1:.*]] = linalg.generic
// CHECK-SAME: ins(%[[G0]], %{{[^)]*}} :
// CHECK-NEXT: ^bb0(%[[RUNNING:.*]]: f32, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.maximumf %[[RUNNING]], %[[X]]
// CHECK: tensor.extract_slice %[[G1]][0, 0, 0, 0] [1, 6, 6, 3] [1, 1, 1, 1]
func.func @max_pool_valid(%x: tensor<1x8x8x3xf32>) -> tensor<1x6x6x3xf32> {
  %low = arith.constant -3.40282347E+38 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x3xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %window : tensor<1x8x8x3xf32>, tensor<3x3xf32>) outs(%f : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  return %y : tensor<1x6x6x3xf32>
}

// -----

// Dilation 2 with 'same' padding (2): tap k shifts by 2k - 2, so the
// output keeps the input's size and nothing is sliced.
// CHECK-LABEL: func.func @dilated_same
// CHECK-DAG: meshvk.window %{{.*}} shifts [0, -2, -2, 0] pad 0.000000e+00 : f32 : tensor<1x9x9x3xf32>
// CHECK-DAG: meshvk.window %{{.*}} shifts [0, 2, 2, 0] pad 0.000000e+00 : f32 : tensor<1x9x9x3xf32>
// CHECK-NOT: tensor.extract_slice %{{.*}} : tensor<1x9x9x4xf32>
func.func @dilated_same(%x: tensor<1x9x9x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x9x9x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x3xf32> to tensor<1x13x13x3xf32>
  %e = tensor.empty() : tensor<1x9x9x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x4xf32>) -> tensor<1x9x9x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x13x13x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x9x9x4xf32>) -> tensor<1x9x9x4xf32>
  return %y : tensor<1x9x9x4xf32>
}

// -----

// 'full' padding (2 on each side of a 3-tap window): the output (8) is
// longer than the input (6), so the input is padded by 2 more on the high
// side (a tensor.pad, decomposed into a fill and an insert_slice) and the
// taps shift that by -2..0; nothing is sliced after.
// CHECK-LABEL: func.func @full
// CHECK: %[[X:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<4x8xf32>
// CHECK-DAG: meshvk.window %[[X]] shifts [0, -2] pad 0.000000e+00 : f32 : tensor<4x8xf32>
// CHECK-DAG: meshvk.window %[[X]] shifts [0, -1] pad 0.000000e+00 : f32 : tensor<4x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @full(%x: tensor<4x6xf32>, %w: tensor<3xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2] high[0, 2] {
  ^bb0(%a: index, %b: index):
    tensor.yield %zero : f32
  } : tensor<4x6xf32> to tensor<4x10xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<4x10xf32>, tensor<3xf32>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A strided max pooling into a function argument: the taps' maximum cannot
// start from anything but that tensor, which covers only the strided outputs.
func.func @strided_into_argument(%x: tensor<1x8x8x3xf32>, %acc: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %window = tensor.empty() : tensor<2x2xf32>
  // expected-error @+1 {{'linalg.pooling_nhwc_max' combines its windows into a tensor that is not a fill (not by a sum); meshvk runs a strided, dilated or size-changing window only into a linalg.fill (write the op into a fill, then combine the result with that tensor)}}
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

// A stride-2 window whose other input is read per output position.
func.func @strided_per_output_operand(%x: tensor<10xf32>, %scale: tensor<4xf32>, %w: tensor<3xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'linalg.generic' reads operand #1 along its output's window dimensions; meshvk runs a strided, dilated or size-changing window only where no operand but the input and the output does}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>, affine_map<(d0, d1) -> (d0)>,
                                        affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %scale, %w : tensor<10xf32>, tensor<4xf32>, tensor<3xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %n = arith.mulf %m, %c : f32
    %s = arith.addf %out, %n : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A 'valid' convolution with rows split over 2 plans: the windows pull
// rows below process 0's shard from process 1: 1 row (4 columns x 3 f32 =
// 48 B) for the row shift 1, 2 rows for the row shift 2, fewer columns where
// the column shift leaves the tensor (48+36+24+96+72+48 bytes in all),
// then the slice of the stride-1 outputs (8 rows) to the op's 6 rows
// reshards them: an all_gather of the 1x8x4x4 f32 outputs and an all_slice
// (meshvk's slice rule for a split dimension the slice does not take whole).
shard.grid @g(shape = 2)
// PLAN-LABEL: func.func @valid_rows
// PLAN-SAME: pulled_bytes = [48, 0]>
// PLAN-SAME: kind = "all_gather", algorithm = "direct", group_size = 2, pulled_bytes = [256, 256]>
// PLAN-SAME: kind = "all_slice"
func.func @valid_rows(%x: tensor<1x8x4x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x2x4xf32> {
  %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<1x8x4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x2x4xf32>) -> tensor<1x6x2x4xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xs, %w : tensor<1x8x4x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x6x2x4xf32>) -> tensor<1x6x2x4xf32>
  %ys = shard.shard %y to %s : tensor<1x6x2x4xf32>
  return %ys : tensor<1x6x2x4xf32>
}
