"""Bad input raises the documented meshvk.Error subclasses with mesh-vk-run's one-line messages."""
import numpy as np
import pytest

import meshvk
from conftest import SAMPLES, compiled, compiled_text, uniform

MLP_SHAPES = [(32, 64), (64, 256), (256, 64)]


@pytest.fixture
def mlp(make_runtime, rng):
    rt = make_runtime(devices=4)
    return rt, rt.load(compiled("mlp_megatron"))["main"], [uniform(rng, s) for s in MLP_SHAPES]


def test_hierarchy():
    assert issubclass(meshvk.InvalidArgumentError, meshvk.Error)
    assert issubclass(meshvk.InvalidArgumentError, ValueError)
    assert issubclass(meshvk.DataLossError, ValueError)
    assert issubclass(meshvk.CompileError, meshvk.InvalidArgumentError)
    assert issubclass(meshvk.FailedPreconditionError, RuntimeError)
    assert issubclass(meshvk.DeviceLostError, RuntimeError)
    assert issubclass(meshvk.UnimplementedError, NotImplementedError)
    assert issubclass(meshvk.DeadlineExceededError, TimeoutError)
    assert meshvk.OutOfRangeError.code == "OUT_OF_RANGE"


def test_wrong_dtype(mlp):
    _, main, (x, w1, w2) = mlp
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        main(x.astype(np.float64), w1, w2)
    assert str(e.value) == ("inputs[0]: 32x64xf64 given, argument 0 of 'main' is 32x64xf32 "
                            "(convert with x.astype(np.float32))")
    with pytest.raises(ValueError, match=r"^inputs\[2\]: 256x64xi32 given, argument 2 of 'main' is 256x64xf32 "
                                         r"\(convert with x\.astype\(np\.float32\)\)$"):
        main(x, w1, w2.astype(np.int32))


def test_wrong_shape(mlp):
    _, main, (x, w1, w2) = mlp
    with pytest.raises(meshvk.InvalidArgumentError,
                       match=r"^inputs\[1\]: 64x128xf32 given, argument 1 of 'main' is 64x256xf32$"):
        main(x, w1[:, :128], w2)
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^inputs\[0\]: 2048xf32 given"):
        main(x.reshape(-1), w1, w2)


def test_wrong_argument_count(mlp):
    _, main, (x, w1, _) = mlp
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        main(x, w1)
    assert str(e.value) == "inputs: 2 given, function 'main' takes 3 (32x64xf32, 64x256xf32, 256x64xf32)"


def test_not_an_array(mlp):
    _, main, (x, w1, _) = mlp
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^inputs\[2\]: a numpy array is expected .* got list$"):
        main(x, w1, [[1.0]])


def test_closed_runtime(mlp):
    rt, main, args = mlp
    main(*args)
    rt.close()
    assert rt.closed
    with pytest.raises(meshvk.FailedPreconditionError, match="the program is closed .its runtime was closed"):
        main(*args)
    with pytest.raises(RuntimeError, match="the runtime is closed"):
        rt.load(compiled("mlp_megatron"))
    rt.close()  # idempotent


def test_closed_program_in_with_block(make_runtime, rng):
    rt = make_runtime(devices=4)
    args = [uniform(rng, s) for s in MLP_SHAPES]
    with rt.load(compiled("mlp_megatron")) as loaded:
        main = loaded["main"]
        main(*args)
        assert not loaded.closed
    assert loaded.closed and "closed" in repr(loaded)
    with pytest.raises(meshvk.FailedPreconditionError, match="the program is closed$"):
        main(*args)


def test_unknown_function(make_runtime):
    loaded = make_runtime(devices=4).load(compiled("mlp_megatron"))
    with pytest.raises(meshvk.OutOfRangeError, match="nope"):
        loaded["nope"]
    assert loaded.functions == ["main"]


