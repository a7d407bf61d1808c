// 0-d tensors as people write them, without annotations: y = sum(x) * s (a
// full reduction of the split x, then arith.mulf on whole 0-d tensors) and s
// returned as given. Scalars have no dimension to split: they are replicated.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<10xf32>, %s: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<10xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%x_s : tensor<10xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    }
  %y = arith.mulf %sum, %s : tensor<f32>
  return %y, %s : tensor<f32>, tensor<f32>
}
