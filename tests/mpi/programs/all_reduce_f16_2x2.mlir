// all_reduce (sum) of f16 over both axes of a 2x2 grid, written as SPMD
// code: process p holds rows [8p, 8p + 8) of x (32x64 f16) and gets the sum
// of the 4 blocks (8x64); stacked over the processes (32x64). Under mpirun
// each rank reduces its processes' blocks on the host (in float, rounded to
// half per step) and one MPI_Allreduce with a user-defined half MPI_Op
// combines the ranks' partials.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %y = shard.all_reduce %x on @grid grid_axes = [0, 1] reduction = sum : tensor<8x64xf16> -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}
