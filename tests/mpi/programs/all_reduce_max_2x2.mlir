// all_reduce (max) of f32 over both axes of a 2x2 grid, written as SPMD code:
// process p holds rows [8p, 8p + 8) of x (32x64 f32, with NaNs in some
// blocks) and gets the elementwise max of the 4 blocks, NaN wherever one
// block has a NaN (arith.maximumf, as numpy's maximum). MPI_MAX leaves NaN to
// the implementation: under mpirun the ranks combine with meshvk's own
// MPI_Op, the same rule as the devices' reduction kernels.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = shard.all_reduce %x on @grid grid_axes = [0, 1] reduction = max : tensor<8x64xf32> -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
