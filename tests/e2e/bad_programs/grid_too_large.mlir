// A grid of 65,536 processes: refused up front (limit 1024).
shard.grid @grid(shape = 65536)
func.func @main(%a: tensor<65536xf32>) -> tensor<65536xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s annotate_for_users : tensor<65536xf32>
  return %0 : tensor<65536xf32>
}
