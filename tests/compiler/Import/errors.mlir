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
// DYN: input 'x': dimension 0 ('N') is dynamic (give the shape with --input-shape=x=DIMS, input_shapes= in Python, or an input of that shape to mesh-vk-run)
// RUN: mesh-vk-translate --import-onnx %t.dyn.onnx --input-shape=x=3x4 | FileCheck %s --check-prefix=FIXED
// FIXED: func.func @main(%{{.*}}: tensor<3x4xf32>) -> tensor<3x4xf32>
// An input shape that does not fit the weights: the product named, not a reshape that fails to verify.
// RUN: %make_model mlp %t.mlp.onnx
// RUN: not mesh-vk-translate --import-onnx %t.mlp.onnx --input-shape=x=4x7 2>&1 | FileCheck %s --check-prefix=INNER
// INNER: node 'fc1' (MatMul, opset 17): the product's inner dimensions differ: 4x7 times 8x16 (as multiplied, after any transA/transB
// A shape for a name that is no input (a typo) is refused, not ignored.
// RUN: not mesh-vk-translate --import-onnx %t.dyn.onnx --input-shape=x=3x4 --input-shape=X=3x4 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: a shape given for 'X', which is not an input of the model (its inputs: x)
//
// RUN: %make_model runtime_shape %t.rs.onnx
// RUN: not mesh-vk-translate --import-onnx %t.rs.onnx 2>&1 | FileCheck %s --check-prefix=RS
// RS: node 'reshape' (Reshape, opset 17): its shape operand 's' is computed at run time
//
// RUN: not mesh-vk-translate --import-onnx %t.missing.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing.onnx: cannot read: No such file or directory
//
// Axes are checked before they index anything (found by fuzz_onnx_importer).
// RUN: %make_model softmax_axis %t.sm.onnx
// RUN: not mesh-vk-translate --import-onnx %t.sm.onnx 2>&1 | FileCheck %s --check-prefix=SMAXIS
// SMAXIS: node 'sm' (Softmax, opset 17): axis 3 is out of range for a rank-3 tensor (expected -3..2)
// RUN: %make_model unsqueeze_twice %t.unsq.onnx
// RUN: not mesh-vk-translate --import-onnx %t.unsq.onnx 2>&1 | FileCheck %s --check-prefix=UNSQ
// UNSQ: node 'unsq' (Unsqueeze, opset 17): axes name dimension 0 twice
// RUN: %make_model slice_lengths %t.slice.onnx
// RUN: not mesh-vk-translate --import-onnx %t.slice.onnx 2>&1 | FileCheck %s --check-prefix=SLICELEN
// SLICELEN: node 'slice' (Slice, opset 17): starts, ends, axes and steps differ in length
