"""f32, f16 and i32 both ways; keep_sharded shards vs numpy slices; zero-copy and copied inputs."""
import numpy as np
import pytest

import meshvk
from conftest import compiled_text, elementwise_add, uniform

DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32}


def add_program(dtype, shape=(16, 8), grid=(4,), split_axes=([0],)):
    key = "add_%s_%s_%s_%s" % (dtype, "x".join(map(str, shape)), "x".join(map(str, grid)), split_axes)
    return compiled_text(elementwise_add(dtype, shape, grid, split_axes), key)


@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_dtype_round_trip(dtype, make_runtime, rng):
    if dtype == "f16" and not meshvk.devices()[0]["float16"]:
        pytest.skip("device 0 has no shaderFloat16")
    prog = add_program(dtype)
    assert prog.signature()["arguments"][0]["dtype"] == dtype
    rt = make_runtime(devices=4)
    main = rt.load(prog)["main"]
    a, b = uniform(rng, (16, 8), DTYPES[dtype]), uniform(rng, (16, 8), DTYPES[dtype])
    a_before = a.copy()
    c = main(a, b)
    assert c.dtype == DTYPES[dtype] and c.shape == (16, 8) and c.flags.c_contiguous
    np.testing.assert_array_equal(c, a + b)  # one rounding in either dtype: exact
    np.testing.assert_array_equal(a, a_before)  # inputs are read, never written


@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_keep_sharded_rows(dtype, make_runtime, rng):
    if dtype == "f16" and not meshvk.devices()[0]["float16"]:
        pytest.skip("device 0 has no shaderFloat16")
    main = make_runtime(devices=4).load(add_program(dtype))["main"]
    a, b = uniform(rng, (16, 8), DTYPES[dtype]), uniform(rng, (16, 8), DTYPES[dtype])
    sharded = main(a, b, keep_sharded=True)
    assert isinstance(sharded, meshvk.ShardedTensor)
    assert sharded.shape == (16, 8) and sharded.split_axes == [[0], []] and sharded.dtype == DTYPES[dtype]
    assert sorted(s.process for s in sharded) == [0, 1, 2, 3]
    for shard in sharded:
        # numpy's slice of the reference, computed without meshvk.
        rows = slice(4 * shard.process, 4 * shard.process + 4)
        assert shard.index == (rows, slice(0, 8))
        np.testing.assert_array_equal(shard.array, (a + b)[rows, :])
    np.testing.assert_array_equal(sharded.assemble(), a + b)


def test_keep_sharded_2d_grid(make_runtime, rng):
    prog = add_program("f32", shape=(8, 12), grid=(2, 2), split_axes=([0], [1]))
    main = make_runtime(devices=4).load(prog)["main"]
    a, b = uniform(rng, (8, 12)), uniform(rng, (8, 12))
    sharded = main(a, b, keep_sharded=True)
    assert sharded.split_axes == [[0], [1]]
    seen = set()
    for shard in sharded:
        i, j = divmod(shard.process, 2)  # row-major process ids over the 2x2 grid
        assert shard.global_offset == (4 * i, 6 * j)
        np.testing.assert_array_equal(shard.array, (a + b)[4 * i:4 * i + 4, 6 * j:6 * j + 6])
        seen.add(shard.process)
    assert seen == {0, 1, 2, 3}


def test_non_contiguous_and_foreign_layouts_are_copied(make_runtime, rng):
    main = make_runtime(devices=4).load(add_program("f32"))["main"]
    base = uniform(rng, (8, 16))
    a = base.T                      # Fortran-ordered view
    b = uniform(rng, (32, 16))[::2, ::2]  # strided view
    c = uniform(rng, (16, 8)).astype(">f4")  # big-endian
    assert not a.flags.c_contiguous and not b.flags.c_contiguous
    np.testing.assert_array_equal(main(a, b), a + b)
    np.testing.assert_array_equal(main(c, b), c.astype(np.float32) + b)


def test_results_are_fresh_arrays(make_runtime, rng):
    main = make_runtime(devices=4).load(add_program("i32"))["main"]
    a, b = uniform(rng, (16, 8), np.int32), uniform(rng, (16, 8), np.int32)
    first = main(a, b)
    second = main(b, b)
    np.testing.assert_array_equal(first, a + b)  # not overwritten by the second call
    np.testing.assert_array_equal(second, b + b)
    assert first.base is None or first.base is not second.base
