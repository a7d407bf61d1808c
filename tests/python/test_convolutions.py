"""tosa.conv2d, tosa.max_pool2d and tosa.avg_pool2d as people write them: 'same', 'valid', partial and full
padding, strides and dilations, on NHWC split over batch, rows, columns and both (issue #12). Each program is
compiled for its grid and run with validation on; numpy computes the reference from np.pad and strided slices,
written from the TOSA definitions (never from meshvk's output)."""
import numpy as np
import pytest

import meshvk

CONV = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<2xHxWx3xf32>, %w: tensor<4xKHxKWx3xf32>, %b: tensor<4xf32>) -> tensor<2xOHxOWx4xf32> {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2xHxWx3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: DILATION>, pad = array<i64: PAD>, stride = array<i64: STRIDE>} : (tensor<2xHxWx3xf32>, tensor<4xKHxKWx3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2xOHxOWx4xf32>
  %ys = shard.shard %y to %s : tensor<2xOHxOWx4xf32>
  return %ys : tensor<2xOHxOWx4xf32>
}
"""

POOL = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<2xHxWx3xf32>) -> tensor<2xOHxOWx3xf32> {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2xHxWx3xf32>
  POOL_OP
  %ys = shard.shard %y to %s : tensor<2xOHxOWx3xf32>
  return %ys : tensor<2xOHxOWx3xf32>
}
"""

MAX_POOL = ("%y = tosa.max_pool2d %xs {kernel = array<i64: KH, KW>, pad = array<i64: PAD>, stride = array<i64: STRIDE>}"
            " : (tensor<2xHxWx3xf32>) -> tensor<2xOHxOWx3xf32>")
AVG_POOL = ("%zp = \"tosa.const\"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>\n"
            "  %y = tosa.avg_pool2d %xs, %zp, %zp {acc_type = f32, kernel = array<i64: KH, KW>, pad = array<i64: PAD>,"
            " stride = array<i64: STRIDE>} : (tensor<2xHxWx3xf32>, tensor<1xf32>, tensor<1xf32>)"
            " -> tensor<2xOHxOWx3xf32>")

# (name, H, W, kernel, pad [top, bottom, left, right], stride, dilation): shapes where TOSA's output size
# divides exactly.
WINDOWS = [
    ("same", 9, 9, (3, 3), (1, 1, 1, 1), (1, 1), (1, 1)),
    ("valid", 9, 9, (3, 3), (0, 0, 0, 0), (1, 1), (1, 1)),
    ("valid_strided", 9, 9, (3, 3), (0, 0, 0, 0), (2, 2), (1, 1)),
    ("same_strided", 9, 9, (3, 3), (1, 1, 1, 1), (2, 2), (1, 1)),
    ("dilated", 9, 9, (3, 3), (0, 0, 0, 0), (1, 1), (2, 2)),
    ("dilated_same", 9, 9, (3, 3), (2, 2, 2, 2), (1, 1), (2, 2)),
    ("asymmetric", 9, 8, (3, 2), (0, 2, 1, 0), (1, 1), (1, 1)),
    ("full", 6, 6, (3, 3), (2, 2, 2, 2), (1, 1), (1, 1)),
    ("patches", 8, 8, (2, 2), (0, 0, 0, 0), (2, 2), (1, 1)),
]

SPLITS = [("1", "[[], [0]]"), ("2", "[[0]]"), ("2", "[[], [0]]"), ("3", "[[], [0]]"), ("4", "[[], [], [0]]"),
          ("2x2", "[[], [0], [1]]")]


def out_size(size, kernel, low, high, stride, dilation):
    span = size + low + high - (kernel - 1) * dilation - 1
    assert span % stride == 0, "test shapes must divide exactly"
    return span // stride + 1


def windows_of(padded, kernel, stride, dilation, oh, ow):
    """Each tap's strided view of an NHWC padded input: (kh, kw, view)."""
    for kh in range(kernel[0]):
        for kw in range(kernel[1]):
            r, c = kh * dilation[0], kw * dilation[1]
            yield kh, kw, padded[:, r:r + (oh - 1) * stride[0] + 1:stride[0], c:c + (ow - 1) * stride[1] + 1:stride[1], :]


