// Long full reductions of one f32 vector, split over the processes of a 1-D
// grid: sum, max and mean to 0-d results. 131074 = 2 x 65537 elements: long
// enough for meshvk-split-reductions to cut each process's reduction into
// partials, and no chunk length divides it, so a tail op runs too.
// s = sum x[i], m = max x[i], a = s / 131074.
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<131074xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_s = shard.shard %x to %split annotate_for_users : tensor<131074xf32>
  %e = tensor.empty() : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.fill ins(%lowest : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x_s : tensor<131074xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %m = linalg.reduce ins(%x_s : tensor<131074xf32>) outs(%l : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.maxnumf %in, %acc : f32
      linalg.yield %a : f32
    }
  %s_r = shard.shard %s to %rep : tensor<f32>
  %s_u = shard.shard %s_r to %rep annotate_for_users : tensor<f32>
  %n = arith.constant 131074.0 : f32
  %mean = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>],
                          iterator_types = []}
      ins(%s_u : tensor<f32>) outs(%e : tensor<f32>) {
    ^bb0(%v: f32, %o: f32):
      %d = arith.divf %v, %n : f32
      linalg.yield %d : f32
  } -> tensor<f32>
  %m_r = shard.shard %m to %rep : tensor<f32>
  %m_u = shard.shard %m_r to %rep annotate_for_users : tensor<f32>
  %a_u = shard.shard %mean to %rep annotate_for_users : tensor<f32>
  return %s_u, %m_u, %a_u : tensor<f32>, tensor<f32>, tensor<f32>
}
