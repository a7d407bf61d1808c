#include "rank_job.h"

#include <thread>

namespace meshvk_e2e {
meshvk_status_t InvokeWith(meshvk_program_t* program, const std::vector<HostTensor>& inputs,
                           std::vector<HostTensor>* outputs) {
  std::vector<meshvk_host_input_t> in;
  for (const HostTensor& t : inputs) in.push_back({t.data(), t.bytes()});
  std::vector<meshvk_host_output_t> out;
  for (HostTensor& t : *outputs) out.push_back({t.data(), t.bytes()});
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
  invoke.inputs = in.data();
  invoke.input_count = static_cast<uint32_t>(in.size());
  invoke.outputs = out.data();
  invoke.output_count = static_cast<uint32_t>(out.size());
  return meshvk_program_invoke(program, &invoke);
}

std::string JobTest::StartJob(const std::vector<uint8_t>& artifact, const std::vector<uint32_t>& process_rank,
                              uint32_t ranks, uint32_t timeout_ms, Job* job, const std::vector<uint32_t>& started,
                              meshvk_rank_collective_mode_t mode) {
  job->transports.resize(ranks);
  meshvk_in_process_hub_t* hub = nullptr;
  const meshvk_timeout_t timeout = (timeout_ms ? timeout_ms : 60000) * 1000000ull;
  if (meshvk_status_t s = meshvk_transport_in_process_create(ranks, timeout, job->transports.data(), &hub))
    return meshvk_test::StatusText(s);
  job->hub.reset(hub);
  meshvk_module_t* module = nullptr;
  if (meshvk_status_t s = meshvk_module_load(artifact.data(), artifact.size(), &module))
    return meshvk_test::StatusText(s);
  job->module.reset(module);
  const uint32_t P = static_cast<uint32_t>(process_rank.size());
  std::vector<uint32_t> on_device0(P, 0);
  job->programs.resize(ranks);
  for (uint32_t r = 0; r < ranks; ++r) {
    if (!started.empty() && std::find(started.begin(), started.end(), r) == started.end()) continue;
    job->sets.push_back(MakeSet(MESHVK_TOPOLOGY_LOGICAL, P, on_device0.data()));
    if (!job->sets.back()) return "no device set";
    meshvk_program_ranks_t map = MESHVK_PROGRAM_RANKS_INIT;
    map.transport = &job->transports[r];
    map.process_rank = process_rank.data();
    map.collectives = mode;
    meshvk_program_t* program = nullptr;
    if (meshvk_status_t s = CreateOnRanks(module, job->sets.back().get(), &map, &program))
      return meshvk_test::StatusText(s);
    job->programs[r].reset(program);
  }
  return "";
}

std::string JobTest::RunJob(const std::vector<uint8_t>& artifact, const std::vector<uint32_t>& process_rank,
                            uint32_t ranks, const std::vector<HostTensor>& inputs, std::vector<HostTensor>* outputs,
                            std::vector<meshvk_transport_stats_t>* stats, meshvk_rank_collective_mode_t mode) {
  Job job;
  if (std::string error = StartJob(artifact, process_rank, ranks, 20000, &job, {}, mode); !error.empty()) return error;
  std::vector<std::vector<HostTensor>> results(ranks, *outputs);
  std::vector<std::string> errors(ranks);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < ranks; ++r)
    threads.emplace_back(
        [&, r] { errors[r] = meshvk_test::StatusText(InvokeWith(job.programs[r].get(), inputs, &results[r])); });
  for (std::thread& t : threads) t.join();
  stats->assign(ranks, meshvk_transport_stats_t MESHVK_TRANSPORT_STATS_INIT);
  for (uint32_t r = 0; r < ranks; ++r) {
    if (!errors[r].empty()) return "rank " + std::to_string(r) + ": " + errors[r];
    meshvk_status_free(meshvk_program_transport_stats(job.programs[r].get(), &(*stats)[r]));
  }
  *outputs = std::move(results[0]);
  return "";
}

}  // namespace meshvk_e2e
