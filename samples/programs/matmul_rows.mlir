// Row-split matmul: C[256x64] = A[256x128] · B[128x64]. A's rows are split over
// a grid of 4, B is replicated, each process computes its 64 rows of C, and the
// rows are gathered into the replicated result (an all_gather -> peer copies).
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<256x128xf32>, %b: tensor<128x64xf32>) -> tensor<256x64xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %rows annotate_for_users : tensor<256x128xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<256x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<256x64xf32>) -> tensor<256x64xf32>
  %c = linalg.matmul ins(%a_s, %b : tensor<256x128xf32>, tensor<128x64xf32>)
                     outs(%acc : tensor<256x64xf32>) -> tensor<256x64xf32>
  %c_r = shard.shard %c to %rep : tensor<256x64xf32>
  return %c_r : tensor<256x64xf32>
}
