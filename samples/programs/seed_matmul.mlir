// The seed example (from the project brief): C[2x2] = A[2x3] · B[3x2] with A's
// two rows split over a grid of 2. Each process multiplies its row of A by B;
// the rows of C are gathered with one peer copy per process.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %s_rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %s_rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %s_rows annotate_for_users : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %c = linalg.matmul ins(%a_s, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%fill : tensor<2x2xf32>) -> tensor<2x2xf32>
  %c_r = shard.shard %c to %s_rep : tensor<2x2xf32>
  return %c_r : tensor<2x2xf32>
}
