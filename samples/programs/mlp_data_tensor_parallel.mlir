// Data x tensor parallel MLP on a 2x2 grid: the batch of x is split over grid
// axis 0 (data parallel), W1 by columns and W2 by rows over grid axis 1 (tensor
// parallel). Each row of the grid runs a Megatron MLP on half of the batch: one
// all_reduce over axis 1, then the batch halves are gathered over axis 0.
shard.grid @grid(shape = 2x2)
func.func @main(%x: tensor<32x64xf32>, %w1: tensor<64x128xf32>,
                %w2: tensor<128x64xf32>) -> tensor<32x64xf32> {
  %batch = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [1]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %batch annotate_for_users : tensor<32x64xf32>
  %w1_s = shard.shard %w1 to %cols annotate_for_users : tensor<64x128xf32>
  %w2_s = shard.shard %w2 to %rows annotate_for_users : tensor<128x64xf32>
  %zero = arith.constant 0.0 : f32
  %h_init = tensor.empty() : tensor<32x128xf32>
  %h_acc = linalg.fill ins(%zero : f32) outs(%h_init : tensor<32x128xf32>) -> tensor<32x128xf32>
  %h = linalg.matmul ins(%x_s, %w1_s : tensor<32x64xf32>, tensor<64x128xf32>)
                     outs(%h_acc : tensor<32x128xf32>) -> tensor<32x128xf32>
  %relu_init = tensor.empty() : tensor<32x128xf32>
  %h_relu = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<32x128xf32>) outs(%relu_init : tensor<32x128xf32>) {
    ^bb0(%v: f32, %out: f32):
      %r = arith.maxnumf %v, %zero : f32
      linalg.yield %r : f32
  } -> tensor<32x128xf32>
  %y_init = tensor.empty() : tensor<32x64xf32>
  %y_acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %y = linalg.matmul ins(%h_relu, %w2_s : tensor<32x128xf32>, tensor<128x64xf32>)
                     outs(%y_acc : tensor<32x64xf32>) -> tensor<32x64xf32>
  %y_b = shard.shard %y to %batch : tensor<32x64xf32>
  %y_r = shard.shard %y_b to %rep annotate_for_users : tensor<32x64xf32>
  return %y_r : tensor<32x64xf32>
}
