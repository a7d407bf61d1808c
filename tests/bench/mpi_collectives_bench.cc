// all_reduce and all_gather between MPI ranks through meshvk, against plain
// MPI_Allreduce / MPI_Allgather on host buffers of the same size, in the same
// run. Start with `mpirun -np R meshvk_mpi_bench [MiB...]` (R = 2 or 4;
// default sizes 1 16 128).
//
// The programs (generated below for each size, compiled in-process):
//  * all_reduce: s = sum over the split dimension 0 of x[P x N]: each
//    process's partial (N floats = the size) is combined by the compiler's
//    all_reduce. Layouts: one process per rank (grid R) and two local
//    devices per rank (grid 2R, processes 2r, 2r+1 on rank r: the mixed case
//    a hierarchical collective is for). Paths: `transport` (the runtime's
//    host step: reduce within the rank, MPI_Allreduce among the ranks,
//    in lavapipe's host-mapped device memory), `staged`
//    (MESHVK_RANK_COLLECTIVES_STAGED: the same through host buffers, as on
//    device-local memory) and `copies` (MESHVK_RANK_COLLECTIVES_COPIES: the
//    compiler's copies, point to point between ranks, as before).
//  * all_gather: y = -x with x split over the grid and y replicated: each
//    rank holds 1/R and gathers the rest (the size is y's). Same layouts;
//    paths `transport` (host-mapped memory: each rank's blocks sent by MPI
//    from where the kernels wrote them, each other block received straight
//    into the landing buffer its local copies read: all_gather_pieces),
//    `staged` (each rank's blocks staged out once, one MPI_Allgatherv among
//    the ranks, each received block written into the landing buffers) and
//    `copies` (the compiler's copies point to point: with 2 devices per rank
//    each remote block crosses twice).
// meshvk's time for the collective is the host time the program spends in
// staging bytes out of / into device memory, reducing on the host and in MPI
// calls (the invoke's meshvk_transport_stats_t::host_ns); the kernels around
// it are not counted. Inside an invoke the ranks reach the collective when
// their own kernels finish, so the first to arrive also waits for the
// others' kernels inside the MPI call: the time used for the ratio is the
// rank that spent the least (the last to arrive: the collective's own time,
// as the reference's barrier gives MPI), and "(max ms)" shows the most any
// rank spent, waiting included. The reference is the wall time of the MPI
// call after a barrier, maximum over the ranks. Ratio = MPI time / meshvk
// time (1.0: as fast as plain MPI on host memory). Bytes: the most any rank
// handed to the transport (an MPI_Allreduce counted as a ring,
// meshvk_transport_ring_bytes; a block of an MPI_Allgatherv once per rank
// receiving it). Staged: the bytes the host copied into / out of device
// memory for the transport (meshvk_transport_stats_t::staged_bytes, the most
// any rank copied). Medians of 5 runs after a warm-up. Each case checks its
// result on every rank (all inputs are 1), so the smoke test under ctest is
// a correctness check of each path too.
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
#include "meshvk/transport_mpi.h"
#include "meshvk_environment.h"
#include "rank_program.h"

