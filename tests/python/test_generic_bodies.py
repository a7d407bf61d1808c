"""Generic bodies the partitioner used to refuse or get wrong (issue #12):
tosa.argmax (two outputs in tosa-to-linalg's form), linalg.index on split
dimensions (the local index before: a silent wrong answer), tensor.extract
of a tensor inside a body (tosa.gather, tosa.reverse, table lookups) and
generics with several independent outputs. Each program runs on 1, 2, 3 and 4
processes (3 and 4 are uneven on these shapes) against numpy.

MESHVK_TEST_TOPOLOGY=group runs them on device group 0 (ctest: the emulated
group of 4, shuffled execution, race check); default: logical devices.
"""
import numpy as np
import pytest

from conftest import run, uniform

COUNTS = (1, 2, 3, 4)


def argmax_program(shape, split, axis, dtype="f32", nan_mode=None):
    t = "tensor<%sx%s>" % ("x".join(map(str, shape)), dtype)
    out_shape = [s for d, s in enumerate(shape) if d != axis]
    r = "tensor<%sxi32>" % "x".join(map(str, out_shape))
    mode = ", nan_mode = #tosa<nan_mode<%s>>" % nan_mode if nan_mode else ""
    return f"""
shard.grid @grid(shape = 2)
func.func @main(%x: {t}) -> {r} {{
  %s = shard.sharding @grid split_axes = {split} : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : {t}
  %i = tosa.argmax %xs {{axis = {axis} : i32{mode}}} : ({t}) -> {r}
  return %i : {r}
}}
"""


def numpy_argmax(x, axis, ignore_nan=False):
    if not ignore_nan:
        return np.argmax(x, axis=axis).astype(np.int32)  # numpy: the first NaN wins
    all_nan = np.all(np.isnan(x), axis=axis)
    filled = np.where(np.isnan(x), -np.inf, x)
    return np.where(all_nan, 0, np.argmax(filled, axis=axis)).astype(np.int32)


def awkward_f32(rng, shape):
    """Ties, NaNs, infinities and a row of -inf: the cases where argmax rules differ."""
    x = rng.integers(-3, 4, size=shape).astype(np.float32)  # many ties
    x[0, :] = -np.inf
    x[1, 3] = np.nan
    x[1, 7] = np.nan
    x[2, 8] = np.inf
    x[3, 0] = np.nan
    x[4, :] = np.nan
    return x


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("split", ["[[], [0]]", "[[0]]"])
@pytest.mark.parametrize("axis", [0, 1])
def test_argmax_f32_propagate(make_runtime, rng, n, split, axis):
    x = awkward_f32(rng, (6, 10))
    (i,) = run(make_runtime, argmax_program((6, 10), split, axis), n, x)
    np.testing.assert_array_equal(i, numpy_argmax(x, axis))


@pytest.mark.parametrize("n", COUNTS)
def test_argmax_f32_ignore(make_runtime, rng, n):
    x = awkward_f32(rng, (6, 10))
    (i,) = run(make_runtime, argmax_program((6, 10), "[[], [0]]", 1, nan_mode="IGNORE"), n, x)
    np.testing.assert_array_equal(i, numpy_argmax(x, 1, ignore_nan=True))


@pytest.mark.parametrize("n", COUNTS)
def test_argmax_i32_3d(make_runtime, rng, n):
    x = rng.integers(-5, 6, size=(3, 9, 4), dtype=np.int32)
    (i,) = run(make_runtime, argmax_program((3, 9, 4), "[[], [0]]", 1, dtype="i32"), n, x)
    np.testing.assert_array_equal(i, np.argmax(x, axis=1).astype(np.int32))


