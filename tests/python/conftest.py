"""Shared fixtures of the meshvk Python tests (run by ctest, label `python`).

Every runtime a test makes runs with the Khronos validation layer and
synchronization validation on; a test fails when any validation message was
collected (as the C++ fixture does). Programs are compiled once per session.
"""
import os
import pathlib

import numpy as np
import pytest

import meshvk

ROOT = pathlib.Path(__file__).resolve().parents[2]
# "group": ctest's copies of a test that run on the emulated device group.
TOPOLOGY = os.environ.get("MESHVK_TEST_TOPOLOGY", "logical")
SAMPLES = ROOT / "samples" / "programs"

_compiled = {}


def compiled(name, grid_shape=None):
    """samples/programs/<name>.mlir compiled (once) for grid_shape."""
    key = (name, tuple(grid_shape) if grid_shape else None)
    if key not in _compiled:
        _compiled[key] = meshvk.compile(str(SAMPLES / (name + ".mlir")), grid_shape=grid_shape)
    return _compiled[key]


def compiled_text(text, name):
    if name not in _compiled:
        _compiled[name] = meshvk.compile(text, name=name)
    return _compiled[name]


@pytest.fixture
def make_runtime():
    """meshvk.Runtime(...) with validation on; checks for validation messages at the end."""
    made = []

    def make(**kwargs):
        kwargs.setdefault("validation", "sync")
        rt = meshvk.Runtime(**kwargs)
        made.append(rt)
        return rt

    yield make
    for rt in made:
        messages = rt.validation_messages
        rt.close()
        assert messages == [], "validation messages:\n" + "\n".join(messages)


def run(make_runtime, text, n, *args):
    """@main of MLIR `text` compiled for a grid of n, on n devices of TOPOLOGY;
    its results as a tuple."""
    program = meshvk.compile(text, grid_shape=n)
    if TOPOLOGY == "group":
        rt = make_runtime(devices=list(range(n)), topology="group")
        assert rt.topology == "group", rt
    else:
        rt = make_runtime(devices=n, topology="logical")
    results = rt.load(program)["main"](*args)
    return results if isinstance(results, tuple) else (results,)


def rss_kib():
    """This process's resident set size (VmRSS), in KiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def uniform(rng, shape, dtype=np.float32):
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, size=shape, dtype=dtype)
    return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)


def elementwise_add(dtype, shape, grid, split_axes):
    """MLIR text: c = a + b, arguments and result sharded by split_axes over grid."""
    t = "tensor<%sx%s>" % ("x".join(map(str, shape)), dtype)
    add = "arith.addi" if dtype.startswith("i") else "arith.addf"
    split = ", ".join("[%s]" % ", ".join(map(str, axes)) for axes in split_axes)
    maps = "affine_map<(i, j) -> (i, j)>"
    return f"""
shard.grid @grid(shape = {"x".join(map(str, grid))})
func.func @main(%a: {t}, %b: {t}) -> {t} {{
  %s = shard.sharding @grid split_axes = [{split}] : !shard.sharding
  %a_s = shard.shard %a to %s annotate_for_users : {t}
  %b_s = shard.shard %b to %s annotate_for_users : {t}
  %init = tensor.empty() : {t}
  %c = linalg.generic {{indexing_maps = [{maps}, {maps}, {maps}],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%a_s, %b_s : {t}, {t}) outs(%init : {t}) {{
    ^bb0(%x: {dtype}, %y: {dtype}, %o: {dtype}):
      %r = {add} %x, %y : {dtype}
      linalg.yield %r : {dtype}
  }} -> {t}
  %c_s = shard.shard %c to %s : {t}
  return %c_s : {t}
}}
"""
