// Grid processes spread over ranks that are threads of this process, through
// the in-process transport (meshvk/transport.h): the executor path mpirun runs
// (landing buffers, sends after the producer, results gathered to rank 0),
// with Khronos validation + synchronization validation on (any message
// fails). Every sample on grids 2, 4 and 2x2, each process -> rank map where
// a rank axis fits; rank 0's results against the host loops of samples.cc,
// and the bytes handed to the transport against meshvk_module_rank_bytes.
// Collectives whose group spans ranks (all_reduce on grids 2, 4, 2x2 with
// ranks x devices and devices x ranks): one ring among the ranks, bytes per
// rank against the ring formula written out in the test, results against a
// host loop; a peer missing from a collective fails it in bounded time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "rank_job.h"

namespace meshvk_e2e {
namespace {

constexpr uint32_t kSeed = 20261130;
constexpr double kAtol = 1e-3, kRtol = 1e-4;

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

class RanksTest : public JobTest, public ::testing::WithParamInterface<Case> {};

TEST_P(RanksTest, RankZeroGathersTheHostLoopResult) {
  const Case& c = GetParam();
  const Sample& sample = SampleNamed(c.sample);
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample(c.sample, c.grid, &compiled), "");
  const std::vector<HostTensor> inputs = sample.make_inputs(kSeed);
  const std::vector<HostTensor> expected = sample.reference(inputs);
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled->artifact.data(), compiled->artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<uint64_t> plan_sent(c.ranks), plan_received(c.ranks);
  MESHVK_ASSERT_OK(meshvk_module_rank_bytes(module.get(), 0, c.process_rank.data(), c.ranks, 0,
                                            MESHVK_RANK_COLLECTIVES_TRANSPORT, plan_sent.data(), plan_received.data()));
  std::vector<HostTensor> outputs;
  for (const HostTensor& e : expected) outputs.push_back(HostTensor::Zeros(e.shape, e.type));
  std::vector<meshvk_transport_stats_t> stats;
  ASSERT_EQ(RunJob(compiled->artifact, c.process_rank, c.ranks, inputs, &outputs, &stats), "");
  for (uint32_t r = 0; r < c.ranks; ++r) {
    EXPECT_EQ(stats[r].bytes_sent, plan_sent[r]) << "rank " << r << " sent";
    EXPECT_EQ(stats[r].bytes_received, plan_received[r]) << "rank " << r << " received";
  }
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(Compare(outputs[i], expected[i], kAtol, kRtol), "") << c.sample << " result " << i;
}

INSTANTIATE_TEST_SUITE_P(Samples, RanksTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.sample + "_grid" + info.param.grid + "_" + info.param.name;
                         });

// all_reduce(sum) of N floats over the grid axes `axes` of `grid`: each
// process reduces its rows of x[P x N] (dimension 0 split over the grid), the
// compiler's all_reduce combines the partials; the result is replicated.
std::string AllReduceSource(const std::string& grid, uint32_t processes, const std::string& axes, uint64_t floats) {
  const std::string n = std::to_string(floats), rows = std::to_string(processes) + "x" + n;
  return "shard.grid @grid(shape = " + grid + ")\n" + "func.func @main(%x: tensor<" + rows + "xf32>) -> tensor<" + n +
         "xf32> {\n" + "  %split = shard.sharding @grid split_axes = [[" + axes + "]] : !shard.sharding\n" +
         "  %rep = shard.sharding @grid split_axes = [[]] : !shard.sharding\n" +
         "  %x_s = shard.shard %x to %split annotate_for_users : tensor<" + rows + "xf32>\n" +
         "  %zero = arith.constant 0.0 : f32\n" + "  %init = tensor.empty() : tensor<" + n + "xf32>\n" +
         "  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<" + n + "xf32>) -> tensor<" + n + "xf32>\n" +
         "  %s = linalg.reduce ins(%x_s : tensor<" + rows + "xf32>) outs(%acc : tensor<" + n +
         "xf32>) dimensions = [0]\n" + "    (%in: f32, %out: f32) {\n" + "      %sum = arith.addf %in, %out : f32\n" +
         "      linalg.yield %sum : f32\n" + "    }\n" + "  %s_r = shard.shard %s to %rep : tensor<" + n + "xf32>\n" +
         "  return %s_r : tensor<" + n + "xf32>\n" + "}\n";
}

