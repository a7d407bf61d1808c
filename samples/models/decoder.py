#!/usr/bin/env python3
"""A GPT-2-style decoder (int64 token ids, causal mask, LM head): torch.onnx.export, then mesh-vk-run and Python.

For each model and each POLICY:DEVICES (default none:1 data:4 tensor:4):
max abs error vs torch from mesh-vk-run and from meshvk.compile, parameter
and peak bytes per device (mesh-vk-run --print-plan), the median wall time of
a call (weights resident) from both, and torch's CPU time on the same input.

    PYTHONPATH=build/python /usr/bin/python3 samples/models/decoder.py [--models ...] [--configs tensor:2 ...]
"""
import common

if __name__ == "__main__":
    common.main(["gpt"], __doc__.splitlines()[0])