def fill(template, grid, split, h, w, kernel, pad, stride, dilation):
    oh = out_size(h, kernel[0], pad[0], pad[1], stride[0], dilation[0])
    ow = out_size(w, kernel[1], pad[2], pad[3], stride[1], dilation[1])
    text = (template.replace("GRID", grid).replace("SPLIT", split).replace("KH", str(kernel[0]))
            .replace("KW", str(kernel[1])).replace("OH", str(oh)).replace("OW", str(ow))
            .replace("xHxWx", "x%dx%dx" % (h, w)).replace("PAD", ", ".join(map(str, pad)))
            .replace("STRIDE", ", ".join(map(str, stride))).replace("DILATION", ", ".join(map(str, dilation))))
    return text, oh, ow


def devices_of(grid):
    return int(np.prod([int(s) for s in grid.split("x")]))


@pytest.mark.parametrize("grid,split", SPLITS)
@pytest.mark.parametrize("window", WINDOWS, ids=[w[0] for w in WINDOWS])
def test_conv2d(make_runtime, rng, window, grid, split):
    name, h, w, kernel, pad, stride, dilation = window
    text, oh, ow = fill(CONV, grid, split, h, w, kernel, pad, stride, dilation)
    program = meshvk.compile(text, name="conv_%s_%s.mlir" % (name, grid))
    x = rng.uniform(-1.0, 1.0, size=(2, h, w, 3)).astype(np.float32)
    f = rng.uniform(-1.0, 1.0, size=(4, kernel[0], kernel[1], 3)).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, size=(4,)).astype(np.float32)
    p = np.pad(x.astype(np.float64), ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    expected = np.zeros((2, oh, ow, 4)) + b
    for kh, kw, view in windows_of(p, kernel, stride, dilation, oh, ow):
        expected += np.einsum("nhwc,fc->nhwf", view, f[:, kh, kw, :])
    y = make_runtime(devices=devices_of(grid)).load(program)["main"](x, f, b)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


POOLS = [w for w in WINDOWS if w[6] == (1, 1) and max(w[4]) < min(w[3])]  # TOSA: no dilation, pad < kernel


@pytest.mark.parametrize("grid,split", SPLITS)
@pytest.mark.parametrize("window", POOLS, ids=[w[0] for w in POOLS])
def test_max_pool2d(make_runtime, rng, window, grid, split):
    name, h, w, kernel, pad, stride, _ = window
    text, oh, ow = fill(POOL.replace("POOL_OP", MAX_POOL), grid, split, h, w, kernel, pad, stride, (1, 1))
    program = meshvk.compile(text, name="max_pool_%s_%s.mlir" % (name, grid))
    x = rng.uniform(-1.0, 1.0, size=(2, h, w, 3)).astype(np.float32)
    p = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)), constant_values=-np.inf)
    expected = np.full((2, oh, ow, 3), -np.inf, dtype=np.float32)
    for _, _, view in windows_of(p, kernel, stride, (1, 1), oh, ow):
        expected = np.maximum(expected, view)
    y = make_runtime(devices=devices_of(grid)).load(program)["main"](x)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("grid,split", SPLITS)
@pytest.mark.parametrize("window", POOLS, ids=[w[0] for w in POOLS])
def test_avg_pool2d(make_runtime, rng, window, grid, split):
    """TOSA's average divides by the number of window elements inside the unpadded input."""
    name, h, w, kernel, pad, stride, _ = window
    text, oh, ow = fill(POOL.replace("POOL_OP", AVG_POOL), grid, split, h, w, kernel, pad, stride, (1, 1))
    program = meshvk.compile(text, name="avg_pool_%s_%s.mlir" % (name, grid))
    x = rng.uniform(-1.0, 1.0, size=(2, h, w, 3)).astype(np.float32)
    pads = ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0))
    p = np.pad(x.astype(np.float64), pads)
    inside = np.pad(np.ones((1, h, w, 1)), pads)
    total, count = np.zeros((2, oh, ow, 3)), np.zeros((1, oh, ow, 1))
    for (_, _, view), (_, _, ones) in zip(windows_of(p, kernel, stride, (1, 1), oh, ow),
                                          windows_of(inside, kernel, stride, (1, 1), oh, ow)):
        total += view
        count += ones
    y = make_runtime(devices=devices_of(grid)).load(program)["main"](x)
    np.testing.assert_allclose(y, total / count, rtol=1e-5, atol=1e-6)
