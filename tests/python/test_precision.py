"""precision="f16" (mesh-vk-compile --precision=f16): f32 weights and
activations stored as f16 on the devices, the boundary kept f32. Expected
values from torch (a two-layer model exported at test time with a fixed
seed) and numpy."""
import io

import numpy as np
import pytest

import meshvk

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def model():
    """(bytes, x, expected) of relu(x @ W1 + b1) @ W2 + b2."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))
    x = torch.randn(4, 16)
    buffer = io.BytesIO()
    torch.onnx.export(net, x, buffer, input_names=["x"], output_names=["y"], opset_version=17)
    with torch.no_grad():
        expected = net(x).numpy()
    return buffer.getvalue(), x.numpy(), expected


def close(got, expected):
    assert got.dtype == np.float32
    bound = 1e-2 * max(1.0, float(np.abs(expected).max()))
    assert float(np.abs(got.astype(np.float64) - expected).max()) <= bound


@pytest.mark.parametrize("shard,n", [("none", 1), ("tensor", 4)])
def test_onnx_f16(make_runtime, model, shard, n):
    data, x, expected = model
    program = meshvk.compile(data, shard=shard, grid_shape=n, precision="f16")
    signature = program.signature()
    assert [(t["dtype"], t["declared_dtype"]) for t in signature["arguments"]] == [("f16", "f32")]
    assert [(t["dtype"], t["declared_dtype"]) for t in signature["results"]] == [("f16", "f32")]
    fn = make_runtime(devices=n, topology="logical").load(program)["main"]
    close(np.asarray(fn(x)), expected)  # a float32 input, converted when uploaded
    close(np.asarray(fn(x.astype(np.float16))), expected)  # the device's own dtype is taken too
    # Half the weight bytes of f32 (W1, b1, W2, b2: 16*32 + 32 + 32*8 + 8 floats).
    f32 = meshvk.compile(data, shard=shard, grid_shape=n).plan["processes"][0]["constant_bytes"]
    assert program.plan["processes"][0]["constant_bytes"] * 2 == f32


def test_mlir_f16(make_runtime):
    source = """
    func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<8x4xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
      %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
      return %c : tensor<8x4xf32>
    }
    """
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((8, 16), np.float32), rng.standard_normal((16, 4), np.float32)
    fn = make_runtime(topology="logical").load(meshvk.compile(source, precision="f16"))["main"]
    # numpy's f64 product of the f16-rounded operands: only the result's rounding differs.
    expected = a.astype(np.float16).astype(np.float64) @ b.astype(np.float16).astype(np.float64)
    close(np.asarray(fn(a, b)), expected)


def test_bad_precision(model):
    with pytest.raises(meshvk.InvalidArgumentError, match="precision: 'f32' or 'f16' is expected, got 'f8'"):
        meshvk.compile(model[0], precision="f8")
