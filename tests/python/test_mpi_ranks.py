"""meshvk.Runtime across the ranks of an MPI job: mpirun -np 2 of ranks_job.py.

Skipped where mpirun or the MPI transport is missing (a build without MPI).
"""
import os
import shutil
import subprocess
import sys

import pytest

import meshvk

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "samples", "programs", "mlp_data_tensor_parallel.mlir")
MPIRUN = shutil.which("mpirun")

pytestmark = pytest.mark.skipif(MPIRUN is None, reason="mpirun not found (Debian openmpi-bin)")


def run_job(*args, ranks=2, timeout=240):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    return subprocess.run([MPIRUN, "--oversubscribe", "-np", str(ranks), sys.executable,
                           os.path.join(HERE, "ranks_job.py"), SAMPLE, *args],
                          env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("axes", [[], ["0"], ["1"]], ids=["default", "axis0", "axis1"])
def test_every_rank_gets_the_numpy_result(axes):
    job = run_job(*axes)
    assert job.returncode == 0, job.stdout + job.stderr
    for rank in range(2):
        assert "rank %d of 2: PASS" % rank in job.stdout, job.stdout + job.stderr


def test_axes_that_do_not_fit_the_ranks_fail_on_every_rank_with_one_line():
    job = run_job("0,1")  # 4 processes on those axes, 2 ranks
    assert job.returncode != 0
    assert "axes 0,1 of the 2x2 grid hold 4 processes, but there are 2 ranks" in job.stdout + job.stderr


def test_outside_mpirun_a_runtime_is_one_rank():
    rt = meshvk.Runtime(devices=1)
    assert (rt.rank, rt.rank_count) == (0, 1)
    with pytest.raises(meshvk.InvalidArgumentError, match="rank_axes: only for a Runtime over the ranks"):
        meshvk.Runtime(rank_axes=[0])
    with pytest.raises(meshvk.InvalidArgumentError, match="ranks: None, True or False"):
        meshvk.Runtime(ranks="mpi")
    rt.close()
