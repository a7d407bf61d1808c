// Invalid shard offsets: they end at row 9 of 10 (uneven shards are fine).
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 8, 9] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<10x4xf32>
  %init = tensor.empty() : tensor<10x4xf32>
  %e = linalg.exp ins(%a_s : tensor<10x4xf32>) outs(%init : tensor<10x4xf32>) -> tensor<10x4xf32>
  %r = shard.shard %e to %rep : tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
