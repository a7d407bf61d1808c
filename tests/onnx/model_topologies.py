#!/usr/bin/env python3
"""The GPT-2-style decoder (and the small U-Net) on every kind of device set, against torch.

    model_topologies.py MESH_VK_RUN MESH_VK_COMPILE WORK_DIR
        [--two-lavapipes A.json:B.json] [--layer-path DIRS] [--mpirun PATH] [--models gpt unet]

samples/models/zoo.py's "gpt" (int64 ids) and "unet" (torch.manual_seed(0),
random weights, exported here) run through mesh-vk-run:

  * on two lavapipes (two copies of lavapipe's ICD in VK_DRIVER_FILES: two
    physical devices, one VkDevice each, copies between them through the
    host): gpt --shard=tensor, unet --shard=data, --devices=0,1;
  * on the emulated device group of 4 (the meshvk layer under the Khronos
    validation layer, shuffled execution order, the race check on):
    gpt --shard=tensor, unet --shard=data, --devices=4 --validation;
  * under `mpirun --oversubscribe -np 2`: each model compiled by
    mesh-vk-compile for a grid of 2 and run one process per rank.

Each output must be within 1e-3 x max(1, max |torch output|) of torch's. A
configuration whose devices are missing (no second lavapipe, no layer, no
mpirun) is skipped with the reason; CMake passes them where the build has
them. The ctest runs the decoder only (about 10 s a configuration); the
U-Net (--models unet) takes about 30 s a configuration on two busy cores,
and under heavy load its first phase has outlasted the 60 s device
timeout, so it stays out of CI.
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "samples", "models"))
import zoo  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("run_tool")
parser.add_argument("compile_tool")
parser.add_argument("work")
parser.add_argument("--two-lavapipes", default="", help="VK_DRIVER_FILES value naming two lavapipe ICDs")
parser.add_argument("--layer-path", default="", help="VK_LAYER_PATH: the validation layer's directory, then meshvk's")
parser.add_argument("--mpirun", default="", help="mpirun to start 2 ranks with")
parser.add_argument("--models", nargs="+", default=["gpt"], choices=["gpt", "unet"],
                    help="gpt (default, ~10 s a run) and/or unet (~30 s a run on two busy cores: not in CI)")
args = parser.parse_args()
os.makedirs(args.work, exist_ok=True)
failures, skipped = [], []
POLICY = {"gpt": "tensor", "unet": "data"}


def run(cmd, **env):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300,
                       env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **env))
    return p, time.perf_counter() - start


def compare(label, exported, out, p, seconds):
    if p.returncode != 0 or not os.path.exists(out):
        failures.append(f"{label}: exit {p.returncode}: {p.stderr.strip()}")
        print(f"FAIL {label}: exit {p.returncode}")
        return
    got = np.load(out)
    error = float(np.abs(got.astype(np.float64) - exported.y).max()) if got.shape == exported.y.shape else np.inf
    ok = error <= exported.tolerance  # NaN fails too
    print(f"{'ok  ' if ok else 'FAIL'} {label}: max abs error {error:.2e} (bound {exported.tolerance:.1e}), "
          f"{seconds:.1f} s")
    if not ok:
        failures.append(f"{label}: {got.shape} vs {exported.y.shape}, max abs error {error:.3e}")
    sys.stdout.flush()


models = {name: zoo.export(name, args.work, torch_runs=1) for name in args.models}
for name, exported in models.items():
    policy = POLICY[name]
    io = [f"--input=x=@{exported.x_npy}"]

    out = os.path.join(args.work, f"{name}_two_lavapipes.npy")
    if args.two_lavapipes:
        p, s = run([args.run_tool, exported.onnx, f"--shard={policy}", "--devices=0,1", "--topology=independent",
                    f"--output=@{out}", "--validation"] + io, VK_DRIVER_FILES=args.two_lavapipes)
        compare(f"{name} --shard={policy} on two lavapipes", exported, out, p, s)
    else:
        skipped.append(f"{name} on two lavapipes: no --two-lavapipes")

    out = os.path.join(args.work, f"{name}_group4.npy")
    if args.layer_path:
        p, s = run([args.run_tool, exported.onnx, f"--shard={policy}", "--devices=4", "--topology=group",
                    f"--output=@{out}", "--validation"] + io,
                   VK_LAYER_PATH=args.layer_path,
                   VK_INSTANCE_LAYERS="VK_LAYER_KHRONOS_validation:VK_LAYER_MESHVK_emulated_device_group",
                   MESHVK_EMULATED_DEVICE_COUNT="4", MESHVK_EMULATED_EXECUTION_ORDER="shuffle",
                   MESHVK_EMULATED_SHUFFLE_SEED="3", MESHVK_EMULATED_RACE_CHECK="1")
        compare(f"{name} --shard={policy} on the emulated group of 4 (race check)", exported, out, p, s)
    else:
        skipped.append(f"{name} on the emulated group: no --layer-path")

    out = os.path.join(args.work, f"{name}_mpi2.npy")
    if args.mpirun:
        artifact = os.path.join(args.work, f"{name}_{policy}2.mvk")
        p, s = run([args.compile_tool, exported.onnx, f"--shard={policy}", "--grid-shape=2", "-o", artifact])
        if p.returncode != 0:
            failures.append(f"{name}: mesh-vk-compile --shard={policy} --grid-shape=2: {p.stderr.strip()}")
            continue
        p, s = run([args.mpirun, "--oversubscribe", "-np", "2", args.run_tool, artifact, f"--output=@{out}"] + io)
        compare(f"{name} --shard={policy} under mpirun -np 2", exported, out, p, s)
    else:
        skipped.append(f"{name} under mpirun: no --mpirun")

for line in skipped:
    print("skip " + line)
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("PASS: " + ", ".join(args.models) + " on two lavapipes, the emulated group and MPI ranks (where present)")
