// arith and math ops on whole tensors (converted to linalg by the compiler),
// rows split over the grid: y = exp(a * b) - a.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<16x8xf32>
  %b_s = shard.shard %b to %rows annotate_for_users : tensor<16x8xf32>
  %p = arith.mulf %a_s, %b_s : tensor<16x8xf32>
  %e = math.exp %p : tensor<16x8xf32>
  %y = arith.subf %e, %a_s : tensor<16x8xf32>
  %y_r = shard.shard %y to %rep : tensor<16x8xf32>
  return %y_r : tensor<16x8xf32>
}
