// z = x + y on 2048x2048 f32 tiles (16 MiB per tensor), each of the 4
// processes of a 2x2 grid owning one 1024x1024 tile of each input. Under
// mpirun a rank reads and holds only its processes' tiles of x and y
// (tests/mpi/mpirun_input_slices.sh): half of each file on 2 ranks.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<2048x2048xf32>, %y: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %tiles = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %x_s = shard.shard %x to %tiles annotate_for_users : tensor<2048x2048xf32>
  %y_s = shard.shard %y to %tiles annotate_for_users : tensor<2048x2048xf32>
  %init = tensor.empty() : tensor<2048x2048xf32>
  %sum = linalg.add ins(%x_s, %y_s : tensor<2048x2048xf32>, tensor<2048x2048xf32>)
                    outs(%init : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %z = shard.shard %sum to %tiles : tensor<2048x2048xf32>
  return %z : tensor<2048x2048xf32>
}