struct CollectiveCase {
  std::string name, grid, axes;
  std::vector<uint32_t> process_rank;
  uint32_t ranks;
  uint64_t floats;       // > 16384 floats: the compiler's reduce_scatter+all_gather on groups of 4
  uint32_t group_ranks;  // ranks each group spans
  uint32_t groups;       // groups run through the transport
  meshvk_rank_collective_mode_t mode = MESHVK_RANK_COLLECTIVES_TRANSPORT;
};

class RankCollectivesTest : public JobTest, public ::testing::WithParamInterface<CollectiveCase> {};

// A collective whose group spans ranks runs as one all-reduce among the
// ranks (hierarchical: reduced within each rank first). Bytes per rank are
// checked against the ring formula written out here, 2(R-1)/R x N for R ranks
// (N = the partial's bytes, R divides the element count), and the result
// against a host loop. Results are replicated, so rank 0 already holds them:
// nothing else crosses ranks.
TEST_P(RankCollectivesTest, OneRingAmongTheRanksWithTheHostLoopResult) {
  const CollectiveCase& c = GetParam();
  const uint32_t P = static_cast<uint32_t>(c.process_rank.size());
  meshvk::CompiledProgram compiled;
  ASSERT_EQ(meshvk::compileProgramSource(AllReduceSource(c.grid, P, c.axes, c.floats), "all_reduce.mlir",
                                         meshvk::ProgramOptions{}, &compiled),
            "");
  HostTensor x = HostTensor::Zeros({static_cast<int64_t>(P), static_cast<int64_t>(c.floats)}, MESHVK_ELEMENT_F32);
  for (size_t i = 0; i < x.f.size(); ++i) x.f[i] = static_cast<float>((i * 7919) % 13) - 6.0f;
  HostTensor expected = HostTensor::Zeros({static_cast<int64_t>(c.floats)}, MESHVK_ELEMENT_F32);
  for (uint32_t p = 0; p < P; ++p)
    for (uint64_t j = 0; j < c.floats; ++j) expected.f[j] += x.f[p * c.floats + j];

  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled.artifact.data(), compiled.artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<meshvk_rank_collective_t> groups(8, meshvk_rank_collective_t MESHVK_RANK_COLLECTIVE_INIT);
  uint32_t count = 0;
  MESHVK_ASSERT_OK(meshvk_module_rank_collectives(module.get(), 0, c.process_rank.data(), c.ranks, c.mode,
                                                  groups.data(), 8, &count));
  ASSERT_EQ(count, c.groups);
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(groups[i].rank_count, c.group_ranks);
    EXPECT_EQ(groups[i].bytes, c.floats * 4);
  }
  std::vector<HostTensor> outputs = {HostTensor::Zeros(expected.shape, MESHVK_ELEMENT_F32)};
  std::vector<meshvk_transport_stats_t> stats;
  const std::string error = RunJob(compiled.artifact, c.process_rank, c.ranks, {x}, &outputs, &stats, c.mode);
  ASSERT_EQ(error, "");
  EXPECT_EQ(Compare(outputs[0], expected, kAtol, kRtol), "");
  // Each rank takes part in (groups x group_ranks / ranks) rings.
  const uint64_t N = c.floats * 4, rings = c.groups * c.group_ranks / c.ranks;
  const uint64_t ring = 2 * (c.group_ranks - 1) * N / c.group_ranks;
  // Host copies per ring and rank, with `local` members of the group on the
  // rank: in lavapipe's host-mapped memory the partials are reduced in
  // place and the result copied to the other local members ((local-1) x N);
  // staged, each partial is staged out and each result in (2 x local x N).
  const uint64_t local = c.process_rank.size() / c.groups / c.group_ranks;
  const uint64_t staged = c.mode == MESHVK_RANK_COLLECTIVES_STAGED ? 2 * local * N : (local - 1) * N;
  for (uint32_t r = 0; r < c.ranks; ++r) {
    EXPECT_EQ(stats[r].bytes_sent, rings * ring) << "rank " << r;
    EXPECT_EQ(stats[r].bytes_received, rings * ring) << "rank " << r;
    EXPECT_EQ(stats[r].staged_bytes, rings * staged) << "rank " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllReduce, RankCollectivesTest,
    ::testing::Values(
        // 1-D, one process per rank: direct lowering (small) and reduce_scatter+all_gather (large).
        CollectiveCase{"grid2_ranks2", "2", "0", {0, 1}, 2, 4096, 2, 1},
        CollectiveCase{"grid4_ranks4", "4", "0", {0, 1, 2, 3}, 4, 4096, 4, 1},
        CollectiveCase{"grid4_ranks4_gathered", "4", "0", {0, 1, 2, 3}, 4, 32768, 4, 1},
        // ranks x devices on a 1-D grid: two processes per rank, reduced on the host first.
        CollectiveCase{"grid4_ranks2", "4", "0", {0, 0, 1, 1}, 2, 4096, 2, 1},
        CollectiveCase{"grid4_ranks2_gathered", "4", "0", {0, 0, 1, 1}, 2, 32768, 2, 1},
        // ... through host buffers (the path of device-local memory).
        CollectiveCase{"grid4_ranks2_staged", "4", "0", {0, 0, 1, 1}, 2, 4096, 2, 1, MESHVK_RANK_COLLECTIVES_STAGED},
        CollectiveCase{
            "grid4_ranks2_gathered_staged", "4", "0", {0, 0, 1, 1}, 2, 32768, 2, 1, MESHVK_RANK_COLLECTIVES_STAGED},
        // 2x2, all_reduce over both axes: ranks x devices and devices x ranks (hierarchical), 4 ranks.
        CollectiveCase{"grid2x2_both_axes_ranks_axis0", "2x2", "0, 1", {0, 0, 1, 1}, 2, 4096, 2, 1},
        CollectiveCase{"grid2x2_both_axes_ranks_axis1", "2x2", "0, 1", {0, 1, 0, 1}, 2, 4096, 2, 1},
        CollectiveCase{"grid2x2_both_axes_ranks_axis1_staged",
                       "2x2",
                       "0, 1",
                       {0, 1, 0, 1},
                       2,
                       4096,
                       2,
                       1,
                       MESHVK_RANK_COLLECTIVES_STAGED},
        CollectiveCase{"grid2x2_both_axes_ranks4", "2x2", "0, 1", {0, 1, 2, 3}, 4, 4096, 4, 1},
        // 2x2, all_reduce over axis 1 only: two groups, each across the 2 ranks of axis 1.
        CollectiveCase{"grid2x2_axis1_ranks_axis1", "2x2", "1", {0, 1, 0, 1}, 2, 4096, 2, 2},
        // ... and on 4 ranks: each rank is in one of the two groups only.
        CollectiveCase{"grid2x2_axis1_ranks4", "2x2", "1", {0, 1, 2, 3}, 4, 4096, 2, 2}),
    [](const ::testing::TestParamInfo<CollectiveCase>& info) { return info.param.name; });

