#!/usr/bin/env python3
"""ONNX models run directly by mesh-vk-run (compiled in-process), against torch.

    run_models.py MESH_VK_COMPILE MESH_VK_RUN WORK_DIR

A torch MLP (torch.manual_seed) exported with torch.onnx.export runs as
`mesh-vk-run mlp.onnx --shard=tensor --devices=4`, with its input by position,
by ONNX name (--input=x=@x.npy) and by the type-prefixed form (8x64xf32=@x.bin);
a two-input model takes one input by name and the other by position; a .mvk
compiled by mesh-vk-compile keeps the names. Results must match torch within
1e-4. Bad usage is one exact line on stderr and exit 2.
"""
import os
import subprocess
import sys

import numpy as np
import torch

compile_tool, run_tool, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
mlir = os.path.join(here, "../../samples/programs/matmul_rows.mlir")
failures = []


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)


def w(name):
    return os.path.join(work, name)


def check_run(label, args, expect_stdout=()):
    p = run([run_tool] + args + ["--atol=1e-4", "--rtol=1e-4"])
    missing = [text for text in expect_stdout if text not in p.stdout]
    if p.returncode != 0 or missing:
        failures.append(f"{label}: exit {p.returncode}, missing {missing}: {(p.stdout + p.stderr).strip()[-600:]}")
    else:
        print(f"{label}: ok")


def check_usage(label, args, line):
    p = run([run_tool] + args)
    if p.returncode != 2 or p.stderr != line + "\n":
        failures.append(f"{label}: exit {p.returncode}, stderr {p.stderr!r}, expected {line!r}")
    else:
        print(f"{label}: refused: {line}")


class TwoInputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(16, 8))

    def forward(self, a, b):
        return torch.relu(a @ self.w) + b


torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 32))
x = torch.randn(8, 64)
torch.onnx.export(mlp, x, w("mlp.onnx"), input_names=["x"], output_names=["y"], opset_version=17)
np.save(w("x.npy"), x.numpy())
x.numpy().tofile(w("x.bin"))
np.save(w("y.npy"), mlp(x).detach().numpy())
two = TwoInputs()
a, b = torch.randn(4, 16), torch.randn(4, 8)
torch.onnx.export(two, (a, b), w("two.onnx"), input_names=["a", "b"], output_names=["out"], opset_version=17)
np.save(w("a.npy"), a.numpy())
np.save(w("b.npy"), b.numpy())
np.save(w("out.npy"), two(a, b).detach().numpy())