INDEX_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<7x5xi32>) -> tensor<7x5xi32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<7x5xi32>
  %e = tensor.empty() : tensor<7x5xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%xs : tensor<7x5xi32>) outs(%e : tensor<7x5xi32>) {
  ^bb0(%v: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %c100 = arith.constant 100 : i32
    %t = arith.muli %ii, %c100 : i32
    %u = arith.addi %t, %jj : i32
    %y = arith.addi %v, %u : i32
    linalg.yield %y : i32
  } -> tensor<7x5xi32>
  %rs = shard.shard %r to %s : tensor<7x5xi32>
  return %rs : tensor<7x5xi32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_loop_index_is_global_on_a_split_dimension(make_runtime, rng, n):
    x = uniform(rng, (7, 5), np.int32)
    (y,) = run(make_runtime, INDEX_PROGRAM, n, x)
    i, j = np.indices((7, 5))
    np.testing.assert_array_equal(y, x + 100 * i + j)


GATHER_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%v: tensor<5x7x3xf32>, %k: tensor<5x6xi32>) -> tensor<5x6x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %vs = shard.shard %v to %s annotate_for_users : tensor<5x7x3xf32>
  %ks = shard.shard %k to %s annotate_for_users : tensor<5x6xi32>
  %g = tosa.gather %vs, %ks : (tensor<5x7x3xf32>, tensor<5x6xi32>) -> tensor<5x6x3xf32>
  %gs = shard.shard %g to %s : tensor<5x6x3xf32>
  return %gs : tensor<5x6x3xf32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_gather(make_runtime, rng, n):
    v = uniform(rng, (5, 7, 3))
    k = rng.integers(0, 7, size=(5, 6), dtype=np.int32)
    (g,) = run(make_runtime, GATHER_PROGRAM, n, v, k)
    np.testing.assert_array_equal(g, np.take_along_axis(v, k[:, :, None], axis=1))


def test_gather_out_of_range_indices_are_clamped(make_runtime, rng):
    v = uniform(rng, (5, 7, 3))
    k = rng.integers(-20, 27, size=(5, 6), dtype=np.int32)
    (g,) = run(make_runtime, GATHER_PROGRAM, 3, v, k)
    np.testing.assert_array_equal(g, np.take_along_axis(v, np.clip(k, 0, 6)[:, :, None], axis=1))


REVERSE_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<7x5xf32>) -> (tensor<7x5xf32>, tensor<7x5xf32>) {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<7x5xf32>
  %a = tosa.reverse %xs {axis = 0 : i32} : (tensor<7x5xf32>) -> tensor<7x5xf32>
  %b = tosa.reverse %xs {axis = 1 : i32} : (tensor<7x5xf32>) -> tensor<7x5xf32>
  %as = shard.shard %a to %s : tensor<7x5xf32>
  %bs = shard.shard %b to %s : tensor<7x5xf32>
  return %as, %bs : tensor<7x5xf32>, tensor<7x5xf32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_reverse_split_and_whole_axis(make_runtime, rng, n):
    x = uniform(rng, (7, 5))
    a, b = run(make_runtime, REVERSE_PROGRAM, n, x)
    np.testing.assert_array_equal(a, np.flip(x, axis=0))
    np.testing.assert_array_equal(b, np.flip(x, axis=1))


TABLE_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<10xi32>) -> tensor<10xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<10xi32>
  %table = arith.constant dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]> : tensor<8xf32>
  %e = tensor.empty() : tensor<10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%xs : tensor<10xi32>) outs(%e : tensor<10xf32>) {
  ^bb0(%v: i32, %o: f32):
    %c7 = arith.constant 7 : i32
    %m = arith.andi %v, %c7 : i32
    %k = arith.index_cast %m : i32 to index
    %t = tensor.extract %table[%k] : tensor<8xf32>
    linalg.yield %t : f32
  } -> tensor<10xf32>
  %rs = shard.shard %r to %s : tensor<10xf32>
  return %rs : tensor<10xf32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_table_lookup_from_a_constant(make_runtime, rng, n):
    x = rng.integers(0, 1000, size=10, dtype=np.int32)
    (y,) = run(make_runtime, TABLE_PROGRAM, n, x)
    np.testing.assert_array_equal(y, (x & 7).astype(np.float32) + 0.5)


TWO_OUTPUTS_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<6x9xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<6x9xf32>
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<6xf32>
  %e1 = tensor.empty() : tensor<6xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
  %max0 = linalg.fill ins(%low : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                          affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<6x9xf32>) outs(%sum0, %max0 : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%v: f32, %a: f32, %b: f32):
    %p = arith.addf %v, %a : f32
    %q = arith.maximumf %v, %b : f32
    linalg.yield %p, %q : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_independent_outputs_split_per_output(make_runtime, rng, n):
    x = uniform(rng, (6, 9))
    total, largest = run(make_runtime, TWO_OUTPUTS_PROGRAM, n, x)
    np.testing.assert_allclose(total, x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(largest, x.max(axis=1))
