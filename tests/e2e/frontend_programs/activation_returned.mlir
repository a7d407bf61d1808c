// An activation both consumed and returned: e = exp(x) on row shards feeds
// y = e · w, and e itself is returned gathered. The producer annotation of e
// is written after its other use (upstream propagation once broke dominance
// on this: "operand #0 does not dominate this use").
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<8x6xf32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x6xf32>
  %e = math.exp %x_s : tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul ins(%e, %w : tensor<8x6xf32>, tensor<6x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %e_r = shard.shard %e to %rep : tensor<8x6xf32>
  return %y, %e_r : tensor<8x4xf32>, tensor<8x6xf32>
}
