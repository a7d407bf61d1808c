# Inputs and the independent (numpy) expected results of rows_matmul_sum.mlir,
# as .npy files in the directory given: x.npy, w.npy, y.npy, s.npy.
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(12)
x = rng.integers(-4, 5, size=(8, 6)).astype(np.float32)
w = rng.integers(-3, 4, size=(6, 4)).astype(np.float32)
y = (x.astype(np.float64) @ w.astype(np.float64)).astype(np.float32)  # small integers: exact
s = y.astype(np.float64).sum(axis=0).astype(np.float32)
for name, value in (("x", x), ("w", w), ("y", y), ("s", s)):
    np.save(os.path.join(out, name + ".npy"), value)
