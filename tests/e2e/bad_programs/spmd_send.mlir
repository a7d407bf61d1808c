// A shard.send that no shard.recv matches: refused (one line naming the pair).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = shard.send %x on @grid grid_axes = [0] destination = [1] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
