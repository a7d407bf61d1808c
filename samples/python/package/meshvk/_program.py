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
    """Every physical device of this machine (a Runtime may place processes on
    any of them): the kernels are tiled for one target all of them run."""
    devices = _meshvk.devices()
    if not devices:
        raise _errors.UnavailableError("target='auto': no Vulkan physical device found")
    # A malformed version is left to the compiler's own message.
    parts = vulkan_version.split(".") if isinstance(vulkan_version, str) else []
    wanted = tuple(int(p) for p in parts) if len(parts) == 2 and all(p.isdigit() for p in parts) else None
    for device in devices:
        major, minor, _ = (int(part) for part in device["api_version"].split("."))
        if wanted and wanted[0] * 100 + wanted[1] > major * 100 + minor:
            raise _errors.InvalidArgumentError(
                "vulkan_version=%s: device '%s' supports Vulkan %d.%d" % (vulkan_version, device["name"], major, minor))
    return devices


def _looks_like_mlir(text):
    return "\n" in text or "{" in text


def _is_onnx(source):
    if isinstance(source, (bytes, bytearray, memoryview)):
        return True
    if isinstance(source, os.PathLike) or isinstance(source, str):
        return os.fspath(source).endswith(".onnx") and not (isinstance(source, str) and _looks_like_mlir(source))
    return False


def _input_shape_texts(input_shapes):
    """{"x": (1, 3, 8, 8)} or {"x": "1x3x8x8"} -> ["x=1x3x8x8"] (the compiler checks them)."""
    if input_shapes is None:
        return []
    if not isinstance(input_shapes, dict):
        raise _errors.InvalidArgumentError(
            "input_shapes: a dict of ONNX input name -> shape is expected, got %s" % type(input_shapes).__name__)
    return ["%s=%s" % (name, _grid_text(shape)) for name, shape in input_shapes.items()]


def _compile_onnx(source, grid_shape, device, vulkan_version, shard, input_shapes, name, precision):
    """An ONNX model from a path or its serialized bytes (written to a temporary file)."""
    from . import _compiler  # maps libMLIR only now
    shapes = _input_shape_texts(input_shapes)
    if isinstance(source, (bytes, bytearray, memoryview)):
        import tempfile
        buffer_name = name or "<onnx bytes>"
        fd, path = tempfile.mkstemp(suffix=".onnx", prefix="meshvk-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(bytes(source))
            result = _compiler.compile_onnx(path, _grid_text(grid_shape), device, vulkan_version, shard, shapes,
                                            precision)
        finally:
            os.unlink(path)
        if result[0]:
            result = (result[0].replace(path, buffer_name),) + tuple(result[1:])
        return result, buffer_name
    path = os.fspath(source)
    if not os.path.exists(path):
        raise _errors.UnavailableError("%s: cannot read: No such file or directory" % path)
    return (_compiler.compile_onnx(path, _grid_text(grid_shape), device, vulkan_version, shard, shapes, precision),
            name or path)


def compile(source, grid_shape=None, target="auto", vulkan_version="1.1", name=None, shard=None,
            input_shapes=None, precision="f32"):
    """Compiles a sharded MLIR program or an ONNX model into a Program.

    source: a path to a .mlir file, the MLIR text itself, a path to a .onnx
        model, or an ONNX model's serialized bytes (onnx.ModelProto.SerializeToString()).
    grid_shape: replaces the shape of the program's shard.grid, e.g. 2, (2, 2) or "2x2";
        for an ONNX model, the grid shard="data"/"tensor" split over (default: 1 process).
    target: "auto" (tile for the physical devices of this machine: one set of kernels
        every one of them runs), "lavapipe" or "generic".
    vulkan_version: "1.1", "1.2" or "1.3" (caps the SPIR-V version of the kernels).
    name: the name used in messages for MLIR text or ONNX bytes.
    shard: an ONNX model's sharding: "none" (default), "data", "tensor", "data,tensor" (one
        policy per axis of a 2-D grid_shape, e.g. grid_shape=(2, 2)) or a SPEC.json path
        (mesh-vk-compile --shard).
    input_shapes: an ONNX model's dynamic input dimensions, {"x": (1, 3, 224, 224)}.
    precision: "f32" (default) or "f16": f32 weights and activations stored as f16 (half
        the parameter bytes), matmuls, convolutions and reductions accumulating in f32
        (mesh-vk-compile --precision). The signature keeps f32: float32 inputs are
        converted to f16 when uploaded and results come back as float32.
    Raises CompileError with the compiler's one line "FILE:LINE:COL: error: ...".
    A compiled ONNX model keeps its input names: call it with keywords, fn(x=a).
    """
    onnx = _is_onnx(source)
    if not onnx and (shard is not None or input_shapes is not None):
        raise _errors.InvalidArgumentError(
            "shard and input_shapes apply to ONNX models (.onnx path or bytes); an MLIR program carries "
            "its own shard annotations")
    if not isinstance(target, str):
        raise _errors.InvalidArgumentError("target: a device name is expected, got %s" % type(target).__name__)
    if precision not in ("f32", "f16"):
        raise _errors.InvalidArgumentError("precision: 'f32' or 'f16' is expected, got %r" % (precision,))
    if onnx:
        shard = "none" if shard is None else shard
        if not isinstance(shard, (str, os.PathLike)):
            raise _errors.InvalidArgumentError(
                "shard: 'none', 'data', 'tensor' or a SPEC.json path is expected, got %s" % type(shard).__name__)
        shard = os.fspath(shard)
        _input_shape_texts(input_shapes)  # checked before anything else
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and not _looks_like_mlir(source)):
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
            "source: a path, MLIR text or ONNX bytes is expected, got %s" % type(source).__name__)
    device = _probe_target(vulkan_version) if target == "auto" else target
    try:
        from . import _compiler  # maps libMLIR only now
    except ImportError:
        raise _errors.UnimplementedError(
            "compile: this meshvk was built without the compiler (MESHVK_BUILD_COMPILER=OFF); "
            "load a compiled .mvk with meshvk.Program.load or Runtime.load") from None
    if onnx:
        result, buffer_name = _compile_onnx(source, grid_shape, device, vulkan_version, shard, input_shapes, name,
                                            precision)
    else:
        result = _compiler.compile(text, buffer_name, _grid_text(grid_shape), device, vulkan_version, precision)
    error, artifact, grid, memory, collectives = result
    if error:
        raise _errors.CompileError(error)
    program = Program(_meshvk.Artifact.from_bytes(artifact, buffer_name))
    if onnx:
        keep = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source)
        program._onnx = (keep, buffer_name, target, vulkan_version, shard, input_shapes, precision)
    else:
        program._source = (text, buffer_name, target, vulkan_version, precision)
    program._compiled = {"grid_shape": grid, "memory": memory, "collectives": collectives}
    return program


