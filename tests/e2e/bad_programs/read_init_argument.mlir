// A generic (not a contraction) that reads its init, which is an argument:
// kernels cannot update an input in place.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %x_s = shard.shard %x to %rows annotate_for_users : tensor<8x4xf32>
  %r = linalg.reduce ins(%x_s : tensor<8x4xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %m = arith.maxnumf %in, %a : f32
      linalg.yield %m : f32
    }
  %r_s = shard.shard %r to %rows : tensor<8xf32>
  return %r_s : tensor<8xf32>
}
