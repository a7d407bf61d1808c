// Row reduction over a split dimension: s[i] = sum_j x[i, j] with the reduced
// dimension j split over a grid of 4. Each process sums its 64 columns into a
// partial vector; an all_reduce(sum) combines the partials.
shard.grid @grid(shape = 4)
func.func @main(%x: tensor<128x256xf32>) -> tensor<128xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %cols annotate_for_users : tensor<128x256xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<128xf32>) -> tensor<128xf32>
  %s = linalg.reduce ins(%x_s : tensor<128x256xf32>) outs(%acc : tensor<128xf32>) dimensions = [1]
    (%in: f32, %out: f32) {
      %sum = arith.addf %in, %out : f32
      linalg.yield %sum : f32
    }
  %s_r = shard.shard %s to %rep : tensor<128xf32>
  return %s_r : tensor<128xf32>
}
