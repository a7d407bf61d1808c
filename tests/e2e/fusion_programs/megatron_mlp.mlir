// The Megatron MLP, y = relu(x . w1 + b1) . w2 + b2 + x: w1 split by columns
// (12 over 4 processes: 3 each; over 3: 4 each), w2 by rows; relu and b1 run
// in the first matmul's kernel on each process, the second matmul's partial
// sums meet in an all_reduce, and b2 and the residual add run after it (they
// never fuse across the collective).
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<7x5xf32>, %w1: tensor<5x12xf32>, %b1: tensor<12xf32>, %w2: tensor<12x5xf32>, %b2: tensor<5xf32>) -> tensor<7x5xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %vec = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %w1s = shard.shard %w1 to %cols annotate_for_users : tensor<5x12xf32>
  %b1s = shard.shard %b1 to %vec annotate_for_users : tensor<12xf32>
  %w2s = shard.shard %w2 to %rows annotate_for_users : tensor<12x5xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<7x12xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<7x12xf32>) -> tensor<7x12xf32>
  %h = linalg.matmul ins(%x, %w1s : tensor<7x5xf32>, tensor<5x12xf32>) outs(%f1 : tensor<7x12xf32>) -> tensor<7x12xf32>
  %hr = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1s : tensor<7x12xf32>, tensor<12xf32>) outs(%e1 : tensor<7x12xf32>) {
    ^bb0(%v: f32, %c: f32, %o: f32):
      %s = arith.addf %v, %c : f32
      %r = arith.maxnumf %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<7x12xf32>
  %e2 = tensor.empty() : tensor<7x5xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<7x5xf32>) -> tensor<7x5xf32>
  %y = linalg.matmul ins(%hr, %w2s : tensor<7x12xf32>, tensor<12x5xf32>) outs(%f2 : tensor<7x5xf32>) -> tensor<7x5xf32>
  %ys = shard.shard %y to %rep : tensor<7x5xf32>
  %yr = shard.shard %ys to %rep annotate_for_users : tensor<7x5xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%yr, %b2, %x : tensor<7x5xf32>, tensor<5xf32>, tensor<7x5xf32>) outs(%e2 : tensor<7x5xf32>) {
    ^bb0(%v: f32, %c: f32, %res: f32, %out: f32):
      %s = arith.addf %v, %c : f32
      %t = arith.addf %s, %res : f32
      linalg.yield %t : f32
  } -> tensor<7x5xf32>
  return %o : tensor<7x5xf32>
}
