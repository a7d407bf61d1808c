"""A dynamic grid (shard.grid @g(shape = ?)) compiled once into one .mvk with a
plan per process count; Runtime(devices=N).load runs the plan for N. Expected
values from numpy."""
import numpy as np
import pytest

import meshvk
from conftest import ROOT, uniform

PROGRAM = ROOT / "tests" / "e2e" / "dynamic_grid" / "rows_matmul_sum.mlir"


def test_one_file_runs_on_every_count(make_runtime, rng, tmp_path):
    program = meshvk.compile(str(PROGRAM), grid_shape=None)
    assert program.process_counts == (1, 2, 3, 4, 5, 6, 7, 8)
    path = tmp_path / "dyn.mvk"
    program.save(path)
    loaded = meshvk.Program.load(path)
    assert loaded.process_counts == program.process_counts
    x, w = uniform(rng, (8, 6)), uniform(rng, (6, 4))
    y_expected = x.astype(np.float64) @ w.astype(np.float64)
    for n in (1, 2, 3, 4):
        y, s = make_runtime(devices=n).load(loaded)["main"](x, w)
        np.testing.assert_allclose(y, y_expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(s, y_expected.sum(axis=0), rtol=1e-5, atol=1e-5)
    three = loaded.for_process_count(3)
    assert three.process_count == 3 and three.grid_shape == (3,) and three.process_counts == ()
    assert three.functions == ["main"]


def test_a_count_the_file_lacks(make_runtime):
    loaded = meshvk.compile(str(PROGRAM))
    with pytest.raises(meshvk.OutOfRangeError, match="no plan for 9 processes: the module holds plans for 1, 2"):
        loaded.for_process_count(9)
    with pytest.raises(meshvk.InvalidArgumentError, match="create the Runtime with devices=N"):
        make_runtime().load(loaded)
