// Math ops on whole tensors that have no SPIR-V form in MLIR 22 and are
// expanded before the conversion, rows split:
//   c = cbrt(a)   t = atan2(a, b)   u = trunc(4 * a)      (f32)
//   n = ctpop(k) + 100 * cttz(k)                            (i32)
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %k: tensor<8x4xi32>)
    -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xi32>) {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %rows annotate_for_users : tensor<8x4xf32>
  %bs = shard.shard %b to %rows annotate_for_users : tensor<8x4xf32>
  %ks = shard.shard %k to %rows annotate_for_users : tensor<8x4xi32>
  %c = math.cbrt %as : tensor<8x4xf32>
  %t = math.atan2 %as, %bs : tensor<8x4xf32>
  %four = arith.constant dense<4.0> : tensor<8x4xf32>
  %a4 = arith.mulf %as, %four : tensor<8x4xf32>
  %u = math.trunc %a4 : tensor<8x4xf32>
  %p = math.ctpop %ks : tensor<8x4xi32>
  %z = math.cttz %ks : tensor<8x4xi32>
  %hundred = arith.constant dense<100> : tensor<8x4xi32>
  %z100 = arith.muli %z, %hundred : tensor<8x4xi32>
  %n = arith.addi %p, %z100 : tensor<8x4xi32>
  %cs = shard.shard %c to %rows : tensor<8x4xf32>
  %ts = shard.shard %t to %rows : tensor<8x4xf32>
  %us = shard.shard %u to %rows : tensor<8x4xf32>
  %ns = shard.shard %n to %rows : tensor<8x4xi32>
  return %cs, %ts, %us, %ns : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xi32>
}
