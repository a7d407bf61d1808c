// Collectives that change the local shape, written by the user in an SPMD
// function on a grid of 4 (grid_axes = [0, 1]): each process holds a 4x4 i32
// block (process p: rows [4p, 4p + 4) of the global (4 * 4) x 4 input) and
// returns, stacked the same way,
//   all      = all_gather along dimension 0 (every block of the group),
//   mine     = reduce_scatter(sum) along dimension 0 (its rows of the sum),
//   exchange = all_to_all, split dimension 0, concatenated along dimension 1.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<4x4xi32>) -> (tensor<16x4xi32>, tensor<1x4xi32>, tensor<1x16xi32>) {
  %all = shard.all_gather %x on @grid grid_axes = [0, 1] gather_axis = 0 : tensor<4x4xi32> -> tensor<16x4xi32>
  %mine = shard.reduce_scatter %x on @grid grid_axes = [0, 1] reduction = sum scatter_axis = 0 : tensor<4x4xi32> -> tensor<1x4xi32>
  %exchange = shard.all_to_all %x on @grid grid_axes = [0, 1] split_axis = 0 concat_axis = 1 : tensor<4x4xi32> -> tensor<1x16xi32>
  return %all, %mine, %exchange : tensor<16x4xi32>, tensor<1x4xi32>, tensor<1x16xi32>
}
