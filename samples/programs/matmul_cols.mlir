// Column-split matmul: C[64x128] = A[64x96] · B[96x128]. B's columns are split
// over a grid of 4; each process computes a 64x32 block of columns of C, which
// are gathered along dimension 1.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<64x96xf32>, %b: tensor<96x128xf32>) -> tensor<64x128xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %b_s = shard.shard %b to %cols annotate_for_users : tensor<96x128xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<64x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<64x128xf32>) -> tensor<64x128xf32>
  %c = linalg.matmul ins(%a, %b_s : tensor<64x96xf32>, tensor<96x128xf32>)
                     outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  %c_r = shard.shard %c to %rep : tensor<64x128xf32>
  return %c_r : tensor<64x128xf32>
}
