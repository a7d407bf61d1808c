// Transposed reshard: x[64x32] arrives with its rows split over a grid of 4.
// Resharding x to a column split is an all_to_all (each process keeps 1/4 of
// its shard and pulls 3 blocks of 16x8 from its peers); the transpose of a
// column-split x is a row-split y with no communication; y is then gathered.
// i32 so results must match bit for bit on every topology.
shard.grid @grid(shape = 4)
func.func @main(%x: tensor<64x32xi32>) -> tensor<32x64xi32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_rows = shard.shard %x to %rows : tensor<64x32xi32>
  %x_cols = shard.shard %x_rows to %cols annotate_for_users : tensor<64x32xi32>
  %init = tensor.empty() : tensor<32x64xi32>
  %y = linalg.transpose ins(%x_cols : tensor<64x32xi32>) outs(%init : tensor<32x64xi32>)
         permutation = [1, 0]
  %y_rows = shard.shard %y to %rows : tensor<32x64xi32>
  %y_rep = shard.shard %y_rows to %rep annotate_for_users : tensor<32x64xi32>
  return %y_rep : tensor<32x64xi32>
}
