#!/usr/bin/env python3
"""Greedy decoding of the GPT-2-style decoder on the devices, against torch's greedy tokens.

    PYTHONPATH=build/python /usr/bin/python3 samples/models/generate.py [--configs none:1 tensor:4] [--tokens 32]

The decoder is zoo.GPT (random weights, torch.manual_seed(0)) with a context
of 40. Two programs are exported from the same weights:

* the step model (KV cache): one token per call. Inputs: the token ids
  (B, 1) int64, the position as a one-hot row (B, C) and the causal mask as an
  additive row (B, C) (0 up to the position, -1e9 after), and the key and
  value caches (B, depth, heads, C, head_dim) of every position so far. It
  writes this token's keys/values into the caches at the position (an
  elementwise select with the one-hot row: fixed shapes, one compiled
  program for every step), attends over the cache, and returns the greedy
  next ids (ArgMax, (B, 1)) and the two caches. The loop calls it with
  keep_on_device=True and passes the returned DeviceTensors back in: the
  caches and the next ids never leave the devices between steps (the ids
  are read back only to print them; the one-hot and mask rows, 2 x B x C
  floats, are the only host data a step sends). The prompt is fed through the
  same program one token at a time. For comparison the same loop also runs
  with the caches read back to numpy and sent again each step ("kv cache via
  host").
* the full model (no cache): the whole context re-run each step, ids padded
  to (B, C), the logits of the last real position read back and argmax'ed on
  the host. Padding after the position does not change the logits before it
  (the attention is causal), so its tokens are the same; it is the baseline
  of the tokens/s comparison.

Both are compared with torch's greedy decode of the same module (the full
forward on the growing sequence, no cache: an oracle independent of the step
model), token by token. Prints tokens/s of each loop per POLICY:DEVICES; exit
1 when any token differs.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import zoo  # noqa: E402

BATCH, CONTEXT, PROMPT, VOCAB = 4, 40, 8, 128


class Step(nn.Module):
    """One decode step of `gpt` (the same modules and weights) over a KV cache."""

    def __init__(self, gpt):
        super().__init__()
        self.gpt = gpt

    def forward(self, ids, onehot, mask, k_cache, v_cache):
        g = self.gpt
        b = ids.shape[0]
        x = g.wte(ids) + (onehot @ g.wpe.weight).unsqueeze(1)  # (B, 1, dim)
        at = onehot.view(b, 1, -1, 1)                             # the position, over (B, H, C, hd)
        keys, values = [], []
        for layer, block in enumerate(g.blocks):
            c, h = x.shape[2], block.heads
            q, k, v = block.qkv(block.ln1(x)).split(c, dim=2)
            q, k, v = (z.view(b, 1, h, c // h).transpose(1, 2) for z in (q, k, v))  # (B, H, 1, hd)
            k_all = k_cache[:, layer] * (1 - at) + k * at                           # (B, H, C, hd)
            v_all = v_cache[:, layer] * (1 - at) + v * at
            att = (q @ k_all.transpose(-2, -1)) * (1.0 / (c // h) ** 0.5) + mask.view(b, 1, 1, -1)
            y = (att.softmax(-1) @ v_all).transpose(1, 2).reshape(b, 1, c)
            x = x + block.proj(y)
            x = x + block.out(F.gelu(block.fc(block.ln2(x))))
            keys.append(k_all)
            values.append(v_all)
        logits = g.head(g.ln(x))  # (B, 1, vocab)
        return logits.argmax(-1), torch.stack(keys, 1), torch.stack(values, 1)


def build():
    torch.manual_seed(0)
    gpt = zoo.GPT(vocab=VOCAB, context=CONTEXT).eval()
    prompt = torch.randint(0, VOCAB, (BATCH, PROMPT))
    return gpt, prompt


def cache_shape(gpt):
    block = gpt.blocks[0]
    dim = block.qkv.in_features
    return (BATCH, len(gpt.blocks), block.heads, CONTEXT, dim // block.heads)


def export(gpt, directory):
    """(step.onnx, full.onnx) of the same weights."""
    step_path, full_path = os.path.join(directory, "gpt_step.onnx"), os.path.join(directory, "gpt_full.onnx")
    zeros = torch.zeros(cache_shape(gpt))
    example = (torch.zeros(BATCH, 1, dtype=torch.long), torch.zeros(BATCH, CONTEXT), torch.zeros(BATCH, CONTEXT),
               zeros, zeros)
    torch.onnx.export(Step(gpt).eval(), example, step_path, opset_version=17,
                      input_names=["ids", "onehot", "mask", "k_cache", "v_cache"],
                      output_names=["next_ids", "k_out", "v_out"])
    torch.onnx.export(gpt, torch.zeros(BATCH, CONTEXT, dtype=torch.long), full_path, opset_version=17,
                      input_names=["ids"], output_names=["logits"])
    return step_path, full_path


def torch_greedy(gpt, prompt, tokens):
    """torch's greedy tokens: the full forward on the growing sequence."""
    seq = prompt
    with torch.no_grad():
        for _ in range(tokens):
            seq = torch.cat([seq, gpt(seq)[:, -1].argmax(-1, keepdim=True)], 1)
    return seq[:, PROMPT:].numpy()


def position_rows(t):
    """The one-hot row of position t and the additive causal mask up to it."""
    onehot = np.zeros((BATCH, CONTEXT), np.float32)
    onehot[:, t] = 1
    mask = np.full((BATCH, CONTEXT), -1e9, np.float32)
    mask[:, :t + 1] = 0
    return onehot, mask


