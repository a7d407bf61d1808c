"""meshvk.Runtime and the sharded results a function can return."""

import os
from typing import NamedTuple, Tuple

import numpy as np

from . import _errors
from . import _meshvk
from ._program import Program, compile


class Runtime(_meshvk.Runtime):
    """A Vulkan instance and the devices programs run on.

    devices: None (each program runs on as many processes as its grid has),
        an int N (N processes; a program compiled here for another 1-D grid is
        recompiled for N, as mesh-vk-run --devices=N does), or a list of device
        indices, one per process (physical devices; indices inside the group
        when group= is given or topology="group").
    topology: "auto" (a device group covering the chosen devices, else
        independent VkDevices when 2+ physical devices are chosen or exist, else
        logical devices), "group", "logical" or "independent".
    group: the device group to use (implies topology="group").
    validation: None (env MESHVK_VALIDATION decides), False, True or "sync";
        messages are collected in validation_messages.
    Close it with close() or a `with` block; programs loaded on it close too.
    """

    def __init__(self, devices=None, topology="auto", group=None, validation=None):
        super().__init__(devices, topology, group, validation)

    def load(self, program):
        """Instantiates a Program (or a .mvk / .mlir path) on the devices.

        Returns a LoadedProgram; index it by function name: rt.load(p)["main"].
        """
        if isinstance(program, (str, os.PathLike)):
            path = os.fspath(program)
            program = compile(path) if path.endswith((".mlir", ".onnx")) else Program.load(path)
        if not isinstance(program, Program):
            raise _errors.InvalidArgumentError(
                "load: a meshvk.Program or a .mvk/.mlir/.onnx path is expected, got %s" % type(program).__name__)
        n = self.process_count
        if program.process_counts:  # a dynamic grid: the plan for this runtime's devices
            if not n:
                raise _errors.InvalidArgumentError(
                    "%s: a dynamic grid with plans for %s processes: create the Runtime with devices=N"
                    % (program.name, ", ".join(map(str, program.process_counts))))
            program = program.for_process_count(n)
        if n and program.process_count != n and program.recompilable and len(program.grid_shape) == 1:
            try:
                program = program.for_grid((n,))
            except _errors.CompileError as e:
                raise _errors.CompileError("devices=%d: %s" % (n, e)) from None
        return self._load(program._artifact)

    def __repr__(self):
        return "<meshvk.Runtime devices=%s topology=%s%s>" % (
            self.process_count, self.topology, " closed" if self.closed else "")


class Shard(NamedTuple):
    """One process's part of a result: array == full_result[index]."""
    process: int
    global_offset: Tuple[int, ...]
    array: np.ndarray

    @property
    def index(self):
        """The slices of the global tensor this shard holds."""
        return tuple(slice(o, o + s) for o, s in zip(self.global_offset, self.array.shape))


class ShardedTensor:
    """A result left sharded (keep_sharded=True): per-process arrays + the sharding.

    split_axes[d] lists the grid axes dimension d is split over ([] = not split);
    a replicated tensor has one full shard per process.
    """

    def __init__(self, shape, dtype, split_axes, shards):
        self.shape = tuple(shape)
        self.dtype = np.dtype({"f32": np.float32, "f16": np.float16, "i32": np.int32}[dtype])
        self.split_axes = [list(a) for a in split_axes]
        self.shards = list(shards)

    def assemble(self):
        """The global tensor (a new array) put together from the shards."""
        out = np.empty(self.shape, self.dtype)
        for shard in self.shards:
            out[shard.index] = shard.array
        return out

    def __len__(self):
        return len(self.shards)

    def __iter__(self):
        return iter(self.shards)

    def __getitem__(self, i):
        return self.shards[i]

    def __repr__(self):
        return "<meshvk.ShardedTensor %s %s split_axes=%s, %d shards>" % (
            "x".join(map(str, self.shape)), self.dtype, self.split_axes, len(self.shards))
