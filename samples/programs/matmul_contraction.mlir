// Contraction-split matmul: C[64x64] = A[64x256] · B[256x64] with the shared
// K dimension split over a grid of 4. Each process multiplies its K slice into
// a partial C; an all_reduce(sum) of the partials (peer copies + a local sum
// kernel) gives the replicated result.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %k_cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %k_rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %k_cols annotate_for_users : tensor<64x256xf32>
  %b_s = shard.shard %b to %k_rows annotate_for_users : tensor<256x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a_s, %b_s : tensor<64x256xf32>, tensor<256x64xf32>)
                     outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c_r = shard.shard %c to %rep : tensor<64x64xf32>
  return %c_r : tensor<64x64xf32>
}
