// broadcast over both axes of a 2x2 grid from process 0, written as SPMD
// code: process p holds rows [8p, 8p + 8) of x (32x64 f32) and gets
// process 0's block; stacked over the processes (32x64). Under mpirun its
// copies between ranks run as one MPI_Bcast.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = shard.broadcast %x on @grid grid_axes = [0, 1] root = [0, 0] : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
