// GatherElements: one tosa.gather of the flattened data at flat indices
// base + index * stride(axis) (base: a constant, the flat index of each
// position with its axis coordinate 0; negative indices wrapped on the
// device). CumSum: a log-step prefix sum (the tensor plus itself shifted by
// 1, 2, 4, ... with zeros shifted in), reversed around it for reverse=1,
// shifted once first for exclusive=1. Outputs are checked against the ONNX
// backend suite (node test_gather_elements_*, test_nllloss_*_expanded,
// test_cumsum_* in tests/onnx).
//
// RUN: %make_model gather_elements %t.ge.onnx
// RUN: mesh-vk-translate --import-onnx %t.ge.onnx | FileCheck %s --check-prefix=GE
// GE: %[[BASE:.*]] = arith.constant dense<{{\[\[}}0, 0], [3, 3]]> : tensor<2x2xi32>
// GE: linalg.generic {{.*}} ins(%arg1, %[[BASE]] : tensor<2x2xi32>, tensor<2x2xi32>)
// GE: arith.cmpi slt
// GE: arith.select
// GE: tosa.reshape %arg0, {{.*}} -> tensor<1x6x1xf32>
// GE: tosa.gather {{.*}} : (tensor<1x6x1xf32>, tensor<1x4xi32>) -> tensor<1x4x1xf32>
// GE: tosa.reshape {{.*}} -> tensor<2x2xf32>
//
// RUN: %make_model cumsum %t.cs.onnx
// RUN: mesh-vk-translate --import-onnx %t.cs.onnx | FileCheck %s --check-prefix=CS
// CS: %[[REV:.*]] = tosa.reverse %arg0 {axis = 1 : i32}
// CS: tensor.extract_slice %[[REV]][0, 0] [2, 4] [1, 1]
// CS: %[[EXCL:.*]] = tosa.concat {{.*}} -> tensor<2x5xf32>
// CS: %[[S1:.*]] = tosa.add %[[EXCL]], %{{.*}}
// CS: tensor.extract_slice %[[S1]][0, 0] [2, 3] [1, 1]
// CS: %[[S2:.*]] = tosa.add %[[S1]], %{{.*}}
// CS: tensor.extract_slice %[[S2]][0, 0] [2, 1] [1, 1]
// CS: %[[S4:.*]] = tosa.add %[[S2]], %{{.*}}
// CS: tosa.reverse %[[S4]] {axis = 1 : i32}
// CS-NOT: tosa.add
//
// Refusals: one line naming the node, what is wrong and what is expected.
// RUN: %make_model gather_elements_rank %t.ger.onnx
// RUN: not mesh-vk-translate --import-onnx %t.ger.onnx 2>&1 | FileCheck %s --check-prefix=GER
// GER: node 'ge' (GatherElements, opset 17): indices of shape 2 for data of shape 2x3 (expected the same rank)
// GER-NOT: {{.}}
// RUN: %make_model cumsum_axes %t.csa.onnx
// RUN: not mesh-vk-translate --import-onnx %t.csa.onnx 2>&1 | FileCheck %s --check-prefix=CSA
// CSA: node 'cs' (CumSum, opset 17): axis has 2 values (expected one: a scalar)
// CSA-NOT: {{.}}
