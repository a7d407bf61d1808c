// relu(x . w + bias) with x's 37 rows split (uneven on 2, 3 and 4 processes):
// the bias add and relu run in the matmul's kernel (meshvk-fuse-kernels).
// Sizes are multiples of no tile (37x53 . 53x29).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<37x53xf32>, %w: tensor<53x29xf32>, %bias: tensor<29xf32>) -> tensor<37x29xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %rows annotate_for_users : tensor<37x53xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x29xf32>) -> tensor<37x29xf32>
  %m = linalg.matmul ins(%xs, %w : tensor<37x53xf32>, tensor<53x29xf32>) outs(%f : tensor<37x29xf32>) -> tensor<37x29xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<37x29xf32>, tensor<29xf32>) outs(%e : tensor<37x29xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %s = arith.addf %v, %c : f32
      linalg.yield %s : f32
  } -> tensor<37x29xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<37x29xf32>) outs(%e : tensor<37x29xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.maxnumf %v, %zero : f32
      linalg.yield %y : f32
  } -> tensor<37x29xf32>
  %rs = shard.shard %r to %rows : tensor<37x29xf32>
  return %rs : tensor<37x29xf32>
}
