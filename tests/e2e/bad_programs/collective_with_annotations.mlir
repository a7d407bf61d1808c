// A collective in a function with shard.shard annotations (global shapes).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %0 = shard.all_reduce %x_s on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
