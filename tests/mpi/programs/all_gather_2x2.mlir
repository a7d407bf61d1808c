// all_gather over both axes of a 2x2 grid, written as SPMD code: process p
// holds rows [8p, 8p + 8) of x (32x64 f32) and gets all of x; the result is
// stacked over the processes (128x64). Under mpirun on 2 ranks (either axis
// over the ranks) or 4, its copies between ranks run as one MPI_Allgatherv.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x64xf32>) -> tensor<32x64xf32> {
  %all = shard.all_gather %x on @grid grid_axes = [0, 1] gather_axis = 0 : tensor<8x64xf32> -> tensor<32x64xf32>
  return %all : tensor<32x64xf32>
}
