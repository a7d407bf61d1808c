// all_to_all over both axes of a 2x2 grid, written as SPMD code: process p
// holds rows [8p, 8p + 8) of x (32x64 f32), cuts its block into 4 chunks of
// 2 rows, sends chunk k to member k and concatenates what it gets along
// dimension 1 (2x256); stacked over the processes (8x256). Under mpirun its
// copies between ranks run as one MPI_Alltoallv.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x64xf32>) -> tensor<2x256xf32> {
  %y = shard.all_to_all %x on @grid grid_axes = [0, 1] split_axis = 0 concat_axis = 1 : tensor<8x64xf32> -> tensor<2x256xf32>
  return %y : tensor<2x256xf32>
}