def generate_cached(fn, prompt, tokens, shape, on_device=True):
    """The KV-cache loop: DeviceTensors fed back (or, on_device=False, the
    caches read back and sent again each step). (tokens, seconds)."""
    k = v = np.zeros(shape, np.float32)
    ids, out = prompt[:, :1], []
    # Untimed: two steps (host arrays in, then the returned tensors in), so
    # first-call costs (pipelines, recordings) stay out of tokens/s.
    warm = fn(ids, *position_rows(0), k, v, keep_on_device=on_device)
    fn(ids, *position_rows(0), warm[1], warm[2], keep_on_device=on_device)
    del warm
    start = time.perf_counter()
    for t in range(PROMPT + tokens - 1):
        onehot, mask = position_rows(t)
        next_ids, k, v = fn(ids, onehot, mask, k, v, keep_on_device=on_device)
        if t + 1 < PROMPT:
            ids = prompt[:, t + 1:t + 2]  # still the prompt: its next token is given
        else:
            ids = next_ids  # on_device: stays on the devices
            out.append(next_ids.numpy() if on_device else next_ids)
    seconds = time.perf_counter() - start
    return np.concatenate(out, 1), seconds


def generate_full(fn, prompt, tokens):
    """The full-context re-run: padded ids up, the last real position's logits back."""
    seq = np.zeros((BATCH, CONTEXT), np.int64)
    seq[:, :PROMPT] = prompt
    fn(seq)  # untimed: first-call costs
    start = time.perf_counter()
    for t in range(PROMPT, PROMPT + tokens):
        seq[:, t] = fn(seq)[:, t - 1].argmax(-1)
    return seq[:, PROMPT:PROMPT + tokens], time.perf_counter() - start


def in_place(signature, outputs, inputs):
    """Whether each returned DeviceTensor has its argument's sharding (then the
    runtime uses it in place; else it reads it back and sends it again)."""
    arguments = {a["name"]: a for a in signature["arguments"]}
    results = {r["name"]: r for r in signature["results"]}
    return all(results[o]["split_axes"] == arguments[i]["split_axes"] for o, i in zip(outputs, inputs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", nargs="+", default=["none:1", "tensor:4"], help="POLICY:DEVICES pairs")
    parser.add_argument("--tokens", type=int, default=32, help="tokens to generate (at most %d)" % (CONTEXT - PROMPT))
    parser.add_argument("--no-full", action="store_true", help="skip the full-context re-run loop")
    parser.add_argument("--work", default=None, help="where the .onnx files go (default: a temp dir)")
    parser.add_argument("--topology", default="logical", choices=["logical", "group"],
                        help="logical devices (default) or a device group (e.g. the emulation layer's)")
    parser.add_argument("--validation", action="store_true",
                        help="Khronos validation with synchronization checks; any message fails the run")
    args = parser.parse_args()
    if not 1 <= args.tokens <= CONTEXT - PROMPT:
        parser.error(f"--tokens: 1 to {CONTEXT - PROMPT} (the context is {CONTEXT}, the prompt {PROMPT})")
    import meshvk
    work = args.work or tempfile.mkdtemp(prefix="meshvk-generate-")
    os.makedirs(work, exist_ok=True)
    gpt, prompt = build()
    step_path, full_path = export(gpt, work)
    start = time.perf_counter()
    want = torch_greedy(gpt, prompt, args.tokens)
    torch_seconds = time.perf_counter() - start
    print(f"torch CPU greedy (full forward per token): {BATCH * args.tokens / torch_seconds:.1f} tokens/s")
    prompt = prompt.numpy()  # int64, as torch takes it
    failed = False
    for config in args.configs:
        policy, devices = config.split(":")
        devices = int(devices)
        loops = [("kv cache", step_path), ("kv cache via host", step_path)] + \
            ([] if args.no_full else [("full re-run", full_path)])
        for label, path in loops:
            program = meshvk.compile(path, shard=policy, grid_shape=devices)
            with meshvk.Runtime(devices=devices if args.topology == "logical" else list(range(devices)),
                                topology=args.topology,
                                validation="sync" if args.validation else None) as rt:
                if rt.topology != args.topology:
                    sys.exit(f"--topology={args.topology}: the runtime has a {rt.topology} topology")
                fn = rt.load(program)["main"]
                if label == "kv cache":
                    got, seconds = generate_cached(fn, prompt, args.tokens, cache_shape(gpt))
                    note = " (caches used in place)" if in_place(fn.signature, ["k_out", "v_out"],
                                                                 ["k_cache", "v_cache"]) else \
                        " (caches resharded: read back between steps)"
                elif label == "kv cache via host":
                    got, seconds = generate_cached(fn, prompt, args.tokens, cache_shape(gpt), on_device=False)
                    note = " (caches read back and sent each step)"
                else:
                    got, seconds = generate_full(fn, prompt, args.tokens)
                    note = ""
                messages = rt.validation_messages if args.validation else []
            same = np.array_equal(got, want)
            failed |= not same or bool(messages)
            if messages:
                print(f"--shard={policy} --devices={devices} {label}: validation messages:\n" + "\n".join(messages))
            steps = args.tokens if label == "full re-run" else PROMPT + args.tokens - 1
            print(f"--shard={policy} --devices={devices} {label}: {BATCH * args.tokens / seconds:.1f} tokens/s "
                  f"({steps} calls, {1e3 * seconds / steps:.1f} ms a call){note}: "
                  + ("tokens equal torch's" if same else
                     f"TOKENS DIFFER: first at {np.argwhere(got != want)[0].tolist()}, got\n{got}\nwant\n{want}"))
            sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
