// Weights baked into the program (constants whose elements differ), rows of
// x split, f32. Each process's constant buffer holds only the rows it reads
// (T below); W, bias and m are read whole (replicated).
//   W (4x3)    = [[1, 0, -1], [2, 0.5, 0], [0, -1, 3], [1, 1, 1]]
//   bias (3)   = [0.5, -1, 2]
//   T (8x3)    : T[i][j] = i - 2 * j
//   m (4)      = [1, -1, 2, 0.5]
//   y = x . W + bias + T                  (8x3)
//   s[i] = sum_j x[i][j] * m[j]           (8)
shard.grid @grid(shape = 2)
#rows = affine_map<(i, j) -> (i, j)>
#cols = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
func.func @main(%x: tensor<8x4xf32>) -> (tensor<8x3xf32>, tensor<8xf32>) {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %split annotate_for_users : tensor<8x4xf32>
  %w = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 0.5, 0.0], [0.0, -1.0, 3.0], [1.0, 1.0, 1.0]]> : tensor<4x3xf32>
  %bias = arith.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %t = arith.constant dense<[[0.0, -2.0, -4.0], [1.0, -1.0, -3.0], [2.0, 0.0, -2.0], [3.0, 1.0, -1.0],
                             [4.0, 2.0, 0.0], [5.0, 3.0, 1.0], [6.0, 4.0, 2.0], [7.0, 5.0, 3.0]]> : tensor<8x3xf32>
  %m = arith.constant dense<[1.0, -1.0, 2.0, 0.5]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x3xf32>) -> tensor<8x3xf32>
  %p = linalg.matmul ins(%xs, %w : tensor<8x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<8x3xf32>) -> tensor<8x3xf32>
  %e1 = tensor.empty() : tensor<8x3xf32>
  %y = linalg.generic {indexing_maps = [#rows, #cols, #rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%p, %bias, %t : tensor<8x3xf32>, tensor<3xf32>, tensor<8x3xf32>) outs(%e1 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %c : f32
    linalg.yield %abc : f32
  } -> tensor<8x3xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#rows, #cols, #row], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %m : tensor<8x4xf32>, tensor<4xf32>) outs(%s0 : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %ab = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %ab : f32
    linalg.yield %sum : f32
  } -> tensor<8xf32>
  %ys = shard.shard %y to %split : tensor<8x3xf32>
  %ss = shard.shard %s to %split : tensor<8xf32>
  return %ys, %ss : tensor<8x3xf32>, tensor<8xf32>
}
