// Grid processes spread over ranks that are threads of this process, through
// the in-process transport (meshvk/transport.h): the executor path mpirun runs
// (landing buffers, sends after the producer, results gathered to rank 0),
// with Khronos validation + synchronization validation on (any message
// fails). Every sample on grids 2, 4 and 2x2, each process -> rank map where
// a rank axis fits; rank 0's results against the host loops of samples.cc,
// and the bytes handed to the transport against meshvk_module_rank_bytes.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "meshvk/transport.h"
#include "program_runner.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

constexpr uint32_t kSeed = 20261130;
constexpr double kAtol = 1e-3, kRtol = 1e-4;

// meshvk_program_create_with_info for one rank of a job.
meshvk_status_t CreateOnRanks(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
                              meshvk_program_t** out) {
  meshvk_program_create_info_t info{};
  info.module = module;
  info.set = set;
  info.ranks = ranks;
  return meshvk_program_create_with_info(&info, out);
}

struct Case {
  std::string sample, grid, name;
  std::vector<uint32_t> process_rank;  // row-major processes -> rank
  uint32_t ranks;
};

std::vector<Case> AllCases() {
  // Written out by hand (not computed by mesh-vk-run's layout code): the rank
  // of each row-major process for the axes named.
  const std::vector<Case> layouts = {
      {"", "2", "ranks2", {0, 1}, 2},
      {"", "4", "ranks2_of_4", {0, 0, 1, 1}, 2},
      {"", "4", "ranks4", {0, 1, 2, 3}, 4},
      {"", "2x2", "ranks_axis0", {0, 0, 1, 1}, 2},
      {"", "2x2", "ranks_axis1", {0, 1, 0, 1}, 2},
      {"", "2x2", "ranks4", {0, 1, 2, 3}, 4},
  };
  std::vector<Case> cases;
  for (const Sample& s : Samples())
    for (Case c : layouts)
      for (const std::string& g : s.grids)
        if (g == c.grid) {
          c.sample = s.name;
          cases.push_back(c);
        }
  return cases;
}

class RanksTest : public meshvk_test::VulkanTest, public ::testing::WithParamInterface<Case> {};

TEST_P(RanksTest, RankZeroGathersTheHostLoopResult) {
  const Case& c = GetParam();
  const Sample& sample = SampleNamed(c.sample);
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample(c.sample, c.grid, &compiled), "");
  const uint32_t P = ProcessCount(c.grid);
  const std::vector<HostTensor> inputs = sample.make_inputs(kSeed);
  const std::vector<HostTensor> expected = sample.reference(inputs);

  std::vector<meshvk_transport_t> transports(c.ranks);
  meshvk_in_process_hub_t* hub = nullptr;
  MESHVK_ASSERT_OK(meshvk_transport_in_process_create(c.ranks, 20000, transports.data(), &hub));
  std::unique_ptr<meshvk_in_process_hub_t, void (*)(meshvk_in_process_hub_t*)> hub_owner(
      hub, meshvk_transport_in_process_destroy);

  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled->artifact.data(), compiled->artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<uint64_t> plan_sent(c.ranks), plan_received(c.ranks);
  MESHVK_ASSERT_OK(meshvk_module_rank_bytes(module.get(), 0, c.process_rank.data(), c.ranks, 0, plan_sent.data(),
                                            plan_received.data()));

  // One device set and program per rank (all processes on physical device 0,
  // as mpirun ranks on one machine would be), created here; invoked on one
  // thread per rank.
  std::vector<meshvk_test::DeviceSet> sets;
  std::vector<ProgramPtr> programs;
  std::vector<uint32_t> on_device0(P, 0);
  for (uint32_t r = 0; r < c.ranks; ++r) {
    sets.push_back(MakeSet(MESHVK_TOPOLOGY_LOGICAL, P, on_device0.data()));
    ASSERT_TRUE(sets.back());
    meshvk_program_ranks_t ranks{&transports[r], c.process_rank.data(), 0};
    meshvk_program_t* program = nullptr;
    MESHVK_ASSERT_OK(CreateOnRanks(module.get(), sets.back().get(), &ranks, &program));
    programs.emplace_back(program);
  }
  std::vector<std::vector<HostTensor>> outputs(c.ranks);
  std::vector<std::string> errors(c.ranks);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < c.ranks; ++r) {
    for (const HostTensor& e : expected) outputs[r].push_back(HostTensor::Zeros(e.shape, e.type));
    threads.emplace_back([&, r] {
      std::vector<meshvk_host_input_t> in;
      for (const HostTensor& t : inputs) in.push_back({t.data(), t.bytes()});
      std::vector<meshvk_host_output_t> out;
      for (HostTensor& t : outputs[r]) out.push_back({t.data(), t.bytes()});
      meshvk_invoke_info_t invoke{};
      invoke.inputs = in.data();
      invoke.input_count = static_cast<uint32_t>(in.size());
      invoke.outputs = out.data();
      invoke.output_count = static_cast<uint32_t>(out.size());
      errors[r] = meshvk_test::StatusText(meshvk_program_invoke(programs[r].get(), &invoke));
    });
  }
  for (std::thread& t : threads) t.join();
  for (uint32_t r = 0; r < c.ranks; ++r) {
    EXPECT_EQ(errors[r], "") << "rank " << r;
    meshvk_transport_stats_t stats{};
    meshvk_program_transport_stats(programs[r].get(), &stats);
    EXPECT_EQ(stats.bytes_sent, plan_sent[r]) << "rank " << r << " sent";
    EXPECT_EQ(stats.bytes_received, plan_received[r]) << "rank " << r << " received";
  }
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(Compare(outputs[0][i], expected[i], kAtol, kRtol), "") << c.sample << " result " << i;
  programs.clear();  // before the hub goes
}

