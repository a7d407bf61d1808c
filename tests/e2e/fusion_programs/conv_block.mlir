// A residual block in NHWC: y = relu(relu(conv3x3(x) + bias) + x), padding 1,
// x 1x9x7x3 with its 9 rows split (uneven on 2 and 4 processes); the
// window sums, bias, activations and residual add run as one kernel.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<1x9x7x3xf32>, %w: tensor<3x3x3x3xf32>, %bias: tensor<3xf32>) -> tensor<1x9x7x3xf32> {
  %rows = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<1x9x7x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x9x7x3xf32> to tensor<1x11x9x3xf32>
  %e = tensor.empty() : tensor<1x9x7x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x7x3xf32>) -> tensor<1x9x7x3xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x11x9x3xf32>, tensor<3x3x3x3xf32>) outs(%f : tensor<1x9x7x3xf32>) -> tensor<1x9x7x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias, %xs : tensor<1x9x7x3xf32>, tensor<3xf32>, tensor<1x9x7x3xf32>) outs(%e : tensor<1x9x7x3xf32>) {
    ^bb0(%v: f32, %b: f32, %res: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      %r = arith.maxnumf %s, %zero : f32
      %t = arith.addf %r, %res : f32
      %u = arith.maxnumf %t, %zero : f32
      linalg.yield %u : f32
  } -> tensor<1x9x7x3xf32>
  %ys = shard.shard %y to %rows : tensor<1x9x7x3xf32>
  return %ys : tensor<1x9x7x3xf32>
}
