// Several results and a scalar scale: y = x * s (s a 1-element tensor read
// through the broadcast map (i, j) -> (0)) and r[i] = the sum of row i of y.
// (0-d tensors and full reductions to a 0-d result: tests/e2e/ops_programs.)
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>, %s: tensor<1xf32>) -> (tensor<8x4xf32>, tensor<8xf32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %init = tensor.empty() : tensor<8x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x_s, %s : tensor<8x4xf32>, tensor<1xf32>) outs(%init : tensor<8x4xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %m = arith.mulf %v, %k : f32
      linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<8xf32>
  %t = linalg.fill ins(%zero : f32) outs(%t0 : tensor<8xf32>) -> tensor<8xf32>
  %total = linalg.reduce ins(%y : tensor<8x4xf32>) outs(%t : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %y_s = shard.shard %y to %rows : tensor<8x4xf32>
  %total_s = shard.shard %total to %rep : tensor<8xf32>
  return %y_s, %total_s : tensor<8x4xf32>, tensor<8xf32>
}
