// The matmul accumulates into a function argument: d = c + a . b (outs is an
// argument the body reads), rows of a, c and d split over the grid.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<16x32xf32>
  %c_s = shard.shard %c to %rows annotate_for_users : tensor<16x8xf32>
  %d = linalg.matmul ins(%a_s, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c_s : tensor<16x8xf32>) -> tensor<16x8xf32>
  %d_s = shard.shard %d to %rows : tensor<16x8xf32>
  return %d_s : tensor<16x8xf32>
}
