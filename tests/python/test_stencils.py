"""Stencils written on the global tensor (tensor.pad + tensor.extract_slice windows) through the Python
package: results against numpy (np.pad + slicing), and the bytes each process pulls against a count made
here from numpy.array_split's shard boundaries: only the border rows the windows reach, never the whole
split dimension (issue #12, halos)."""
import numpy as np
import pytest

import meshvk

BLUR = """
shard.grid @g(shape = 4)
func.func @main(%x: tensor<ROWSx32xf32>) -> tensor<ROWSx32xf32> {
  %s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<ROWSx32xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<ROWSx32xf32> to tensor<PADDEDx32xf32>
  %up = tensor.extract_slice %p[0, 0] [ROWS, 32] [1, 1] : tensor<PADDEDx32xf32> to tensor<ROWSx32xf32>
  %mid = tensor.extract_slice %p[1, 0] [ROWS, 32] [1, 1] : tensor<PADDEDx32xf32> to tensor<ROWSx32xf32>
  %dn = tensor.extract_slice %p[2, 0] [ROWS, 32] [1, 1] : tensor<PADDEDx32xf32> to tensor<ROWSx32xf32>
  %e = tensor.empty() : tensor<ROWSx32xf32>
  %a = linalg.sub ins(%up, %mid : tensor<ROWSx32xf32>, tensor<ROWSx32xf32>) outs(%e : tensor<ROWSx32xf32>) -> tensor<ROWSx32xf32>
  %e2 = tensor.empty() : tensor<ROWSx32xf32>
  %y = linalg.mul ins(%a, %dn : tensor<ROWSx32xf32>, tensor<ROWSx32xf32>) outs(%e2 : tensor<ROWSx32xf32>) -> tensor<ROWSx32xf32>
  %ys = shard.shard %y to %s : tensor<ROWSx32xf32>
  return %ys : tensor<ROWSx32xf32>
}
"""


def blur(rows):
    return BLUR.replace("PADDED", str(rows + 2)).replace("ROWS", str(rows))


@pytest.mark.parametrize("rows,devices", [(64, 4), (64, 2), (64, 1), (10, 4), (10, 3)])
def test_blur_rows(make_runtime, rng, rows, devices):
    program = meshvk.compile(blur(rows), grid_shape=devices, name="blur_%d.mlir" % rows)
    collectives = program.plan["collectives"]
    assert [c["kind"] for c in collectives] == ["window", "window"]  # up and down; no all_gather
    # Bytes process p pulls: the rows of its shifted windows that another shard holds (32 f32 each).
    shards = np.array_split(np.arange(rows), devices)
    expected = []
    for own in shards:
        wanted = [r for shift in (-1, 1) for r in own + shift if 0 <= r < rows and r not in own]
        expected.append(128 * len(wanted))
    pulled = [sum(c["pulled_bytes"][p] for c in collectives) for p in range(devices)]
    assert pulled == expected
    x = rng.uniform(-1.0, 1.0, size=(rows, 32)).astype(np.float32)
    p = np.pad(x, ((1, 1), (0, 0)))
    y_expected = (p[0:rows] - p[1:rows + 1]) * p[2:rows + 2]
    y = make_runtime(devices=devices).load(program)["main"](x)
    np.testing.assert_allclose(y, y_expected, rtol=1e-6, atol=1e-6)


CONV = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<2x8x6x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> (tensor<2x8x6x4xf32>, tensor<2x8x6x3xf32>) {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x8x6x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x6x4xf32>
  %m = tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x8x6x3xf32>) -> tensor<2x8x6x3xf32>
  %ys = shard.shard %y to %s : tensor<2x8x6x4xf32>
  %ms = shard.shard %m to %s : tensor<2x8x6x3xf32>
  return %ys, %ms : tensor<2x8x6x4xf32>, tensor<2x8x6x3xf32>
}
"""


@pytest.mark.parametrize("grid,split", [("1", "[[], [0]]"), ("2", "[[], [0]]"), ("4", "[[], [0]]"), ("3", "[[], [0]]"),
                                        ("2", "[[0]]"), ("2x2", "[[0], [1]]"), ("2x2", "[[], [0], [1]]")])
def test_conv2d_and_max_pool_same(make_runtime, rng, grid, split):
    """tosa.conv2d (3x3, pad 1, stride 1, bias) and tosa.max_pool2d (3x3, pad 1, stride 1) on NHWC split over
    batch, rows, columns: the taps' windows exchange borders; numpy computes both from np.pad + slicing."""
    text = CONV.replace("GRID", grid).replace("SPLIT", split)
    program = meshvk.compile(text, name="conv_%s.mlir" % grid)
    assert {c["kind"] for c in program.plan["collectives"]} <= {"window"}
    x = rng.uniform(-1.0, 1.0, size=(2, 8, 6, 3)).astype(np.float32)
    w = rng.uniform(-1.0, 1.0, size=(4, 3, 3, 3)).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, size=(4,)).astype(np.float32)
    p = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    q = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf)
    y_expected = np.zeros((2, 8, 6, 4)) + b
    m_expected = np.full((2, 8, 6, 3), -np.inf, dtype=np.float32)
    for kh in range(3):
        for kw in range(3):
            y_expected += np.einsum("nhwc,fc->nhwf", p[:, kh:kh + 8, kw:kw + 6, :], w[:, kh, kw, :])
            m_expected = np.maximum(m_expected, q[:, kh:kh + 8, kw:kw + 6, :])
    devices = int(np.prod([int(s) for s in grid.split("x")]))
    y, m = make_runtime(devices=devices).load(program)["main"](x, w, b)
    np.testing.assert_allclose(y, y_expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(m, m_expected)

