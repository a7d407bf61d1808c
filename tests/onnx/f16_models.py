#!/usr/bin/env python3
"""--precision=f16 on real models, against torch's f32 outputs.

    f16_models.py MESH_VK_RUN MESH_VK_COMPILE WORK_DIR [MODEL...]

Each model of samples/models/zoo.py named (default: gpt and vit; resnet18 does not run
yet under f16, see tests/onnx/CMakeLists.txt; random
weights, torch.manual_seed(0)) is exported with torch.onnx.export and run as
`mesh-vk-run MODEL.onnx --precision=f16 --print-plan` on one process, its f32
input file given as it is. The result must come back as float32 ('<f4': the
model's dtype, converted from the device's f16), within 1e-2 x max(1, max
|torch output|) of torch's, and the plan's parameter bytes at most 0.55 of
torch's f32 parameter bytes (f16 weights: half, plus the small constants).
Then a bad value, --precision=f8, is one line and exit 2 from both tools,
with no output written.
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "samples", "models"))
import common  # noqa: E402
import zoo  # noqa: E402

RELATIVE = 1e-2
PARAMETER_SHARE = 0.55

run_tool, compile_tool, work = sys.argv[1:4]
names = sys.argv[4:] or ["gpt", "vit"]  # resnet18: see the note in tests/onnx/CMakeLists.txt
os.makedirs(work, exist_ok=True)
failures = []


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)


def parameter_bytes(plan):
    return common._plan_bytes(plan)[0] or None  # the largest process's (one here)


for name in names:
    exported = zoo.export(name, work, torch_runs=1)
    out = os.path.join(work, name + "_f16.npy")
    if os.path.exists(out):
        os.remove(out)
    p = run([run_tool, exported.onnx, f"--input=x=@{exported.x_npy}", f"--output=@{out}", "--print-plan",
             "--precision=f16"])
    if p.returncode != 0:
        failures.append(f"{name} --precision=f16: exit {p.returncode}: {(p.stdout + p.stderr).strip()[-600:]}")
        continue
    got = np.load(out)
    bound = RELATIVE * max(1.0, float(np.abs(exported.y).max()))
    error = float(np.abs(got.astype(np.float64) - exported.y).max()) if got.shape == exported.y.shape else None
    params = parameter_bytes(p.stdout)
    if got.dtype != np.float32:
        failures.append(f"{name}: result dtype {got.dtype}, expected float32 (the model's)")
    elif error is None or not error <= bound:
        failures.append(f"{name}: max abs error {error} > {bound:.3e} (shape {got.shape} vs {exported.y.shape})")
    elif params is None or params > PARAMETER_SHARE * exported.parameters:
        failures.append(f"{name}: {params} parameter bytes > {PARAMETER_SHARE} x {exported.parameters} (torch f32); "
                        "plan: " + p.stdout[-800:])
    else:
        print(f"{name} --precision=f16: ok, max abs error {error:.2e} (bound {bound:.1e}), {params} parameter bytes "
              f"= {params / exported.parameters:.3f} x torch's f32 {exported.parameters}")
    sys.stdout.flush()

# A bad value: one line, exit 2, nothing written.
model = os.path.join(work, names[0] + ".onnx")
for tool, args in ((run_tool, [model, f"--input=x=@{work}/{names[0]}_x.npy"]),
                   (compile_tool, [model, "-o", os.path.join(work, "bad.mvk")])):
    p = run([tool] + args + ["--precision=f8"])
    lines = p.stderr.strip().splitlines()
    label = os.path.basename(tool) + " --precision=f8"
    if p.returncode != 2 or len(lines) != 1 or "f8" not in lines[0] or os.path.exists(os.path.join(work, "bad.mvk")):
        failures.append(f"{label}: exit {p.returncode}, stderr {p.stderr!r}")
    else:
        print(f"{label}: refused: {lines[0]}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
