"""Issues #30 and #34: results kept on the devices (keep_on_device=True ->
meshvk.DeviceTensor) and passed back in: used in place with the same sharding,
read back and resent with another, refused once their runtime is closed; a
ShardedTensor laid out as the argument written shard by shard. The oracle is
numpy on the same inputs."""
import numpy as np
import pytest

import meshvk
from conftest import TOPOLOGY, compiled, compiled_text, elementwise_add, rss_kib, uniform

ROWS = elementwise_add("f32", (8, 8), (2,), ([0],))
COLUMNS = elementwise_add("f32", (8, 8), (2,), ([], [0]))
REPLICATED = elementwise_add("f32", (8, 8), (2,), ([], []))
INTS = elementwise_add("i32", (6, 4), (2,), ([0],))


def runtime(make_runtime):
    if TOPOLOGY == "group":
        return make_runtime(devices=[0, 1], topology="group")
    return make_runtime(devices=2, topology="logical")


@pytest.fixture
def rows(make_runtime):
    rt = runtime(make_runtime)
    return rt, rt.load(compiled_text(ROWS, "rows.mlir"))


def test_result_kept_on_device_reads_back(rows, rng):
    _, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    t = loaded(a, b, keep_on_device=True)
    assert isinstance(t, meshvk.DeviceTensor)
    assert t.shape == (8, 8) and t.dtype == np.float32 and t.split_axes == [[0], []]
    assert t.shard_count == 2 and t.bytes_per_process == {0: 128, 1: 128}
    assert repr(t) == "<meshvk.DeviceTensor 8x8xf32 split_axes=[[0], []], 2 shards>"
    np.testing.assert_array_equal(t.numpy(), a + b)
    np.testing.assert_array_equal(np.asarray(t), a + b)


def test_same_sharding_is_used_in_place_over_many_steps(rows, rng):
    """A loop whose state stays on the devices (as a decoder's KV cache)."""
    _, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    state, expected = loaded(a, b, keep_on_device=True), a + b
    for _ in range(12):
        state = loaded(state, b, keep_on_device=True)
        expected = expected + b
    np.testing.assert_allclose(state.numpy(), expected, rtol=1e-6)
    # A device argument beside a host one, results back on the host.
    np.testing.assert_allclose(loaded(state, a), expected + a, rtol=1e-6)
    np.testing.assert_allclose(loaded(a, state), a + expected, rtol=1e-6)
    np.testing.assert_allclose(loaded(state, state), expected + expected, rtol=1e-6)


def test_other_sharding_or_other_runtime_goes_through_the_host(rows, make_runtime, rng):
    rt, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    t = loaded(a, b, keep_on_device=True)
    columns = rt.load(compiled_text(COLUMNS, "columns.mlir"))
    np.testing.assert_array_equal(columns(t, t), (a + b) + (a + b))
    c = columns(t, b, keep_on_device=True)
    assert c.split_axes == [[], [0]]
    np.testing.assert_array_equal(loaded(c, a), (a + b) + b + a)
    other = runtime(make_runtime).load(compiled_text(ROWS, "rows.mlir"))
    np.testing.assert_array_equal(other(t, a), (a + b) + a)


def test_replicated_and_integer_results(make_runtime, rng):
    rt = runtime(make_runtime)
    replicated = rt.load(compiled_text(REPLICATED, "replicated.mlir"))
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    t = replicated(a, b, keep_on_device=True)
    assert t.shard_count == 2 and t.bytes_per_process == {0: 256, 1: 256}
    np.testing.assert_array_equal(replicated(t, t).astype(np.float32), (a + b) + (a + b))
    ints = rt.load(compiled_text(INTS, "ints.mlir"))
    x, y = uniform(rng, (6, 4), np.int32), uniform(rng, (6, 4), np.int32)
    s = ints(x, y, keep_on_device=True)
    assert s.dtype == np.int32
    np.testing.assert_array_equal(ints(s, y, keep_on_device=True).numpy(), x + y + y)


def test_tensor_outlives_its_program_not_its_runtime(make_runtime, rng):
    rt = runtime(make_runtime)
    loaded = rt.load(compiled_text(ROWS, "rows.mlir"))
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    t = loaded(a, b, keep_on_device=True)
    loaded.close()
    np.testing.assert_array_equal(t.numpy(), a + b)
    again = rt.load(compiled_text(ROWS, "rows.mlir"))
    np.testing.assert_array_equal(again(t, b), a + b + b)
    rt.close()
    assert t.closed and repr(t).endswith(", closed>")
    with pytest.raises(meshvk.FailedPreconditionError, match="^the DeviceTensor is closed"):
        t.numpy()
    live = runtime(make_runtime).load(compiled_text(ROWS, "rows.mlir"))
    with pytest.raises(meshvk.FailedPreconditionError, match=r"^inputs\[0\]: the DeviceTensor is closed"):
        live(t, b)


