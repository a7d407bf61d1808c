"""Exported models from Python: int64 ids at the boundary and resident weights.

The GPT-2-style decoder of samples/models/zoo.py (torch.manual_seed(0),
random weights, exported at test time) takes int64 token ids; the program
computes them as i32, and fn() takes the int64 array torch takes, narrowed
with a range check. Expected values come from torch, never from meshvk.
"""
import os
import sys

import numpy as np
import pytest

import meshvk
from conftest import ROOT, rss_kib

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.join(ROOT, "samples", "models"))
import zoo  # noqa: E402

RANGE = "outside the int32 range the program computes it in ([-2147483648, 2147483647])"


@pytest.fixture(scope="module")
def gpt(tmp_path_factory):
    return zoo.export("gpt", str(tmp_path_factory.mktemp("gpt")), torch_runs=1)


@pytest.fixture(scope="module")
def programs(gpt):
    cache = {}

    def get(shard, n):
        if (shard, n) not in cache:
            cache[(shard, n)] = meshvk.compile(gpt.onnx, shard=shard, grid_shape=n)
        return cache[(shard, n)]

    return get


def check_close(y, gpt):
    error = float(np.abs(np.asarray(y, np.float64) - gpt.y).max())
    assert error <= gpt.tolerance, "max abs error %.3e > %.1e" % (error, gpt.tolerance)


@pytest.mark.parametrize("shard,n", [("none", 1), ("tensor", 4)])
def test_int64_ids_match_torch(make_runtime, gpt, programs, shard, n):
    assert gpt.x.dtype == np.int64
    fn = make_runtime(devices=n, topology="logical").load(programs(shard, n))["main"]
    assert fn.signature["arguments"][0]["dtype"] == "i32"  # what the program computes in
    check_close(fn(gpt.x), gpt)
    check_close(fn(x=gpt.x), gpt)
    # Any layout: a Fortran-ordered copy and a strided view narrow the same.
    check_close(fn(np.asfortranarray(gpt.x)), gpt)
    check_close(fn(np.repeat(gpt.x, 2, axis=1)[:, ::2]), gpt)


def parameter_bytes(program):
    """The parameter bytes of the program's largest process."""
    return max(p["parameter_bytes"] for p in program.plan["processes"])


def test_tensor_policy_holds_under_a_third_of_the_weights(programs):
    """Issue 30: on 4 devices each process holds at most 0.3 of the parameter
    bytes of one process (the token table, attention heads and MLP are split;
    LayerNorms, row-split biases and the causal mask are replicated)."""
    whole, split = parameter_bytes(programs("none", 1)), parameter_bytes(programs("tensor", 4))
    assert split <= 0.3 * whole, "%d > 0.3 x %d" % (split, whole)


def test_data_tensor_grid_matches_torch(make_runtime, gpt, programs):
    """shard="data,tensor" on a 2x2 grid: grid axis 0 splits the batch, axis 1 the weights."""
    program = programs("data,tensor", (2, 2))
    assert tuple(program.grid_shape) == (2, 2)
    fn = make_runtime(devices=4, topology="logical").load(program)["main"]
    check_close(fn(gpt.x), gpt)
    # The weights are split over the 2 processes of axis 1 only.
    whole = parameter_bytes(programs("none", 1))
    assert parameter_bytes(program) <= 0.6 * whole


@pytest.mark.parametrize("shard,grid,line", [
    ("data,data", (2, 2), "--shard=data,data: 'data' is listed twice"),
    ("tensor,none", (2, 2), "--shard=tensor,none: 'none' cannot be in a policy list"),
    ("data,tensor", 4, "--shard=data,tensor needs a grid of 2 axes, one per policy"),
    ("tensor", (2, 2), "--shard=tensor splits over a 1-D grid, got the grid 2x2"),
])
def test_bad_policy_or_grid_refused(gpt, shard, grid, line):
    with pytest.raises(meshvk.CompileError) as refused:
        meshvk.compile(gpt.onnx, shard=shard, grid_shape=grid)
    assert line in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("value,index", [(2**31, (1, 5)), (-2**31 - 1, (3, 15)), (2**62, (0, 0))])
