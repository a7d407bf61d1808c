// A constant (broadcast) indexing map: y[i, j] = x[i, j] + bias[0, j], with
// bias of shape 1x8 read through (i, j) -> (0, j). Rows split.
shard.grid @grid(shape = 4)
func.func @main(%x: tensor<16x8xf32>, %bias: tensor<1x8xf32>) -> tensor<16x8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<16x8xf32>
  %init = tensor.empty() : tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x_s, %bias : tensor<16x8xf32>, tensor<1x8xf32>) outs(%init : tensor<16x8xf32>) {
    ^bb0(%v: f32, %b: f32, %o: f32):
      %s = arith.addf %v, %b : f32
      linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %y_s = shard.shard %y to %rows : tensor<16x8xf32>
  return %y_s : tensor<16x8xf32>
}
