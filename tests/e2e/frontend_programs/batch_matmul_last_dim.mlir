// batch_matmul with both operands split on their LAST dimension (k of A, n of
// B) over the same axis (issue #13: shard-partition segfaulted). It runs
// replicated after gathering both operands.
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<8x32x64xf32>, %b: tensor<8x64x48xf32>) -> tensor<8x32x48xf32> {
  %batch = shard.sharding @grid split_axes = [[], [], [0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %a_s = shard.shard %a to %batch annotate_for_users : tensor<8x32x64xf32>
  %b_s = shard.shard %b to %batch annotate_for_users : tensor<8x64x48xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x32x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8x32x48xf32>) -> tensor<8x32x48xf32>
  %c = linalg.batch_matmul ins(%a_s, %b_s : tensor<8x32x64xf32>, tensor<8x64x48xf32>)
                           outs(%acc : tensor<8x32x48xf32>) -> tensor<8x32x48xf32>
  %c_r = shard.shard %c to %rep : tensor<8x32x48xf32>
  return %c_r : tensor<8x32x48xf32>
}
