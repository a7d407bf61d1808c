"""Input and numpy reference for tests/mpi/programs/<kind>_2x2.mlir.

    collective_data.py KIND DIR   writes DIR/x.npy and DIR/expected.npy

x is 32x64 f32 (all_reduce_max: with NaNs in blocks 1 and 3; f16 for all_reduce_f16; 10400x1024 f32 for all_reduce_big); process p (of 4, row-major over
the 2x2 grid, which is also the collectives' group order over axes [0, 1]) holds rows [8p, 8p + 8) (all_reduce_big:
[2600p, 2600p + 2600)).
"""
import sys

import numpy as np

kind, out = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(20261201)
rows, cols = 8, 64
if kind == "all_reduce_big":  # 2600x1024 f32 blocks (10.6 MB: more than one 8 MiB chunk)
    rows, cols = 2600, 1024
if kind == "all_reduce_f16":  # small integers: every partial sum is exact in f16
    x = rng.integers(-100, 100, size=(4 * rows, cols)).astype(np.float16)
else:
    x = rng.integers(-1000, 1000, size=(4 * rows, cols)).astype(np.float32)
if kind == "all_reduce_max":  # a NaN in one block wins over the other three's numbers
    x[8 + 3, 5] = x[24 + 0, 7] = x[8 + 7, 63] = x[24 + 7, 63] = np.nan
blocks = [x[rows * p:rows * p + rows] for p in range(4)]
if kind == "all_gather":
    y = np.concatenate([np.concatenate(blocks, axis=0)] * 4, axis=0)
elif kind == "all_to_all":
    y = np.concatenate(
        [np.concatenate([blocks[k][2 * p:2 * p + 2] for k in range(4)], axis=1) for p in range(4)], axis=0)
elif kind == "reduce_scatter":
    total = blocks[0] + blocks[1] + blocks[2] + blocks[3]
    y = np.concatenate([total[2 * p:2 * p + 2] for p in range(4)], axis=0)
elif kind in ("all_reduce_f16", "all_reduce_big"):
    y = np.concatenate([blocks[0] + blocks[1] + blocks[2] + blocks[3]] * 4, axis=0)
elif kind == "all_reduce_max":
    y = np.concatenate([np.maximum.reduce(blocks)] * 4, axis=0)
elif kind == "broadcast":
    y = np.concatenate([blocks[0]] * 4, axis=0)
else:
    sys.exit("unknown kind " + kind)
np.save(out + "/x.npy", x)
np.save(out + "/expected.npy", y)
