"""meshvk: compile and run sharded tensor programs on several Vulkan devices from numpy.

    import numpy as np, meshvk
    prog = meshvk.compile("samples/programs/mlp_megatron.mlir")   # or MLIR text
    rt = meshvk.Runtime(devices=4, topology="auto")
    y = rt.load(prog)(x, w1, w2)            # or rt.load(prog)["main"](...) with several functions

See samples/python/README.md for the whole API.
"""

from ._errors import *  # noqa: F401,F403  (the Error hierarchy)
from ._errors import __all__ as _error_names
from ._loaded import Function, LoadedProgram
from ._meshvk import DeviceTensor, device_groups, devices
from ._program import Program, compile
from ._runtime import Runtime, Shard, ShardedTensor

__version__ = "1.0.0"

__all__ = ["compile", "Program", "Runtime", "LoadedProgram", "Function", "Shard", "ShardedTensor",
           "DeviceTensor", "devices", "device_groups"] + list(_error_names)
