"""ONNX models through meshvk.compile: from a path and from the serialized
bytes, under shard="none" and shard="tensor" (4 processes), called by position
and by ONNX input name; expected values from torch (exported at test time with
a fixed seed)."""
import io

import numpy as np
import pytest

import meshvk

torch = pytest.importorskip("torch")


class TwoInputs(torch.nn.Module):
    """relu(a @ W1) @ W2 + b: a Megatron pair for shard="tensor", two named inputs."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, a, b):
        return self.fc2(torch.relu(self.fc1(a))) + b


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """(path, bytes, a, b, expected) of the exported model."""
    torch.manual_seed(0)
    net = TwoInputs()
    a, b = torch.randn(4, 16), torch.randn(4, 8)
    buffer = io.BytesIO()
    torch.onnx.export(net, (a, b), buffer, input_names=["a", "b"], output_names=["y"], opset_version=17)
    data = buffer.getvalue()
    path = tmp_path_factory.mktemp("onnx") / "two_inputs.onnx"
    path.write_bytes(data)
    with torch.no_grad():
        expected = net(a, b).numpy()
    return path, data, a.numpy(), b.numpy(), expected


@pytest.mark.parametrize("source", ["path", "bytes"])
@pytest.mark.parametrize("shard,n", [("none", 1), ("tensor", 4)])
def test_compile_and_run(make_runtime, model, source, shard, n):
    path, data, a, b, expected = model
    program = meshvk.compile(str(path) if source == "path" else data, shard=shard, grid_shape=n)
    assert program.process_count == n
    signature = program.signature()
    assert [t["name"] for t in signature["arguments"]] == ["a", "b"]
    assert [t["name"] for t in signature["results"]] == ["y"]
    fn = make_runtime(devices=n, topology="logical").load(program)["main"]
    np.testing.assert_allclose(fn(a, b), expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(fn(b=b, a=a), expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(fn(a, b=b), expected, rtol=1e-4, atol=1e-4)


def test_runtime_recompiles_for_its_devices(make_runtime, model):
    path, _, a, b, expected = model
    program = meshvk.compile(str(path), shard="tensor")  # a grid of 1 until loaded on 4
    loaded = make_runtime(devices=4, topology="logical").load(program)["main"]
    np.testing.assert_allclose(loaded(a=a, b=b), expected, rtol=1e-4, atol=1e-4)


def test_input_shapes_and_names_survive_save(model, tmp_path):
    path, data, _, _, _ = model
    program = meshvk.compile(data, input_shapes={"a": (4, 16)}, name="two.onnx")
    program.save(tmp_path / "two.mvk")
    loaded = meshvk.Program.load(tmp_path / "two.mvk")
    assert [t["name"] for t in loaded.signature()["arguments"]] == ["a", "b"]


def test_bad_usage(make_runtime, model):
    path, data, a, b, _ = model
    with pytest.raises(meshvk.InvalidArgumentError, match="shard and input_shapes apply to ONNX models"):
        meshvk.compile("func.func @main() { return }\n", shard="tensor")
    with pytest.raises(meshvk.CompileError, match="^<onnx bytes>"):
        meshvk.compile(data[:300])
    with pytest.raises(meshvk.CompileError, match=r"^input_shapes: a=4x0: expected NAME=AxBx"):
        meshvk.compile(data, input_shapes={"a": (4, 0)})
    fn = make_runtime(topology="logical").load(meshvk.compile(data))["main"]
    with pytest.raises(meshvk.InvalidArgumentError, match=r"'c' is not an input of 'main' \(its inputs: a, b\)"):
        fn(a, c=b)
    with pytest.raises(meshvk.InvalidArgumentError, match="3 given, function 'main' takes 2"):
        fn(a, b, a=a)
