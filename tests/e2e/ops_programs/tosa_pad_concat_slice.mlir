// The tosa forms (lowered by tosa-to-tensor to tensor.pad / concat /
// extract_slice), rows split, f32:
//   p = tosa.pad(x, columns 1 before and 1 after, value 0.5)    8x6
//   c = tosa.concat(p, w) along columns                          8x8
//   y = tosa.slice(c, start [0, 2], size [8, 5])                 8x5
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>, %w: tensor<8x2xf32>) -> tensor<8x5xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %w_s = shard.shard %w to %rows annotate_for_users : tensor<8x2xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %value = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %x_s, %padding, %value : (tensor<8x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<8x6xf32>
  %c = tosa.concat %p, %w_s {axis = 1 : i32} : (tensor<8x6xf32>, tensor<8x2xf32>) -> tensor<8x8xf32>
  %start = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[8, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.slice %c, %start, %size : (tensor<8x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x5xf32>
  %y_s = shard.shard %y to %rows : tensor<8x5xf32>
  return %y_s : tensor<8x5xf32>
}
