// A chain of elementwise ops on 1-element columns, ending in a transpose:
// t = transpose(max(x * y + 1, 0)) with x, y 13x1 (rows split, uneven on 2
// and 4) and t 1x13; one kernel per process.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<13x1xf32>, %y: tensor<13x1xf32>) -> tensor<1x13xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<13x1xf32>
  %ys = shard.shard %y to %rows annotate_for_users : tensor<13x1xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<13x1xf32>
  %p = linalg.mul ins(%xs, %ys : tensor<13x1xf32>, tensor<13x1xf32>) outs(%e : tensor<13x1xf32>) -> tensor<13x1xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<13x1xf32>) outs(%e : tensor<13x1xf32>) {
    ^bb0(%v: f32, %o: f32):
      %s = arith.addf %v, %one : f32
      linalg.yield %s : f32
  } -> tensor<13x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<13x1xf32>) outs(%e : tensor<13x1xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.maxnumf %v, %zero : f32
      linalg.yield %m : f32
  } -> tensor<13x1xf32>
  %et = tensor.empty() : tensor<1x13xf32>
  %t = linalg.transpose ins(%r : tensor<13x1xf32>) outs(%et : tensor<1x13xf32>) permutation = [1, 0]
  %ts = shard.shard %t to %cols : tensor<1x13xf32>
  return %ts : tensor<1x13xf32>
}
