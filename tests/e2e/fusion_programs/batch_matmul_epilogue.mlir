// sigmoid(0.5 * (a . b) + r) per batch, the batch of 3 split (uneven on 2):
// scale, residual add and activation in the batch_matmul's kernel.
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<3x5x7xf32>, %b: tensor<3x7x9xf32>, %r: tensor<3x5x9xf32>) -> tensor<3x5x9xf32> {
  %batch = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %batch annotate_for_users : tensor<3x5x7xf32>
  %bs = shard.shard %b to %batch annotate_for_users : tensor<3x7x9xf32>
  %rs = shard.shard %r to %batch annotate_for_users : tensor<3x5x9xf32>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<3x5x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5x9xf32>) -> tensor<3x5x9xf32>
  %m = linalg.batch_matmul ins(%as, %bs : tensor<3x5x7xf32>, tensor<3x7x9xf32>) outs(%f : tensor<3x5x9xf32>) -> tensor<3x5x9xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(p, i, j) -> (p, i, j)>, affine_map<(p, i, j) -> (p, i, j)>, affine_map<(p, i, j) -> (p, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m, %rs : tensor<3x5x9xf32>, tensor<3x5x9xf32>) outs(%e : tensor<3x5x9xf32>) {
    ^bb0(%v: f32, %res: f32, %o: f32):
      %sc = arith.mulf %v, %half : f32
      %t = arith.addf %sc, %res : f32
      linalg.yield %t : f32
  } -> tensor<3x5x9xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(p, i, j) -> (p, i, j)>, affine_map<(p, i, j) -> (p, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x5x9xf32>) outs(%e : tensor<3x5x9xf32>) {
    ^bb0(%v: f32, %o: f32):
      %n = arith.negf %v : f32
      %x = math.exp %n : f32
      %d = arith.addf %x, %one : f32
      %q = arith.divf %one, %d : f32
      linalg.yield %q : f32
  } -> tensor<3x5x9xf32>
  %ys = shard.shard %y to %batch : tensor<3x5x9xf32>
  return %ys : tensor<3x5x9xf32>
}