def test_program_compiled_for_other_process_count(make_runtime, tmp_path):
    path = tmp_path / "mlp4.mvk"
    compiled("mlp_megatron").save(path)
    rt = make_runtime(devices=2)
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^devices=2: .*mlp4.mvk is compiled for 4 processes$"):
        rt.load(str(path))


MERGE_ROWS = """
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<8x4xf32>) -> tensor<32xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<8x4xf32>
  %y = tensor.collapse_shape %xs [[0, 1]] : tensor<8x4xf32> into tensor<32xf32>
  return %y : tensor<32xf32>
}
"""


def test_compile_errors(tmp_path):
    with pytest.raises(meshvk.CompileError, match=r"^<string>:1:1: error: "):
        meshvk.compile("this is { not mlir")
    bad = tmp_path / "bad.mlir"
    bad.write_text((SAMPLES / "seed_matmul.mlir").read_text().replace("split_axes = [[0]]", "split_axes = [[3]]"))
    with pytest.raises(meshvk.CompileError, match=r"bad.mlir:\d+:\d+: error: .*"):
        meshvk.compile(bad)  # grid axis 3 of a 1-D grid
    with pytest.raises(meshvk.UnavailableError, match=r"missing.mlir: cannot read: No such file"):
        meshvk.compile(str(tmp_path / "missing.mlir"))
    with pytest.raises(meshvk.InvalidArgumentError, match="grid_shape: '0x2' is not a grid shape"):
        meshvk.compile(SAMPLES / "mlp_megatron.mlir", grid_shape=(0, 2))
    with pytest.raises(meshvk.InvalidArgumentError, match="vulkan_version: '1.x' is not a supported Vulkan version"):
        meshvk.compile(SAMPLES / "seed_matmul.mlir", vulkan_version="1.x")
    with pytest.raises(meshvk.InvalidArgumentError, match="target: unknown device 'tpu'"):
        meshvk.compile(SAMPLES / "mlp_megatron.mlir", target="tpu")
    # Merging rows split unevenly (8 over 3) with columns is refused; on 2 it compiles.
    merge = compiled_text(MERGE_ROWS, "merge_rows")
    with pytest.raises(meshvk.CompileError, match="devices=3: .*error"):
        meshvk.Runtime(devices=3).load(merge)  # recompiled for 3


def test_broken_artifact(tmp_path):
    path = tmp_path / "broken.mvk"
    data = bytearray(compiled("seed_matmul").to_bytes())
    path.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(meshvk.DataLossError, match=r"broken.mvk: "):
        meshvk.Program.load(path)
    with pytest.raises(meshvk.UnavailableError, match="cannot read"):
        meshvk.Program.load(tmp_path / "absent.mvk")


def test_bad_runtime_arguments():
    with pytest.raises(meshvk.InvalidArgumentError, match="topology: 'ring' given"):
        meshvk.Runtime(topology="ring")
    with pytest.raises(meshvk.InvalidArgumentError, match="devices: 0 given"):
        meshvk.Runtime(devices=0)
    with pytest.raises(meshvk.InvalidArgumentError, match="validation: 'loud' given"):
        meshvk.Runtime(validation="loud")
    with pytest.raises(meshvk.Error, match="devices/topology: "):
        meshvk.Runtime(devices=[0, 7])  # physical device 7 does not exist: refused when the Runtime is made


def test_bad_timeout_and_runs(mlp):
    _, main, args = mlp
    with pytest.raises(meshvk.InvalidArgumentError, match="timeout: -1"):
        main(*args, timeout=-1)
    with pytest.raises(meshvk.InvalidArgumentError, match="^iterations: 0 given, expected at least 1 run$"):
        main.benchmark(*args, iterations=0)
    with pytest.raises(meshvk.InvalidArgumentError, match="^iterations: -3 given"):
        main.benchmark(*args, iterations=-3)
    with pytest.raises(meshvk.InvalidArgumentError, match="^iterations: an int is expected, got float$"):
        main.benchmark(*args, iterations=2.5)
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^benchmark: n= is now iterations= \(the number of timed runs\)$"):
        main.benchmark(*args, n=5)