INSTANTIATE_TEST_SUITE_P(Samples, RanksTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.sample + "_grid" + info.param.grid + "_" + info.param.name;
                         });

class RankFaultsTest : public meshvk_test::VulkanTest {};

// A rank whose peer never sends: the receive fails after the transport's
// timeout with a message naming the rank and bytes (no hang).
TEST_F(RankFaultsTest, MissingPeerFailsTheReceiveInTime) {
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample("matmul_rows", "2", &compiled), "");
  std::vector<meshvk_transport_t> transports(2);
  meshvk_in_process_hub_t* hub = nullptr;
  MESHVK_ASSERT_OK(meshvk_transport_in_process_create(2, 300, transports.data(), &hub));
  std::unique_ptr<meshvk_in_process_hub_t, void (*)(meshvk_in_process_hub_t*)> hub_owner(
      hub, meshvk_transport_in_process_destroy);
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled->artifact.data(), compiled->artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<uint32_t> on_device0(2, 0), process_rank = {0, 1};
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2, on_device0.data());
  meshvk_program_ranks_t ranks{&transports[0], process_rank.data(), 0};
  meshvk_program_t* raw_program = nullptr;
  MESHVK_ASSERT_OK(CreateOnRanks(module.get(), set.get(), &ranks, &raw_program));
  ProgramPtr program(raw_program);
  const Sample& sample = SampleNamed("matmul_rows");
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed), outputs = sample.reference(inputs);
  std::vector<meshvk_host_input_t> in;
  for (const HostTensor& t : inputs) in.push_back({t.data(), t.bytes()});
  std::vector<meshvk_host_output_t> out;
  for (HostTensor& t : outputs) out.push_back({t.data(), t.bytes()});
  meshvk_invoke_info_t invoke{};
  invoke.inputs = in.data();
  invoke.input_count = static_cast<uint32_t>(in.size());
  invoke.outputs = out.data();
  invoke.output_count = static_cast<uint32_t>(out.size());
  EXPECT_TRUE(meshvk_test::HasCode(meshvk_program_invoke(program.get(), &invoke), MESHVK_STATUS_UNAVAILABLE,
                                   "from rank 1 failed"));
}

// A map that leaves this rank nothing, or names a rank that does not exist.
TEST_F(RankFaultsTest, BadRankMapsAreRefused) {
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample("matmul_rows", "2", &compiled), "");
  std::vector<meshvk_transport_t> transports(2);
  meshvk_in_process_hub_t* hub = nullptr;
  MESHVK_ASSERT_OK(meshvk_transport_in_process_create(2, 0, transports.data(), &hub));
  std::unique_ptr<meshvk_in_process_hub_t, void (*)(meshvk_in_process_hub_t*)> hub_owner(
      hub, meshvk_transport_in_process_destroy);
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled->artifact.data(), compiled->artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<uint32_t> on_device0(2, 0);
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 2, on_device0.data());
  meshvk_program_t* program = nullptr;
  std::vector<uint32_t> all_on_1 = {1, 1}, rank_5 = {0, 5};
  meshvk_program_ranks_t none{&transports[0], all_on_1.data(), 0};
  EXPECT_TRUE(meshvk_test::HasCode(CreateOnRanks(module.get(), set.get(), &none, &program),
                                   MESHVK_STATUS_INVALID_ARGUMENT, "rank 0 runs no process"));
  meshvk_program_ranks_t bad{&transports[0], rank_5.data(), 0};
  EXPECT_TRUE(meshvk_test::HasCode(CreateOnRanks(module.get(), set.get(), &bad, &program),
                                   MESHVK_STATUS_INVALID_ARGUMENT, "process 1 is mapped to rank 5 of 2"));
  EXPECT_EQ(program, nullptr);
}

}  // namespace
}  // namespace meshvk_e2e
