"""meshvk.compile survives upstream crashes (issue 33): MLIR 22's parser
segfaults on a mistyped attribute; meshvk compiles in a child process, so the
interpreter gets a CompileError naming the stage and lives on."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import meshvk
from conftest import ROOT

CRASHER = ROOT / "tests" / "compiler" / "CrashIsolation" / "transpose_permutation.mlir"
TRANSPOSE = """
func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}
"""


def test_parser_crash_is_a_compile_error():
    with pytest.raises(meshvk.CompileError) as e:
        meshvk.compile(str(CRASHER))
    message = str(e.value)
    assert "\n" not in message
    # MLIR's own diagnostic, before it crashed, leads; then the stage.
    assert message.startswith(str(CRASHER) + ":6:91: error: expected '['"), message
    assert "crashed with SIGSEGV in stage parse" in message, message


def test_interpreter_lives_on_and_compiles_again(make_runtime):
    for _ in range(3):
        with pytest.raises(meshvk.CompileError):
            meshvk.compile(CRASHER.read_text(), name="typo.mlir")
    # The same program, spelled right, compiles and runs in this process.
    program = meshvk.compile(TRANSPOSE, name="transpose.mlir")
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    result = make_runtime(devices=1).load(program)["main"](a)
    np.testing.assert_array_equal(np.asarray(result), a.T)


def test_crash_while_other_threads_compile():
    """Compiles from several threads at once, crashing and not: every call
    gets its own answer (the GIL is released while compiling)."""
    answers = {}

    def compile_one(i):
        try:
            meshvk.compile(CRASHER.read_text() if i % 2 else TRANSPOSE, name="t%d.mlir" % i)
            answers[i] = "ok"
        except meshvk.CompileError as e:
            answers[i] = "crash" if "SIGSEGV" in str(e) else str(e)

    threads = [threading.Thread(target=compile_one, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == {i: ("crash" if i % 2 else "ok") for i in range(6)}


def test_in_process_opt_out_really_crashes():
    """MESHVK_COMPILE_IN_PROCESS=1 turns isolation off (for a debugger): the
    same compile then kills its interpreter, which is what the isolation
    saves every other caller from."""
    env = dict(os.environ, MESHVK_COMPILE_IN_PROCESS="1")
    code = "import meshvk; meshvk.compile(%r, target='lavapipe')" % str(CRASHER)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=120)
    assert done.returncode < 0 or done.returncode >= 128, (done.returncode, done.stderr[-400:])
