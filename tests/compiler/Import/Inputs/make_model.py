"""Writes one tiny ONNX model for the importer's lit tests.

usage: make_model.py NAME OUT.onnx  (NAME: one of MODELS below)
Models are built with onnx.helper at opset 17, so each test shows the IR of
one op family; "truncated" writes half a model (a protobuf that does not parse).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64


def graph(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def mlp():
    rng = np.random.default_rng(0)
    w1 = const("w1", rng.standard_normal((8, 16)).astype(np.float32))
    w2 = const("w2", rng.standard_normal((16, 4)).astype(np.float32))
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("MatMul", ["r", "w2"], ["y"], name="fc2")]
    return graph(nodes, [vi("x", F, [4, 8])], [vi("y", F, [4, 4])], [w1, w2])


def linear_mlp():
    """torch.nn.Linear's export: Gemm with transB=1 on (out, in) weights; w2
    is also read by an Add, so it cannot be stored transposed."""
    w1 = const("w1", np.arange(16 * 8, dtype=np.float32).reshape(16, 8))
    w2 = const("w2", np.ones((4, 16), np.float32))
    nodes = [helper.make_node("Gemm", ["x", "w1"], ["h"], name="fc1", transB=1),
             helper.make_node("Relu", ["h"], ["r"], name="relu"),
             helper.make_node("Gemm", ["r", "w2"], ["y"], name="fc2", transB=1),
             helper.make_node("Add", ["w2", "w2"], ["w2x2"], name="reuse")]
    return graph(nodes, [vi("x", F, [4, 8])], [vi("y", F, [4, 4]), vi("w2x2", F, [4, 16])], [w1, w2])


MODELS = {
    "add_double": lambda: graph(
        [helper.make_node("Add", ["a", "b"], ["s"], name="add"),
         helper.make_node("Exp", ["s"], ["y"], name="exp")],
        [vi("a", TensorProto.DOUBLE, [2, 3]), vi("b", TensorProto.DOUBLE, [3])],
        [vi("y", TensorProto.DOUBLE, [2, 3])]),
    "add_broadcast": lambda: graph(
        [helper.make_node("Add", ["a", "b"], ["y"], name="add")],
        [vi("a", F, [2, 3]), vi("b", F, [3])], [vi("y", F, [2, 3])]),
    "activations": lambda: graph(
        [helper.make_node("Sigmoid", ["x"], ["s"], name="sig"),
         helper.make_node("LeakyRelu", ["s"], ["y"], name="leaky", alpha=0.1)],
        [vi("x", F, [4])], [vi("y", F, [4])]),
    "where_bool": lambda: graph(
        [helper.make_node("Where", ["c", "a", "b"], ["y"], name="where")],
        [vi("c", TensorProto.BOOL, [3]), vi("a", F, [3]), vi("b", F, [3])],
        [vi("y", F, [3])]),
    "reduce_mean": lambda: graph(
        [helper.make_node("ReduceMean", ["x"], ["y"], name="mean", axes=[1], keepdims=0)],
        [vi("x", F, [2, 5])], [vi("y", F, [2])]),
    "softmax": lambda: graph(
        [helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=-1)],
        [vi("x", F, [2, 5])], [vi("y", F, [2, 5])]),
    "gemm": lambda: graph(
        [helper.make_node("Gemm", ["a", "w", "c"], ["y"], name="gemm", transB=1, alpha=2.0)],
        [vi("a", F, [3, 4])], [vi("y", F, [3, 5])],
        [const("w", np.arange(20, dtype=np.float32).reshape(5, 4)), const("c", np.zeros(5, np.float32))]),
    "conv": lambda: graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])],
        [vi("x", F, [1, 2, 5, 5])], [vi("y", F, [1, 3, 5, 5])],
        [const("w", np.ones((3, 2, 3, 3), np.float32))]),
    "maxpool": lambda: graph(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], strides=[2, 2])],
        [vi("x", F, [1, 1, 4, 4])], [vi("y", F, [1, 1, 2, 2])]),
    # x.view(x.shape[0], -1) as torch exports it: folded at import.
    "shape_subgraph": lambda: graph(
        [helper.make_node("Shape", ["x"], ["s"], name="shape"),
         helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
         helper.make_node("Unsqueeze", ["n", "axes"], ["n1"], name="unsq"),
         helper.make_node("Concat", ["n1", "minus1"], ["newshape"], name="cat", axis=0),
         helper.make_node("Reshape", ["x", "newshape"], ["y"], name="view")],
        [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 12])],
        [const("zero", np.array(0, np.int64)), const("axes", np.array([0], np.int64)),
         const("minus1", np.array([-1], np.int64))]),
    "slice_concat": lambda: graph(
        [helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["s"], name="slice"),
         helper.make_node("Concat", ["s", "s"], ["y"], name="cat", axis=1)],
        [vi("x", F, [2, 6])], [vi("y", F, [2, 6])],
        [const("st", np.array([0], np.int64)), const("en", np.array([6], np.int64)),
         const("ax", np.array([1], np.int64)), const("sp", np.array([2], np.int64))]),
    "cast_int64": lambda: graph(
        [helper.make_node("Cast", ["x"], ["y"], name="cast", to=I64)],
        [vi("x", F, [3])], [vi("y", I64, [3])]),
    "mlp": mlp,
    "linear_mlp": linear_mlp,
    "unknown_op": lambda: graph(
        [helper.make_node("NonMaxSuppression", ["b", "s"], ["y"], name="nms")],
        [vi("b", F, [1, 4, 4]), vi("s", F, [1, 1, 4])], [vi("y", I64, [3, 3])]),
    "dynamic_batch": lambda: graph(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")],
        [vi("x", F, ["N", 4])], [vi("y", F, ["N", 4])]),
    # Axes out of range or repeated (issue 33, found by fuzz_onnx_importer:
    # the lowering indexed the shape with them unchecked).
    "softmax_axis": lambda: graph(
        [helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=3)],
        [vi("x", F, [3, 4, 5])], [vi("y", F, [3, 4, 5])]),
    "unsqueeze_twice": lambda: graph(
        [helper.make_node("Unsqueeze", ["x", "a"], ["y"], name="unsq")],
        [vi("x", F, [3])], [vi("y", F, [1, 1, 3])], [const("a", np.array([0, 0], dtype=np.int64))]),
    "slice_lengths": lambda: graph(
        [helper.make_node("Slice", ["x", "s", "e", "a"], ["y"], name="slice")],
        [vi("x", F, [4, 4])], [vi("y", F, [2, 4])],
        [const("s", np.array([0, 0], dtype=np.int64)), const("e", np.array([2], dtype=np.int64)),
         const("a", np.array([0, 1], dtype=np.int64))]),
    # ConvTranspose (torch's nn.ConvTranspose2d): an initializer weight
    # [C=2, O=3, 2, 2] stored as the Conv weight [3, 2, 2, 2], window flipped.
    "conv_transpose": lambda: graph(
        [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], name="up", strides=[2, 2])],
        [vi("x", F, [1, 2, 3, 3])], [vi("y", F, [1, 3, 6, 6])],
        [const("w", np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2)),
         const("b", np.zeros(3, np.float32))]),
    # A weight given at run time (flipped on the device), pads larger than
    # the window (the input cropped), group 2.
    "conv_transpose_runtime_weight": lambda: graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", pads=[2, 2, 2, 2], group=2)],
        [vi("x", F, [1, 2, 4, 4]), vi("w", F, [2, 1, 2, 2])], [vi("y", F, [1, 2, 1, 1])]),
    "conv_transpose_3d": lambda: graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up3")],
        [vi("x", F, [1, 1, 2, 2, 2])], [vi("y", F, [1, 1, 3, 3, 3])],
        [const("w", np.ones((1, 1, 2, 2, 2), np.float32))]),
    "conv_transpose_channels": lambda: graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up")],
        [vi("x", F, [1, 2, 3, 3])], [vi("y", F, [1, 1, 4, 4])],
        [const("w", np.ones((3, 1, 2, 2), np.float32))]),
    "conv_transpose_kernel_shape": lambda: graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", kernel_shape=[3, 3])],
        [vi("x", F, [1, 1, 3, 3])], [vi("y", F, [1, 1, 5, 5])],
        [const("w", np.ones((1, 1, 2, 2), np.float32))]),
    "conv_transpose_strides": lambda: graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", strides=[2, 2, 2])],
        [vi("x", F, [1, 1, 3, 3])], [vi("y", F, [1, 1, 4, 4])],
        [const("w", np.ones((1, 1, 2, 2), np.float32))]),
    # torch's causal mask: `tril(ones) == 0` folds to a BOOL constant whose
    # elements differ; the runtime stores no i1 buffers.
    "where_mask": lambda: graph(
        [helper.make_node("Where", ["mask", "ninf", "x"], ["y"], name="masked_fill"),
         helper.make_node("Not", ["mask"], ["keep"], name="keep")],
        [vi("x", F, [2, 2, 2])], [vi("y", F, [2, 2, 2]), vi("keep", TensorProto.BOOL, [2, 2])],
        [const("mask", np.array([[False, True], [False, False]])),
         const("ninf", np.array(-np.inf, np.float32))]),
    # Pad (reflect, edge, negative pads) and its refusals.
    "pad_reflect": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad", mode="reflect")],
        [vi("x", F, [2, 3])], [vi("y", F, [2, 8])],
        [const("p", np.array([0, 4, 0, 1], np.int64))]),
    "pad_edge": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad", mode="edge")],
        [vi("x", F, [2, 3])], [vi("y", F, [3, 5])],
        [const("p", np.array([1, 0, 0, 2], np.int64))]),
    "pad_negative": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad")],
        [vi("x", F, [3, 4])], [vi("y", F, [3, 2])],
        [const("p", np.array([-1, 0, 1, -2], np.int64))]),
    "pad_bad_mode": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad", mode="wrap")],
        [vi("x", F, [2, 3])], [vi("y", F, [2, 5])],
        [const("p", np.array([0, 1, 0, 1], np.int64))]),
    "pad_lengths": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad", mode="edge")],
        [vi("x", F, [2, 3])], [vi("y", F, [2, 5])],
        [const("p", np.array([0, 1, 1], np.int64))]),
    "pad_reflect_single": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad", mode="reflect")],
        [vi("x", F, [1, 3])], [vi("y", F, [3, 3])],
        [const("p", np.array([1, 0, 1, 0], np.int64))]),
    "pad_crop_all": lambda: graph(
        [helper.make_node("Pad", ["x", "p"], ["y"], name="pad")],
        [vi("x", F, [2, 3])], [vi("y", F, [2, 0])],
        [const("p", np.array([0, -2, 0, -1], np.int64))]),
    # Pools: dilations (max by doubling), 3-D (two separable 2-D pools).
    "maxpool_dilated": lambda: graph(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[3, 2], dilations=[2, 3],
                          strides=[2, 1], pads=[1, 0, 1, 0])],
        [vi("x", F, [1, 2, 8, 7])], [vi("y", F, [1, 2, 3, 4])]),
    "maxpool_3d": lambda: graph(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2, 2], strides=[2, 2, 2])],
        [vi("x", F, [1, 2, 4, 4, 4])], [vi("y", F, [1, 2, 2, 2, 2])]),
    "avgpool_3d": lambda: graph(
        [helper.make_node("AveragePool", ["x"], ["y"], name="pool", kernel_shape=[3, 3, 3],
                          pads=[1, 1, 1, 1, 1, 1], strides=[1, 2, 2])],
        [vi("x", F, [1, 2, 3, 4, 4])], [vi("y", F, [1, 2, 3, 2, 2])]),
    "pool_pads": lambda: graph(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], pads=[1, 1, 1])],
        [vi("x", F, [1, 1, 4, 4])], [vi("y", F, [1, 1, 4, 4])]),
    "pool_4d": lambda: graph(
        [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2, 2, 2])],
        [vi("x", F, [1, 1, 2, 2, 2, 2])], [vi("y", F, [1, 1, 1, 1, 1, 1])]),
    # Conv over [N, C, D, H, W]: 2-D convolutions summed over the depth taps.
    "conv3d": lambda: graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv3", pads=[1, 1, 1, 1, 1, 1],
                          strides=[2, 1, 1])],
        [vi("x", F, [1, 2, 3, 4, 4])], [vi("y", F, [1, 3, 2, 4, 4])],
        [const("w", np.ones((3, 2, 2, 3, 3), np.float32)), const("b", np.arange(3, dtype=np.float32))]),
    "conv3d_kernel_shape": lambda: graph(
        [helper.make_node("Conv", ["x", "w"], ["y"], name="conv3", kernel_shape=[3, 3, 3])],
        [vi("x", F, [1, 1, 3, 3, 3])], [vi("y", F, [1, 1, 1, 1, 1])],
        [const("w", np.ones((1, 1, 2, 2, 2), np.float32))]),
    # GatherElements (indices given at run time) and CumSum.
    "gather_elements": lambda: graph(
        [helper.make_node("GatherElements", ["x", "i"], ["y"], name="ge", axis=1)],
        [vi("x", F, [2, 3]), vi("i", I64, [2, 2])], [vi("y", F, [2, 2])]),
    "gather_elements_rank": lambda: graph(
        [helper.make_node("GatherElements", ["x", "i"], ["y"], name="ge", axis=0)],
        [vi("x", F, [2, 3]), vi("i", I64, [2])], [vi("y", F, [2])]),
    "cumsum": lambda: graph(
        [helper.make_node("CumSum", ["x", "a"], ["y"], name="cs", exclusive=1, reverse=1)],
        [vi("x", F, [2, 5])], [vi("y", F, [2, 5])], [const("a", np.array(1, np.int64))]),
    "cumsum_axes": lambda: graph(
        [helper.make_node("CumSum", ["x", "a"], ["y"], name="cs")],
        [vi("x", F, [2, 5])], [vi("y", F, [2, 5])], [const("a", np.array([0, 1], np.int64))]),
    "runtime_shape": lambda: graph(
        [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
        [vi("x", F, [2, 3]), vi("s", I64, [2])], [vi("y", F, [3, 2])]),
}


# External data (issue 33): an initializer `w` of 4 floats stored in a file
# next to the model, as torch.onnx.export writes models over 2 GiB. The
# entries are ONNX's external_data keys; `data` is what the file holds.
EXTERNAL = {
    "external_ok": ({"location": "w.bin"}, np.arange(4, dtype=np.float32).tobytes()),
    "external_outside": ({"location": "../w.bin"}, None),
    "external_absolute": ({"location": "/dev/zero"}, None),
    "external_missing": ({"location": "absent.bin"}, None),
    "external_short": ({"location": "w.bin"}, b"\0" * 8),
    "external_past_end": ({"location": "w.bin", "offset": "8"}, b"\0" * 16),
    "external_bad_offset": ({"location": "w.bin", "offset": "-4"}, b"\0" * 16),
}


def external(name, out):
    entries, data = EXTERNAL[name]
    w = onnx.TensorProto(name="w", data_type=F, dims=[4], data_location=TensorProto.EXTERNAL)
    for key, value in entries.items():
        w.external_data.add(key=key, value=value)
    model = graph([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                  [vi("x", F, [4])], [vi("y", F, [4])], [w])
    if data is not None:
        import os
        with open(os.path.join(os.path.dirname(os.path.abspath(out)), entries["location"]), "wb") as f:
            f.write(data)
    # Not through onnx.checker or onnx.save: both would read the data.
    open(out, "wb").write(model.SerializeToString())


# Models onnx.checker passes or refuses only in part; meshvk must refuse them itself.
UNCHECKED = {"softmax_axis", "unsqueeze_twice", "slice_lengths", "conv_transpose_channels",
             "conv_transpose_kernel_shape", "conv_transpose_strides", "pad_bad_mode", "pad_lengths",
             "pad_reflect_single", "pad_crop_all", "pool_pads", "pool_4d",
             "conv3d_kernel_shape", "gather_elements_rank", "cumsum_axes"}


def main():
    name, out = sys.argv[1], sys.argv[2]
    if name in EXTERNAL:
        external(name, out)
        return
    if name == "truncated":
        data = MODELS["mlp"]().SerializeToString()
        open(out, "wb").write(data[: len(data) // 2])
        return
    model = MODELS[name]()
    if name not in UNCHECKED:
        onnx.checker.check_model(model)
    onnx.save(model, out)


if __name__ == "__main__":
    main()