// The host reduction of f16 (meshvk_transport_reduce: the host steps' and
// the MPI half MPI_Op's), against IEEE half values worked out by hand:
// 1 + 2^-11 is a tie between 1 and 1 + 2^-10 (0x3c00 / 0x3c01) and goes to
// the even 0x3c00; (1 + 2^-10) + 2^-11 ties between 0x3c01 and 0x3c02: 0x3c02;
// the smallest subnormals add exactly; 65504 + 65504 overflows to inf; max/min
// of -2 (0xc000) and 1; 3 x 0.5 = 1.5 (0x3e00).
TEST(TransportReduceTest, HalvesCombineInFloatRoundedToNearestEven) {
  const uint16_t half_ulp_at_one = 0x1000;  // 2^-11
  std::vector<uint16_t> into = {0x3c00, 0x3c01, 0x0001, 0x7bff},
                        from = {half_ulp_at_one, half_ulp_at_one, 0x0001, 0x7bff};
  meshvk_transport_reduce(MESHVK_TRANSPORT_F16, MESHVK_TRANSPORT_SUM, from.data(), into.data(), into.size());
  EXPECT_EQ(into, (std::vector<uint16_t>{0x3c00, 0x3c02, 0x0002, 0x7c00}));
  std::vector<uint16_t> a = {0xc000, 0xc000, 0x4200}, b = {0x3c00, 0x3c00, 0x3800};
  std::vector<uint16_t> max = a, min = a, product = {0x4200};
  meshvk_transport_reduce(MESHVK_TRANSPORT_F16, MESHVK_TRANSPORT_MAX, b.data(), max.data(), 1);
  meshvk_transport_reduce(MESHVK_TRANSPORT_F16, MESHVK_TRANSPORT_MIN, b.data(), min.data(), 1);
  meshvk_transport_reduce(MESHVK_TRANSPORT_F16, MESHVK_TRANSPORT_PRODUCT, &b[2], product.data(), 1);
  EXPECT_EQ(max[0], 0x3c00);
  EXPECT_EQ(min[0], 0xc000);
  EXPECT_EQ(product[0], 0x3e00);
}

