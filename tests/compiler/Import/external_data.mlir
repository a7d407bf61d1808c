// Initializers in external data files (as torch.onnx.export writes models
// over 2 GiB): read from the model's folder; a location outside it, a missing
// or short file, or an offset past its end is one line, exit 2.
// RUN: rm -rf %t && mkdir -p %t/ok %t/outside %t/absolute %t/missing %t/short %t/past %t/offset
// RUN: %make_model external_ok %t/ok/m.onnx
// RUN: cd %t && mesh-vk-translate --import-onnx ok/m.onnx | FileCheck %s --check-prefix=OK
// OK: arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>
//
// RUN: %make_model external_outside %t/outside/m.onnx
// RUN: touch %t/w.bin
// RUN: not mesh-vk-translate --import-onnx %t/outside/m.onnx 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// OUTSIDE: initializer 'w': external data '../w.bin' is not a file inside the model's folder (expected a relative path without '..'{{.*}}
// OUTSIDE-NOT: {{.}}
//
// RUN: %make_model external_absolute %t/absolute/m.onnx
// RUN: not mesh-vk-translate --import-onnx %t/absolute/m.onnx 2>&1 | FileCheck %s --check-prefix=ABSOLUTE
// ABSOLUTE: m.onnx: {{.*}}/dev/zero{{.*}}
// ABSOLUTE-NOT: {{.}}
//
// RUN: %make_model external_missing %t/missing/m.onnx
// RUN: not mesh-vk-translate --import-onnx %t/missing/m.onnx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: m.onnx: {{.*}}absent.bin{{.*}}
// MISSING-NOT: {{.}}
//
// RUN: %make_model external_short %t/short/m.onnx
// RUN: not mesh-vk-translate --import-onnx %t/short/m.onnx 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: initializer 'w': external data 'w.bin': bytes 0..16 are past the end of the 8-byte file
// SHORT-NOT: {{.}}
//
// RUN: %make_model external_past_end %t/past/m.onnx
// RUN: not mesh-vk-translate --import-onnx %t/past/m.onnx 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: initializer 'w': external data 'w.bin': bytes 8..24 are past the end of the 16-byte file
// PAST-NOT: {{.}}
//
// RUN: %make_model external_bad_offset %t/offset/m.onnx
// RUN: not mesh-vk-translate --import-onnx %t/offset/m.onnx 2>&1 | FileCheck %s --check-prefix=OFFSET
// OFFSET: initializer 'w': external data 'w.bin': offset '-4' is not a byte count (expected a decimal 0..10^18)
// OFFSET-NOT: {{.}}
