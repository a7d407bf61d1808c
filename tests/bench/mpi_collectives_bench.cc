// all_reduce and all_gather between 2 MPI ranks through meshvk, against plain
// MPI_Allreduce / MPI_Allgather on host buffers of the same size, in the same
// run. Start with `mpirun -np 2 meshvk_mpi_bench [MiB...]` (default 1 16 128).
//
// The programs (generated below for each size, compiled in-process for a grid
// of 2, one process per rank):
//  * all_reduce: s = sum over the split dimension 0 of x[2 x R]: each rank's
//    partial (R floats = the size) is combined by the compiler's all_reduce;
//  * all_gather: y = -x with x split in 2 and y replicated: each rank holds
//    half and gathers the other half (the size is y's).
// meshvk's time for the collective is the host time the program spends in
// staging bytes out of / into device memory and in MPI calls (the invoke's
// meshvk_transport_stats_t::host_ns, maximum over the ranks); the kernels
// around it (the elementwise op, the reduction's add) are not counted. The
// reference is the wall time of the MPI call after a barrier, maximum over the
// ranks. Ratio = MPI time / meshvk time (1.0: as fast as plain MPI on host
// memory). Medians of 5 runs after a warm-up.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk/transport.h"
#include "mpi_session.h"

namespace {

constexpr int kRuns = 5;

// meshvk_program_create_with_info for one rank of a job.
meshvk_status_t CreateOnRanks(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
                              meshvk_program_t** out) {
  meshvk_program_create_info_t info{};
  info.module = module;
  info.set = set;
  info.ranks = ranks;
  return meshvk_program_create_with_info(&info, out);
}

std::string AllReduceProgram(uint64_t floats) {
  std::string r = std::to_string(floats);
  return "shard.grid @grid(shape = 2)\n"
         "func.func @main(%x: tensor<2x" +
         r + "xf32>) -> tensor<" + r +
         "xf32> {\n"
         "  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding\n"
         "  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding\n"
         "  %x_s = shard.shard %x to %rows annotate_for_users : tensor<2x" +
         r +
         "xf32>\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %init = tensor.empty() : tensor<" +
         r +
         "xf32>\n"
         "  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<" +
         r + "xf32>) -> tensor<" + r +
         "xf32>\n"
         "  %s = linalg.reduce ins(%x_s : tensor<2x" +
         r + "xf32>) outs(%acc : tensor<" + r +
         "xf32>) dimensions = [0]\n"
         "    (%in: f32, %out: f32) {\n"
         "      %sum = arith.addf %in, %out : f32\n"
         "      linalg.yield %sum : f32\n"
         "    }\n"
         "  %s_r = shard.shard %s to %rep : tensor<" +
         r +
         "xf32>\n"
         "  return %s_r : tensor<" +
         r +
         "xf32>\n"
         "}\n";
}

std::string AllGatherProgram(uint64_t floats) {
  std::string n = std::to_string(floats);
  return "shard.grid @grid(shape = 2)\n"
         "func.func @main(%x: tensor<" +
         n + "xf32>) -> tensor<" + n +
         "xf32> {\n"
         "  %half = shard.sharding @grid split_axes = [[0]] : !shard.sharding\n"
         "  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding\n"
         "  %x_s = shard.shard %x to %half annotate_for_users : tensor<" +
         n +
         "xf32>\n"
         "  %init = tensor.empty() : tensor<" +
         n +
         "xf32>\n"
         "  %y = linalg.map { arith.negf } ins(%x_s : tensor<" +
         n + "xf32>) outs(%init : tensor<" + n +
         "xf32>)\n"
         "  %y_r = shard.shard %y to %rep : tensor<" +
         n +
         "xf32>\n"
         "  return %y_r : tensor<" +
         n +
         "xf32>\n"
         "}\n";
}

double MaxOverRanks(double value) {
  double out = value;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

bool Check(meshvk_status_t status, const char* what) {
  if (!status) return true;
  std::fprintf(stderr, "meshvk_mpi_bench: %s: %s\n", what, meshvk_status_message(status));
  meshvk_status_free(status);
  return false;
}

// Median seconds of the collective through meshvk; *sent: bytes rank 0 sent.
bool MeshvkSeconds(meshvk_instance_t* instance, const meshvk_run::MpiSession& mpi, const std::string& source,
                   uint64_t input_bytes, double* seconds, uint64_t* sent) {
  meshvk::ProgramOptions options;
  meshvk::CompiledProgram compiled;
  std::string error = meshvk::compileProgramSource(source, "bench.mlir", options, &compiled);
  if (!error.empty()) {
    std::fprintf(stderr, "meshvk_mpi_bench: compile: %s\n", error.c_str());
    return false;
  }
  meshvk_module_t* module = nullptr;
  if (!Check(meshvk_module_load(compiled.artifact.data(), compiled.artifact.size(), &module), "load")) return false;
  std::unique_ptr<meshvk_module_t, void (*)(meshvk_module_t*)> module_owner(module, meshvk_module_release);
  std::vector<uint32_t> on_device0 = {0, 0}, process_rank = {0, 1};
  meshvk_device_set_create_info_t set_info{};
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = 2;
  set_info.process_devices = on_device0.data();
  meshvk_device_set_t* set = nullptr;
  if (!Check(meshvk_device_set_create(instance, &set_info, &set), "device set")) return false;
  std::unique_ptr<meshvk_device_set_t, void (*)(meshvk_device_set_t*)> set_owner(set, meshvk_device_set_release);
  meshvk_program_ranks_t ranks{mpi.transport(), process_rank.data(), 0};
  meshvk_program_t* program = nullptr;
  if (!Check(CreateOnRanks(module, set, &ranks, &program), "program")) return false;
  std::unique_ptr<meshvk_program_t, void (*)(meshvk_program_t*)> program_owner(program, meshvk_program_release);
  std::vector<float> x(input_bytes / sizeof(float), 1.0f);
  meshvk_host_input_t input{x.data(), input_bytes};
  meshvk_invoke_info_t invoke{};
  invoke.inputs = &input;
  invoke.input_count = 1;
  invoke.flags = MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT;  // the collective, not the gather to rank 0
  std::vector<double> runs;
  for (int run = 0; run <= kRuns; ++run) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (!Check(meshvk_program_invoke(program, &invoke), "invoke")) return false;
    meshvk_transport_stats_t stats{};
    meshvk_program_transport_stats(program, &stats);
    double s = MaxOverRanks(stats.host_ns / 1e9);
    if (run > 0) runs.push_back(s);  // run 0 warms up
    *sent = stats.bytes_sent;
  }
  *seconds = Median(runs);
  return true;
}

template <typename Call>
double MpiSeconds(Call call) {
  std::vector<double> runs;
  for (int run = 0; run <= kRuns; ++run) {
    MPI_Barrier(MPI_COMM_WORLD);
    auto start = std::chrono::steady_clock::now();
    call();
    double s = MaxOverRanks(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (run > 0) runs.push_back(s);
  }
  return Median(runs);
}

}  // namespace

int main(int argc, char** argv) {
  std::string error;
  std::unique_ptr<meshvk_run::MpiSession> mpi = meshvk_run::MpiSession::Start(&argc, &argv, &error);
  if (!mpi) {
    std::fprintf(stderr, "meshvk_mpi_bench: %s\n", error.c_str());
    return 2;
  }
  if (mpi->size() != 2) {
    std::fprintf(stderr, "meshvk_mpi_bench: start it with mpirun -np 2 (got %u ranks)\n", mpi->size());
    mpi->Abort(2);
  }
  std::vector<uint64_t> mib = {1, 16, 128};
  if (argc > 1) {
    mib.clear();
    for (int i = 1; i < argc; ++i) mib.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  meshvk_instance_t* instance = nullptr;
  if (!Check(meshvk_instance_create(nullptr, &instance), "instance")) mpi->Abort(3);
  const bool root = mpi->rank() == 0;
  if (root)
    std::printf("%-10s %8s %14s %14s %14s %8s %16s\n", "collective", "MiB", "meshvk ms", "MPI ms", "MPI GB/s", "ratio",
                "meshvk sent/rank");
  for (const char* kind : {"all_reduce", "all_gather"}) {
    for (uint64_t m : mib) {
      const uint64_t bytes = m << 20, floats = bytes / sizeof(float);
      const bool reduce = std::string(kind) == "all_reduce";
      double meshvk_s = 0;
      uint64_t sent = 0;
      if (!MeshvkSeconds(instance, *mpi, reduce ? AllReduceProgram(floats) : AllGatherProgram(floats),
                         reduce ? 2 * bytes : bytes, &meshvk_s, &sent))
        mpi->Abort(3);
      std::vector<float> in(reduce ? floats : floats / 2, 1.0f), out(floats);
      double mpi_s = MpiSeconds([&] {
        if (reduce)
          MPI_Allreduce(in.data(), out.data(), static_cast<int>(floats), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        else
          MPI_Allgather(in.data(), static_cast<int>(floats / 2), MPI_FLOAT, out.data(), static_cast<int>(floats / 2),
                        MPI_FLOAT, MPI_COMM_WORLD);
      });
      if (root)
        std::printf("%-10s %8llu %14.3f %14.3f %14.2f %8.2f %16llu\n", kind, static_cast<unsigned long long>(m),
                    meshvk_s * 1e3, mpi_s * 1e3, bytes / mpi_s / 1e9, mpi_s / meshvk_s,
                    static_cast<unsigned long long>(sent));
      std::fflush(stdout);
    }
  }
  meshvk_instance_release(instance);
  return 0;
}
