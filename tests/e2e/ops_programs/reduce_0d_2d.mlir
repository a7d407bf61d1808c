// A full max-reduction of a tensor split over both axes of a 2-D grid to a
// 0-d result: r = max over i, j of x[i, j] (f32).
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<8x16xf32>) -> tensor<f32> {
  %blocks = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %blocks annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<f32>
  %lowest = arith.constant -3.0e38 : f32
  %t = linalg.fill ins(%lowest : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x_s : tensor<8x16xf32>) outs(%t : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %m = arith.maxnumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %out = shard.shard %r to %rep annotate_for_users : tensor<f32>
  return %out : tensor<f32>
}
