// Empty shards: 3 rows over 4 processes (1, 1, 1, 0): c = a + b row-split, and
// its column sums (an all-reduce in which process 3 contributes its fill).
// Run under mpirun -np 4: rank 3 holds only empty shards (0 input bytes).
shard.grid @grid(shape = 4)
func.func @main(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<4xf32>) {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %s annotate_for_users : tensor<3x4xf32>
  %bs = shard.shard %b to %s annotate_for_users : tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %c = linalg.add ins(%as, %bs : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %cs = shard.shard %c to %s : tensor<3x4xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%cs : tensor<3x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
    (%x: f32, %y: f32) { %t = arith.addf %x, %y : f32
      linalg.yield %t : f32 }
  return %cs, %r : tensor<3x4xf32>, tensor<4xf32>
}
