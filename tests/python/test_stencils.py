"""Stencils written on the global tensor (tensor.pad + tensor.extract_slice windows) through the Python
package: results against numpy (np.pad + slicing), and the bytes each process pulls against a count made
here from numpy.array_split's shard boundaries: only the border rows the windows reach, never the whole
split dimension (issue #12, halos)."""
import numpy as np
import pytest

import meshvk

BLUR = """
shard.grid @g(shape = 4)
func.func @main(%x: tensor<ROWSx32xf32>) -> tensor<ROWSx32xf32> {
  %s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %xs = shard.shard %x to %s annotate_for_users : tensor<ROWSx32xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<ROWSx32xf32> to tensor<PADDEDx32xf32>
  %up = tensor.extract_slice %p[0, 0] [ROWS, 32] [1, 1] : tensor<PADDEDx32xf32> to tensor<ROWSx32xf32>
  %mid = tensor.extract_slice %p[1, 0] [ROWS, 32] [1, 1] : tensor<PADDEDx32xf32> to tensor<ROWSx32xf32>
  %dn = tensor.extract_slice %p[2, 0] [ROWS, 32] [1, 1] : tensor<PADDEDx32xf32> to tensor<ROWSx32xf32>
  %e = tensor.empty() : tensor<ROWSx32xf32>
  %a = linalg.sub ins(%up, %mid : tensor<ROWSx32xf32>, tensor<ROWSx32xf32>) outs(%e : tensor<ROWSx32xf32>) -> tensor<ROWSx32xf32>
  %e2 = tensor.empty() : tensor<ROWSx32xf32>
  %y = linalg.mul ins(%a, %dn : tensor<ROWSx32xf32>, tensor<ROWSx32xf32>) outs(%e2 : tensor<ROWSx32xf32>) -> tensor<ROWSx32xf32>
  %ys = shard.shard %y to %s : tensor<ROWSx32xf32>
  return %ys : tensor<ROWSx32xf32>
}
"""


def blur(rows):
    return BLUR.replace("PADDED", str(rows + 2)).replace("ROWS", str(rows))


@pytest.mark.parametrize("rows,devices", [(64, 4), (64, 2), (64, 1), (10, 4), (10, 3)])
def test_blur_rows(make_runtime, rng, rows, devices):
    program = meshvk.compile(blur(rows), grid_shape=devices, name="blur_%d.mlir" % rows)
    collectives = program.plan["collectives"]
    assert [c["kind"] for c in collectives] == ["window", "window"]  # up and down; no all_gather
    # Bytes process p pulls: the rows of its shifted windows that another shard holds (32 f32 each).
    shards = np.array_split(np.arange(rows), devices)
    expected = []
    for own in shards:
        wanted = [r for shift in (-1, 1) for r in own + shift if 0 <= r < rows and r not in own]
        expected.append(128 * len(wanted))
    pulled = [sum(c["pulled_bytes"][p] for c in collectives) for p in range(devices)]
    assert pulled == expected
    x = rng.uniform(-1.0, 1.0, size=(rows, 32)).astype(np.float32)
    p = np.pad(x, ((1, 1), (0, 0)))
    y_expected = (p[0:rows] - p[1:rows + 1]) * p[2:rows + 2]
    y = make_runtime(devices=devices).load(program)["main"](x)
    np.testing.assert_allclose(y, y_expected, rtol=1e-6, atol=1e-6)
