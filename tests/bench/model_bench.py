#!/usr/bin/env python3
"""Whole models on 1 and N devices, against torch on the CPU and the 1-device run, in one process.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/model_bench.py [--models resnet18 gpt]
        [--configs none:1 data:4 tensor:4] [--iterations 10] [--markdown]

Each model of samples/models/zoo.py (random weights, torch.manual_seed(0)) is
exported with torch.onnx.export and, per POLICY:DEVICES, compiled with
meshvk.compile(shard=, grid_shape=) and timed with fn.benchmark (weights
resident: a call sends only the input and reads only the output; one warm-up,
then --iterations runs) on logical devices. torch's forward on the same
input is timed in the same process (median of as many runs) as the reference a
user would otherwise pick. Per row: the median wall ms of a call and
images/s or tokens/s, the GPU time summed over phases of the busiest process,
the time and bytes of the copies between processes (summed, medians per
copy), parameter and peak bytes per device (prog.plan), and two ratios:
`vs 1 dev` (the 1-device median over this one, > 1 is faster) and `vs torch`
(torch's median over this one). The outputs are checked against torch's
(1e-3 x max(1, max |torch output|)), so a fast wrong answer is not reported
as a speed.

Not a timed test: it reports, it asserts no speed. On a machine where every
device is the same CPU (lavapipe), no speed-up is possible, and the ratios show
what the cross-device work costs; on N GPUs they are the speed-up.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "samples", "models"))
import zoo  # noqa: E402


def torch_median_ms(name, x, runs):
    import torch
    _, build, _ = zoo.MODELS[name]
    torch.manual_seed(0)
    model = build().eval()
    xt = torch.from_numpy(x)
    times = []
    with torch.no_grad():
        model(xt)
        for _ in range(runs):
            start = time.perf_counter()
            model(xt)
            times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def busiest_gpu_ms(benchmark):
    """GPU time of a call on the process whose phases take longest (medians summed)."""
    per_process = {}
    for phase in benchmark["phases"]:
        per_process[phase["process"]] = per_process.get(phase["process"], 0.0) + phase["gpu"]["median"]
    return 1e3 * max(per_process.values()) if per_process else float("nan")


def run_config(exported, policy, devices, iterations):
    import meshvk
    program = meshvk.compile(exported.onnx, shard=policy, grid_shape=devices)
    processes = program.plan["processes"]
    with meshvk.Runtime(devices=devices, topology="logical") as rt:
        fn = rt.load(program)["main"]
        y = np.asarray(fn(exported.x), np.float64)
        bench = fn.benchmark(exported.x, iterations=iterations)
    copies = bench["copies"]
    return {
        "error": float(np.abs(y - exported.y).max()),
        "wall_ms": 1e3 * bench["wall"]["median"],
        "gpu_ms": busiest_gpu_ms(bench),
        "copy_ms": 1e3 * sum(c["time"]["median"] for c in copies),
        "copy_bytes": sum(c["bytes"] for c in copies),
        "parameter_bytes": max(p["parameter_bytes"] for p in processes),
        "peak_bytes": max(p["peak_bytes"] for p in processes),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["resnet18", "gpt"], choices=list(zoo.MODELS))
    parser.add_argument("--configs", nargs="+", default=["none:1", "data:4", "tensor:4"],
                        help="POLICY:DEVICES pairs; the first is the 1-device baseline of `vs 1 dev`")
    parser.add_argument("--iterations", type=int, default=10, help="timed calls per row (and torch runs)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--work", default=None, help="where the .onnx/.npy files go (default: a temp dir)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="meshvk-model-bench-")
    os.makedirs(work, exist_ok=True)
    columns = ["model", "policy", "dev", "wall ms", "items/s", "gpu ms", "copy ms", "copy MB", "param B/dev",
               "peak B/dev", "torch ms", "vs 1 dev", "vs torch"]
    if args.markdown:
        print("| " + " | ".join(columns) + " |\n|" + "---|" * len(columns))
    else:
        print(("{:14} {:7} {:>3} " + "{:>10} " * (len(columns) - 3)).format(*columns))
    wrong = []
    for name in args.models:
        exported = zoo.export(name, work, torch_runs=1)
        torch_ms = torch_median_ms(name, exported.x, args.iterations)
        # Tokens for the decoder (batch x context), images for the rest.
        items = exported.x.size if exported.x.dtype == np.int64 else exported.x.shape[0]
        baseline = None
        for config in args.configs:
            policy, devices = config.split(":")
            r = run_config(exported, policy, int(devices), args.iterations)
            if r["error"] > exported.tolerance:  # NaN too
                wrong.append(f"{name} {config}: max abs error {r['error']:.3e} > {exported.tolerance:.1e}")
            baseline = baseline or r["wall_ms"]
            row = [name, policy, devices, f"{r['wall_ms']:.1f}", f"{1e3 * items / r['wall_ms']:.1f}",
                   f"{r['gpu_ms']:.1f}", f"{r['copy_ms']:.1f}", f"{r['copy_bytes'] / 1e6:.2f}",
                   f"{r['parameter_bytes']:,}", f"{r['peak_bytes']:,}", f"{torch_ms:.1f}",
                   f"{baseline / r['wall_ms']:.2f}", f"{torch_ms / r['wall_ms']:.3f}"]
            if args.markdown:
                print("| " + " | ".join(map(str, row)) + " |")
            else:
                print(("{:14} {:7} {:>3} " + "{:>10} " * (len(columns) - 3)).format(*row))
            sys.stdout.flush()
    if wrong:
        print("\n".join(wrong))
        sys.exit(1)


if __name__ == "__main__":
    main()
