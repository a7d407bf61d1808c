// Contractions, convolutions, pools and reductions as TOSA ops (NCHW around
// NHWC), data movement as tosa/tensor ops, shape subgraphs folded.
// RUN: %make_model gemm %t.gemm.onnx
// RUN: mesh-vk-translate --import-onnx %t.gemm.onnx | FileCheck %s --check-prefix=GEMM
// transB=1 on a weight: stored transposed at import (4x5, w[j][i]), no
// transpose on the device.
// GEMM-NOT: tosa.transpose
// GEMM: arith.constant dense<{{\[\[}}0.000000e+00, 4.000000e+00, 8.000000e+00, 1.200000e+01, 1.600000e+01], [1.000000e+00, {{.*}} : tensor<4x5xf32>
// GEMM-NOT: tosa.transpose
// GEMM: linalg.matmul ins(%arg0, %{{.*}} : tensor<3x4xf32>, tensor<4x5xf32>) {{.*}} -> tensor<3x5xf32>
// GEMM: arith.constant 2.000000e+00 : f32
//
// RUN: %make_model conv %t.conv.onnx
// RUN: mesh-vk-translate --import-onnx %t.conv.onnx | FileCheck %s --check-prefix=CONV
// CONV: tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x5x5x2xf32>
// The weight (an initializer, OIHW in the model) is stored OHWI: not transposed at every call.
// CONV-NOT: tosa.transpose {{.*}}tensor<3x2x3x3xf32>
// CONV: tosa.conv2d %{{.*}}, %cst, {{.*}}pad = array<i64: 1, 1, 1, 1>{{.*}} -> tensor<1x5x5x3xf32>
// CONV: tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x5x5x3xf32>) -> tensor<1x3x5x5xf32>
//
// RUN: %make_model maxpool %t.pool.onnx
// RUN: mesh-vk-translate --import-onnx %t.pool.onnx | FileCheck %s --check-prefix=POOL
// POOL: tosa.max_pool2d {{.*}}kernel = array<i64: 2, 2>{{.*}}stride = array<i64: 2, 2>{{.*}} -> tensor<1x2x2x1xf32>
//
// RUN: %make_model reduce_mean %t.mean.onnx
// RUN: mesh-vk-translate --import-onnx %t.mean.onnx | FileCheck %s --check-prefix=MEAN
// MEAN: tosa.reduce_sum %{{.*}} {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
// MEAN: tosa.reshape {{.*}} -> tensor<2xf32>
// MEAN: arith.constant 5.000000e+00 : f32
// MEAN: arith.divf
//
// RUN: %make_model softmax %t.sm.onnx
// RUN: mesh-vk-translate --import-onnx %t.sm.onnx | FileCheck %s --check-prefix=SM
// SM: tosa.reduce_max %{{.*}} {axis = 1 : i32}
// SM: math.exp
// SM: tosa.reduce_sum %{{.*}} {axis = 1 : i32}
// SM: arith.divf
//
// x.view(x.shape[0], -1): Shape, Gather, Unsqueeze, Concat folded into one reshape.
// RUN: %make_model shape_subgraph %t.view.onnx
// RUN: mesh-vk-translate --import-onnx %t.view.onnx | FileCheck %s --check-prefix=VIEW
// VIEW: func.func @main(%[[X:.*]]: tensor<2x3x4xf32>) -> tensor<2x12xf32>
// VIEW-NEXT: tosa.const_shape {values = dense<[2, 12]> : tensor<2xindex>}
// VIEW-NEXT: tosa.reshape %[[X]]
// VIEW-NEXT: return
//
// RUN: %make_model slice_concat %t.slice.onnx
// RUN: mesh-vk-translate --import-onnx %t.slice.onnx | FileCheck %s --check-prefix=SLICE
// SLICE: tensor.extract_slice %{{.*}}[0, 0] [2, 3] [1, 2] : tensor<2x6xf32> to tensor<2x3xf32>
// SLICE: tosa.concat {{.*}} {axis = 1 : i32}