@pytest.mark.parametrize("cast", [False, True])
def test_int64_out_of_range_refused(make_runtime, gpt, programs, value, index, cast):
    fn = make_runtime(devices=1, topology="logical").load(programs("none", 1))["main"]
    ids = gpt.x.copy()
    ids[index] = value
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        fn(ids, cast=cast)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == "inputs[0] ('x'): int64 element [%d, %d] is %d, %s" % (index + (value, RANGE))


class ToFloat(torch.nn.Module):
    def forward(self, ids):
        return ids.to(torch.float32) * 0.5


def test_int64_edges_of_int32_accepted(make_runtime, tmp_path):
    """The range check is inclusive: -2^31 and 2^31-1 pass, unchanged."""
    ids = torch.tensor([2**31 - 1, -2**31, 0, -7], dtype=torch.int64)
    path = str(tmp_path / "to_float.onnx")
    torch.onnx.export(ToFloat(), ids, path, input_names=["ids"], output_names=["y"], opset_version=17)
    fn = make_runtime(devices=1, topology="logical").load(meshvk.compile(path))["main"]
    np.testing.assert_array_equal(fn(ids.numpy()), ToFloat()(ids).numpy())


def test_int64_for_a_float_argument_refused(make_runtime, tmp_path):
    torch.manual_seed(0)
    path = str(tmp_path / "linear.onnx")
    torch.onnx.export(torch.nn.Linear(8, 4), torch.randn(2, 8), path, input_names=["x"], output_names=["y"],
                      opset_version=17)
    fn = make_runtime(devices=1, topology="logical").load(meshvk.compile(path))["main"]
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        fn(np.zeros((2, 8), np.int64))
    assert str(e.value) == ("inputs[0]: 2x8xi64 given, argument 0 of 'main' is 2x8xf32 "
                            "(convert with x.astype(np.float32))")


@pytest.mark.parametrize("shard,n", [("none", 1), ("data", 4)])
def test_rss_flat_over_200_calls(make_runtime, gpt, programs, shard, n):
    """Weights resident, nothing leaked: 200 calls with int64 ids, each
    returning a fresh 32 KiB result. A leak of a result (or of a narrowed id
    array, or of re-uploaded weights: 470 KB each) per call would add at
    least 6 MiB."""
    fn = make_runtime(devices=n, topology="logical").load(programs(shard, n))["main"]
    for _ in range(20):  # warm-up: recordings, malloc arenas, driver caches
        y = fn(gpt.x)
    before = rss_kib()
    for _ in range(200):
        y = fn(gpt.x)
    grown = rss_kib() - before
    check_close(y, gpt)
    assert grown < 4096, "RSS grew by %d KiB over 200 calls" % grown


def test_cast_to_int32_never_wraps(make_runtime):
    """cast=True from uint32/uint64 (numpy's same kind as int32) checks each
    value as the int64 path does: 2^32 + 5 is refused, not read as 5."""
    fn = make_runtime(devices=1, topology="logical").load(meshvk.compile(
        "func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> { return %a : tensor<3xi32> }", name="ids.mlir"))["main"]
    np.testing.assert_array_equal(fn(np.array([1, 2, 2**31 - 1], np.uint64), cast=True), [1, 2, 2**31 - 1])
    for dtype, value in [(np.uint64, 2**32 + 5), (np.uint32, 2**31)]:
        with pytest.raises(meshvk.InvalidArgumentError) as e:
            fn(np.array([1, value, 3], dtype), cast=True)
        assert str(e.value) == ("inputs[0]: %s element [1] is %d, outside the int32 range (cast=True never wraps)" %
                                (np.dtype(dtype).name, value))
