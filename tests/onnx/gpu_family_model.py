"""A real model compiled for the GPU tuning family and run on lavapipe.

`mesh-vk-compile MODEL.onnx --target-device=gpu` (codegen::gpuTarget: 256
invocations per workgroup, 4x4 register tiles, one vec4 per invocation: the
choices for discrete and integrated GPUs) forced on whatever device runs the
test, then `mesh-vk-run MODEL.mvk --validation` on one process; the output is
compared with torch's (samples/models/zoo.py exports the model at test time).
Every kernel passed spirv-val when it was compiled (codegen::compileKernels)
and again when the .mvk was loaded.

usage: gpu_family_model.py MESH_VK_COMPILE MESH_VK_RUN WORK_DIR MODEL...
"""
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "models"))
import zoo  # noqa: E402

compile_tool, run_tool, work = sys.argv[1:4]
names = sys.argv[4:]
os.makedirs(work, exist_ok=True)
failures = []
for name in names:
    exported = zoo.export(name, work, torch_runs=1)
    mvk = os.path.join(work, name + "_gpu.mvk")
    out = os.path.join(work, name + "_gpu_y.npy")
    for path in (mvk, out):
        if os.path.exists(path):
            os.remove(path)
    steps = [[compile_tool, exported.onnx, "--target-device=gpu", "-o", mvk],
             [run_tool, mvk, "--validation", f"--input=@{exported.x_npy}", f"--output=@{out}"]]
    for cmd in steps:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        if p.returncode != 0:
            failures.append(f"{name}: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
            break
    else:
        got = np.load(out)
        error = float(np.abs(got.astype(np.float64) - exported.y).max()) if got.shape == exported.y.shape else np.inf
        if not error <= exported.tolerance:  # NaN fails too
            failures.append(f"{name}: max abs error {error:.3e} > {exported.tolerance:.3e} (shape {got.shape})")
        else:
            print(f"{name} --target-device=gpu: ok, max abs error {error:.2e} (bound {exported.tolerance:.1e})")
    sys.stdout.flush()

if failures:
    print("\n".join(failures))
    sys.exit(1)
