// 1-element dimensions everywhere: relu(x . w + b) with x 1x5, w 5x1, b 1,
// then exp; one kernel.
shard.grid @grid(shape = 1)
func.func @main(%x: tensor<1x5xf32>, %w: tensor<5x1xf32>, %bias: tensor<1xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x5xf32>, tensor<5x1xf32>) outs(%f : tensor<1x1xf32>) -> tensor<1x1xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<1x1xf32>, tensor<1xf32>) outs(%e : tensor<1x1xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %s = arith.addf %v, %c : f32
      %r = arith.maxnumf %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<1x1xf32>
  %x2 = linalg.exp ins(%b : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %x2 : tensor<1x1xf32>
}
