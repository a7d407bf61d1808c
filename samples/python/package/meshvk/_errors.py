"""meshvk's exceptions: one class per runtime status code (meshvk/status.h).

Every error meshvk raises is a ``meshvk.Error``. Bad input (a wrong argument,
dtype or shape, a malformed .mvk, a program the compiler rejects) is also a
``ValueError``; failures of the devices or the runtime are ``RuntimeError``s,
so code that catches the built-in classes keeps working. The message is the
same one line mesh-vk-run prints.
"""


class Error(Exception):
    """Base class of every meshvk error. ``code`` is the status name."""
    code = "UNKNOWN"
    status = -1


# One row per meshvk_status_code_t (meshvk/status.h) besides OK: the class
# name, the status name and value, the built-in class it also is, and what it
# means. Each row becomes a module-level class of that name (meshvk.Error and
# the built-in class as its bases).
_STATUS_CLASSES = (
    ("InvalidArgumentError", "INVALID_ARGUMENT", 1, ValueError,
     "a wrong argument count, dtype, shape or value."),
    ("OutOfRangeError", "OUT_OF_RANGE", 2, ValueError,
     "an index, a name or a device limit outside what exists."),
    ("FailedPreconditionError", "FAILED_PRECONDITION", 3, RuntimeError,
     "wrong state, e.g. a closed runtime or program."),
    ("ResourceExhaustedError", "RESOURCE_EXHAUSTED", 4, RuntimeError,
     "out of host or device memory."),
    ("UnavailableError", "UNAVAILABLE", 5, RuntimeError,
     "no Vulkan driver or device, or a file that cannot be read."),
    ("UnimplementedError", "UNIMPLEMENTED", 6, NotImplementedError,
     "a valid request this version cannot do (a later one may)."),
    ("DeadlineExceededError", "DEADLINE_EXCEEDED", 7, TimeoutError,
     "a wait on the devices timed out."),
    ("DeviceLostError", "DEVICE_LOST", 8, RuntimeError,
     "the driver lost a device."),
    ("DataLossError", "DATA_LOSS", 9, ValueError,
     "a malformed or incompatible input file (.mvk)."),
    ("InternalError", "INTERNAL", 10, RuntimeError,
     "any other Vulkan or driver failure."),
)

_BY_STATUS = {}
for _name, _code, _status, _builtin, _meaning in _STATUS_CLASSES:
    _BY_STATUS[_status] = globals()[_name] = type(_name, (Error, _builtin), {
        "__doc__": "%s: %s" % (_code, _meaning), "__module__": __name__, "code": _code, "status": _status})
del _name, _code, _status, _builtin, _meaning

class CompileError(InvalidArgumentError):  # noqa: F821 (made from _STATUS_CLASSES)
    """The compiler rejected a program: "FILE:LINE:COL: error: ..."."""


def error_class(status):
    """The exception class for a meshvk_status_code_t (the C++ side raises through it)."""
    return _BY_STATUS.get(status, _BY_STATUS[10])


__all__ = [name for name in dir() if name.endswith("Error")]