namespace {

constexpr int kRuns = 5;

std::string AllReduceProgram(uint32_t processes, uint64_t floats) {
  std::string r = std::to_string(floats), p = std::to_string(processes);
  return "shard.grid @grid(shape = " + p +
         ")\n"
         "func.func @main(%x: tensor<" +
         p + "x" + r + "xf32>) -> tensor<" + r +
         "xf32> {\n"
         "  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding\n"
         "  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding\n"
         "  %x_s = shard.shard %x to %rows annotate_for_users : tensor<" +
         p + "x" + r +
         "xf32>\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %init = tensor.empty() : tensor<" +
         r +
         "xf32>\n"
         "  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<" +
         r + "xf32>) -> tensor<" + r +
         "xf32>\n"
         "  %s = linalg.reduce ins(%x_s : tensor<" +
         p + "x" + r + "xf32>) outs(%acc : tensor<" + r +
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

std::string AllGatherProgram(uint32_t processes, uint64_t floats) {
  std::string n = std::to_string(floats);
  return "shard.grid @grid(shape = " + std::to_string(processes) +
         ")\n"
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

double MinOverRanks(double value) {
  double out = value;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
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

struct Measured {
  double seconds = 0;               // the rank that arrived last (the least host time): the collective's own time
  double max_seconds = 0;           // the most any rank spent (includes waiting for a peer's kernels)
  uint64_t sent = 0, received = 0;  // the most any rank sent / received
  uint64_t staged = 0;              // the most any rank copied into / out of device memory
};

// Median seconds of the collective through meshvk with processes p on rank
// process_rank[p], all on this rank's device 0.
bool MeshvkSeconds(meshvk_instance_t* instance, const meshvk_transport_t& mpi, const std::string& source,
                   const std::vector<uint32_t>& process_rank, meshvk_rank_collective_mode_t mode, uint64_t input_bytes,
                   float expected, Measured* out) {
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
  const uint32_t P = static_cast<uint32_t>(process_rank.size());
  std::vector<uint32_t> on_device0(P, 0);
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = P;
  set_info.process_devices = on_device0.data();
  meshvk_device_set_t* set = nullptr;
  if (!Check(meshvk_device_set_create(instance, &set_info, &set), "device set")) return false;
  std::unique_ptr<meshvk_device_set_t, void (*)(meshvk_device_set_t*)> set_owner(set, meshvk_device_set_release);
  meshvk_program_ranks_t ranks = MESHVK_PROGRAM_RANKS_INIT;
  ranks.transport = &mpi;
  ranks.process_rank = process_rank.data();
  ranks.collectives = mode;
  meshvk_program_t* program = nullptr;
  if (!Check(meshvk_ranks::CreateOnRanks(module, set, &ranks, &program), "program")) return false;
  std::unique_ptr<meshvk_program_t, void (*)(meshvk_program_t*)> program_owner(program, meshvk_program_release);
  std::vector<float> x(input_bytes / sizeof(float), 1.0f);
  meshvk_host_input_t input{x.data(), input_bytes};
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  invoke.inputs = &input;
  invoke.input_count = 1;
  invoke.flags = MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT;  // the collective, not the gather to rank 0
  std::vector<double> runs, max_runs;
  for (int run = 0; run <= kRuns; ++run) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (!Check(meshvk_program_invoke(program, &invoke), "invoke")) return false;
    meshvk_transport_stats_t stats = MESHVK_TRANSPORT_STATS_INIT;
    meshvk_status_free(meshvk_program_transport_stats(program, &stats));
    double s = MinOverRanks(stats.host_ns / 1e9), max_s = MaxOverRanks(stats.host_ns / 1e9);
    if (run > 0) runs.push_back(s);  // run 0 warms up
    if (run > 0) max_runs.push_back(max_s);
    out->sent = static_cast<uint64_t>(MaxOverRanks(static_cast<double>(stats.bytes_sent)));
    out->received = static_cast<uint64_t>(MaxOverRanks(static_cast<double>(stats.bytes_received)));
    out->staged = static_cast<uint64_t>(MaxOverRanks(static_cast<double>(stats.staged_bytes)));
  }
  out->seconds = Median(runs);
  out->max_seconds = Median(max_runs);
  // The result on this rank's first process: every element must be
  // `expected` (inputs are all 1: the sum of P partials, or -1 gathered).
  meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
  for (uint32_t shard = 0; view.buffer == nullptr; ++shard) {
    if (!Check(meshvk_program_result_shard(program, 0, 0, shard, &view), "result shard")) return false;
    if (process_rank[view.process] != mpi.rank) view.buffer = nullptr;
  }
  uint64_t count = 1;
  for (uint32_t d = 0; d < view.rank; ++d) count *= view.shape[d];
  std::vector<float> result(count);
  if (!Check(meshvk_buffer_read(view.buffer, view.offset, result.data(), count * sizeof(float)), "read result"))
    return false;
  for (uint64_t i = 0; i < count; ++i)
    if (result[i] != expected) {
      std::fprintf(stderr, "meshvk_mpi_bench: rank %u: result[%llu] = %g, expected %g\n", mpi.rank,
                   static_cast<unsigned long long>(i), result[i], expected);
      return false;
    }
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
  meshvk_mpi_transport_t* mpi = nullptr;
  if (meshvk_status_t status = meshvk_mpi_transport_create(&argc, &argv, &mpi)) {
    std::fprintf(stderr, "meshvk_mpi_bench: %s\n", meshvk_status_message(status));
    meshvk_status_free(status);
    return 2;
  }
  const meshvk_transport_t& transport = *meshvk_mpi_transport_get(mpi);
  const uint32_t R = transport.rank_count;
  if (R < 2) {
    std::fprintf(stderr, "meshvk_mpi_bench: start it with mpirun -np 2 or 4 (got %u ranks)\n", R);
    meshvk_mpi_transport_abort(mpi, 2);
  }
  std::vector<uint64_t> mib = {1, 16, 128};
  if (argc > 1) {
    mib.clear();
    for (int i = 1; i < argc; ++i) mib.push_back(std::strtoull(argv[i], nullptr, 10));
  }
  meshvk_instance_t* instance = nullptr;
  if (!Check(meshvk_environment_create_instance(&instance), "instance")) meshvk_mpi_transport_abort(mpi, 3);
  const bool root = transport.rank == 0;
  if (root)
    std::printf("%u ranks\n%-10s %-12s %-9s %6s %11s %11s %11s %8s %8s %14s %14s %14s\n", R, "collective", "layout",
                "path", "MiB", "meshvk ms", "(max ms)", "MPI ms", "MPI GB/s", "ratio", "sent/rank", "received/rank",
                "staged/rank");
  struct Case {
    const char* kind;
    uint32_t local;    // processes per rank
    const char* path;  // MESHVK_RANK_COLLECTIVES
  };
  const Case cases[] = {{"all_reduce", 1, "transport"}, {"all_reduce", 1, "copies"}, {"all_reduce", 2, "transport"},
                        {"all_reduce", 2, "staged"},    {"all_reduce", 2, "copies"}, {"all_gather", 1, "transport"},
                        {"all_gather", 1, "staged"},    {"all_gather", 1, "copies"}, {"all_gather", 2, "transport"},
                        {"all_gather", 2, "staged"},    {"all_gather", 2, "copies"}};
  for (const Case& c : cases) {
    for (uint64_t m : mib) {
      const uint64_t bytes = m << 20, floats = bytes / sizeof(float);
      const bool reduce = std::string(c.kind) == "all_reduce";
      const uint32_t P = R * c.local;
      std::vector<uint32_t> process_rank(P);
      for (uint32_t p = 0; p < P; ++p) process_rank[p] = p / c.local;
      Measured measured;
      if (!MeshvkSeconds(instance, transport, reduce ? AllReduceProgram(P, floats) : AllGatherProgram(P, floats),
                         process_rank, meshvk_ranks::RankMode(c.path), reduce ? P * bytes : bytes,
                         reduce ? static_cast<float>(P) : -1.0f, &measured))
        meshvk_mpi_transport_abort(mpi, 3);
      std::vector<float> in(reduce ? floats : floats / R, 1.0f), out(floats);
      double mpi_s = MpiSeconds([&] {
        if (reduce)
          MPI_Allreduce(in.data(), out.data(), static_cast<int>(floats), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        else
          MPI_Allgather(in.data(), static_cast<int>(floats / R), MPI_FLOAT, out.data(), static_cast<int>(floats / R),
                        MPI_FLOAT, MPI_COMM_WORLD);
      });
      const std::string layout = std::to_string(R) + "r x " + std::to_string(c.local) + "d";
      if (root)
        std::printf("%-10s %-12s %-9s %6llu %11.3f %11.3f %11.3f %8.2f %8.2f %14llu %14llu %14llu\n", c.kind,
                    layout.c_str(), c.path, static_cast<unsigned long long>(m), measured.seconds * 1e3,
                    measured.max_seconds * 1e3, mpi_s * 1e3, bytes / mpi_s / 1e9, mpi_s / measured.seconds,
                    static_cast<unsigned long long>(measured.sent), static_cast<unsigned long long>(measured.received),
                    static_cast<unsigned long long>(measured.staged));
      std::fflush(stdout);
    }
  }
  meshvk_instance_release(instance);
  meshvk_mpi_transport_release(mpi);
  return 0;
}
