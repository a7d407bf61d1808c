"""meshvk.Runtime and the sharded results a function can return."""

import atexit
import os
from typing import NamedTuple, Tuple

import numpy as np

from . import _errors
from . import _meshvk
from ._loaded import LoadedProgram
from ._program import Program, compile


# MPI, when a Runtime over ranks started it, ends once at exit (after those
# runtimes close): mpirun counts a rank that exits without MPI_Finalize as failed.
atexit.register(_meshvk._end_ranks)


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
    ranks: None (over the ranks of an MPI job when mpirun or another MPI
        launcher started this process among 2 or more), True (over MPI) or
        False (this process alone). Over ranks, every rank creates the same
        Runtime and loads and calls the same program with the same arguments;
        each rank runs the grid processes laid on it, bytes between ranks go
        through MPI, and every rank gets the whole results.
    rank_axes: the grid axes laid over the ranks (None: the outermost axes
        whose sizes multiply to the rank count), as mesh-vk-run --rank-axes.
    Close it with close() or a `with` block; programs loaded on it close too.
    """

    def __init__(self, devices=None, topology="auto", group=None, validation=None, ranks=None, rank_axes=None):
        if ranks is not None and not isinstance(ranks, bool):
            raise _errors.InvalidArgumentError("ranks: None, True or False is expected, got %s" % _type_name(ranks))
        if rank_axes is not None:
            if isinstance(rank_axes, (str, bytes, dict)) or not hasattr(rank_axes, "__iter__") or not all(
                    isinstance(a, (int, np.integer)) and not isinstance(a, bool) and a >= 0 for a in rank_axes):
                raise _errors.InvalidArgumentError("rank_axes: a list of grid axes (ints >= 0) is expected, got %r"
                                                   % (rank_axes,))
            rank_axes = [int(a) for a in rank_axes]
        super().__init__(_devices_argument(devices), _checked("topology", topology, str, "a name"),
                         _checked("group", group, int, "None or a group index"),
                         _validation_argument(validation), ranks, rank_axes)
        self._open_devices()  # devices=N or a list: a device that is not there fails here, not at load

    @property
    def topology(self):
        """The topology chosen: what "auto" resolved to ("group", "logical" or
        "independent"); with devices=None, that of the last program loaded (None
        before the first). requested_topology is the one asked for."""
        return super().topology

    def load(self, program):
        """Instantiates a Program (or a .mvk / .mlir path) on the devices.

        Returns a LoadedProgram; index it by function name: rt.load(p)["main"],
        or call it when it has one function: rt.load(p)(x, w).
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
        return LoadedProgram(self._load(program._artifact), program)

    def __repr__(self):
        ranks = " rank %d of %d" % (self.rank, self.rank_count) if self.rank_count > 1 else ""
        return "<meshvk.Runtime devices=%s topology=%s%s%s>" % (
            self.process_count, self.topology or self.requested_topology, ranks, " closed" if self.closed else "")


def _type_name(value):
    return type(value).__name__


def _checked(name, value, kind, expected):
    """`value` when it is a `kind` (None allowed for every parameter but topology)."""
    if (value is None and name != "topology") or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise _errors.InvalidArgumentError("%s: %s is expected, got %s" % (name, expected, _type_name(value)))


def _devices_argument(devices):
    """None, an int or an iterable of device indices (a list, tuple, range or array)."""
    expected = "None, a process count or a list of device indices"
    if devices is None or (isinstance(devices, (int, np.integer)) and not isinstance(devices, bool)):
        return None if devices is None else int(devices)
    if isinstance(devices, (str, bytes, dict)) or not hasattr(devices, "__iter__"):
        raise _errors.InvalidArgumentError("devices: %s is expected, got %s" % (expected, _type_name(devices)))
    indices = list(devices)
    for index in indices:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise _errors.InvalidArgumentError("devices: device indices are expected, got %s in the list" %
                                               _type_name(index))
    return [int(index) for index in indices]


def _validation_argument(validation):
    if validation is None or isinstance(validation, (bool, str)):
        return validation
    raise _errors.InvalidArgumentError("validation: None, False, True or 'sync' is expected, got %s" %
                                       _type_name(validation))


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
    a replicated tensor has one full shard per process. The shards are host
    copies read from the devices. np.asarray(t) assembles the global tensor.
    Passed back as a function's argument laid out as this tensor is (same
    processes, offsets and shapes), each shard is written to its device as it
    is, never assembled; with another layout it is assembled on the host and
    sent as an array. For tensors that stay on the devices, see
    meshvk.DeviceTensor (keep_on_device=True).
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

    def __array__(self, dtype=None, copy=None):
        """np.asarray(t): the assembled global tensor (always a new array)."""
        out = self.assemble()
        return out if dtype is None else out.astype(dtype, copy=False)

    def __len__(self):
        return len(self.shards)

    def __iter__(self):
        return iter(self.shards)

    def __getitem__(self, i):
        return self.shards[i]

    def __repr__(self):
        return "<meshvk.ShardedTensor %s %s split_axes=%s, %d shards>" % (
            "x".join(map(str, self.shape)), self.dtype, self.split_axes, len(self.shards))
