// reduce_scatter (sum) over both axes of a 2x2 grid, written as SPMD code:
// process p holds rows [8p, 8p + 8) of x (32x64 f32) and gets rows
// [2p, 2p + 2) of the sum of the 4 blocks (2x64); stacked over the processes
// (8x64). Under mpirun each rank reduces its processes' blocks on the host
// and one MPI_Reduce_scatter hands each rank its processes' rows.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x64xf32>) -> tensor<2x64xf32> {
  %y = shard.reduce_scatter %x on @grid grid_axes = [0, 1] reduction = sum scatter_axis = 0 : tensor<8x64xf32> -> tensor<2x64xf32>
  return %y : tensor<2x64xf32>
}
