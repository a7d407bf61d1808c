"""A call's arguments checked against a function's signature, in Python.

Each wrong call is one short line (mesh-vk-run's wording: "inputs[1]: 4x4xf64
given, argument 1 of 'main' is 64x256xf32"), raised before the extension is
called, so no message ever carries pybind's dump of the arrays passed.
"""

import numbers

import numpy as np

from . import _errors

# The signature's element types and the numpy types that hold them.
DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "f64": np.float64}
_NUMPY_NAMES = {"f32": "np.float32", "f16": "np.float16", "i32": "np.int32", "f64": "np.float64"}


def type_text(shape, dtype):
    """(32, 64), "f32" -> "32x64xf32" (the CLI's spelling of a tensor type)."""
    return "x".join([str(int(d)) for d in shape] + [dtype])


def array_type_text(a):
    """Any array in the CLI's spelling: "4x4xf64", "3xi64", "2xb8"."""
    kind = a.dtype.kind if a.dtype.kind in "fiubc" else None
    name = "%s%d" % (kind, a.dtype.itemsize * 8) if kind else str(a.dtype)
    return type_text(a.shape, name)


def _same_element_type(dtype, name):
    """Kind and width, whatever the byte order (a big-endian array is copied later)."""
    want = np.dtype(DTYPES[name])
    return dtype.kind == want.kind and dtype.itemsize == want.itemsize


def _int64_for_i32(dtype, name):
    """An int64 array for an i32 argument: an ONNX model's int64 tensor (token
    ids), which the program computes as i32. Accepted as torch gives it; each
    value must fit int32 (checked where it is narrowed)."""
    return name == "i32" and dtype.kind == "i" and dtype.itemsize == 8


def _check_fits(a, target, where):
    """cast=True to a narrower integer type (uint32 or uint64 -> int32, which
    numpy calls the same kind): every value must fit, never wrap."""
    if a.dtype.kind not in "iu" or target.kind not in "iu" or a.size == 0:
        return
    info = np.iinfo(target)
    if np.iinfo(a.dtype).min >= info.min and np.iinfo(a.dtype).max <= info.max:
        return
    bad = (a < info.min) | (a > info.max)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise _errors.InvalidArgumentError("%s%s element [%s] is %d, outside the %s range (cast=True never wraps)" % (
            where, a.dtype.name, ", ".join(map(str, index)), int(a[index]), target.name))


def _type_name(value):
    return type(value).__name__


def argument_list(signature):
    return ", ".join(type_text(a["shape"], a["dtype"]) for a in signature["arguments"])


def order_inputs(signature, args, named):
    """Positional inputs plus inputs by the program's argument names (an ONNX
    model's input names), in argument order."""
    if not named:
        return list(args)
    fn = "'%s'" % signature["name"]
    arguments = signature["arguments"]
    names = [a["name"] for a in arguments if a["name"]]
    slots = [None] * len(arguments)
    taken = [False] * len(arguments)
    for key, value in named.items():
        index = next((i for i, a in enumerate(arguments) if a["name"] == key), None)
        if index is None:
            raise _errors.InvalidArgumentError(
                "inputs: '%s' is not an input of %s %s" % (
                    key, fn, "(its inputs: %s)" % ", ".join(names) if names
                    else "(its arguments have no names: pass them by position)"))
        slots[index], taken[index] = value, True
    if len(args) + len(named) != len(arguments):
        raise _errors.InvalidArgumentError("inputs: %d given, function %s takes %d (%s)" % (
            len(args) + len(named), fn, len(arguments), argument_list(signature)))
    positional = iter(args)
    return [slots[i] if taken[i] else next(positional) for i in range(len(arguments))]


def _tensor_kind(value):
    """"DeviceTensor" or "ShardedTensor" for the tensors passed through to the
    extension as they are (it uses their shards in place where it can); None
    for anything else."""
    from ._meshvk import DeviceTensor
    from ._runtime import ShardedTensor  # the two modules import each other
    if isinstance(value, DeviceTensor):
        return "DeviceTensor"
    if isinstance(value, ShardedTensor):
        return "ShardedTensor"
    return None


def _check_tensor(value, kind, i, info, fn):
    """A DeviceTensor or ShardedTensor argument: its global type must be the
    argument's (no cast: its shards are used as they are). A DeviceTensor's
    buffers hold its device_dtype (i32 for an ONNX int64 or bool result,
    whose dtype is the declared one)."""
    dtype = value.device_dtype if kind == "DeviceTensor" else value.dtype
    given = type_text(value.shape, _element_name(dtype))
    if given != type_text(info["shape"], info["dtype"]):
        raise _errors.InvalidArgumentError("inputs[%d]: %s %s given, argument %d of %s is %s" % (
            i, kind, given, i, fn, type_text(info["shape"], info["dtype"])))
    if kind == "DeviceTensor" and value.closed:
        raise _errors.FailedPreconditionError(
            "inputs[%d]: the DeviceTensor is closed (its runtime was closed, or close() was called)" % i)
    return value


