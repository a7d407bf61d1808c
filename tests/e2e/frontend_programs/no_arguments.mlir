// A function without arguments: its result comes from constants alone.
// y[i, j] = exp(0.5) everywhere, 16x8, rows split.
shard.grid @grid(shape = 2)
func.func @main() -> tensor<16x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %half = arith.constant 0.5 : f32
  %init = tensor.empty() : tensor<16x8xf32>
  %h = linalg.fill ins(%half : f32) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.exp ins(%h : tensor<16x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y_s = shard.shard %y to %rows : tensor<16x8xf32>
  return %y_s : tensor<16x8xf32>
}
