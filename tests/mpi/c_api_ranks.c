/* An application embedding meshvk through its C API only (C99), across the
 * ranks of an MPI job with the runtime's MPI transport:
 *   mpirun -np 2 c_api_ranks mlp_data_tensor_parallel.mvk
 * The 2x2 data x tensor parallel MLP, grid axis 0 across the ranks: each rank
 * runs its two processes; rank 0 gets the result and compares it with a host
 * loop; every rank ends with the job's code. Prints "PASS: ..." on rank 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "meshvk/meshvk.h"
#include "meshvk/trace.h"
#include "meshvk/transport_mpi.h"
#include "meshvk_environment.h"

enum { B = 32, D = 64, H = 128 };

static int Fail(meshvk_mpi_transport_t* mpi, const char* what, meshvk_status_t status) {
  fprintf(stderr, "c_api_ranks: %s: %s\n", what, meshvk_status_message(status));
  meshvk_status_free(status);
  meshvk_mpi_transport_abort(mpi, 3);
  return 3;
}

static float Value(unsigned i, unsigned salt) { return (float)((i * 2654435761u + salt * 40503u) % 17u) / 8.0f - 1.0f; }

int main(int argc, char** argv) {
  meshvk_mpi_transport_t* mpi = NULL;
  meshvk_status_t status = meshvk_mpi_transport_create(&argc, &argv, &mpi);
  if (status) {
    fprintf(stderr, "c_api_ranks: %s\n", meshvk_status_message(status));
    meshvk_status_free(status);
    return 2;
  }
  const meshvk_transport_t* transport = meshvk_mpi_transport_get(mpi);
  if (argc != 2 || transport->rank_count != 2) {
    fprintf(stderr, "usage: mpirun -np 2 c_api_ranks PROGRAM.mvk\n");
    meshvk_mpi_transport_abort(mpi, 2);
  }
  meshvk_module_t* module = NULL;
  if ((status = meshvk_module_load_file(argv[1], &module))) return Fail(mpi, "load", status);
  uint32_t process_rank[4], axes[2], axis_count = 0;
  if ((status = meshvk_module_rank_layout(module, 2, NULL, 0, process_rank, 4, axes, &axis_count)))
    return Fail(mpi, "rank layout", status);
  meshvk_instance_t* instance = NULL;
  if ((status = meshvk_environment_create_instance(&instance))) return Fail(mpi, "instance", status);
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.process_count = 4;
  meshvk_device_set_t* set = NULL;
  if ((status = meshvk_device_set_create(instance, &set_info, &set))) return Fail(mpi, "device set", status);
  meshvk_program_ranks_t ranks = MESHVK_PROGRAM_RANKS_INIT;
  ranks.transport = transport;
  ranks.process_rank = process_rank;
  meshvk_program_create_info_t create = MESHVK_PROGRAM_CREATE_INFO_INIT;
  create.next = &ranks;
  create.module = module;
  create.set = set;
  meshvk_program_t* program = NULL;
  if ((status = meshvk_program_create_with_info(&create, &program))) return Fail(mpi, "program", status);

  static float x[B * D], w1[D * H], w2[H * D], y[B * D];
  for (unsigned i = 0; i < B * D; ++i) x[i] = Value(i, 1);
  for (unsigned i = 0; i < D * H; ++i) w1[i] = Value(i, 2);
  for (unsigned i = 0; i < H * D; ++i) w2[i] = Value(i, 3);
  meshvk_host_input_t inputs[3] = {{x, sizeof x}, {w1, sizeof w1}, {w2, sizeof w2}};
  meshvk_host_output_t outputs[1] = {{y, sizeof y}};
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  invoke.inputs = inputs;
  invoke.input_count = 3;
  invoke.outputs = transport->rank == 0 ? outputs : NULL;
  invoke.output_count = 1;
  if ((status = meshvk_program_invoke(program, &invoke))) return Fail(mpi, "invoke", status);

  int failed = 0;
  if (transport->rank == 0) {
    double worst = 0;
    for (unsigned b = 0; b < B; ++b)
      for (unsigned o = 0; o < D; ++o) {
        double sum = 0;
        for (unsigned h = 0; h < H; ++h) {
          double v = 0;
          for (unsigned d = 0; d < D; ++d) v += (double)x[b * D + d] * w1[d * H + h];
          sum += (v > 0 ? v : 0) * w2[h * D + o];
        }
        double error = fabs(sum - y[b * D + o]);
        if (error > worst) worst = error;
      }
    failed = worst > 1e-3;
    printf("%s: 2x2 grid over 2 ranks (rank axes: %u axis, axis %u), max error %g vs the host loop\n",
           failed ? "FAIL" : "PASS", axis_count, axes[0], worst);
  }
  meshvk_mpi_transport_stats_t stats = MESHVK_MPI_TRANSPORT_STATS_INIT;
  meshvk_status_free(meshvk_mpi_transport_stats(mpi, &stats));
  if (stats.bytes_sent == 0 && stats.bytes_received == 0) {
    fprintf(stderr, "c_api_ranks: rank %u moved no bytes through MPI\n", transport->rank);
    failed = 1;
  }
  meshvk_program_release(program);
  meshvk_device_set_release(set);
  meshvk_instance_release(instance);
  meshvk_module_release(module);
  int code = meshvk_mpi_transport_agree(mpi, failed, NULL);
  meshvk_mpi_transport_release(mpi);
  return code;
}
