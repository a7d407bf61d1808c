// samples/programs/mlp_megatron.mlir as a new user writes it: the second
// matmul accumulates into %y_init (a tensor.empty) instead of the filled
// %y_acc. It compiled and returned garbage (values near 1e30); now refused.
shard.grid @grid(shape = 4)
func.func @main(%x: tensor<32x64xf32>, %w1: tensor<64x256xf32>,
                %w2: tensor<256x64xf32>) -> tensor<32x64xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %w1_s = shard.shard %w1 to %cols annotate_for_users : tensor<64x256xf32>
  %w2_s = shard.shard %w2 to %rows annotate_for_users : tensor<256x64xf32>
  %zero = arith.constant 0.0 : f32
  %h_init = tensor.empty() : tensor<32x256xf32>
  %h_acc = linalg.fill ins(%zero : f32) outs(%h_init : tensor<32x256xf32>) -> tensor<32x256xf32>
  %h = linalg.matmul ins(%x, %w1_s : tensor<32x64xf32>, tensor<64x256xf32>)
                     outs(%h_acc : tensor<32x256xf32>) -> tensor<32x256xf32>
  %relu_init = tensor.empty() : tensor<32x256xf32>
  %h_relu = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<32x256xf32>) outs(%relu_init : tensor<32x256xf32>) {
    ^bb0(%v: f32, %out: f32):
      %r = arith.maxnumf %v, %zero : f32
      linalg.yield %r : f32
  } -> tensor<32x256xf32>
  %y_init = tensor.empty() : tensor<32x64xf32>
  %y = linalg.matmul ins(%h_relu, %w2_s : tensor<32x256xf32>, tensor<256x64xf32>)
                     outs(%y_init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %y_r = shard.shard %y to %rep : tensor<32x64xf32>
  return %y_r : tensor<32x64xf32>
}
