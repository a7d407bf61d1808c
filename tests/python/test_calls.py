"""Issue #34: calling a loaded program, reprs, ShardedTensor as an array and
as an argument, cast=, one-line messages for wrong calls and bad Runtime
arguments, the topology chosen, and messages that blame the right thing."""
import numpy as np
import pytest

import meshvk
from conftest import compiled_text, elementwise_add, uniform

ROWS = elementwise_add("f32", (8, 8), (2,), ([0],))
COLUMNS = elementwise_add("f32", (8, 8), (2,), ([], [0]))


@pytest.fixture
def rows(make_runtime):
    rt = make_runtime(devices=2, topology="logical")
    return rt, rt.load(compiled_text(ROWS, "rows.mlir"))


def test_one_function_program_is_callable(rows, rng):
    _, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    np.testing.assert_array_equal(loaded(a, b), a + b)
    np.testing.assert_array_equal(loaded(a, b, keep_sharded=True).assemble(), a + b)


def test_several_functions_call_is_one_error_naming_them(rows):
    """The compiler emits one public function per artifact, so a program of
    several comes only from a .mvk made elsewhere: a stand-in for the
    extension's loaded program holds two."""
    _, loaded = rows

    class TwoFunctions:
        functions = ["main", "other"]

        def function(self, name):
            return loaded._loaded.function("")  # any Function: never reached for the call

    two = meshvk.LoadedProgram(TwoFunctions(), loaded.program)
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        two(np.zeros((8, 8), np.float32))
    assert str(e.value) == "rows.mlir: 2 functions (main, other): call one by name, e.g. loaded['main'](...)"


def test_reprs_say_what_they_are(rows):
    rt, loaded = rows
    assert repr(loaded.program) == "<meshvk.Program rows.mlir: functions ['main'], grid 2, 2 processes>"
    assert repr(loaded) == ("<meshvk.LoadedProgram rows.mlir: grid 2, 2 processes on devices [0, 0] (logical), "
                            "functions ['main']>")
    assert repr(loaded["main"]) == ("<meshvk.Function main(8x8xf32, 8x8xf32) -> (8x8xf32) of rows.mlir: grid 2, "
                                    "2 processes on devices [0, 0] (logical)>")
    assert repr(rt) == "<meshvk.Runtime devices=2 topology=logical>"
    loaded.close()
    assert repr(loaded) == "<meshvk.LoadedProgram rows.mlir: grid 2, 2 processes, closed, functions ['main']>"


def test_sharded_tensor_is_an_array(rows, rng):
    _, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    t = loaded(a, b, keep_sharded=True)
    np.testing.assert_array_equal(np.asarray(t), a + b)
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    np.testing.assert_array_equal(np.add(t, 1), a + b + 1)


def test_sharded_tensor_as_an_argument(rows, make_runtime, rng):
    rt, loaded = rows
    a, b = uniform(rng, (8, 8)), uniform(rng, (8, 8))
    t = loaded(a, b, keep_sharded=True)
    # The same sharding (rows over 2), then another (columns over 2): the result is the same.
    np.testing.assert_array_equal(loaded(t, b), (a + b) + b)
    columns = rt.load(compiled_text(COLUMNS, "columns.mlir"))
    np.testing.assert_array_equal(columns(t, t), (a + b) + (a + b))
    # A sharded result of the wrong shape is refused like an array.
    small = make_runtime(devices=2, topology="logical").load(
        meshvk.compile(elementwise_add("f32", (4, 8), (2,), ([0],))))
    s = small(a[:4], b[:4], keep_sharded=True)
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^inputs\[0\]: ShardedTensor 4x8xf32 given, argument 0 of 'main' is 8x8xf32$"):
        loaded(s, b)


def test_wrong_calls_are_one_short_line(rows, rng):
    _, loaded = rows
    main = loaded["main"]
    a = uniform(rng, (8, 8))
    cases = [
        (lambda: main(a), "inputs: 1 given, function 'main' takes 2 (8x8xf32, 8x8xf32)"),
        (lambda: main(a, a, a), "inputs: 3 given, function 'main' takes 2 (8x8xf32, 8x8xf32)"),
        (lambda: main(a, {"b": a}), "inputs[1]: a numpy array is expected (argument 1 of 'main' is 8x8xf32), got dict"),
        (lambda: main(a, b=a),
         "inputs: 'b' is not an input of 'main' (its arguments have no names: pass them by position)"),
        (lambda: main(a, a, keep_sharded=1), "keep_sharded: True or False is expected, got int"),
        (lambda: main(a, a, timeout="soon"), "timeout: a number of seconds (or None) is expected, got str"),
        (lambda: main(a, a, cast="yes"), "cast: True or False is expected, got str"),
        (lambda: main.benchmark(a, a, iterations="5"), "iterations: an int is expected, got str"),
        (lambda: loaded[0], "function: a name is expected, got int (functions: main)"),
    ]
    for call, message in cases:
        with pytest.raises(meshvk.InvalidArgumentError) as e:
            call()
        assert str(e.value) == message
        assert "\n" not in str(e.value) and "array(" not in str(e.value)


