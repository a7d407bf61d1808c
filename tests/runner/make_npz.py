#!/usr/bin/env python3
"""Writes the .npz/.npy inputs of the runner's archive tests with numpy itself
(the independent producer of the format): good archives (stored, deflated,
positional names) from the a.npy/b.npy that make_test_data wrote, and broken
ones, each broken in one way."""
import os
import sys
import zipfile

import numpy as np

d = sys.argv[1]
a = np.load(os.path.join(d, "a.npy"))
b = np.load(os.path.join(d, "b.npy"))
np.savez(os.path.join(d, "args.npz"), a=a, b=b)                 # stored members
np.savez_compressed(os.path.join(d, "args_deflated.npz"), a=a, b=b)
np.savez(os.path.join(d, "args_positional.npz"), a, b)          # arr_0, arr_1
np.savez(os.path.join(d, "args_reversed.npz"), b=b, a=a)        # archive order decides
np.save(os.path.join(d, "a_3x4.npy"), a.reshape(3, 4))          # right size, wrong shape
np.savez(os.path.join(d, "args_3x4.npz"), a=a.reshape(3, 4), b=b)
np.savez(os.path.join(d, "args_one.npz"), a=a)
np.save(os.path.join(d, "big.npy"), np.arange(2000, dtype=np.float32).reshape(500, 4))

with open(os.path.join(d, "args.npz"), "rb") as f:
    good = f.read()
with open(os.path.join(d, "npz_truncated.npz"), "wb") as f:
    f.write(good[: len(good) // 2])
# Flip one data byte of the first (stored) member: the CRC no longer matches.
corrupt = bytearray(good)
corrupt[200] ^= 0xFF
with open(os.path.join(d, "npz_bad_crc.npz"), "wb") as f:
    f.write(bytes(corrupt))
with open(os.path.join(d, "npz_not_zip.npz"), "wb") as f:
    f.write(b"this is not a zip archive at all, just text\n")
with zipfile.ZipFile(os.path.join(d, "npz_empty.npz"), "w"):
    pass
with zipfile.ZipFile(os.path.join(d, "npz_text_member.npz"), "w") as z:
    z.writestr("notes.txt", "not an array")
with zipfile.ZipFile(os.path.join(d, "npz_bzip2.npz"), "w", compression=zipfile.ZIP_BZIP2) as z:
    z.writestr("a.npy", open(os.path.join(d, "a.npy"), "rb").read())
with zipfile.ZipFile(os.path.join(d, "npz_bad_member.npz"), "w") as z:
    z.writestr("a.npy", b"\x93NUMPY garbage")

# The Megatron MLP sample's three arguments (x 32x64, w1 64x256, w2 256x64).
rng = np.random.default_rng(16)
np.savez(os.path.join(d, "mlp.npz"),
         x=rng.standard_normal((32, 64), dtype=np.float32),
         w1=rng.standard_normal((64, 256), dtype=np.float32),
         w2=rng.standard_normal((256, 64), dtype=np.float32))
