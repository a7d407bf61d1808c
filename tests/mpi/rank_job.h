// One job of ranks that are threads of this process (the in-process
// transport, meshvk/transport.h), for the rank tests: every rank's program
// on its own logical device set (all processes on physical device 0, as
// mpirun ranks on one machine), with Khronos validation on (the fixture).
#ifndef MESHVK_TESTS_MPI_RANK_JOB_H_
#define MESHVK_TESTS_MPI_RANK_JOB_H_

#include <memory>
#include <string>
#include <vector>

#include "meshvk/transport.h"
#include "program_runner.h"
#include "rank_program.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {

using meshvk_ranks::CreateOnRanks;

// One invoke of function 0 with host tensors.
meshvk_status_t InvokeWith(meshvk_program_t* program, const std::vector<HostTensor>& inputs,
                           std::vector<HostTensor>* outputs);

// The parts of a job; programs go first when it is destroyed (they use the
// hub's endpoints and the sets).
struct Job {
  std::vector<meshvk_transport_t> transports;
  std::unique_ptr<meshvk_in_process_hub_t, void (*)(meshvk_in_process_hub_t*)> hub{nullptr,
                                                                                   meshvk_transport_in_process_release};
  ModulePtr module;
  std::vector<meshvk_test::DeviceSet> sets;
  std::vector<ProgramPtr> programs;  // [rank], null for ranks not started
};

class JobTest : public meshvk_test::VulkanTest {
 protected:
  // Loads `artifact` and creates the programs of the ranks in `started`
  // (all when empty) for processes on rank process_rank[p], running their
  // collectives between ranks in `mode`; receives time out after
  // `timeout_ms` (0: 60 s). "" or the failure.
  std::string StartJob(const std::vector<uint8_t>& artifact, const std::vector<uint32_t>& process_rank, uint32_t ranks,
                       uint32_t timeout_ms, Job* job, const std::vector<uint32_t>& started = {},
                       meshvk_rank_collective_mode_t mode = MESHVK_RANK_COLLECTIVES_TRANSPORT);
  // A whole job invoked once, one thread per rank. Returns "" or the first
  // failure; rank 0's results in *outputs (sized by the caller), each rank's
  // transport stats in *stats.
  std::string RunJob(const std::vector<uint8_t>& artifact, const std::vector<uint32_t>& process_rank, uint32_t ranks,
                     const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs,
                     std::vector<meshvk_transport_stats_t>* stats,
                     meshvk_rank_collective_mode_t mode = MESHVK_RANK_COLLECTIVES_TRANSPORT);
};

}  // namespace meshvk_e2e

#endif  // MESHVK_TESTS_MPI_RANK_JOB_H_