def test_close_frees_and_refuses(rows, rng):
    _, loaded = rows
    a = uniform(rng, (8, 8))
    t = loaded(a, a, keep_on_device=True)
    t.close()
    t.close()  # idempotent
    with pytest.raises(meshvk.FailedPreconditionError):
        loaded(t, a)


def test_wrong_device_calls_are_one_line(rows, make_runtime, rng):
    _, loaded = rows
    a = uniform(rng, (8, 8))
    small = runtime(make_runtime).load(meshvk.compile(elementwise_add("f32", (4, 8), (2,), ([0],))))
    s = small(a[:4], a[:4], keep_on_device=True)
    with pytest.raises(meshvk.InvalidArgumentError,
                       match=r"^inputs\[0\]: DeviceTensor 4x8xf32 given, argument 0 of 'main' is 8x8xf32$"):
        loaded(s, a)
    with pytest.raises(meshvk.InvalidArgumentError, match="^keep_on_device and keep_sharded: pick one"):
        loaded(a, a, keep_on_device=True, keep_sharded=True)
    with pytest.raises(meshvk.InvalidArgumentError, match="^keep_on_device: True or False is expected, got str$"):
        loaded(a, a, keep_on_device="yes")


def test_sharded_tensor_laid_out_as_the_argument(rows, rng):
    rt, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    s = loaded(a, b, keep_sharded=True)
    np.testing.assert_array_equal(loaded(s, b), (a + b) + b)
    np.testing.assert_array_equal(loaded(s, s, keep_sharded=True).assemble(), (a + b) + (a + b))
    # The shards are written as they are: changing one shows in the result.
    s.shards[1].array[:] = 0
    expected = a + b
    expected[4:] = 0
    np.testing.assert_array_equal(loaded(s, b), expected + b)
    columns = rt.load(compiled_text(COLUMNS, "columns.mlir"))
    np.testing.assert_array_equal(columns(s, b, keep_on_device=True).numpy(), expected + b)


def test_collective_program_chained_on_the_devices(make_runtime, rng):
    """An all-reduce between the processes each step; the replicated result
    is the next step's replicated input, in place."""
    main = runtime(make_runtime).load(compiled("mlp_megatron", grid_shape=[2]))["main"]
    x, w1, w2 = uniform(rng, (32, 64)), uniform(rng, (64, 256)) / 8, uniform(rng, (256, 64)) / 8
    t, expected = main(x, w1, w2, keep_on_device=True), x
    for _ in range(3):
        expected = np.maximum(expected @ w1, 0) @ w2
    t = main(main(t, w1, w2, keep_on_device=True), w1, w2, keep_on_device=True)
    np.testing.assert_allclose(t.numpy(), expected, rtol=1e-4, atol=1e-5)


def test_rss_flat_over_200_device_steps(make_runtime, rng):
    """Each step's 256 KiB result replaces the last: 100 leaked steps would add
    25 MiB (lavapipe's device memory is this process's memory)."""
    rt = runtime(make_runtime)
    step = rt.load(compiled_text(elementwise_add("f32", (256, 256), (2,), ([0],)), "big_rows.mlir"))
    a, b = uniform(rng, (256, 256)), uniform(rng, (256, 256)) / 256
    state, expected = step(a, b, keep_on_device=True), a + b
    for _ in range(100):  # warm-up: recordings, malloc arenas, driver caches
        state = step(state, b, keep_on_device=True)
        expected = expected + b
    before = rss_kib()
    for _ in range(100):
        state = step(state, b, keep_on_device=True)
        expected = expected + b
    grown = rss_kib() - before
    np.testing.assert_allclose(state.numpy(), expected, rtol=1e-4, atol=1e-5)
    assert grown < 8192, "RSS grew by %d KiB over 100 device-resident steps" % grown


def test_rss_measure_sees_kept_tensors(make_runtime, rng):
    """Negative control for the test above: 100 results kept alive exceed its bound."""
    rt = runtime(make_runtime)
    step = rt.load(compiled_text(elementwise_add("f32", (256, 256), (2,), ([0],)), "big_rows.mlir"))
    a = uniform(rng, (256, 256))
    step(a, a, keep_on_device=True)
    before, kept = rss_kib(), []
    for _ in range(100):
        kept.append(step(a, a, keep_on_device=True))
    assert rss_kib() - before > 8192
