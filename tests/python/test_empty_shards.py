"""Empty shards (issue #12): more processes than elements of a split
dimension (3 rows over 4 or 5 processes; numpy.array_split's rule gives the
last ones 0 rows). Those processes allocate one word per value, run no kernel
on their empty shards and take part in collectives with nothing; results are
compared with numpy on logical devices (and the emulated group of 4 with
MESHVK_TEST_TOPOLOGY=group)."""
import numpy as np
import pytest

from conftest import TOPOLOGY, run, uniform

COUNTS = (4, 5) if TOPOLOGY != "group" else (4,)


ROWS_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<3x4xDT>, %b: tensor<3x4xDT>) -> (tensor<3x4xDT>, tensor<4xDT>) {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %as = shard.shard %a to %s annotate_for_users : tensor<3x4xDT>
  %bs = shard.shard %b to %s annotate_for_users : tensor<3x4xDT>
  %e = tensor.empty() : tensor<3x4xDT>
  %c = linalg.add ins(%as, %bs : tensor<3x4xDT>, tensor<3x4xDT>) outs(%e : tensor<3x4xDT>) -> tensor<3x4xDT>
  %cs = shard.shard %c to %s : tensor<3x4xDT>
  %z = arith.constant 0 : DT
  %e2 = tensor.empty() : tensor<4xDT>
  %f = linalg.fill ins(%z : DT) outs(%e2 : tensor<4xDT>) -> tensor<4xDT>
  %r = linalg.reduce ins(%cs : tensor<3x4xDT>) outs(%f : tensor<4xDT>) dimensions = [0]
    (%x: DT, %y: DT) {
      %t = ADD %x, %y : DT
      linalg.yield %t : DT
    }
  return %cs, %r : tensor<3x4xDT>, tensor<4xDT>
}
"""


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("dtype", ["f32", "i32", "f16"])
def test_rows_add_and_column_sums(make_runtime, rng, n, dtype):
    add = "arith.addi" if dtype == "i32" else "arith.addf"
    zero = "0" if dtype == "i32" else "0.0"
    text = ROWS_PROGRAM.replace("DT", dtype).replace("ADD", add).replace("arith.constant 0 :", "arith.constant %s :" % zero)
    np_type = {"f32": np.float32, "i32": np.int32, "f16": np.float16}[dtype]
    a = uniform(rng, (3, 4), np.int32 if dtype == "i32" else np.float32).astype(np_type)
    b = uniform(rng, (3, 4), np.int32 if dtype == "i32" else np.float32).astype(np_type)
    c, r = run(make_runtime, text, n, a, b)
    np.testing.assert_array_equal(c, a + b)
    tol = 1e-2 if dtype == "f16" else 1e-5
    np.testing.assert_allclose(r.astype(np.float64), (a + b).astype(np.float64).sum(axis=0), rtol=tol, atol=tol)


MATMUL_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %as = shard.shard %a to %rows annotate_for_users : tensor<2x3xf32>
  %bs = shard.shard %b to %cols annotate_for_users : tensor<3x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x5xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  %c = linalg.matmul ins(%as, %bs : tensor<2x3xf32>, tensor<3x5xf32>) outs(%fill : tensor<2x5xf32>) -> tensor<2x5xf32>
  %cs = shard.shard %c to %rows : tensor<2x5xf32>
  return %cs : tensor<2x5xf32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_matmul_with_reshards(make_runtime, rng, n):
    a, b = uniform(rng, (2, 3)), uniform(rng, (3, 5))
    (c,) = run(make_runtime, MATMUL_PROGRAM, n, a, b)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)


ARGMAX_PROGRAM = """
shard.grid @grid(shape = 2)
func.func @main(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<2x3xf32>
  %i = tosa.argmax %xs {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2xi32>
  return %i : tensor<2xi32>
}
"""


@pytest.mark.parametrize("n", COUNTS)
def test_argmax_over_a_dimension_with_empty_shards(make_runtime, n):
    x = np.array([[1, 3, 3], [np.nan, 0, 9]], dtype=np.float32)
    (i,) = run(make_runtime, ARGMAX_PROGRAM, n, x)
    np.testing.assert_array_equal(i, np.argmax(x, axis=1).astype(np.int32))
