#!/usr/bin/env python3
"""Multi-head attention of odd shapes, exported from torch, matches torch.

    attention_shapes.py MESH_VK_RUN MESH_VK_COMPILE WORK_DIR

The heads' transposes fold into the batched matmuls that read them, the
matmuls iterate [B, H, ...] and the transpose back fuses as the second one's
epilogue (compiler/lib/Transforms/BatchContractions.cpp); the attention scale
1 / sqrt(D), computed from constants, folds to its value; the scores join
their mask and softmax in one row-tiled kernel (meshvk-fuse-row-chains). Each case is a
torch module (random weights, torch.manual_seed(0)) exported with
torch.onnx.export: extents that are no tile's multiple (3, 5, 7), extents
of 1 (one token, one head), causal or not. It runs through mesh-vk-run on
one process, under --shard=tensor (the heads split) and --shard=data (the
batch split) where the counts divide, and compiled with
--target-device=gpu (the GPU tuning family) on one process. The oracle is
torch's output: within 1e-4 x max(1, max |y|).
"""
import os
import subprocess
import sys

import numpy as np
import torch
from torch import nn

run_tool, compile_tool, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)


class Attention(nn.Module):
    def __init__(self, heads, head_dim, causal, tokens):
        super().__init__()
        self.heads, self.head_dim, self.causal = heads, head_dim, causal
        width = heads * head_dim
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.register_buffer("mask", torch.tril(torch.ones(tokens, tokens)).bool())

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.heads, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.heads, self.head_dim).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / self.head_dim ** 0.5)
        if self.causal:
            att = att.masked_fill(~self.mask, float("-inf"))
        y = att.softmax(dim=-1) @ v
        return self.proj(y.transpose(1, 2).reshape(b, t, c))


# (batch, tokens, heads, head_dim, causal), and the policies each runs under
# besides one process: (policy, devices) where the split divides.
CASES = [
    ((3, 5, 3, 7, True), [("tensor", 3)]),
    ((2, 6, 2, 5, False), [("tensor", 2), ("data", 2)]),
    ((1, 1, 1, 3, True), []),
    ((4, 3, 1, 9, False), [("data", 4)]),
]

failures = []


def check(label, cmd, out, y):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode != 0:
        failures.append(f"{label}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
        return
    got = np.load(out)
    bound = 1e-4 * max(1.0, float(np.abs(y).max()))
    error = float(np.abs(got.astype(np.float64) - y).max()) if got.shape == y.shape else float("inf")
    print(f"{label}: max error {error:.3g} (bound {bound:.3g})")
    if not error <= bound:
        failures.append(f"{label}: max error {error} > {bound} (shape {got.shape}, torch {y.shape})")


for (batch, tokens, heads, head_dim, causal), policies in CASES:
    torch.manual_seed(0)
    model = Attention(heads, head_dim, causal, tokens).eval()
    x = torch.randn(batch, tokens, heads * head_dim)
    with torch.no_grad():
        y = model(x).numpy().astype(np.float64)
    name = f"attention_{batch}x{tokens}x{heads}x{head_dim}{'_causal' if causal else ''}"
    onnx_path, x_path = os.path.join(work, name + ".onnx"), os.path.join(work, name + "_x.npy")
    torch.onnx.export(model, x, onnx_path, input_names=["x"], output_names=["y"], opset_version=17)
    np.save(x_path, x.numpy())
    for policy, devices in [("none", 1)] + policies:
        out = os.path.join(work, f"{name}_{policy}.npy")
        cmd = [run_tool, onnx_path, f"--input=x=@{x_path}", f"--output=@{out}"]
        if policy != "none":
            cmd += [f"--shard={policy}", f"--devices={devices}"]
        check(f"{name} --shard={policy} --devices={devices}", cmd, out, y)
    artifact, out = os.path.join(work, name + "_gpu.mvk"), os.path.join(work, name + "_gpu.npy")
    p = subprocess.run([compile_tool, onnx_path, "--target-device=gpu", "-o", artifact],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode != 0:
        failures.append(f"{name} --target-device=gpu: compile exit {p.returncode}: {p.stderr.strip()[-400:]}")
        continue
    check(f"{name} --target-device=gpu", [run_tool, artifact, f"--input=@{x_path}", f"--output=@{out}"], out, y)

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
