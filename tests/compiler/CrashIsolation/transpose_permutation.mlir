// A mistyped attribute in otherwise ordinary MLIR: `permutation =2 [1, 0]`.
// MLIR 22's parser reports "expected '['" at 6:91 and then crashes (SIGSEGV
// in NamedAttrList::set while recovering); upstream mlir-opt does the same.
func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation =2 [1, 0]
  return %t : tensor<8x4xf32>
}
