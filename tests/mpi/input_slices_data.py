"""Inputs and numpy reference for tests/mpi/programs/tiles_add_2x2.mlir.

    input_slices_data.py DIR   writes DIR/stored.npz (numpy.savez), DIR/deflated.npz
                               (numpy.savez_compressed), DIR/broken.npz (the stored
                               archive cut in half), DIR/corrupt.npz (the deflated one
                               with a data byte flipped) and DIR/expected.npy (x + y)
"""
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(20261201)
x = rng.integers(-1000, 1000, size=(2048, 2048)).astype(np.float32)
y = rng.integers(-1000, 1000, size=(2048, 2048)).astype(np.float32)
np.savez(out + "/stored.npz", x=x, y=y)
np.savez_compressed(out + "/deflated.npz", x=x, y=y)
with open(out + "/stored.npz", "rb") as f:
    whole = f.read()
with open(out + "/broken.npz", "wb") as f:
    f.write(whole[: len(whole) // 2])
# One byte of x's compressed data flipped (past its .npy header): found only
# while the data is read, after program creation, on every rank.
with open(out + "/deflated.npz", "rb") as f:
    packed = bytearray(f.read())
packed[len(packed) // 4] ^= 0xFF
with open(out + "/corrupt.npz", "wb") as f:
    f.write(bytes(packed))
np.save(out + "/expected.npy", x + y)
