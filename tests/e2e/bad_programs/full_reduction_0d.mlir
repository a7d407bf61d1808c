// A full reduction to a 0-d tensor: the kernel tiler needs a parallel
// dimension in every kernel's output, so this is refused with the location.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>) -> tensor<f32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<f32>
  %t = linalg.fill ins(%zero : f32) outs(%t0 : tensor<f32>) -> tensor<f32>
  %total = linalg.reduce ins(%x_s : tensor<8x4xf32>) outs(%t : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %total : tensor<f32>
}
