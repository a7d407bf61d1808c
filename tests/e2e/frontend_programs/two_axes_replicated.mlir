// A dimension split over two grid axes, then replicated (issue #13: removing
// axis 0 of [[0, 1]] first crashed shard-partition). c = a + a in i32, the
// sum computed on the [[0, 1]] shards and gathered one axis at a time.
shard.grid @grid(shape = 2x2)
func.func @main(%a: tensor<8x6xi32>) -> tensor<8x6xi32> {
  %s = shard.sharding @grid split_axes = [[0, 1]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : tensor<8x6xi32>
  %init = tensor.empty() : tensor<8x6xi32>
  %c = linalg.add ins(%a_s, %a_s : tensor<8x6xi32>, tensor<8x6xi32>) outs(%init : tensor<8x6xi32>) -> tensor<8x6xi32>
  %c_s = shard.shard %c to %s : tensor<8x6xi32>
  %c_r = shard.shard %c_s to %rep annotate_for_users : tensor<8x6xi32>
  %d = linalg.add ins(%c_r, %a : tensor<8x6xi32>, tensor<8x6xi32>) outs(%init : tensor<8x6xi32>) -> tensor<8x6xi32>
  %d_r = shard.shard %d to %rep : tensor<8x6xi32>
  return %d_r : tensor<8x6xi32>
}
