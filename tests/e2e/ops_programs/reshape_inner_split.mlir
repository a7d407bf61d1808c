// A collapse whose split dimension is not the first of its group: process
// p's columns are not a contiguous block of the collapsed dimension, so the
// columns are gathered before the collapse (it used to be refused).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<2x8xf32>) -> tensor<16xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %x_s = shard.shard %x to %s annotate_for_users : tensor<2x8xf32>
  %c = tensor.collapse_shape %x_s [[0, 1]] : tensor<2x8xf32> into tensor<16xf32>
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %c_s = shard.shard %c to %rep : tensor<16xf32>
  return %c_s : tensor<16xf32>
}
