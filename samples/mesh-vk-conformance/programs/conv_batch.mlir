// A convolution layer with its batch split over 4 processes: y = relu(conv2d(x,
// w) + b), NHWC, 3x3 'valid', then gathered on every process.
shard.grid @grid(shape = 4)
func.func @main(%x: tensor<4x10x10x3xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<4x8x8x8xf32> {
  %batch = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %xs = shard.shard %x to %batch annotate_for_users : tensor<4x10x10x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x10x10x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8x8xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<4x8x8x8xf32>) -> tensor<4x8x8x8xf32>
  %rb = shard.shard %r to %batch : tensor<4x8x8x8xf32>
  %rr = shard.shard %rb to %rep annotate_for_users : tensor<4x8x8x8xf32>
  return %rr : tensor<4x8x8x8xf32>
}
