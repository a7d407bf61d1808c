"""Writes ONNX models on which Debian's libonnx 1.12 crashes, for the crash
isolation tests (from upstream onnx/onnx issues 6180 and 6185): usage:
make_crash_models.py OUT_DIR."""
import os
import sys

import onnx
import onnx.parser

MODELS = {
    # Conv whose weight is a scalar: shape inference (SIGSEGV) indexes its dims.
    "conv_scalar_weight": """
<ir_version: 8, opset_import: ["" : 11]>
graph (float[7,6,1,5] in0, float in1, float[7,2,3,2,1] in2) => (float[7,6,1,5] out0) {
   out0 = Conv <auto_pad = "NOTSET", group = 1> (in0, in1, in2)
}
""",
    # Gemm at opset 6 with a scalar B and absurd attributes: the version
    # converter's Gemm 6 -> 7 adapter (SIGSEGV).
    "gemm_scalar_b": """
<ir_version: 8, opset_import: ["" : 6]>
graph (double[2,1] in0, double in1, double[2] in2) => (double[2,2] out0) {
   out0 = Gemm <alpha: float = 1.0, beta: float = -693.752, broadcast: int = -436, transB: int = 823> (in0, in1, in2)
}
""",
}

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, text in MODELS.items():
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(onnx.parser.parse_model(text).SerializeToString())
