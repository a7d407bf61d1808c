// all_reduce (sum) of f32 over both axes of a 2x2 grid, written as SPMD
// code: process p holds rows [2600p, 2600p + 2600) of x (10400x1024 f32) and
// gets the sum of the 4 blocks (2600x1024, 10.6 MB); stacked over the
// processes. Under mpirun with 2 devices per rank the rank's two partials
// are reduced in one pass and all-reduced in 8 MiB chunks (two: a whole one
// and a partial one), each copied back to the other local member.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<2600x1024xf32>) -> tensor<2600x1024xf32> {
  %y = shard.all_reduce %x on @grid grid_axes = [0, 1] reduction = sum : tensor<2600x1024xf32> -> tensor<2600x1024xf32>
  return %y : tensor<2600x1024xf32>
}
