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


class InvalidArgumentError(Error, ValueError):
    """INVALID_ARGUMENT: a wrong argument count, dtype, shape or value."""
    code, status = "INVALID_ARGUMENT", 1


class OutOfRangeError(Error, ValueError):
    """OUT_OF_RANGE: an index, a name or a device limit outside what exists."""
    code, status = "OUT_OF_RANGE", 2


class FailedPreconditionError(Error, RuntimeError):
    """FAILED_PRECONDITION: wrong state, e.g. a closed runtime or program."""
    code, status = "FAILED_PRECONDITION", 3


class ResourceExhaustedError(Error, RuntimeError):
    """RESOURCE_EXHAUSTED: out of host or device memory."""
    code, status = "RESOURCE_EXHAUSTED", 4


class UnavailableError(Error, RuntimeError):
    """UNAVAILABLE: no Vulkan driver or device, or a file that cannot be read."""
    code, status = "UNAVAILABLE", 5


class UnimplementedError(Error, NotImplementedError):
    """UNIMPLEMENTED: a valid request this version cannot do (a later one may)."""
    code, status = "UNIMPLEMENTED", 6


class DeadlineExceededError(Error, TimeoutError):
    """DEADLINE_EXCEEDED: a wait on the devices timed out."""
    code, status = "DEADLINE_EXCEEDED", 7


class DeviceLostError(Error, RuntimeError):
    """DEVICE_LOST: the driver lost a device."""
    code, status = "DEVICE_LOST", 8


class DataLossError(Error, ValueError):
    """DATA_LOSS: a malformed or incompatible input file (.mvk)."""
    code, status = "DATA_LOSS", 9


class InternalError(Error, RuntimeError):
    """INTERNAL: any other Vulkan or driver failure."""
    code, status = "INTERNAL", 10


class CompileError(InvalidArgumentError):
    """The compiler rejected a program: "FILE:LINE:COL: error: ..."."""


_BY_STATUS = {cls.status: cls for cls in (
    InvalidArgumentError, OutOfRangeError, FailedPreconditionError, ResourceExhaustedError,
    UnavailableError, UnimplementedError, DeadlineExceededError, DeviceLostError, DataLossError,
    InternalError)}


def error_class(status):
    """The exception class for a meshvk_status_code_t (the C++ side raises through it)."""
    return _BY_STATUS.get(status, InternalError)


__all__ = [name for name in dir() if name.endswith("Error")]
