"""A replicated tensor constant (a weight every process holds whole) is stored
once in the .mvk, however many processes hold it; each process's buffer
still gets the bytes (results against numpy on 1-4 processes)."""
import numpy as np
import pytest

import meshvk


def weight_program(weight):
    rows, cols = weight.shape
    hexdata = weight.astype("<f4").tobytes().hex().upper()
    return f"""
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x{rows}xf32>) -> tensor<8x{cols}xf32> {{
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x{rows}xf32>
  %w = arith.constant dense<"0x{hexdata}"> : tensor<{rows}x{cols}xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x{cols}xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x{cols}xf32>) -> tensor<8x{cols}xf32>
  %y = linalg.matmul ins(%xs, %w : tensor<8x{rows}xf32>, tensor<{rows}x{cols}xf32>)
                     outs(%f : tensor<8x{cols}xf32>) -> tensor<8x{cols}xf32>
  %ys = shard.shard %y to %s : tensor<8x{cols}xf32>
  return %ys : tensor<8x{cols}xf32>
}}
"""


@pytest.mark.parametrize("n", (1, 2, 3, 4))
def test_replicated_weight_is_stored_once(make_runtime, rng, tmp_path, n):
    weight = rng.uniform(-1, 1, size=(128, 128)).astype(np.float32)  # 64 KiB
    program = meshvk.compile(weight_program(weight), grid_shape=n)
    path = tmp_path / "w.mvk"
    program.save(path)
    size = path.stat().st_size
    # One copy of the 64 KiB weight plus the plan (kernels, commands: < 48 KiB
    # here); n copies would be n * 64 KiB.
    assert weight.nbytes <= size < weight.nbytes + 48 * 1024, size
    x = rng.uniform(-1, 1, size=(8, 128)).astype(np.float32)
    (y,) = (make_runtime(devices=n, topology="logical").load(meshvk.Program.load(path))["main"](x),)
    np.testing.assert_allclose(y, x.astype(np.float64) @ weight.astype(np.float64), rtol=1e-4, atol=1e-4)
