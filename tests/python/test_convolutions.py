"""Convolutions and poolings as people write them in tosa (issue #12): conv2d, max_pool2d and avg_pool2d with
'same', 'valid', partial, asymmetric and full padding, strides and dilations; depthwise_conv2d, transpose_conv2d,
resize; a small CNN classifier. NHWC tensors split over batch, rows, columns, both, or channels. Each program is
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

# Batch, rows (even and uneven), columns, both, and the input channels (a conv2d then reduces over a split
# dimension: partial sums and an all_reduce).
SPLITS = [("1", "[[], [0]]"), ("2", "[[0]]"), ("2", "[[], [0]]"), ("3", "[[], [0]]"), ("4", "[[], [], [0]]"),
          ("2x2", "[[], [0], [1]]"), ("3", "[[], [], [], [0]]")]


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


def uniform(rng, *shape, scale=1.0):
    return rng.uniform(-scale, scale, size=shape).astype(np.float32)


def devices_of(grid):
    return int(np.prod([int(s) for s in grid.split("x")]))


def compile_split(template, grid, split, name):
    """`template` with its grid shape and split axes filled in, compiled."""
    return meshvk.compile(template.replace("GRID", grid).replace("SPLIT", split), name=name)


def run_main(make_runtime, grid, program, *args):
    """`main` of `program` on as many devices as `grid` has processes."""
    return make_runtime(devices=devices_of(grid)).load(program)["main"](*args)


@pytest.mark.parametrize("grid,split", SPLITS)
@pytest.mark.parametrize("window", WINDOWS, ids=[w[0] for w in WINDOWS])
def test_conv2d(make_runtime, rng, window, grid, split):
    name, h, w, kernel, pad, stride, dilation = window
    text, oh, ow = fill(CONV, grid, split, h, w, kernel, pad, stride, dilation)
    program = meshvk.compile(text, name="conv_%s_%s.mlir" % (name, grid))
    x = uniform(rng, 2, h, w, 3)
    f = uniform(rng, 4, kernel[0], kernel[1], 3)
    b = uniform(rng, 4)
    p = np.pad(x.astype(np.float64), ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)))
    expected = np.zeros((2, oh, ow, 4)) + b
    for kh, kw, view in windows_of(p, kernel, stride, dilation, oh, ow):
        expected += np.einsum("nhwc,fc->nhwf", view, f[:, kh, kw, :])
    y = run_main(make_runtime, grid, program, x, f, b)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


POOLS = [w for w in WINDOWS if w[6] == (1, 1) and max(w[4]) < min(w[3])]  # TOSA: no dilation, pad < kernel


@pytest.mark.parametrize("grid,split", SPLITS)
@pytest.mark.parametrize("window", POOLS, ids=[w[0] for w in POOLS])
def test_max_pool2d(make_runtime, rng, window, grid, split):
    name, h, w, kernel, pad, stride, _ = window
    text, oh, ow = fill(POOL.replace("POOL_OP", MAX_POOL), grid, split, h, w, kernel, pad, stride, (1, 1))
    program = meshvk.compile(text, name="max_pool_%s_%s.mlir" % (name, grid))
    x = uniform(rng, 2, h, w, 3)
    p = np.pad(x, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0)), constant_values=-np.inf)
    expected = np.full((2, oh, ow, 3), -np.inf, dtype=np.float32)
    for _, _, view in windows_of(p, kernel, stride, (1, 1), oh, ow):
        expected = np.maximum(expected, view)
    y = run_main(make_runtime, grid, program, x)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("grid,split", SPLITS)
@pytest.mark.parametrize("window", POOLS, ids=[w[0] for w in POOLS])
def test_avg_pool2d(make_runtime, rng, window, grid, split):
    """TOSA's average divides by the number of window elements inside the unpadded input."""
    name, h, w, kernel, pad, stride, _ = window
    text, oh, ow = fill(POOL.replace("POOL_OP", AVG_POOL), grid, split, h, w, kernel, pad, stride, (1, 1))
    program = meshvk.compile(text, name="avg_pool_%s_%s.mlir" % (name, grid))
    x = uniform(rng, 2, h, w, 3)
    pads = ((0, 0), (pad[0], pad[1]), (pad[2], pad[3]), (0, 0))
    p = np.pad(x.astype(np.float64), pads)
    inside = np.pad(np.ones((1, h, w, 1)), pads)
    total, count = np.zeros((2, oh, ow, 3)), np.zeros((1, oh, ow, 1))
    for (_, _, view), (_, _, ones) in zip(windows_of(p, kernel, stride, (1, 1), oh, ow),
                                          windows_of(inside, kernel, stride, (1, 1), oh, ow)):
        total += view
        count += ones
    y = run_main(make_runtime, grid, program, x)
    np.testing.assert_allclose(y, total / count, rtol=1e-5, atol=1e-6)


