"""Row chains (issue #31, meshvk-fuse-row-chains + row tiles): Softmax,
LayerNormalization and a scale, mask, Softmax chain as small ONNX models at
sizes that are multiples of no tile (rows of 7 and 3, 300 rows, 1-element
rows, a single row), under shard="none" and shard="data" (rows split over 2
processes, unevenly where the count is odd), compared with numpy formulas
written from the ONNX operator definitions (float64)."""
import numpy as np
import pytest

import meshvk

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402


def _model(nodes, x_shape, y_shape, initializers=(), extra_inputs=()):
    graph = helper.make_graph(
        nodes, "rows",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape), *extra_inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
        initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _layernorm(x, w, b, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def _run(make_runtime, data, shard, *args):
    n = 2 if shard == "data" else 1
    program = meshvk.compile(data, shard=shard, grid_shape=n) if shard != "none" else meshvk.compile(data)
    fn = make_runtime(devices=n, topology="logical").load(program)["main"]
    return fn(*args)


SHAPES = [(3, 5, 7), (300, 3), (5, 1), (1, 6), (2, 1, 1)]
SHARDS = ["none", "data"]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("shard", SHARDS)
def test_softmax(make_runtime, shape, shard):
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32) * 4
    data = _model([helper.make_node("Softmax", ["x"], ["y"], axis=-1)], shape, shape)
    y = _run(make_runtime, data, shard, x)
    np.testing.assert_allclose(y, _softmax(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("shard", SHARDS)
def test_layernorm(make_runtime, shape, shard):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    w = rng.standard_normal(shape[-1:]).astype(np.float32)
    b = rng.standard_normal(shape[-1:]).astype(np.float32)
    data = _model([helper.make_node("LayerNormalization", ["x", "w", "b"], ["y"], axis=-1, epsilon=1e-5)],
                  shape, shape, [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    y = _run(make_runtime, data, shard, x)
    np.testing.assert_allclose(y, _layernorm(x.astype(np.float64), w, b), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(2, 3, 5, 5), (1, 1, 1, 1), (3, 2, 9, 9)])
@pytest.mark.parametrize("shard", SHARDS)
def test_scale_mask_softmax(make_runtime, shape, shard):
    """softmax(where(mask, x * 0.25, -inf)) with a causal mask (the attention chain)."""
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    t = shape[-1]
    mask = np.tril(np.ones((t, t), dtype=bool))
    nodes = [
        helper.make_node("Mul", ["x", "scale"], ["s"]),
        helper.make_node("Where", ["mask", "s", "ninf"], ["m"]),
        helper.make_node("Softmax", ["m"], ["y"], axis=-1),
    ]
    inits = [numpy_helper.from_array(np.array(0.25, np.float32), "scale"),
             numpy_helper.from_array(mask, "mask"),
             numpy_helper.from_array(np.array(-np.inf, np.float32), "ninf")]
    y = _run(make_runtime, _model(nodes, shape, shape, inits), shard, x)
    s = np.where(mask, x.astype(np.float64) * 0.25, -np.inf)
    np.testing.assert_allclose(y, _softmax(s), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", ["Softmax", "LayerNormalization"])
def test_one_kernel(op):
    """The whole operator is one kernel: the importer's keep-dims reductions
    leave unit-dim reshapes (meshvk-fold-unit-reshapes reads through them),
    and every reduction joins its broadcast readers (meshvk-fuse-row-chains)."""
    shape = (3, 5, 7)
    inits, inputs = [], ["x"]
    if op == "LayerNormalization":
        inits = [numpy_helper.from_array(np.ones(7, np.float32), "w"),
                 numpy_helper.from_array(np.zeros(7, np.float32), "b")]
        inputs += ["w", "b"]
    data = _model([helper.make_node(op, inputs, ["y"], axis=-1)], shape, shape, inits)
    assert len(meshvk.compile(data).kernels) == 1