// Float max/min on the host (the host steps' and the MPI_Ops that replace
// MPI_MAX/MPI_MIN) follow IEEE 754-2019: MAX/MIN (arith.maximumf/minimumf)
// propagate a NaN from either side and order -0 below +0; MAX_NUM/MIN_NUM
// (arith.maxnumf/minnumf, C fmax/fmin) return the number beside a NaN.
TEST(TransportReduceTest, FloatMaxMinFollowIeeeNanAndSignedZeroRules) {
  const float nan = std::nanf("");
  auto reduce = [](uint32_t reduction, std::vector<float> into, const std::vector<float>& from) {
    meshvk_transport_reduce(MESHVK_TRANSPORT_F32, reduction, from.data(), into.data(), into.size());
    return into;
  };
  const std::vector<float> a = {nan, 1.0f, -0.0f, 0.0f, 2.0f}, b = {1.0f, nan, 0.0f, -0.0f, 3.0f};
  std::vector<float> max = reduce(MESHVK_TRANSPORT_MAX, a, b), min = reduce(MESHVK_TRANSPORT_MIN, a, b);
  EXPECT_TRUE(std::isnan(max[0]) && std::isnan(max[1]) && std::isnan(min[0]) && std::isnan(min[1]));
  EXPECT_FALSE(std::signbit(max[2]) || std::signbit(max[3]));  // +0 either way round
  EXPECT_TRUE(std::signbit(min[2]) && std::signbit(min[3]));   // -0 either way round
  EXPECT_EQ(max[4], 3.0f);
  EXPECT_EQ(min[4], 2.0f);
  EXPECT_EQ(reduce(MESHVK_TRANSPORT_MAX_NUM, a, b), (std::vector<float>{1.0f, 1.0f, 0.0f, 0.0f, 3.0f}));
  std::vector<float> min_num = reduce(MESHVK_TRANSPORT_MIN_NUM, a, b);
  EXPECT_EQ(min_num[0], 1.0f);
  EXPECT_EQ(min_num[1], 1.0f);
  EXPECT_EQ(min_num[4], 2.0f);
  // Integers have no NaN: MAX_NUM is MAX.
  std::vector<int32_t> ints = {-5, 7}, other = {3, 2};
  meshvk_transport_reduce(MESHVK_TRANSPORT_I32, MESHVK_TRANSPORT_MAX_NUM, other.data(), ints.data(), 2);
  EXPECT_EQ(ints, (std::vector<int32_t>{3, 7}));
}

class RankFaultsTest : public JobTest {};

