#!/usr/bin/env python3
"""A loop feeding a program's output back in, through the host or kept on the
devices (meshvk.DeviceTensor), timed in the same process; reports ms/step and
the ratio. Not a test: it asserts only that both loops give the same numbers.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/device_tensor_loop.py [STEPS]
"""
import sys
import time

import numpy as np

import meshvk

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 32
SAMPLE = "samples/programs/mlp_megatron.mlir"

rng = np.random.default_rng(0)
x = rng.standard_normal((32, 64)).astype(np.float32)
w1 = (rng.standard_normal((64, 256)) / 16).astype(np.float32)
w2 = (rng.standard_normal((256, 64)) / 16).astype(np.float32)


def best_of(loop, runs=3):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        loop(STEPS)
        best = min(best, time.perf_counter() - start)
    return best / STEPS


for processes in (2, 4):
    with meshvk.Runtime(devices=processes, topology="logical") as rt:
        main = rt.load(meshvk.compile(SAMPLE, grid_shape=[processes]))["main"]

        def through_host(steps):
            y = x
            for _ in range(steps):
                y = main(y, w1, w2)
            return y

        def on_devices(steps):
            y = main(x, w1, w2, keep_on_device=True)
            for _ in range(steps - 1):
                y = main(y, w1, w2, keep_on_device=True)
            return y.numpy()

        diff = float(np.abs(through_host(8) - on_devices(8)).max())
        assert diff <= 1e-4, diff
        host, device = best_of(through_host), best_of(on_devices)
        print("%d processes (logical), %d steps: through the host %.2f ms/step, on the devices %.2f ms/step, "
              "ratio %.2f (max diff %.1e)" % (processes, STEPS, host * 1e3, device * 1e3, device / host, diff))
