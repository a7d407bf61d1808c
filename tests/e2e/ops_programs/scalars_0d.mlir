// 0-d tensors in and out: y = x * s (s read through the map (i, j) -> ()),
// t = s + 1 (an elementwise op on 0-d tensors), both scalars replicated.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>, %s: tensor<f32>) -> (tensor<8x4xf32>, tensor<f32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %s_r = shard.shard %s to %rep annotate_for_users : tensor<f32>
  %init = tensor.empty() : tensor<8x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x_s, %s_r : tensor<8x4xf32>, tensor<f32>) outs(%init : tensor<8x4xf32>) {
    ^bb0(%v: f32, %k: f32, %o: f32):
      %m = arith.mulf %v, %k : f32
      linalg.yield %m : f32
  } -> tensor<8x4xf32>
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<f32>
  %t = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%s_r : tensor<f32>) outs(%e : tensor<f32>) {
    ^bb0(%v: f32, %o: f32):
      %a = arith.addf %v, %one : f32
      linalg.yield %a : f32
  } -> tensor<f32>
  %y_s = shard.shard %y to %rows : tensor<8x4xf32>
  %t_s = shard.shard %t to %rep : tensor<f32>
  return %y_s, %t_s : tensor<8x4xf32>, tensor<f32>
}
