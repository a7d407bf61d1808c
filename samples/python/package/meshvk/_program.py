"""meshvk.compile and meshvk.Program: a compiled, verified .mvk artifact."""

import os

from . import _errors
from . import _meshvk


def _grid_text(grid_shape):
    """(2, 2), [4], 4 or "2x2" -> "2x2" (the compiler checks the extents)."""
    if grid_shape is None:
        return ""
    if isinstance(grid_shape, str):
        return grid_shape
    if isinstance(grid_shape, int):
        return str(grid_shape)
    return "x".join(str(int(extent)) for extent in grid_shape)


def _probe_target(vulkan_version):
    """Physical device 0 of this machine, as mesh-vk-compile --target-device=auto."""
    devices = _meshvk.devices()
    if not devices:
        raise _errors.UnavailableError("target='auto': no Vulkan physical device found")
    device = devices[0]
    major, minor, _ = (int(part) for part in device["api_version"].split("."))
    # A malformed version is left to the compiler's own message.
    parts = vulkan_version.split(".") if isinstance(vulkan_version, str) else []
    wanted = tuple(int(p) for p in parts) if len(parts) == 2 and all(p.isdigit() for p in parts) else None
    if wanted and wanted[0] * 100 + wanted[1] > major * 100 + minor:
        raise _errors.InvalidArgumentError(
            "vulkan_version=%s: device '%s' supports Vulkan %d.%d" % (vulkan_version, device["name"], major, minor))
    return device


def _looks_like_mlir(text):
    return "\n" in text or "{" in text


def compile(source, grid_shape=None, target="auto", vulkan_version="1.1", name=None):
    """Compiles a sharded MLIR program into a Program.

    source: a path to a .mlir file, or the MLIR text itself.
    grid_shape: replaces the shape of the program's shard.grid, e.g. 2, (2, 2) or "2x2".
    target: "auto" (tile for physical device 0 of this machine), "lavapipe" or "generic".
    vulkan_version: "1.1", "1.2" or "1.3" (caps the SPIR-V version of the kernels).
    name: the name used in messages for MLIR text (default "<string>").
    Raises CompileError with the compiler's one line "FILE:LINE:COL: error: ...".
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and not _looks_like_mlir(source)):
        path = os.fspath(source)
        try:
            with open(path, "r", encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise _errors.UnavailableError("%s: cannot read: %s" % (path, e.strerror)) from None
        buffer_name = name or path
    elif isinstance(source, str):
        text, buffer_name = source, name or "<string>"
    else:
        raise _errors.InvalidArgumentError(
            "source: a path or MLIR text is expected, got %s" % type(source).__name__)
    if not isinstance(target, str):
        raise _errors.InvalidArgumentError("target: a device name is expected, got %s" % type(target).__name__)
    device = _probe_target(vulkan_version) if target == "auto" else target
    try:
        from . import _compiler  # maps libMLIR only now
    except ImportError:
        raise _errors.UnimplementedError(
            "compile: this meshvk was built without the compiler (MESHVK_BUILD_COMPILER=OFF); "
            "load a compiled .mvk with meshvk.Program.load or Runtime.load") from None
    error, artifact, grid, memory, collectives = _compiler.compile(
        text, buffer_name, _grid_text(grid_shape), device, vulkan_version)
    if error:
        raise _errors.CompileError(error)
    program = Program(_meshvk.Artifact.from_bytes(artifact, buffer_name))
    program._source = (text, buffer_name, target, vulkan_version)
    program._compiled = {"grid_shape": grid, "memory": memory, "collectives": collectives}
    return program


class Program:
    """A compiled program (.mvk artifact): signature, plan, kernels.

    Made by meshvk.compile(...) or Program.load(path); run it with Runtime.load.
    """

    def __init__(self, artifact):
        self._artifact = artifact
        self._source = None
        self._compiled = None
        self._kernels = None

    @classmethod
    def load(cls, path):
        """Reads and verifies a .mvk file (DataLossError names the broken field)."""
        return cls(_meshvk.Artifact.from_file(os.fspath(path)))

    @classmethod
    def from_bytes(cls, data, name="<bytes>"):
        return cls(_meshvk.Artifact.from_bytes(bytes(data), name))

    @property
    def name(self):
        """The path or buffer name the program came from."""
        return self._artifact.name

    @property
    def grid_shape(self):
        return self._artifact.grid_shape

    @property
    def process_count(self):
        return self._artifact.process_count

    @property
    def peered_axes(self):
        return self._artifact.peered_axes

    @property
    def process_counts(self):
        """A dynamic grid (shape = ?) compiled for several process counts: the
        counts it holds a plan for (file order); () for a program of one plan,
        whose grid_shape/process_count then describe it."""
        return tuple(self._artifact.process_counts)

    def for_process_count(self, processes):
        """The plan for `processes` processes of a dynamic-grid program, as a
        Program of its own (OutOfRangeError lists the counts it holds)."""
        program = Program(self._artifact.for_process_count(int(processes)))
        program._source = self._source
        return program

    @property
    def functions(self):
        return self._artifact.functions

    def signature(self, function=""):
        """{name, arguments: [...], results: [...]}; each {shape, dtype, split_axes, shard_count}."""
        return self._artifact.signature(function)

    @property
    def plan(self):
        """The plan as dicts: per-process bytes, dispatches, copies, peer bytes, phases; totals.

        When the program was compiled in this process, also the collectives the
        compiler planned (kind, algorithm, group size, bytes each process pulls).
        """
        plan = self._artifact.plan("")
        plan["collectives"] = list(self._compiled["collectives"]) if self._compiled else None
        return plan

    def function_plan(self, function):
        return self._artifact.plan(function)

    @property
    def kernels(self):
        """Each distinct kernel: entry_point, workgroup_size, bindings, spirv (bytes), disassembly (text)."""
        if self._kernels is None:
            self._kernels = self._artifact.kernels()
        return self._kernels

    def save(self, path):
        """Writes the .mvk (through a temporary file and a rename: never half-written)."""
        self._artifact.save(os.fspath(path))

    def to_bytes(self):
        return self._artifact.to_bytes()

    def plan_graph(self, function=""):
        """The plan as Graphviz DOT text (mesh-vk-compile/mesh-vk-run --plan-graph's writer).

        Each process is a cluster with its phases inside; dispatches and fills are
        nodes; each copy is one edge labelled with its bytes. Without devices a copy
        is "local" or "peer"; LoadedProgram.plan_graph() names the real paths.
        Render with `dot -Tsvg`.
        """
        return self._artifact.plan_graph(function)

    @property
    def source(self):
        """The MLIR text this program was compiled from (None for a loaded .mvk)."""
        return self._source[0] if self._source else None

    def for_grid(self, grid_shape):
        """The same source compiled for another grid (only for programs compiled here)."""
        if self._source is None:
            raise _errors.FailedPreconditionError(
                "%s: a loaded .mvk cannot be recompiled for another grid; compile the .mlir" % self.name)
        text, name, target, vulkan_version = self._source
        return compile(text, grid_shape=grid_shape, target=target, vulkan_version=vulkan_version, name=name)

    def __repr__(self):
        return "<meshvk.Program %s grid %s, functions %s>" % (
            self.name, "x".join(map(str, self.grid_shape)), self.functions)