# The same MLP with a dynamic batch: the run's inputs give it.
torch.onnx.export(mlp, x, w("mlp_dynamic.onnx"), input_names=["x"], output_names=["y"], opset_version=17,
                  dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
x3 = torch.randn(3, 64)
np.save(w("x3.npy"), x3.numpy())
np.save(w("y3.npy"), mlp(x3).detach().numpy())
np.save(w("x_63.npy"), np.zeros((8, 63), np.float32))

mlp_onnx, expected = w("mlp.onnx"), f"--expected-output=@{w('y.npy')}"
check_run("mlp.onnx --shard=tensor --devices=4 (by position)",
          [mlp_onnx, "--shard=tensor", "--devices=4", f"--input=@{w('x.npy')}", expected, "--print-plan"],
          ["grid 4 ", "inputs: x 8x64xf32", "outputs: y 8x32xf32"])
check_run("mlp.onnx --shard=tensor --devices=4 (by name)",
          [mlp_onnx, "--shard=tensor", "--devices=4", f"--input=x=@{w('x.npy')}", expected])
check_run("mlp.onnx --shard=data --devices=4 (by name)",
          [mlp_onnx, "--shard=data", "--devices=4", f"--input=x=@{w('x.npy')}", expected])
check_run("mlp.onnx (one process, type-prefixed input)", [mlp_onnx, f"--input=8x64xf32=@{w('x.bin')}", expected])
check_run("two.onnx (b by name, a by position)",
          [w("two.onnx"), f"--input=b=@{w('b.npy')}", f"--input=@{w('a.npy')}", f"--expected-output=@{w('out.npy')}"])
p = run([compile_tool, mlp_onnx, "--shard=tensor", "--grid-shape=4", "-o", w("mlp.mvk")])
if p.returncode != 0:
    failures.append(f"mesh-vk-compile mlp.onnx: exit {p.returncode}: {p.stderr.strip()}")
else:
    check_run("mlp.mvk (names kept in the artifact)", [w("mlp.mvk"), f"--input=x=@{w('x.npy')}", expected,
                                                        "--print-plan"], ["inputs: x 8x64xf32"])

dynamic = w("mlp_dynamic.onnx")
check_run("mlp_dynamic.onnx: the batch from the .npy (by position)",
          [dynamic, f"--input=@{w('x.npy')}", expected, "--print-plan"], ["inputs: x 8x64xf32"])
check_run("mlp_dynamic.onnx: the batch from the .npy (by name), 3 rows over 2 processes",
          [dynamic, "--shard=tensor", "--devices=2", f"--input=x=@{w('x3.npy')}", f"--expected-output=@{w('y3.npy')}"])
check_run("mlp_dynamic.onnx: the batch from a SHAPExTYPE spec",
          [dynamic, f"--input=8x64xf32=@{w('x.bin')}", expected])
check_run("mlp_dynamic.onnx: --input-shape wins", [dynamic, "--input-shape=x=8x64", f"--input=@{w('x.npy')}", expected])
check_usage("mlp_dynamic.onnx: an input whose static dimension differs", [dynamic, f"--input=@{w('x_63.npy')}"],
            f"mesh-vk-run: {dynamic}: input 'x': the data given is 8x63, the model's input is batchx64 "
            "(the rank and the static dimensions must agree)")
check_usage("mlp_dynamic.onnx: a scalar gives no shape", [dynamic, "--input=x=f32=1"],
            f"mesh-vk-run: {dynamic}: input 'x': dimension 0 ('batch') is dynamic (give the shape with "
            "--input-shape=x=DIMS, input_shapes= in Python, or an input of that shape to mesh-vk-run)")
check_usage("--shard on an .mlir program", [mlir, "--shard=data", "--input=@x.npy"],
            "mesh-vk-run: --shard and --input-shape apply to ONNX models (.onnx); an .mlir program carries its own "
            "shard annotations")
if os.path.exists(w("mlp.mvk")):
    check_usage("--input-shape on a .mvk", [w("mlp.mvk"), "--input-shape=x=8x64", f"--input=@{w('x.npy')}"],
                "mesh-vk-run: --shard and --input-shape apply to ONNX models (.onnx); a .mvk is compiled already "
                "(compile the model with mesh-vk-compile --shard)")
check_usage("unknown input name", [mlp_onnx, f"--input=z=@{w('x.npy')}"],
            "mesh-vk-run: --input[0]: 'z' is not an input of the program (its inputs: x; or give SHAPExTYPE=VALUES)")
check_usage("an input given twice", [w("two.onnx"), f"--input=a=@{w('a.npy')}", f"--input=a=@{w('a.npy')}"],
            "mesh-vk-run: --input=a=...: input 'a' given twice")
check_usage("--shard=tensor without a process count", [mlp_onnx, "--shard=tensor", f"--input=@{w('x.npy')}"],
            "mesh-vk-run: --shard=tensor: give the process count with --devices=N (e.g. --devices=4); "
            "--shard=none runs on one process")
check_usage("--devices=4 under --shard=none", [mlp_onnx, "--devices=4", f"--input=@{w('x.npy')}"],
            "mesh-vk-run: --devices=4: an ONNX model under --shard=none runs on one process; split it with "
            "--shard=data, --shard=tensor or --shard=SPEC.json")
check_usage("bad --input-shape", [mlp_onnx, "--input-shape=x", f"--input=@{w('x.npy')}"],
            "mesh-vk-run: --input-shape=x: expected NAME=AxBx... (e.g. x=1x3x224x224)")
check_usage("--input-shape naming no input", [mlp_onnx, "--input-shape=X=8x64", f"--input=@{w('x.npy')}"],
            f"mesh-vk-run: {mlp_onnx}: a shape given for 'X', which is not an input of the model (its inputs: x)")

if failures:
    print("\n".join(failures))
    sys.exit(1)