def _element_name(dtype):
    for name, numpy_type in DTYPES.items():
        if np.dtype(dtype) == np.dtype(numpy_type):
            return name
    return str(dtype)


def _as_array(value, i, info, fn, cast):
    """The array a value stands for: itself, or (cast=True) a list converted."""
    where = "inputs[%d]: " % i
    if isinstance(value, np.ndarray):
        return value
    if cast and isinstance(value, (list, tuple, numbers.Number)) and not isinstance(value, bool):
        try:
            return np.asarray(value)
        except ValueError as e:  # ragged nesting
            raise _errors.InvalidArgumentError("%scast=True: a %s that is no array (%s)" % (
                where, _type_name(value), str(e).split(".")[0])) from None
    raise _errors.InvalidArgumentError("%sa numpy array is expected (argument %s of %s is %s), got %s" % (
        where, i, fn, type_text(info["shape"], info["dtype"]), _type_name(value)))


def check_inputs(signature, args, cast=False):
    """Count, then each argument's kind, dtype and shape; returns arrays.

    cast=True converts lists and arrays of another dtype of the same kind or
    a narrower one (float64 -> float32, int -> float) to the argument's
    dtype; off, a wrong dtype is refused with the conversion to use. An int64
    array for an i32 argument is accepted either way and narrowed with a
    range check (a value outside int32 raises InvalidArgumentError), and a
    bool array for one becomes 0/1 (ONNX int64 and bool tensors are i32 in
    the program).
    """
    fn = "'%s'" % signature["name"]
    arguments = signature["arguments"]
    if len(args) != len(arguments):
        raise _errors.InvalidArgumentError("inputs: %d given, function %s takes %d (%s)" % (
            len(args), fn, len(arguments), argument_list(signature)))
    arrays = []
    for i, (value, info) in enumerate(zip(args, arguments)):
        where = "inputs[%d]: " % i
        kind = _tensor_kind(value)
        if kind:
            arrays.append(_check_tensor(value, kind, i, info, fn))
            continue
        a = _as_array(value, i, info, fn, cast)
        expected = "%s given, argument %d of %s is %s" % (
            array_type_text(a), i, fn, type_text(info["shape"], info["dtype"]))
        shape_ok = tuple(a.shape) == tuple(info["shape"])
        if _int64_for_i32(a.dtype, info["dtype"]):
            pass  # narrowed by the extension with a range check (tensors.cc), never wrapped
        elif info.get("declared_dtype") == "f32" and info["dtype"] == "f16" and _same_element_type(a.dtype, "f32"):
            a = a.astype(np.float16)  # --precision=f16: the model's f32 input, converted when uploaded
        elif info["dtype"] == "i32" and a.dtype.kind == "b":
            a = a.astype(np.int32)  # an ONNX bool input (a mask), which the program computes as i32 0/1
        elif not _same_element_type(a.dtype, info["dtype"]):
            target = np.dtype(DTYPES[info["dtype"]])
            if cast and a.dtype.kind in "biuf" and np.can_cast(a.dtype, target, casting="same_kind"):
                _check_fits(a, target, where)
                a = a.astype(target)
            elif not shape_ok:
                raise _errors.InvalidArgumentError(where + expected)
            elif cast:
                raise _errors.InvalidArgumentError("%s%s (cast=True converts only to a type of the same kind)" % (
                    where, expected))
            else:
                raise _errors.InvalidArgumentError("%s%s (convert with x.astype(%s))" % (
                    where, expected, _NUMPY_NAMES[info["dtype"]]))
        if not shape_ok:
            raise _errors.InvalidArgumentError(where + expected)
        arrays.append(a)
    return arrays


def check_call_options(keep_sharded=False, timeout=None, cast=False, keep_on_device=False):
    if not isinstance(keep_sharded, (bool, np.bool_)):
        raise _errors.InvalidArgumentError("keep_sharded: True or False is expected, got %s" % _type_name(keep_sharded))
    if not isinstance(keep_on_device, (bool, np.bool_)):
        raise _errors.InvalidArgumentError(
            "keep_on_device: True or False is expected, got %s" % _type_name(keep_on_device))
    if keep_sharded and keep_on_device:
        raise _errors.InvalidArgumentError(
            "keep_on_device and keep_sharded: pick one (device-resident tensors, or host copies of the shards)")
    if not isinstance(cast, (bool, np.bool_)):
        raise _errors.InvalidArgumentError("cast: True or False is expected, got %s" % _type_name(cast))
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, numbers.Real)):
        raise _errors.InvalidArgumentError(
            "timeout: a number of seconds (or None) is expected, got %s" % _type_name(timeout))


def check_iterations(iterations):
    if isinstance(iterations, bool) or not isinstance(iterations, numbers.Integral):
        raise _errors.InvalidArgumentError("iterations: an int is expected, got %s" % _type_name(iterations))
    if iterations < 1 or iterations > 2**32 - 1:
        raise _errors.InvalidArgumentError("iterations: %d given, expected at least 1 run" % iterations)
