#!/usr/bin/env python3
"""Runs the Megatron MLP (samples/programs/mlp_megatron.mlir) on 1, 2 and 4 devices.

For each device count: compiles the program for that grid, checks the result
against numpy, and prints the median wall time of a run, the per-phase GPU
time and the memory each device holds (measured by the runtime, next to what
the plan promised). With matplotlib installed, --plot FILE.png draws both.

    PYTHONPATH=build/python python3 samples/python/mlp_devices.py [--runs 20] [--plot mlp.png]
"""
import argparse
import pathlib
import sys

import numpy as np

import meshvk

MLP = pathlib.Path(__file__).resolve().parents[1] / "programs" / "mlp_megatron.mlir"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per device count (default 20)")
    parser.add_argument("--devices", type=int, nargs="+", default=[1, 2, 4], help="device counts (default 1 2 4)")
    parser.add_argument("--plot", metavar="FILE", help="also plot time and memory to FILE (needs matplotlib)")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (32, 64)).astype(np.float32)
    w1 = rng.uniform(-1, 1, (64, 256)).astype(np.float32)
    w2 = rng.uniform(-1, 1, (256, 64)).astype(np.float32)
    want = np.maximum(x @ w1, 0) @ w2

    rows = []
    for n in args.devices:
        prog = meshvk.compile(str(MLP), grid_shape=(n,))
        with meshvk.Runtime(devices=n) as rt:
            loaded = rt.load(prog)
            y = loaded["main"](x, w1, w2)
            np.testing.assert_allclose(y, want, atol=1e-3, rtol=1e-4)
            stats = loaded["main"].benchmark(x, w1, w2, iterations=args.runs)
            placement = loaded.placement()
            plan = prog.plan
            # GPU time on the critical path: per phase, the slowest process.
            phases = {}
            for p in stats["phases"]:
                phases[p["phase"]] = max(phases.get(p["phase"], 0.0), p["gpu"]["median"] * 1e6)
            print("%d device(s): wall median %.3f ms (min %.3f); GPU %.1f us over %d phase(s)" % (
                n, stats["wall"]["median"] * 1e3, stats["wall"]["min"] * 1e3, sum(phases.values()), len(phases)))
            for p, planned in zip(placement, plan["processes"]):
                print("    process %d on physical device %d: %7d bytes allocated (plan %d), %d bytes in from peers" % (
                    p["process"], p["physical_device"], p["allocated_bytes"], planned["allocated_bytes"],
                    planned["peer_bytes_in"]))
            rows.append((n, stats["wall"]["median"] * 1e3, [p["allocated_bytes"] for p in placement]))

    if args.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("--plot: matplotlib is not installed; printed the numbers only", file=sys.stderr)
            return 0
        fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
        left.plot([r[0] for r in rows], [r[1] for r in rows], "o-")
        left.set(xlabel="devices", ylabel="wall ms (median)", title="time per run")
        right.bar([str(r[0]) for r in rows], [max(r[2]) / 1024 for r in rows])
        right.set(xlabel="devices", ylabel="KiB per device", title="memory per device")
        fig.tight_layout()
        fig.savefig(args.plot)
        print("wrote", args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
