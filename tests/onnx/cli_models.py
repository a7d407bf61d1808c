#!/usr/bin/env python3
"""ONNX models through mesh-vk-compile and mesh-vk-run, against torch.

    cli_models.py MESH_VK_COMPILE MESH_VK_RUN WORK_DIR

A torch MLP and a small CNN (random weights, torch.manual_seed) are exported
with torch.onnx.export, compiled under each sharding policy (none; data and
tensor over 4 processes) and run on logical devices; each result must match
torch's within 1e-4. Bad models get one line on stderr, exit 2, no output file.
"""
import os
import subprocess
import sys

import numpy as np
import torch

compile_tool, run_tool, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []


def export(name, model, x):
    path = os.path.join(work, name + ".onnx")
    torch.onnx.export(model, x, path, input_names=["x"], output_names=["y"], opset_version=17)
    np.save(os.path.join(work, name + "_x.npy"), x.numpy())
    np.save(os.path.join(work, name + "_y.npy"), model(x).detach().numpy())
    return path


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)


def check_policy(name, path, policy, grid):
    mvk = os.path.join(work, f"{name}_{policy}.mvk")
    args = [compile_tool, path, "-o", mvk, f"--shard={policy}"] + ([f"--grid-shape={grid}"] if grid else [])
    p = run(args)
    if p.returncode != 0:
        failures.append(f"{name} --shard={policy}: compile exit {p.returncode}: {p.stderr.strip()}")
        return
    p = run([run_tool, mvk, f"--input=@{work}/{name}_x.npy", f"--expected_output=@{work}/{name}_y.npy",
             "--atol=1e-4", "--rtol=1e-4"])
    if p.returncode != 0:
        failures.append(f"{name} --shard={policy}: run exit {p.returncode}: {(p.stdout + p.stderr).strip()[-400:]}")
    else:
        print(f"{name} --shard={policy}: ok")


def check_refusal(label, args, expect):
    out = os.path.join(work, "refused.mvk")
    if os.path.exists(out):
        os.remove(out)
    p = run([compile_tool] + args + ["-o", out])
    lines = p.stderr.strip().split("\n")
    if p.returncode != 2 or len(lines) != 1 or expect not in lines[0] or os.path.exists(out):
        failures.append(f"{label}: exit {p.returncode}, stderr {p.stderr!r}, output written: {os.path.exists(out)}")
    else:
        print(f"{label}: refused: {lines[0]}")


torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 32))
mlp_path = export("mlp", mlp, torch.randn(8, 64))
cnn = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                          torch.nn.Linear(8 * 3 * 3, 10))
cnn_path = export("cnn", cnn, torch.randn(4, 3, 8, 8))
for name, path in (("mlp", mlp_path), ("cnn", cnn_path)):
    check_policy(name, path, "none", None)
    check_policy(name, path, "data", "4")
    check_policy(name, path, "tensor", "4")

truncated = os.path.join(work, "truncated.onnx")
with open(mlp_path, "rb") as f, open(truncated, "wb") as g:
    g.write(f.read()[:500])
check_refusal("truncated model", [truncated], "truncated.onnx")
check_refusal("--shard on an .mlir program",
              [os.path.join(os.path.dirname(__file__), "../../samples/programs/matmul_rows.mlir"), "--shard=data"],
              "--shard")
check_refusal("bad --input-shape", [mlp_path, "--input-shape=x"], "--input-shape")
spec = os.path.join(work, "spec.json")
with open(spec, "w") as f:
    f.write('{"grid": [2], "tensors": {"no_such_tensor": [[0]]}}')
check_refusal("spec naming no tensor", [mlp_path, f"--shard={spec}", "--grid-shape=2"], "no_such_tensor")

if failures:
    print("\n".join(failures))
    sys.exit(1)
