#!/usr/bin/env python3
"""An ONNX DOUBLE model on the device as f64 (a target with shaderFloat64).

    float64_model.py MESH_VK_RUN WORK_DIR

A graph written with onnx.helper: y = a + b at magnitudes around 1e200 (no
f32 holds them), z = exp(a * 1e-200) (exp computes through f32: GLSL has no
64-bit exp) and w = Cast(a * 1e-199 -> FLOAT). mesh-vk-run reads '<f8' files,
--print-plan shows f64 arguments, and the results come back as '<f8' (z and
y) and '<f4' (w), each checked against numpy. The Python package returns
float64 arrays for the same model. Needs lavapipe (shaderFloat64 = true).
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

run_tool, work = sys.argv[1:3]
os.makedirs(work, exist_ok=True)
failures = []

D = TensorProto.DOUBLE
scale = helper.make_tensor("scale", D, [], [1e-200])
scale_w = helper.make_tensor("scale_w", D, [], [1e-199])
graph = helper.make_graph(
    [
        helper.make_node("Add", ["a", "b"], ["y"]),
        helper.make_node("Mul", ["a", "scale"], ["small"]),
        helper.make_node("Exp", ["small"], ["z"]),
        helper.make_node("Mul", ["a", "scale_w"], ["w64"]),
        helper.make_node("Cast", ["w64"], ["w"], to=TensorProto.FLOAT),
    ],
    "float64",
    [helper.make_tensor_value_info("a", D, [2, 3]), helper.make_tensor_value_info("b", D, [3])],
    [helper.make_tensor_value_info("y", D, [2, 3]), helper.make_tensor_value_info("z", D, [2, 3]),
     helper.make_tensor_value_info("w", TensorProto.FLOAT, [2, 3])],
    [scale, scale_w],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
path = os.path.join(work, "float64.onnx")
onnx.save(model, path)

rng = np.random.default_rng(0)
a = rng.uniform(-3, 3, (2, 3)) * 1e200
b = rng.uniform(-3, 3, (3,)) * 1e200
np.save(os.path.join(work, "a.npy"), a)
np.save(os.path.join(work, "b.npy"), b)
want = {"y": a + b, "z": np.exp(a * 1e-200), "w": (a * 1e-199).astype(np.float32)}
rtol = {"y": 1e-15, "z": 1e-6, "w": 1e-6}  # z: exp computes through f32


def check(name, got):
    if got.dtype != want[name].dtype:
        failures.append(f"{name}: dtype {got.dtype}, expected {want[name].dtype}")
    elif not np.allclose(got, want[name], rtol=rtol[name], atol=0):
        failures.append(f"{name}: {got} vs {want[name]}")
    else:
        print(f"{name}: {got.dtype} ok")


outputs = [os.path.join(work, n + ".npy") for n in ("y", "z", "w")]
for o in outputs:
    if os.path.exists(o):
        os.remove(o)
p = subprocess.run([run_tool, path, f"--input=a=@{work}/a.npy", f"--input=b=@{work}/b.npy", "--print-plan"] +
                   [f"--output=@{o}" for o in outputs], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                   timeout=300)
if p.returncode != 0:
    failures.append(f"mesh-vk-run exit {p.returncode}: {(p.stdout + p.stderr).strip()[-600:]}")
else:
    if "2x3xf64" not in p.stdout:
        failures.append("--print-plan shows no 2x3xf64 argument: " + p.stdout[-600:])
    for name, o in zip(("y", "z", "w"), outputs):
        check(name, np.load(o))

try:
    import meshvk  # noqa: E402 (PYTHONPATH from the ctest)
    with meshvk.Runtime(topology="logical") as rt:
        y, z, w = rt.load(meshvk.compile(path))["main"](a=a, b=b)
        for name, got in (("y", y), ("z", z), ("w", w)):
            check(name, np.asarray(got))
except ImportError as e:
    failures.append(f"import meshvk: {e}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
