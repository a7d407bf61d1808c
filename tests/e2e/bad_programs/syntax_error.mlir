shard.grid @grid(shape = 2)
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %x = arith.addf %a %a
