"""Runs the zoo's models with mesh-vk-run and from the meshvk Python package.

Shared by the per-family scripts (vision.py, encoder.py, decoder.py,
unet.py) and by tests/onnx/torch_models.py: one place that runs a model under
a policy, reads the plan (parameter and peak bytes per process) and the
benchmark's wall time, and measures the error against torch.
"""
import argparse
import dataclasses
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import zoo  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_RUNNER = os.path.join(REPO, "build", "samples", "mesh-vk-run", "mesh-vk-run")
# (policy, processes) a model runs under by default: one process, then the
# batch split and the weights split over 4 logical devices. A policy list
# runs on a grid ("AxB": --grid-shape=AxB over A*B processes): the batch over
# grid axis 0 and the weights over axis 1 (GRID_CONFIGS; tests/onnx runs it
# for the decoder and one CNN only, to keep CI time).
CONFIGS = [("none", 1), ("data", 4), ("tensor", 4)]
GRID_CONFIGS = [("data,tensor", "2x2")]


def grid_of(devices):
    """(process count, grid shape tuple or None) of 4 or "2x2"."""
    if isinstance(devices, str) and "x" in devices:
        grid = tuple(int(e) for e in devices.split("x"))
        count = 1
        for e in grid:
            count *= e
        return count, grid
    return int(devices), None


@dataclasses.dataclass
class Run:
    model: str
    policy: str
    devices: int
    returncode: int
    refusal: str = ""         # the one stderr line of a refused run
    max_error: float = float("nan")
    parameter_bytes: int = 0  # per process, the largest (from --print-plan)
    peak_bytes: int = 0
    dispatches: int = 0       # per inference, all processes (--print-plan's total line)
    wall_ms: float = float("nan")  # median of --benchmark runs (weights resident)
    seconds: float = 0.0      # the whole command: import, compile, load, runs

    @property
    def passed(self):
        return self.returncode == 0 and not self.refusal


def _plan_bytes(text):
    """(parameter, peak) bytes of the largest process in --print-plan's output."""
    peaks = [(int(p), int(q)) for q, p in re.findall(r"peak: (\d+) bytes on its device \((\d+) parameter", text)]
    return max(peaks, key=lambda pq: pq[1]) if peaks else (0, 0)


def run_cli(exported, policy, devices, runner=DEFAULT_RUNNER, benchmark=0, work=None, timeout=600):
    """mesh-vk-run MODEL.onnx --shard=POLICY --devices=N; its result compared
    here with torch's (never with meshvk's own output)."""
    work = work or tempfile.mkdtemp(prefix="meshvk-models-")
    out = os.path.join(work, f"{exported.name}_{policy}_{devices}.npy")
    if os.path.exists(out):
        os.remove(out)
    cmd = [runner, exported.onnx, f"--input=x=@{exported.x_npy}", f"--output=@{out}", "--print-plan"]
    count, grid = grid_of(devices)
    if policy != "none":
        cmd += [f"--shard={policy}", f"--devices={count}"]
    if grid:
        cmd += ["--grid-shape=" + "x".join(map(str, grid))]
    if benchmark:
        cmd += [f"--benchmark={benchmark}"]
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    run = Run(exported.name, policy, devices, p.returncode, seconds=time.perf_counter() - start)
    errors = [line for line in p.stderr.splitlines() if "warning:" not in line]
    if p.returncode != 0:
        run.refusal = errors[-1] if errors else f"exit {p.returncode} without a message"
        return run
    run.parameter_bytes, run.peak_bytes = _plan_bytes(p.stdout)
    total = re.search(r"^total: .*; (\d+) dispatches,", p.stdout, re.MULTILINE)
    run.dispatches = int(total.group(1)) if total else 0
    wall = re.search(r"benchmark: \d+ runs after \d+ warm-up: wall min [\d.]+ ms, median ([\d.]+) ms", p.stdout)
    if wall:
        run.wall_ms = float(wall.group(1))
    if os.path.exists(out):
        got = np.load(out)
        if got.shape == exported.y.shape:
            run.max_error = float(np.abs(got.astype(np.float64) - exported.y).max())
    return run


def run_python(exported, policy, devices, runs=3):
    """meshvk.compile(MODEL.onnx, shard=, grid_shape=) on N logical devices:
    (max error vs torch, median wall ms of a call with the weights resident)."""
    import meshvk
    devices, grid = grid_of(devices)
    program = meshvk.compile(exported.onnx, shard=policy, grid_shape=grid or devices)
    # int64 ids as torch takes them: the program's argument is i32, and the
    # package narrows them with a range check.
    x = exported.x
    with meshvk.Runtime(devices=devices, topology="logical") as rt:
        fn = rt.load(program)["main"]
        y = fn(x)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            fn(x)
            times.append((time.perf_counter() - start) * 1e3)
    return float(np.abs(np.asarray(y, np.float64) - exported.y).max()), float(np.median(times))


def main(names, description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--models", nargs="+", default=names, choices=names)
    parser.add_argument("--configs", nargs="+", default=[f"{p}:{n}" for p, n in CONFIGS + GRID_CONFIGS],
                        help="POLICY:DEVICES pairs, DEVICES a count or a grid AxB "
                             "(default: none:1 data:4 tensor:4 data,tensor:2x2)")
    parser.add_argument("--runner", default=os.environ.get("MESHVK_RUN", DEFAULT_RUNNER), help="mesh-vk-run")
    parser.add_argument("--benchmark", type=int, default=5, help="timed mesh-vk-run calls (default 5)")
    parser.add_argument("--no-python", action="store_true", help="skip the meshvk Python package")
    parser.add_argument("--markdown", action="store_true", help="print rows of samples/models/README.md's table")
    parser.add_argument("--work", default=None, help="where the .onnx/.npy files go (default: a temp dir)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="meshvk-models-")
    os.makedirs(work, exist_ok=True)
    if not args.markdown:
        print(f"{'model':14} {'policy':7} {'dev':>3}  {'cli max err':>11} {'py max err':>10} {'param B/dev':>11} "
              f"{'peak B/dev':>11} {'cli ms':>8} {'py ms':>8} {'torch ms':>8}")
    for name in args.models:
        exported = zoo.export(name, work)
        for config in args.configs:
            policy, devices = config.split(":")
            run = run_cli(exported, policy, devices, args.runner, args.benchmark, work)
            if not run.passed:
                print(f"{name:14} {policy:7} {devices:>3}  refused: {run.refusal}")
                continue
            py_error, py_ms = (float("nan"), float("nan"))
            if not args.no_python:
                py_error, py_ms = run_python(exported, policy, devices)
            ok = run.max_error <= exported.tolerance and (args.no_python or py_error <= exported.tolerance)
            if args.markdown:
                print(f"| {name} | {devices} | {policy} | {'pass' if ok else 'FAIL'} | {run.max_error:.1e} | "
                      f"{run.parameter_bytes:,} | {run.peak_bytes:,} | {run.wall_ms:.1f} | {py_ms:.1f} | "
                      f"{exported.torch_ms:.1f} |")
            else:
                print(f"{name:14} {policy:7} {devices:>3}  {run.max_error:11.2e} {py_error:10.2e} "
                      f"{run.parameter_bytes:11,} {run.peak_bytes:11,} {run.wall_ms:8.1f} {py_ms:8.1f} "
                      f"{exported.torch_ms:8.1f}" + ("" if ok else "  FAIL (tolerance "
                                                      f"{exported.tolerance:.1e})"))
