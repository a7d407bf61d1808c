// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute | FileCheck %s --check-prefix=BUF
// RUN: mesh-vk-opt %s --meshvk-tile-and-distribute --meshvk-lower-kernels-to-spirv | FileCheck %s --check-prefix=SPV

// A kernel on `?` dims: every dynamically shaped buffer becomes a flat
// memref<?xT> indexed row-major, and its sizes come from one extra argument in
// memory space 7 (PushConstant): word k holds dim push_constant_dims[2k+1] of
// binding push_constant_dims[2k]. Tile loops are bounded by those sizes.

// BUF-LABEL: func.func @add_bias
// BUF-SAME: (%[[A:arg[0-9]+]]: memref<?xf32>, %{{arg[0-9]+}}: memref<8xf32>, %[[C:arg[0-9]+]]: memref<?xf32>,
// The vec4 view of the static bias comes before the sizes.
// BUF-SAME: %[[PC:arg[0-9]+]]: memref<2xi32, 7> {meshvk.push_constants})
// BUF-SAME: meshvk.push_constant_dims = array<i64: 0, 0, 2, 0>
// BUF: gpu.launch
// BUF-DAG: memref.load %[[PC]][%{{.*}}] : memref<2xi32, 7>
// BUF-DAG: arith.index_castui
// BUF: scf.for
// BUF: memref.load %[[A]][%{{.*}}] : memref<?xf32>
// BUF: memref.store %{{.*}}, %[[C]][%{{.*}}] : memref<?xf32>

// SPV: spirv.module @__spv__add_bias_kernel
// Buffers with a dynamic dim are runtime arrays; the sizes are a push-constant
// block with no descriptor decorations.
// SPV-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// SPV-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// SPV-DAG: spirv.GlobalVariable @{{main_arg_[0-9]+}} : !spirv.ptr<!spirv.struct<(!spirv.array<2 x i32, stride=4> [0])>, PushConstant>
// SPV: spirv.func @main()
func.func @add_bias(%a: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> attributes {meshvk.kernel} {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%m) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<?x8xf32>, tensor<8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
