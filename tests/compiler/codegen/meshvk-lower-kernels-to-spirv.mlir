// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv | FileCheck %s

// Each kernel becomes one spirv.module with entry point @main; argument i of
// the kernel is (set 0, binding i) whatever outlining did to the argument
// order, and a vec4 view shares its buffer's binding.

// CHECK: spirv.module @__spv__scale_kernel Logical GLSL450
// CHECK-DAG: spirv.GlobalVariable @[[V0:main_arg_[0-9]+]] bind(0, 0)
// CHECK-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} bind(0, 2)
// CHECK-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16>
// CHECK: spirv.func @main()
// CHECK: spirv.EntryPoint "GLCompute" @main
// CHECK: spirv.ExecutionMode @main "LocalSize", 64, 1, 1
// CHECK-LABEL: func.func @scale
// CHECK: gpu.launch_func @scale_kernel::@main blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
func.func @scale(%a: tensor<16x32xf32>, %unused: tensor<3xf32>) -> tensor<16x32xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
