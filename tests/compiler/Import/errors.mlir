// Bad models: one line each, exit 2 (`not` checks the failure).
// RUN: %make_model truncated %t.trunc.onnx
// RUN: not mesh-vk-translate --import-onnx %t.trunc.onnx 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: trunc.onnx: not an ONNX model (the protobuf does not parse, or has no graph)
// TRUNC-NOT: {{.}}
//
// RUN: %make_model unknown_op %t.nms.onnx
// RUN: not mesh-vk-translate --import-onnx %t.nms.onnx 2>&1 | FileCheck %s --check-prefix=OP
// OP: node 'nms' (NonMaxSuppression, opset 17): the op is not supported (supported: Abs
//
// RUN: %make_model dynamic_batch %t.dyn.onnx
// RUN: not mesh-vk-translate --import-onnx %t.dyn.onnx 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: input 'x': dimension 0 ('N') is dynamic (give the shape with --input-shape or an input)
// RUN: mesh-vk-translate --import-onnx %t.dyn.onnx --input-shape=x=3x4 | FileCheck %s --check-prefix=FIXED
// FIXED: func.func @main(%{{.*}}: tensor<3x4xf32>) -> tensor<3x4xf32>
//
// RUN: %make_model runtime_shape %t.rs.onnx
// RUN: not mesh-vk-translate --import-onnx %t.rs.onnx 2>&1 | FileCheck %s --check-prefix=RS
// RS: node 'reshape' (Reshape, opset 17): its shape operand 's' is computed at run time
//
// RUN: not mesh-vk-translate --import-onnx %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing.onnx: cannot read: No such file or directory
