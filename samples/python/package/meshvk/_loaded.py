"""meshvk.LoadedProgram and meshvk.Function: a Program on a runtime's devices
and its functions, callable with numpy arrays.

Thin Python classes over the extension's (meshvk._meshvk): arguments are
checked here first (_arguments.py), so a wrong call is one line.
"""

import numpy as np

from . import _arguments
from . import _errors


def _grid_text(shape):
    return "x".join(map(str, shape))


class Function:
    """One function of a LoadedProgram: fn(*arrays) runs it on the devices."""

    def __init__(self, function, loaded):
        self._function = function
        self._loaded = loaded
        self._signature = function.signature

    @property
    def name(self):
        return self._function.name

    @property
    def signature(self):
        """{name, arguments: [...], results: [...]}; each {shape, dtype, declared_dtype, split_axes,
        shard_count, name}. dtype is what the devices hold ("f32", "f16", "i32"); declared_dtype
        is the model's ("i64" and "b8" for an ONNX int64 or bool tensor held as i32, "f64" for a
        double held as f32; else the dtype): results come back in it."""
        return self._signature

    def _inputs(self, args, named, cast):
        ordered = _arguments.order_inputs(self._signature, args, named)
        return _arguments.check_inputs(self._signature, ordered, cast)

    def __call__(self, *args, keep_sharded=False, keep_on_device=False, timeout=None, cast=False, **named):
        """numpy in, numpy out: one array for one result, a tuple for several.

        Inputs by position, or by the program's argument names as keywords (an
        ONNX model's inputs: fn(x=a)). An input may be a DeviceTensor (a
        result kept on the devices: used in place when this argument is laid
        out as it is on the same devices, else read back and sent as an
        array) or a ShardedTensor (its shards written as they are when laid
        out as the argument is, else assembled). keep_on_device=True returns
        DeviceTensors; keep_sharded=True returns ShardedTensors (host copies
        of the shards); timeout in seconds (None: the runtime's 60 s).
        cast=True converts lists and arrays of another dtype of the same kind
        (float64 -> float32) to the argument's dtype; by default a wrong
        dtype is refused. Results have the model's declared dtypes (an ONNX
        int64 ArgMax as int64, a comparison as bool: signature's
        declared_dtype), as arrays and as DeviceTensors (dtype and numpy();
        device_dtype is what the buffers hold); ShardedTensors keep the
        devices' dtype, as they are passed back in shard by shard.
        A DeviceTensor result's buffers are reused by a later call once the
        tensor is gone, so a loop that feeds results back runs on the same
        few buffers (and the runtime on its recordings of them).
        """
        _arguments.check_call_options(keep_sharded, timeout, cast, keep_on_device)
        inputs = self._inputs(args, named, cast)
        return self._function(*inputs, keep_sharded=bool(keep_sharded), keep_on_device=bool(keep_on_device),
                              timeout=timeout)

    def benchmark(self, *args, iterations=20, cast=False, **named):
        """mesh-vk-run --benchmark's numbers as a dict; EVERY time is in seconds.

        One warm-up run, then `iterations` runs: "wall" {min, median, max};
        "phases" [{phase, process, gpu: {min, median, max}}]; "dispatches"
        [{kernel (the plan's and the trace's name), process, command, phase,
        gpu: {...}, bytes, flops (None when the artifact does not say),
        bytes_per_second, flops_per_second}]; "copies" between processes
        [{process, from_process, path, leg ("device" or "host"), time: {...},
        bytes, bytes_per_second}]; "command_buffers", "commands", "record"
        (recording time), "runs", "unit" ("s"). "roofline" is None: the
        runner's roofline needs its probe shaders, which only mesh-vk-run has.
        """
        _arguments.check_call_options(cast=cast)
        if "n" in named and all(a["name"] != "n" for a in self._signature["arguments"]):
            raise _errors.InvalidArgumentError("benchmark: n= is now iterations= (the number of timed runs)")
        _arguments.check_iterations(iterations)
        # Timed on host arrays: a DeviceTensor or ShardedTensor is read back once.
        inputs = [a if isinstance(a, np.ndarray) else np.asarray(a) for a in self._inputs(args, named, cast)]
        return self._function.benchmark(*inputs, iterations=int(iterations))

    def __repr__(self):
        sig = self._signature
        results = ", ".join(_arguments.type_text(r["shape"], r["dtype"]) for r in sig["results"])
        return "<meshvk.Function %s(%s) -> (%s) of %s>" % (
            self.name, _arguments.argument_list(sig), results, self._loaded._where())


class LoadedProgram:
    """A Program instantiated on a Runtime's devices (Runtime.load).

    Index it by function name (loaded["main"]); a program of one function is
    also callable itself: rt.load(p)(x, w). Close it with close() or `with`.
    """

    def __init__(self, loaded, program):
        self._loaded = loaded
        self._program = program

    @property
    def program(self):
        """The Program it was loaded from."""
        return self._program

    @property
    def name(self):
        return self._program.name

    @property
    def functions(self):
        return self._loaded.functions

    def function(self, name=""):
        """The Function `name` ("" picks the only one; OutOfRangeError for an unknown name)."""
        if not isinstance(name, str):
            raise _errors.InvalidArgumentError("function: a name is expected, got %s (functions: %s)" % (
                type(name).__name__, ", ".join(self.functions)))
        return Function(self._loaded.function(name), self)

    def __getitem__(self, name):
        return self.function(name)

    def __call__(self, *args, **kwargs):
        """Calls the program's only function; with several, name one: loaded["main"](...)."""
        functions = self.functions
        if len(functions) != 1:
            raise _errors.InvalidArgumentError(
                "%s: %d functions (%s): call one by name, e.g. loaded['%s'](...)" % (
                    self.name, len(functions), ", ".join(functions), functions[0]))
        return self.function(functions[0])(*args, **kwargs)

    def placement(self):
        """Per process: physical device, device index, VkDevice, queue, allocated bytes."""
        return self._loaded.placement()

    @property
    def stats(self):
        return self._loaded.stats

    @property
    def topology(self):
        """The topology its devices run under ("group", "logical", "independent")."""
        return self._loaded.topology

    def plan_graph(self, function=""):
        """The plan as DOT, each copy labelled with the path it takes on these devices."""
        return self._loaded.plan_graph(function)

    def close(self):
        self._loaded.close()

    @property
    def closed(self):
        return self._loaded.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _where(self):
        """"NAME: grid 2x2, 4 processes on devices [0, 0, 0, 0] (logical)"."""
        text = "%s: grid %s, %d processes" % (
            self.name, _grid_text(self._program.grid_shape), self._program.process_count)
        if self.closed:
            return text + ", closed"
        devices = [p["physical_device"] for p in self.placement()]
        return text + " on devices %s (%s)" % (devices, self.topology)

    def __repr__(self):
        return "<meshvk.LoadedProgram %s, functions %s>" % (self._where(), self.functions)