class Program:
    """A compiled program (.mvk artifact): signature, plan, kernels.

    Made by meshvk.compile(...) or Program.load(path); run it with Runtime.load.
    """

    def __init__(self, artifact):
        self._artifact = artifact
        self._source = None
        self._onnx = None  # (path or bytes, name, target, vulkan_version, shard, input_shapes, precision)
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
        program._onnx = self._onnx
        return program

    @property
    def functions(self):
        return self._artifact.functions

    def signature(self, function=""):
        """{name, arguments: [...], results: [...]}; each {shape, dtype, split_axes, shard_count, name}
        (name: the ONNX input or output name; None for an unnamed tensor)."""
        return self._artifact.signature(function)

    @property
    def plan(self):
        """The plan as dicts: per-process bytes, dispatches, copies, peer bytes, phases; totals.

        Per process, a model's memory: parameter_bytes (its weights: constant
        buffers), activation_bytes (transients, after reuse) and peak_bytes
        (what it holds on its device while loaded: every buffer lives as long
        as the program); in "total", their sums over the processes.

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
        """Each distinct kernel: name (as the plan graph and the trace name it: the
        entry point, or kernel_<index> for an entry point "main"), index,
        entry_point, workgroup_size, bindings, spirv (bytes), disassembly (text)."""
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

    @property
    def recompilable(self):
        """True for a program compiled here (MLIR text or an ONNX model): for_grid works."""
        return self._source is not None or self._onnx is not None

    def for_grid(self, grid_shape):
        """The same source compiled for another grid (only for programs compiled here)."""
        if self._onnx is not None:
            model, name, target, vulkan_version, shard, input_shapes, precision = self._onnx
            return compile(model, grid_shape=grid_shape, target=target, vulkan_version=vulkan_version,
                           name=name, shard=shard, input_shapes=input_shapes, precision=precision)
        if self._source is None:
            raise _errors.FailedPreconditionError(
                "%s: a loaded .mvk cannot be recompiled for another grid; compile the .mlir" % self.name)
        text, name, target, vulkan_version, precision = self._source
        return compile(text, grid_shape=grid_shape, target=target, vulkan_version=vulkan_version, name=name,
                       precision=precision)

    def __repr__(self):
        if self.process_counts:
            grid = "dynamic grid, plans for %s processes" % ", ".join(map(str, self.process_counts))
        else:
            grid = "grid %s, %d processes" % ("x".join(map(str, self.grid_shape)), self.process_count)
        return "<meshvk.Program %s: functions %s, %s>" % (self.name, self.functions, grid)
