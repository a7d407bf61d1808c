// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv | FileCheck %s

// Each kernel becomes one spirv.module with entry point @main; argument i of
// the kernel is (set 0, binding i) whatever outlining did to the argument
// order, and a vec4 view shares its buffer's binding.

// CHECK-LABEL: func.func @scale
// CHECK: gpu.launch_func @scale_kernel::@main blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: spirv.module @__spv__scale_kernel Logical GLSL450
// Argument 1 (%unused) is never read: no variable; the result is binding 2.
// CHECK-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<128 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
// CHECK-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<128 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
// CHECK-NOT: bind(0, 1)
// CHECK: spirv.func @main()
// CHECK: spirv.GL.Exp
// CHECK: spirv.EntryPoint "GLCompute" @main
// CHECK: spirv.ExecutionMode @main "LocalSize", 64, 1, 1
// The gpu.module stays for the host-side launch.
// CHECK: gpu.module @scale_kernel
// CHECK: gpu.func @main
func.func @scale(%a: tensor<16x32xf32>, %unused: tensor<3xf32>) -> tensor<16x32xf32> attributes {meshvk.kernel} {
  %e = tensor.empty() : tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
