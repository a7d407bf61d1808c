"""One rank of an MPI job (started by test_mpi_ranks.py with mpirun -np 2).

The data x tensor parallel MLP of samples/programs on its 2x2 grid, with grid
axis 0 (the batch) across the ranks and axis 1 (the tensor split) inside each
rank: every rank creates the same Runtime, loads the program, calls it with
the same arguments and gets the whole result, which it checks against numpy.
argv[1]: the sample's path; argv[2] (optional): rank_axes as "0" or "1".
"""
import sys

import numpy as np

import meshvk


def main():
    path = sys.argv[1]
    axes = [int(a) for a in sys.argv[2].split(",")] if len(sys.argv) > 2 else None
    rt = meshvk.Runtime(validation=True, rank_axes=axes)  # ranks: the launcher's
    fn = rt.load(path)
    rng = np.random.default_rng(7)  # the same arguments on every rank
    x = rng.standard_normal((32, 64), dtype=np.float32)
    w1 = rng.standard_normal((64, 128), dtype=np.float32)
    w2 = rng.standard_normal((128, 64), dtype=np.float32)
    expected = np.maximum(x.astype(np.float64) @ w1, 0) @ w2
    for call in range(2):  # a second call reuses the program and the transport
        y = fn(x, w1, w2)
        error = float(np.max(np.abs(y - expected)))
        if not error <= 1e-3 * max(1.0, float(np.max(np.abs(expected)))):
            print("rank %d: call %d: max error %g" % (rt.rank, call, error), flush=True)
            return 1
    # Each rank holds only its own shards: results cannot stay on the devices.
    try:
        fn(x, w1, w2, keep_on_device=True)
        print("rank %d: keep_on_device over ranks was not refused" % rt.rank, flush=True)
        return 1
    except meshvk.UnimplementedError as e:
        if not str(e).startswith("DeviceTensors over MPI ranks"):
            print("rank %d: unexpected message: %s" % (rt.rank, e), flush=True)
            return 1
    if rt.validation_messages:
        print("rank %d: validation: %s" % (rt.rank, rt.validation_messages[0]), flush=True)
        return 1
    print("rank %d of %d: PASS (%r, max error %.2g)" % (rt.rank, rt.rank_count, rt, error), flush=True)
    rt.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