DEPTHWISE = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<2x9x9x4xf32>, %w: tensor<3x3x4x2xf32>, %b: tensor<8xf32>) -> tensor<2x5x5x8xf32> {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x9x9x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.depthwise_conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x9x9x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5x8xf32>
  %ys = shard.shard %y to %s : tensor<2x5x5x8xf32>
  return %ys : tensor<2x5x5x8xf32>
}
"""

TRANSPOSED = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<2x4x4x3xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x9x9x5xf32> {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x4x4x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.transpose_conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x4x4x3xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x9x9x5xf32>
  %ys = shard.shard %y to %s : tensor<2x9x9x5xf32>
  return %ys : tensor<2x9x9x5xf32>
}
"""

RESIZE = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<2x4x4x3xf32>) -> tensor<2x8x8x3xf32> {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x4x4x3xf32>
  %scale = tosa.const_shape { values = dense<[2, 1, 2, 1]> : tensor<4xindex> } : () -> !tosa.shape<4>
  %offset = tosa.const_shape { values = dense<[0, 0]> : tensor<2xindex> } : () -> !tosa.shape<2>
  %border = tosa.const_shape { values = dense<[1, 1]> : tensor<2xindex> } : () -> !tosa.shape<2>
  %y = tosa.resize %xs, %scale, %offset, %border { mode = NEAREST_NEIGHBOR } : (tensor<2x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x8x8x3xf32>
  %ys = shard.shard %y to %s : tensor<2x8x8x3xf32>
  return %ys : tensor<2x8x8x3xf32>
}
"""

NHWC_SPLITS = [("2", "[[0]]"), ("2", "[[], [0]]"), ("3", "[[], [], [0]]"), ("2", "[[], [], [], [0]]"),
               ("2x2", "[[], [0], [1]]")]


@pytest.mark.parametrize("grid,split", NHWC_SPLITS)
def test_depthwise_conv2d_strided(make_runtime, rng, grid, split):
    """tosa.depthwise_conv2d 3x3, pad 1, stride 2, channel multiplier 2: out[..., c * 2 + m]."""
    program = compile_split(DEPTHWISE, grid, split, "depthwise.mlir")
    x = uniform(rng, 2, 9, 9, 4)
    w = uniform(rng, 3, 3, 4, 2)
    b = uniform(rng, 8)
    p = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    expected = np.zeros((2, 5, 5, 4, 2))
    for kh, kw, view in windows_of(p, (3, 3), (2, 2), (1, 1), 5, 5):
        expected += view[..., None] * w[kh, kw]
    expected = expected.reshape(2, 5, 5, 8) + b
    y = run_main(make_runtime, grid, program, x, w, b)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("grid,split", NHWC_SPLITS)
def test_transpose_conv2d(make_runtime, rng, grid, split):
    """tosa.transpose_conv2d, stride 2: each input pixel scatters its 3x3 products to out[2i + kh, 2j + kw]."""
    program = compile_split(TRANSPOSED, grid, split, "transposed.mlir")
    x = uniform(rng, 2, 4, 4, 3)
    w = uniform(rng, 5, 3, 3, 3)
    b = uniform(rng, 5)
    expected = np.zeros((2, 9, 9, 5)) + b
    for kh in range(3):
        for kw in range(3):
            expected[:, kh:kh + 7:2, kw:kw + 7:2, :] += np.einsum("nijc,fc->nijf", x.astype(np.float64), w[:, kh, kw, :])
    y = run_main(make_runtime, grid, program, x, w, b)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("grid,split", NHWC_SPLITS)
def test_resize_nearest(make_runtime, rng, grid, split):
    """tosa.resize NEAREST_NEIGHBOR, scale 2: output y reads input round_half_up(y / 2), clamped (TOSA)."""
    program = compile_split(RESIZE, grid, split, "resize.mlir")
    x = uniform(rng, 2, 4, 4, 3)
    index = np.minimum((np.arange(8) + 1) // 2, 3)
    y = run_main(make_runtime, grid, program, x)
    np.testing.assert_array_equal(y, x[:, index][:, :, index])


# A small CNN classifier as people write it in tosa: a 'valid' 3x3 conv2d, relu (clamp), 2x2/2 max pool, flatten
# (reshape), a dense layer (matmul of a sliced weight + bias) and softmax (reduce_max, exp, reduce_sum, reciprocal).
CNN = """
shard.grid @g(shape = GRID)
func.func @main(%x: tensor<4x12x12x3xf32>, %w1: tensor<8x3x3x3xf32>, %b1: tensor<8xf32>, %w2: tensor<1x288x10xf32>, %b2: tensor<1x1x10xf32>) -> tensor<4x10xf32> {
  %s = shard.sharding @g split_axes = SPLIT : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<4x12x12x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %xs, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x12x12x3xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x10x10x8xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<4x10x10x8xf32>) -> tensor<4x10x10x8xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<4x10x10x8xf32>) -> tensor<4x5x5x8xf32>
  %shape = tosa.const_shape {values = dense<[1, 4, 200]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %p, %shape : (tensor<4x5x5x8xf32>, !tosa.shape<3>) -> tensor<1x4x200xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 200, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w2s = tosa.slice %w2, %start, %size : (tensor<1x288x10xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x200x10xf32>
  %logits = tosa.matmul %flat, %w2s, %zp, %zp : (tensor<1x4x200xf32>, tensor<1x200x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x10xf32>
  %biased = tosa.add %logits, %b2 : (tensor<1x4x10xf32>, tensor<1x1x10xf32>) -> tensor<1x4x10xf32>
  %m = tosa.reduce_max %biased {axis = 2 : i32} : (tensor<1x4x10xf32>) -> tensor<1x4x1xf32>
  %d = tosa.sub %biased, %m : (tensor<1x4x10xf32>, tensor<1x4x1xf32>) -> tensor<1x4x10xf32>
  %e = tosa.exp %d : (tensor<1x4x10xf32>) -> tensor<1x4x10xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x10xf32>) -> tensor<1x4x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %prob = tosa.mul %e, %inv, %shift : (tensor<1x4x10xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x10xf32>
  %oshape = tosa.const_shape {values = dense<[4, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %out = tosa.reshape %prob, %oshape : (tensor<1x4x10xf32>, !tosa.shape<2>) -> tensor<4x10xf32>
  return %out : tensor<4x10xf32>
}
"""


@pytest.mark.parametrize("grid,split", [("2", "[[0]]"), ("4", "[[0]]"), ("3", "[[], [0]]"), ("2x2", "[[0], [1]]"),
                                        ("2", "[[], [], [0]]")])
def test_small_cnn(make_runtime, rng, grid, split):
    program = compile_split(CNN, grid, split, "cnn_%s.mlir" % grid)
    x = uniform(rng, 4, 12, 12, 3)
    w1 = uniform(rng, 8, 3, 3, 3)
    b1 = uniform(rng, 8)
    w2 = uniform(rng, 1, 288, 10, scale=0.2)
    b2 = uniform(rng, 1, 1, 10)
    conv = np.zeros((4, 10, 10, 8)) + b1
    for kh in range(3):
        for kw in range(3):
            conv += np.einsum("nhwc,fc->nhwf", x[:, kh:kh + 10, kw:kw + 10, :].astype(np.float64), w1[:, kh, kw, :])
    pooled = np.maximum(conv, 0.0).reshape(4, 5, 2, 5, 2, 8).max(axis=(2, 4))
    logits = pooled.reshape(4, 200) @ w2[0, :200].astype(np.float64) + b2[0]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    y = run_main(make_runtime, grid, program, x, w1, b1, w2, b2)
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
