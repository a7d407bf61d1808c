"""NaN in max/min reductions split across processes (issue #12): each
process reduces its shard, then the collective combines the partials. The
collective must combine them the way the program's own reduction does, or a
NaN in one shard decides the result differently from the unsharded program:
tosa.reduce_max/min (arith.maximumf/minimumf after tosa-to-linalg) propagate
NaN as numpy's max/min do; a linalg.reduce written with arith.maxnumf/minnumf
ignores it as numpy's fmax/fmin do. Each program runs on 1 to 4 processes
(3 is uneven on these shapes) against numpy.
"""
import numpy as np
import pytest

from conftest import run

COUNTS = (1, 2, 3, 4)


def tosa_reduce_program(op):
    return f"""
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<6x12xf32>) -> tensor<6x1xf32> {{
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<6x12xf32>
  %r = tosa.{op} %xs {{axis = 1 : i32}} : (tensor<6x12xf32>) -> tensor<6x1xf32>
  return %r : tensor<6x1xf32>
}}
"""


def linalg_reduce_program(combiner, init, dims, result_shape, split):
    r = "tensor<%sxf32>" % "x".join(map(str, result_shape)) if result_shape else "tensor<f32>"
    return f"""
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<6x12xf32>) -> {r} {{
  %s = shard.sharding @grid split_axes = {split} : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<6x12xf32>
  %init = arith.constant {init} : f32
  %e = tensor.empty() : {r}
  %acc = linalg.fill ins(%init : f32) outs(%e : {r}) -> {r}
  %r = linalg.reduce ins(%xs : tensor<6x12xf32>) outs(%acc : {r}) dimensions = {dims}
    (%in: f32, %a: f32) {{
      %m = arith.{combiner} %in, %a : f32
      linalg.yield %m : f32
    }}
  return %r : {r}
}}
"""


def with_nans(rng):
    """Rows with a NaN in one shard only, a row of NaNs, a row with a NaN in
    every shard and a row without NaN; the numbers are distinct so max/min
    have one answer."""
    x = rng.permutation(72).astype(np.float32).reshape(6, 12) - 36
    x[0, 1] = np.nan  # first shard
    x[1, 11] = np.nan  # last shard
    x[2, :] = np.nan
    x[3, ::3] = np.nan
    return x


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("op,oracle", [("reduce_max", np.max), ("reduce_min", np.min)])
def test_tosa_max_min_propagate_nan(make_runtime, rng, n, op, oracle):
    x = with_nans(rng)
    (r,) = run(make_runtime, tosa_reduce_program(op), n, x)
    np.testing.assert_array_equal(r, oracle(x, axis=1, keepdims=True))


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("combiner,init,oracle", [
    ("maxnumf", "0xFF800000", np.fmax), ("minnumf", "0x7F800000", np.fmin),
    ("maximumf", "0xFF800000", np.maximum), ("minimumf", "0x7F800000", np.minimum)])
def test_linalg_reduce_rows(make_runtime, rng, n, combiner, init, oracle):
    x = with_nans(rng)
    start = np.float32(-np.inf if init == "0xFF800000" else np.inf)
    (r,) = run(make_runtime, linalg_reduce_program(combiner, init, "[1]", [6], "[[], [0]]"), n, x)
    np.testing.assert_array_equal(r, oracle.reduce(x, axis=1, initial=start))


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("combiner,oracle", [("maxnumf", np.fmax), ("maximumf", np.maximum)])
def test_linalg_reduce_to_scalar(make_runtime, rng, n, combiner, oracle):
    """A full reduction split along rows: only row 2 is all NaN."""
    x = with_nans(rng)
    (r,) = run(make_runtime, linalg_reduce_program(combiner, "0xFF800000", "[0, 1]", [], "[[0]]"), n, x)
    np.testing.assert_array_equal(r, oracle.reduce(x, axis=None, initial=np.float32(-np.inf)))
