#!/usr/bin/env python3
"""One model of the zoo on every kind of device set, against torch.

    model_topologies.py MESH_VK_RUN MESH_VK_COMPILE WORK_DIR MODEL
        [--two-lavapipes A.json:B.json] [--layer-path DIRS] [--mpirun PATH]
        [--policy P]

samples/models/zoo.py's MODEL (torch.manual_seed(0), random weights,
exported here) runs through mesh-vk-run under its POLICY:

  * on two lavapipes (two copies of lavapipe's ICD in VK_DRIVER_FILES: two
    physical devices, one VkDevice each, copies between them through the
    host): --devices=0,1 --topology=independent --validation;
  * on the emulated device group of 4 (the meshvk layer under the Khronos
    validation layer, shuffled execution order, the race check on):
    --devices=4 --topology=group --validation;
  * under `mpirun --oversubscribe -np 2` (where --mpirun is given; CMake
    gives it for the decoder): compiled by mesh-vk-compile for a grid of 2
    and run one process per rank.

Each output must be within 1e-3 x max(1, max |torch output|) of torch's. A
configuration whose devices are missing (no second lavapipe, no layer, no
mpirun) is skipped with the reason; CMake passes them where the build has
them. Each run prints one line: the model, the topology, the policy, the
max error and the wall seconds of the whole command (import, compile,
load, one call), the numbers of samples/models/README.md's topology table.
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

# model -> policy: data for the CNNs (the batch of 4 over 2 and over 4
# devices), tensor for the transformers (heads and MLP columns split). The
# inputs are the zoo's (images 4x3x32x32, the U-Net's 4x3x16x16): a run's
# time is llvmpipe JIT-compiling each kernel at its first dispatch (a cold
# Mesa shader cache: 20-70 s a configuration, the ViT 60-300 s; a warm one:
# about 5 s), which smaller images do not lower, and on the group of 4 the
# per-device shapes are those of onnx.torch_models' --shard=data --devices=4
# run, so the two share cached kernels.
POLICY = {"resnet18": "data", "mobilenet_v2": "data", "squeezenet1_1": "data", "vit": "tensor", "gpt": "tensor",
          "unet": "data"}

parser = argparse.ArgumentParser()
parser.add_argument("run_tool")
parser.add_argument("compile_tool")
parser.add_argument("work")
parser.add_argument("model", choices=list(POLICY))
parser.add_argument("--two-lavapipes", default="", help="VK_DRIVER_FILES value naming two lavapipe ICDs")
parser.add_argument("--layer-path", default="", help="VK_LAYER_PATH: the validation layer's directory, then meshvk's")
parser.add_argument("--mpirun", default="", help="mpirun to start 2 ranks with")
parser.add_argument("--policy", help="instead of POLICY[model] (measuring)")
args = parser.parse_args()
os.makedirs(args.work, exist_ok=True)
failures, skipped = [], []
name = args.model
policy = args.policy or POLICY[name]


def run(cmd, **env):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=540,
                       env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **env))
    return p, time.perf_counter() - start


def compare(topology, exported, out, p, seconds):
    label = f"{name} --shard={policy} on {topology}"
    if p.returncode != 0 or not os.path.exists(out):
        failures.append(f"{label}: exit {p.returncode}: {p.stderr.strip()}")
        print(f"FAIL {label}: exit {p.returncode}, {seconds:.1f} s")
        return
    got = np.load(out)
    error = float(np.abs(got.astype(np.float64) - exported.y).max()) if got.shape == exported.y.shape else np.inf
    ok = error <= exported.tolerance  # NaN fails too
    print(f"{'ok  ' if ok else 'FAIL'} {label}: max abs error {error:.1e} (bound {exported.tolerance:.1e}), "
          f"{seconds:.1f} s")
    if not ok:
        failures.append(f"{label}: {got.shape} vs {exported.y.shape}, max abs error {error:.3e}")
    sys.stdout.flush()


exported = zoo.export(name, args.work, torch_runs=1)
print(f"{name}: input {exported.x.shape}, output {exported.y.shape}")
io = [f"--input=x=@{exported.x_npy}"]

out = os.path.join(args.work, f"{name}_two_lavapipes.npy")
if args.two_lavapipes:
    p, s = run([args.run_tool, exported.onnx, f"--shard={policy}", "--devices=0,1", "--topology=independent",
                f"--output=@{out}", "--validation"] + io, VK_DRIVER_FILES=args.two_lavapipes)
    compare("two lavapipes", exported, out, p, s)
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
    compare("the emulated group of 4 (race check)", exported, out, p, s)
else:
    skipped.append(f"{name} on the emulated group: no --layer-path")

out = os.path.join(args.work, f"{name}_mpi2.npy")
if args.mpirun:
    artifact = os.path.join(args.work, f"{name}_{policy}2.mvk")
    p, s = run([args.compile_tool, exported.onnx, f"--shard={policy}", "--grid-shape=2", "-o", artifact])
    if p.returncode != 0:
        failures.append(f"{name}: mesh-vk-compile --shard={policy} --grid-shape=2: {p.stderr.strip()}")
    else:
        p, r = run([args.mpirun, "--oversubscribe", "-np", "2", args.run_tool, artifact, f"--output=@{out}"] + io)
        compare("mpirun -np 2", exported, out, p, s + r)
else:
    skipped.append(f"{name} under mpirun: no --mpirun")

for line in skipped:
    print("skip " + line)
if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"PASS: {name} on two lavapipes, the emulated group and MPI ranks (where present)")
