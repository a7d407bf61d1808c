#!/usr/bin/env python3
"""ResNet-18, MobileNet-v2, SqueezeNet-1.1 (torchvision, random weights): torch.onnx.export, mesh-vk-run, Python.

For each model and each POLICY:DEVICES (default none:1 data:4 tensor:4):
max abs error vs torch from mesh-vk-run and from meshvk.compile, parameter
and peak bytes per device (mesh-vk-run --print-plan), the median wall time of
a call (weights resident) from both, and torch's CPU time on the same input.

    PYTHONPATH=build/python /usr/bin/python3 samples/models/vision.py [--models ...] [--configs tensor:2 ...]
"""
import common

if __name__ == "__main__":
    common.main(["resnet18", "mobilenet_v2", "squeezenet1_1"], __doc__.splitlines()[0])
