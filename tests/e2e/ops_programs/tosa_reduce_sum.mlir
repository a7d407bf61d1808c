// tosa.reduce_sum keeps the reduced dimension (16x1): its lowering ends in a
// tensor.expand_shape (16 -> 16x1), partitioned by meshvk's reshape sharding
// rule with the rows split. r[i, 0] = sum over j of a[i, j] (f32).
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<16x8xf32>) -> tensor<16x1xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<16x8xf32>
  %r = tosa.reduce_sum %a_s {axis = 1 : i32} : (tensor<16x8xf32>) -> tensor<16x1xf32>
  %r_s = shard.shard %r to %rows : tensor<16x1xf32>
  return %r_s : tensor<16x1xf32>
}
