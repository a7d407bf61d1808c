// DOUBLE tensors: f64 where the target has shaderFloat64 (--float64, what
// mesh-vk-compile passes for such a target), f32 otherwise.
// RUN: %make_model add_double %t.double.onnx
// RUN: mesh-vk-translate --import-onnx --float64 %t.double.onnx | FileCheck %s --check-prefix=F64
// F64: func.func @main(%{{.*}}: tensor<2x3xf64>, %{{.*}}: tensor<3xf64>) -> tensor<2x3xf64>
// F64: arith.addf %{{.*}}, %{{.*}} : f64
// F64: math.exp %{{.*}} : f64
//
// RUN: mesh-vk-translate --import-onnx %t.double.onnx | FileCheck %s --check-prefix=F32
// F32: func.func @main(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3xf32>) -> tensor<2x3xf32>
// F32: arith.addf %{{.*}}, %{{.*}} : f32
