// The ONNX importer's elementwise ops: one linalg.generic each, numpy
// broadcasting in the indexing maps; BOOL crosses the boundary as i32.
// RUN: %make_model add_broadcast %t.add.onnx
// RUN: mesh-vk-translate --import-onnx %t.add.onnx | FileCheck %s --check-prefix=ADD
// ADD-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// ADD-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// ADD: func.func @main(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3xf32>) -> tensor<2x3xf32>
// ADD: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// ADD: arith.addf
//
// RUN: %make_model activations %t.act.onnx
// RUN: mesh-vk-translate --import-onnx %t.act.onnx | FileCheck %s --check-prefix=ACT
// ACT: math.exp
// ACT: arith.divf
// ACT: arith.cmpf olt
// ACT: arith.constant 1.000000e-01 : f32
// ACT: arith.select
//
// RUN: %make_model where_bool %t.where.onnx
// RUN: mesh-vk-translate --import-onnx %t.where.onnx | FileCheck %s --check-prefix=WHERE
// WHERE: func.func @main(%[[C:.*]]: tensor<3xi32>, %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>)
// WHERE: arith.cmpi ne
// WHERE: -> tensor<3xi1>
// WHERE: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
//
// RUN: %make_model cast_int64 %t.cast.onnx
// RUN: mesh-vk-translate --import-onnx %t.cast.onnx | FileCheck %s --check-prefix=CAST
// CAST: func.func @main(%{{.*}}: tensor<3xf32>) -> tensor<3xi32>
// CAST: arith.fptosi
//
// A BOOL constant whose elements differ (torch's causal mask, folded from
// `tril(ones) == 0`): the runtime stores no i1 buffers, so Where reads it as
// i32 words compared in its own body, and another user gets the words
// compared with 0 in a kernel of their own.
// RUN: %make_model where_mask %t.mask.onnx
// RUN: mesh-vk-translate --import-onnx %t.mask.onnx | FileCheck %s --check-prefix=MASK
// MASK: arith.constant dense<{{\[\[}}0, 1], [0, 0]]> : tensor<2x2xi32>
// MASK: linalg.generic
// MASK: arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// MASK-NEXT: arith.select
// MASK: arith.constant dense<{{\[\[}}1, 0], [1, 1]]> : tensor<2x2xi32>
// MASK-NOT: tensor<2x2xi1>>
// MASK: arith.cmpi ne