// A rank whose peers never run: its copies' receive (copies mode), its
// transport all_gather_pieces (default: lavapipe's memory is host-mapped) or
// all_gather (staged mode) fails after the transport's timeout with a
// message naming the rank or ranks and the bytes (no hang).
TEST_F(RankFaultsTest, MissingPeerFailsTheReceiveInTime) {
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample("matmul_rows", "2", &compiled), "");
  const Sample& sample = SampleNamed("matmul_rows");
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed), outputs = sample.reference(inputs);
  for (meshvk_rank_collective_mode_t mode :
       {MESHVK_RANK_COLLECTIVES_COPIES, MESHVK_RANK_COLLECTIVES_TRANSPORT, MESHVK_RANK_COLLECTIVES_STAGED}) {
    Job job;
    ASSERT_EQ(StartJob(compiled->artifact, {0, 1}, 2, 300, &job, {0}, mode), "");
    const std::string call = mode == MESHVK_RANK_COLLECTIVES_STAGED ? "all_gather" : "all_gather_pieces";
    EXPECT_TRUE(meshvk_test::HasCode(InvokeWith(job.programs[0].get(), inputs, &outputs), MESHVK_STATUS_UNAVAILABLE,
                                     mode == MESHVK_RANK_COLLECTIVES_COPIES
                                         ? "from rank 1 failed"
                                         : "collective 0 (all_gather of 65536 bytes over 2 ranks): "
                                           "transport " +
                                               call + " among ranks 0, 1 failed"))
        << meshvk_rank_collective_mode_name(mode);
  }
}

// A fault inside a collective between ranks: the peer never joins the ring,
// so rank 0's exchange fails after the transport's timeout, naming the
// collective and the rank (no hang).
TEST_F(RankFaultsTest, MissingPeerFailsTheCollectiveInTime) {
  meshvk::CompiledProgram compiled;
  ASSERT_EQ(meshvk::compileProgramSource(AllReduceSource("2", 2, "0", 1024), "all_reduce.mlir",
                                         meshvk::ProgramOptions{}, &compiled),
            "");
  Job job;
  ASSERT_EQ(StartJob(compiled.artifact, {0, 1}, 2, 300, &job, {0}), "");
  std::vector<HostTensor> outputs = {HostTensor::Zeros({1024}, MESHVK_ELEMENT_F32)};
  EXPECT_TRUE(meshvk_test::HasCode(
      InvokeWith(job.programs[0].get(), {HostTensor::Zeros({2, 1024}, MESHVK_ELEMENT_F32)}, &outputs),
      MESHVK_STATUS_UNAVAILABLE,
      "collective 0 (all_reduce of 4096 bytes over 2 ranks): transport receive of 2048 bytes from rank 1 failed"));
}

// MESHVK_RANK_COLLECTIVES_COPIES keeps the compiler's copies between ranks:
// on 4 ranks each process pulls the 3 other whole partials (3N per rank,
// twice the ring's 1.5N); a mode the runtime does not know is refused, by
// the plan queries and by program creation.
TEST_F(RankFaultsTest, CopiesModeAndBadModeValue) {
  meshvk::CompiledProgram compiled;
  ASSERT_EQ(meshvk::compileProgramSource(AllReduceSource("4", 4, "0", 1024), "all_reduce.mlir",
                                         meshvk::ProgramOptions{}, &compiled),
            "");
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled.artifact.data(), compiled.artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<uint32_t> process_rank = {0, 1, 2, 3};
  std::vector<uint64_t> sent(4), received(4);
  const auto copies = MESHVK_RANK_COLLECTIVES_COPIES, transport = MESHVK_RANK_COLLECTIVES_TRANSPORT;
  MESHVK_ASSERT_OK(
      meshvk_module_rank_bytes(module.get(), 0, process_rank.data(), 4, 0, copies, sent.data(), received.data()));
  uint32_t count = 1;
  MESHVK_ASSERT_OK(meshvk_module_rank_collectives(module.get(), 0, process_rank.data(), 4, copies, nullptr, 0, &count));
  EXPECT_EQ(count, 0u);
  for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(received[r], 3u * 4096) << "rank " << r;
  MESHVK_ASSERT_OK(
      meshvk_module_rank_bytes(module.get(), 0, process_rank.data(), 4, 0, transport, sent.data(), received.data()));
  for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(received[r], 2u * 3 * 4096 / 4) << "rank " << r;

  const auto unknown = static_cast<meshvk_rank_collective_mode_t>(7);
  EXPECT_TRUE(meshvk_test::HasCode(
      meshvk_module_rank_bytes(module.get(), 0, process_rank.data(), 4, 0, unknown, sent.data(), received.data()),
      MESHVK_STATUS_INVALID_ARGUMENT, "collective mode 7: expected a meshvk_rank_collective_mode_t"));
  EXPECT_TRUE(meshvk_test::HasCode(
      meshvk_module_rank_collectives(module.get(), 0, process_rank.data(), 4, unknown, nullptr, 0, &count),
      MESHVK_STATUS_INVALID_ARGUMENT, "collective mode 7"));
  Job job;
  const std::string error = StartJob(compiled.artifact, process_rank, 4, 0, &job, {0}, unknown);
  EXPECT_NE(error.find("ranks->collectives is 7: expected a meshvk_rank_collective_mode_t"), std::string::npos)
      << error;
  EXPECT_EQ(job.programs[0], nullptr);
  // The elements of a filled array must be initialized: one that is not is named.
  std::vector<meshvk_rank_collective_t> groups(1, meshvk_rank_collective_t MESHVK_RANK_COLLECTIVE_INIT);
  groups[0].type = MESHVK_STRUCTURE_TYPE_PHASE_TIMING;
  EXPECT_TRUE(meshvk_test::HasCode(
      meshvk_module_rank_collectives(module.get(), 0, process_rank.data(), 4, transport, groups.data(), 1, &count),
      MESHVK_STATUS_INVALID_ARGUMENT, "out_groups[0] has structure type 38"));
}

