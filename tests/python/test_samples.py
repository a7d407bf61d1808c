"""Every sample program, compiled in-process and run from numpy, against numpy references."""
import numpy as np
import pytest

import meshvk
from conftest import SAMPLES, compiled, uniform


def relu(v):
    return np.maximum(v, 0)


# name -> (argument shapes, dtype, numpy reference)
SAMPLE_REFERENCES = {
    "seed_matmul": ([(2, 3), (3, 2)], np.float32, lambda a, b: a @ b),
    "matmul_rows": ([(256, 128), (128, 64)], np.float32, lambda a, b: a @ b),
    "matmul_cols": ([(64, 96), (96, 128)], np.float32, lambda a, b: a @ b),
    "matmul_contraction": ([(64, 256), (256, 64)], np.float32, lambda a, b: a @ b),
    "mlp_megatron": ([(32, 64), (64, 256), (256, 64)], np.float32, lambda x, w1, w2: relu(x @ w1) @ w2),
    "mlp_data_tensor_parallel": ([(32, 64), (64, 128), (128, 64)], np.float32,
                                 lambda x, w1, w2: relu(x @ w1) @ w2),
    "reduce_rows": ([(128, 256)], np.float32, lambda x: x.sum(axis=1)),
    "batch_matmul": ([(8, 32, 64), (8, 64, 48)], np.float32, lambda a, b: np.matmul(a, b)),
    "transpose_reshard": ([(64, 32)], np.int32, lambda x: x.T),
    # Uneven shards (10 rows over 4): relu(x @ w), its column sums, and it gathered.
    "batch_rows": ([(10, 8), (8, 6)], np.float32,
                   lambda x, w: (relu(x @ w), relu(x @ w).sum(axis=0), relu(x @ w))),
}


def test_every_sample_has_a_reference():
    assert sorted(p.stem for p in SAMPLES.glob("*.mlir")) == sorted(SAMPLE_REFERENCES)


@pytest.mark.parametrize("name", sorted(SAMPLE_REFERENCES))
def test_sample_matches_numpy(name, make_runtime, rng):
    shapes, dtype, reference = SAMPLE_REFERENCES[name]
    prog = compiled(name)
    rt = make_runtime(devices=prog.process_count)
    main = rt.load(prog)["main"]
    args = [uniform(rng, s, dtype) for s in shapes]
    got = main(*args)
    want = reference(*[a.astype(np.float64) if dtype == np.float32 else a for a in args])
    # A function with several results returns a tuple.
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == dtype and g.shape == w.shape
        if dtype == np.int32:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, atol=1e-3, rtol=1e-4)


@pytest.mark.parametrize("devices", [1, 2, 4])
def test_mlp_recompiled_for_each_device_count(devices, make_runtime, rng):
    """Runtime(devices=N) recompiles a 1-D program for N, as mesh-vk-run --devices=N does."""
    prog = compiled("mlp_megatron")
    rt = make_runtime(devices=devices)
    loaded = rt.load(prog)
    x, w1, w2 = (uniform(rng, s) for s in [(32, 64), (64, 256), (256, 64)])
    np.testing.assert_allclose(loaded["main"](x, w1, w2), relu(x @ w1) @ w2, atol=1e-3, rtol=1e-4)
    placement = loaded.placement()
    assert [p["process"] for p in placement] == list(range(devices))
    assert all(p["physical_device"] < len(meshvk.devices()) for p in placement)


def test_readme_snippet(tmp_path, rng):
    """The README's example, as written."""
    x, w1, w2 = (uniform(rng, s) for s in [(32, 64), (64, 256), (256, 64)])
    prog = meshvk.compile(str(SAMPLES / "mlp_megatron.mlir"))
    rt = meshvk.Runtime(devices=4, topology="auto")
    main = rt.load(prog)["main"]
    y = rt.load(prog)(x, w1, w2)  # one function: the loaded program is callable
    np.testing.assert_allclose(y, relu(x @ w1) @ w2, atol=1e-3, rtol=1e-4)
    plan = prog.plan
    assert [p["process"] for p in plan["processes"]] == [0, 1, 2, 3]
    # compiler/README and the e2e tests: 24,576 bytes in from peers per process
    # (the all_reduce of 32x64 f32), 81,920 bytes allocated per process.
    assert all(p["peer_bytes_in"] == 24576 for p in plan["processes"])
    assert all(p["allocated_bytes"] == 81920 for p in plan["processes"])
    assert plan["total"]["peer_bytes_in"] == 98304
    assert plan["collectives"][0]["kind"] == "all_reduce"
    shards = main(x, w1, w2, keep_sharded=True)
    assert len(shards) == 4 and shards.split_axes == [[], []]  # replicated: one full copy each
    for shard in shards:
        # Each process sums the four partial products in its own order, so the
        # replicas agree to rounding, not bit for bit.
        np.testing.assert_allclose(shard.array, y, atol=1e-4, rtol=1e-5)
    stats = main.benchmark(x, w1, w2, iterations=20)
    assert stats["runs"] == 20
    assert stats["unit"] == "s" and 0 < stats["wall"]["min"] <= stats["wall"]["median"] <= stats["wall"]["max"] < 10
    assert stats["command_buffers"] > 0 and stats["commands"] > 0
    assert {(p["phase"], p["process"]) for p in stats["phases"]} >= {(0, 0), (1, 3)}
    prog.save(tmp_path / "mlp.mvk")
    again = rt.load(str(tmp_path / "mlp.mvk"))["main"]
    np.testing.assert_array_equal(again(x, w1, w2), y)
    rt.close()


def test_readme_python_block_runs_as_written(monkeypatch):
    """The ```python block of README.md's Python section, executed from the repository root."""
    readme = (SAMPLES.parents[1] / "README.md").read_text()
    section = readme[readme.index("### Python"):]
    block = section[section.index("```python\n") + len("```python\n"):]
    block = block[:block.index("```")]
    assert "meshvk.compile(" in block and "keep_sharded=True" in block
    monkeypatch.chdir(SAMPLES.parents[1])
    scope = {}
    exec(compile(block, "README.md", "exec"), scope)  # noqa: S102 - our own README
    x, w1, w2 = scope["x"], scope["w1"], scope["w2"]
    np.testing.assert_allclose(scope["y"], relu(x @ w1) @ w2, atol=1e-3, rtol=1e-4)
    assert scope["stats"]["runs"] == 20
    scope["rt"].close()
