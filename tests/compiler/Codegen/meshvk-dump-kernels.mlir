// RUN: rm -rf %t && mesh-vk-opt %s --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv --meshvk-dump-kernels=dir=%t -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=ASM < %t/negate.spvasm
// RUN: spirv-val --target-env vulkan1.1 %t/negate.spv
// RUN: not mesh-vk-opt %s --meshvk-dump-kernels 2>&1 | FileCheck %s --check-prefix=NODIR

// FILES: negate.spv
// FILES-NEXT: negate.spvasm
// ASM: OpEntryPoint GLCompute %main "main"
// ASM: OpExecutionMode %main LocalSize
// ASM: OpDecorate {{.*}} DescriptorSet 0
// NODIR: meshvk-dump-kernels needs dir=<directory>
func.func @negate(%a: tensor<10xi32>) -> tensor<10xi32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<10xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<10xi32>) outs(%e : tensor<10xi32>) {
  ^bb0(%x: i32, %o: i32):
    %z = arith.constant 0 : i32
    %y = arith.subi %z, %x : i32
    linalg.yield %y : i32
  } -> tensor<10xi32>
  return %r : tensor<10xi32>
}
