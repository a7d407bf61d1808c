#!/usr/bin/env python3
"""A model too big for one small GPU runs split over four (issue 30).

    heap_cap.py MESH_VK_RUN WORK_DIR

Runs under the emulation layer (ctest sets VK_LAYER_PATH / VK_INSTANCE_LAYERS,
the Khronos validation layer above it) with MESHVK_EMULATED_HEAP_BYTES=12M:
every emulated device has a 12 MiB device-local heap. A torch MLP with 16 MiB
of weights (torch.manual_seed, exported with torch.onnx.export at test time):

  * on one device (MESHVK_EMULATED_DEVICE_COUNT=1) mesh-vk-run refuses it when
    the program is created, before anything runs: exit 3, exactly one line on
    stderr naming the process, the device, the bytes needed and the heap; no
    output file;
  * under --shard=tensor --devices=4 on an emulated group of 4 (and on 4
    separate devices) it runs, each process holding about a quarter of the
    weights, and the result matches numpy's (an oracle independent of torch
    and meshvk) within 1e-4 x max(1, max |y|);
  * --print-plan's per-process "peak:" lines and Python's prog.plan give the
    same parameter, activation and peak bytes.
"""
import os
import re
import subprocess
import sys

import numpy as np
import torch

run_tool, work = sys.argv[1:3]
os.makedirs(work, exist_ok=True)
failures = []
CAP = 12 << 20


def w(name):
    return os.path.join(work, name)


def run(args, **env):
    full = dict(os.environ, MESHVK_EMULATED_HEAP_BYTES="12M", **env)
    return subprocess.run([run_tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=600, env=full)


torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(1024, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 1024))
x = torch.randn(8, 1024)
torch.onnx.export(mlp, x, w("mlp.onnx"), input_names=["x"], output_names=["y"], opset_version=17)
np.save(w("x.npy"), x.numpy())
# The oracle: the same weights through numpy, in float64.
w1, b1 = mlp[0].weight.detach().numpy().astype(np.float64), mlp[0].bias.detach().numpy().astype(np.float64)
w2, b2 = mlp[2].weight.detach().numpy().astype(np.float64), mlp[2].bias.detach().numpy().astype(np.float64)
expected = np.maximum(x.numpy().astype(np.float64) @ w1.T + b1, 0.0) @ w2.T + b2
weight_bytes = 4 * (w1.size + b1.size + w2.size + b2.size)
print(f"model: {weight_bytes} bytes of weights, heap cap {CAP} bytes per device")

# (a) One device: refused before anything runs, one line, exit 3, no output.
out1 = w("y1.npy")
if os.path.exists(out1):
    os.remove(out1)
p = run([w("mlp.onnx"), f"--input=x=@{w('x.npy')}", f"--output=@{out1}", "--validation"],
        MESHVK_EMULATED_DEVICE_COUNT="1")
size = r"[0-9.]+ (bytes|KiB|MiB|GiB)"
line = re.compile(r"^mesh-vk-run: .*mlp\.onnx: process 0 \(physical device \d+ '[^']*'(, device index 0)?\) needs "
                  rf"{size} of device-local memory \({size} parameters, {size} activations, {size} arguments and "
                  r"results\); its heap has 12 MiB\n$")
if p.returncode != 3 or not line.match(p.stderr) or os.path.exists(out1):
    failures.append(f"1 device: exit {p.returncode}, output written: {os.path.exists(out1)}, stderr {p.stderr!r}")
else:
    print(f"1 device: refused: {p.stderr.strip()}")


def peaks(stdout):
    """[(peak, parameter, activation)] per process from --print-plan."""
    found = re.findall(r"  peak: (\d+) bytes on its device \((\d+) parameter, (\d+) activation, (\d+) argument and "
                       r"result\); heap (\d+) bytes", stdout)
    return [(int(a), int(b), int(c), int(e)) for a, b, c, d, e in found]


# (b) Four devices, tensor-sharded: fits, correct numbers.
for topology in ("group", "separate"):
    out4 = w(f"y4_{topology}.npy")
    if os.path.exists(out4):
        os.remove(out4)
    p = run([w("mlp.onnx"), "--shard=tensor", "--devices=4", f"--input=x=@{w('x.npy')}", f"--output=@{out4}",
             "--print-plan", "--validation"], MESHVK_EMULATED_DEVICE_COUNT="4", MESHVK_EMULATED_TOPOLOGY=topology)
    label = f"4 devices ({topology})"
    if p.returncode != 0 or not os.path.exists(out4):
        failures.append(f"{label}: exit {p.returncode}: {(p.stdout + p.stderr).strip()[-800:]}")
        continue
    got = np.load(out4).astype(np.float64)
    err = float(np.max(np.abs(got - expected)))
    bound = 1e-4 * max(1.0, float(np.max(np.abs(expected))))
    plan = peaks(p.stdout)
    if got.shape != expected.shape or err > bound:
        failures.append(f"{label}: max abs error {err} > {bound}")
    elif len(plan) != 4 or any(peak > CAP or heap != CAP for peak, _, _, heap in plan):
        failures.append(f"{label}: plan peaks {plan}, cap {CAP}: {p.stdout[-800:]}")
    elif any(param > 0.3 * weight_bytes for _, param, _, _ in plan):
        failures.append(f"{label}: a process holds more than 0.3 of the weights: {plan}")
    else:
        print(f"{label}: ok, max abs error {err:.3g}; per process (peak, parameter, activation, heap): {plan}")
        four_plan = plan

# Python's prog.plan: the same numbers as --print-plan, and 1 process needs
# more than the heap.
try:
    import meshvk
except ImportError as e:
    failures.append(f"python: cannot import meshvk ({e}); set PYTHONPATH to the build's python directory")
else:
    one = meshvk.compile(w("mlp.onnx")).plan["processes"]
    four = meshvk.compile(w("mlp.onnx"), shard="tensor", grid_shape=4).plan["processes"]
    if one[0]["peak_bytes"] <= CAP or one[0]["parameter_bytes"] < weight_bytes:
        failures.append(f"python: one process plan {one[0]}")
    got = [(d["peak_bytes"], d["parameter_bytes"], d["activation_bytes"]) for d in four]
    want = [(peak, param, act) for peak, param, act, _ in four_plan] if "four_plan" in globals() else None
    if want is not None and got != want:
        failures.append(f"python: prog.plan {got} != --print-plan {want}")
    elif any(d["peak_bytes"] != d["allocated_bytes"] for d in four + one):
        failures.append(f"python: peak_bytes != allocated_bytes: {four}")
    else:
        print(f"python: prog.plan per process (peak, parameter, activation): 1 process {one[0]['peak_bytes']}, "
              f"4 processes {got}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