def test_dtype_refusal_says_how_to_convert(rows, rng):
    _, loaded = rows
    a = uniform(rng, (8, 8))
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        loaded(a.astype("<f8"), a)
    assert str(e.value) == ("inputs[0]: 8x8xf64 given, argument 0 of 'main' is 8x8xf32 "
                            "(convert with x.astype(np.float32))")
    # Shape and dtype both wrong: the shapes speak, no conversion is offered.
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^inputs\[1\]: 4x8xf64 given, argument 1 of 'main' is 8x8xf32$"):
        loaded(a, a[:4].astype(np.float64))


def test_cast_is_opt_in(rows, rng):
    _, loaded = rows
    a = uniform(rng, (8, 8))
    wide = a.astype(np.float64)
    with pytest.raises(meshvk.InvalidArgumentError, match="convert with x.astype"):
        loaded(wide, a)  # off by default
    with pytest.raises(meshvk.InvalidArgumentError, match="a numpy array is expected .* got list$"):
        loaded(wide.tolist(), a)
    np.testing.assert_array_equal(loaded(wide, a, cast=True), a + a)
    np.testing.assert_array_equal(loaded(wide.tolist(), a, cast=True), a + a)
    assert loaded["main"].benchmark(wide, a, iterations=1, cast=True)["runs"] == 1
    with pytest.raises(meshvk.InvalidArgumentError,
                       match=r"^inputs\[0\]: 8x8xc128 given, argument 0 of 'main' is 8x8xf32 \(cast=True converts only"):
        loaded(wide.astype(np.complex128), a, cast=True)
    with pytest.raises(meshvk.InvalidArgumentError, match=r"^inputs\[0\]: 2x2xf64 given"):
        loaded([[1.0, 2.0], [3.0, 4.0]], a, cast=True)


@pytest.mark.parametrize("kwargs, message", [
    ({"devices": "4"}, "devices: None, a process count or a list of device indices is expected, got str"),
    ({"devices": [0, "1"]}, "devices: device indices are expected, got str in the list"),
    ({"devices": 2.0}, "devices: None, a process count or a list of device indices is expected, got float"),
    ({"topology": 3}, "topology: a name is expected, got int"),
    ({"topology": None}, "topology: a name is expected, got NoneType"),
    ({"group": "0"}, "group: None or a group index is expected, got str"),
    ({"validation": 2}, "validation: None, False, True or 'sync' is expected, got int"),
])
def test_bad_runtime_arguments_fail_when_the_runtime_is_made(kwargs, message):
    with pytest.raises(meshvk.InvalidArgumentError) as e:
        meshvk.Runtime(**kwargs)
    assert str(e.value) == message


def test_topology_is_the_one_chosen(make_runtime):
    rt = make_runtime(devices=2)  # "auto"
    assert rt.requested_topology == "auto"
    assert rt.topology in ("group", "logical", "independent")
    loaded = rt.load(compiled_text(ROWS, "rows.mlir"))
    assert loaded.topology == rt.topology
    assert make_runtime(devices=2, topology="logical").topology == "logical"
    lazy = make_runtime()  # devices=None: the set comes with the first program
    assert lazy.topology is None
    lazy.load(compiled_text(ROWS, "rows.mlir"))
    assert lazy.topology in ("group", "logical", "independent")


def test_grid_shape_of_too_few_axes_names_the_shapes():
    square = elementwise_add("f32", (4, 4), (2, 2), ([0], [1]))
    with pytest.raises(meshvk.CompileError) as e:
        meshvk.compile(square, grid_shape=3, name="square.mlir")
    assert str(e.value) == ("square.mlir: error: grid shape 3 given (1 axis) does not fit the program's "
                            "shard.grid @grid of 2 axes (2x2)")
    # More axes than declared: the added ones are replicated.
    assert meshvk.compile(square, grid_shape=(2, 2, 1)).grid_shape == (2, 2, 1)
    assert meshvk.compile(square, grid_shape=(1, 2)).grid_shape == (1, 2)


def test_kernel_names_are_the_plans(rows):
    _, loaded = rows
    kernels = loaded.program.kernels
    assert [k["name"] for k in kernels] == [
        k["entry_point"] if k["entry_point"] != "main" else "kernel_%d" % k["index"] for k in kernels]
    assert all(k["name"] in loaded.plan_graph() for k in kernels)


def test_cast_error_from_the_extension_is_invalid_argument(rows):
    """A value that reaches a C++ parameter with the wrong type (past the
    Python checks) is still an InvalidArgumentError, not pybind's RuntimeError."""
    _, loaded = rows
    with pytest.raises(meshvk.InvalidArgumentError):
        loaded["main"]._function(np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32), timeout=object())

