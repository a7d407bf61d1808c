"""Writes one tiny transformer-shaped ONNX model for the sharding policy's lit tests.

usage: make_shard_model.py NAME OUT.onnx  (NAME: one of MODELS below)
The graphs are the ones torch.onnx.export writes for a GPT-2 block at opset
17 (samples/models/zoo.py), made small with onnx.helper: a fused QKV MatMul +
bias Add + Split, head Reshapes and Transposes, the attention MatMuls,
Softmax, the output projection, a GELU-free MLP, and token/position
embeddings (Gather from initializers).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64
B, T = 2, 4


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def weights(rng, name, shape):
    return const(name, rng.standard_normal(shape).astype(np.float32))


def attention_block(heads, head_dim, fused=True):
    """x [B, T, C] -> attention (+ residual) -> MLP (+ residual), C = heads * head_dim."""
    c = heads * head_dim
    rng = np.random.default_rng(0)
    inits, nodes = [], []
    if fused:
        inits += [weights(rng, "wqkv", (c, 3 * c)), weights(rng, "bqkv", (3 * c,)),
                  const("split_sizes", np.array([c, c, c], np.int64))]
        nodes += [helper.make_node("MatMul", ["x", "wqkv"], ["qkv_mm"], name="qkv"),
                  helper.make_node("Add", ["bqkv", "qkv_mm"], ["qkv"], name="qkv_bias"),
                  helper.make_node("Split", ["qkv", "split_sizes"], ["q", "k", "v"], name="split", axis=2)]
    else:
        for z in "qkv":
            inits += [weights(rng, "w" + z, (c, c)), weights(rng, "b" + z, (c,))]
            nodes += [helper.make_node("MatMul", ["x", "w" + z], [z + "_mm"], name=z + "_proj"),
                      helper.make_node("Add", [z + "_mm", "b" + z], [z], name=z + "_bias")]
    inits += [const("heads_shape", np.array([B, T, heads, head_dim], np.int64)),
              const("merged_shape", np.array([B, T, c], np.int64)),
              const("scale", np.array(1.0 / np.sqrt(head_dim), np.float32)),
              weights(rng, "wo", (c, c)), weights(rng, "bo", (c,)),
              weights(rng, "wfc", (c, 4 * c)), weights(rng, "bfc", (4 * c,)),
              weights(rng, "wout", (4 * c, c)), weights(rng, "bout", (c,))]
    for z in "qkv":
        nodes.append(helper.make_node("Reshape", [z, "heads_shape"], [z + "_h"], name=z + "_heads"))
    nodes += [helper.make_node("Transpose", ["q_h"], ["qt"], perm=[0, 2, 1, 3], name="q_t"),
              helper.make_node("Transpose", ["k_h"], ["kt"], perm=[0, 2, 3, 1], name="k_t"),
              helper.make_node("Transpose", ["v_h"], ["vt"], perm=[0, 2, 1, 3], name="v_t"),
              helper.make_node("MatMul", ["qt", "kt"], ["scores"], name="scores"),
              helper.make_node("Mul", ["scores", "scale"], ["scaled"], name="scaled"),
              helper.make_node("Softmax", ["scaled"], ["att"], axis=-1, name="softmax"),
              helper.make_node("MatMul", ["att", "vt"], ["ctx"], name="context"),
              helper.make_node("Transpose", ["ctx"], ["ctx_t"], perm=[0, 2, 1, 3], name="ctx_t"),
              helper.make_node("Reshape", ["ctx_t", "merged_shape"], ["merged"], name="merge"),
              helper.make_node("MatMul", ["merged", "wo"], ["o_mm"], name="out_proj"),
              helper.make_node("Add", ["bo", "o_mm"], ["o"], name="out_bias"),
              helper.make_node("Add", ["x", "o"], ["h"], name="residual1"),
              helper.make_node("MatMul", ["h", "wfc"], ["fc_mm"], name="fc"),
              helper.make_node("Add", ["bfc", "fc_mm"], ["fc"], name="fc_bias"),
              helper.make_node("Relu", ["fc"], ["act"], name="act"),
              helper.make_node("MatMul", ["act", "wout"], ["mlp_mm"], name="mlp_out"),
              helper.make_node("Add", ["bout", "mlp_mm"], ["mlp"], name="mlp_bias"),
              helper.make_node("Add", ["h", "mlp"], ["y"], name="residual2")]
    g = helper.make_graph(nodes, "block", [helper.make_tensor_value_info("x", F, [B, T, c])],
                          [helper.make_tensor_value_info("y", F, [B, T, c])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def embedding():
    """ids [B, T] (int64) -> token + position embeddings -> LayerNorm -> LM head."""
    rng = np.random.default_rng(1)
    vocab, hidden = 32, 16
    inits = [weights(rng, "wte", (vocab, hidden)), weights(rng, "wpe", (T, hidden)),
             const("positions", np.arange(T, dtype=np.int64).reshape(1, T)),
             const("ln_w", np.ones(hidden, np.float32)), const("ln_b", np.zeros(hidden, np.float32)),
             weights(rng, "head", (hidden, vocab))]
    nodes = [helper.make_node("Gather", ["wte", "ids"], ["tok"], name="wte"),
             helper.make_node("Gather", ["wpe", "positions"], ["pos"], name="wpe"),
             helper.make_node("Add", ["tok", "pos"], ["emb"], name="embed"),
             helper.make_node("LayerNormalization", ["emb", "ln_w", "ln_b"], ["norm"], axis=-1, name="ln"),
             helper.make_node("MatMul", ["norm", "head"], ["y"], name="lm_head")]
    g = helper.make_graph(nodes, "embed", [helper.make_tensor_value_info("ids", I64, [B, T])],
                          [helper.make_tensor_value_info("y", F, [B, T, vocab])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


MODELS = {
    "attention": lambda: attention_block(heads=4, head_dim=4),
    "attention_3_heads": lambda: attention_block(heads=3, head_dim=4),
    "attention_separate": lambda: attention_block(heads=4, head_dim=4, fused=False),
    "embedding": embedding,
}


def main():
    name, out = sys.argv[1], sys.argv[2]
    model = MODELS[name]()
    onnx.checker.check_model(model)
    onnx.save(model, out)


if __name__ == "__main__":
    main()