// The bytes of each input a rank's processes read (what mesh-vk-run reads
// from the files), by hand for matmul_rows on 2 ranks: a (256x128 f32) split
// by rows, b (128x64 f32) replicated.
TEST_F(RankFaultsTest, InputRunsAreTheRanksShards) {
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample("matmul_rows", "2", &compiled), "");
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled->artifact.data(), compiled->artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  std::vector<uint32_t> process_rank = {0, 1};
  meshvk_host_run_t runs[4] = {};
  uint32_t count = 0;
  MESHVK_ASSERT_OK(meshvk_module_rank_input_runs(module.get(), 0, 0, process_rank.data(), 2, 1, runs, 4, &count));
  ASSERT_EQ(count, 1u);  // rows 128..255: one contiguous run
  EXPECT_EQ(runs[0].offset, 128u * 128 * 4);
  EXPECT_EQ(runs[0].row_bytes * runs[0].rows, 128u * 128 * 4);
  MESHVK_ASSERT_OK(meshvk_module_rank_input_runs(module.get(), 0, 1, process_rank.data(), 2, 1, runs, 4, &count));
  ASSERT_EQ(count, 1u);  // b whole, once
  EXPECT_EQ(runs[0].offset, 0u);
  EXPECT_EQ(runs[0].row_bytes * runs[0].rows, 128u * 64 * 4);
  EXPECT_TRUE(meshvk_test::HasCode(
      meshvk_module_rank_input_runs(module.get(), 0, 2, process_rank.data(), 2, 1, runs, 4, &count),
      MESHVK_STATUS_OUT_OF_RANGE, "argument 2 out of range"));
}

// A map that leaves this rank nothing, or names a rank that does not exist.
TEST_F(RankFaultsTest, BadRankMapsAreRefused) {
  const meshvk::CompiledProgram* compiled = nullptr;
  ASSERT_EQ(CompileSample("matmul_rows", "2", &compiled), "");
  Job none, bad;
  EXPECT_NE(StartJob(compiled->artifact, {1, 1}, 2, 0, &none, {0}).find("rank 0 runs no process"), std::string::npos);
  EXPECT_NE(StartJob(compiled->artifact, {0, 5}, 2, 0, &bad, {0}).find("process 1 is mapped to rank 5 of 2"),
            std::string::npos);
  EXPECT_EQ(none.programs[0], nullptr);
  EXPECT_EQ(bad.programs[0], nullptr);
}

}  // namespace
}  // namespace meshvk_e2e
