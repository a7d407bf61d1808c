// Copy collectives (all_gather, broadcast, all_to_all) whose copies cross
// ranks: one transport call per set of ranks (meshvk/transport.h), each
// block staged out once by its owner and received once by each rank that
// reads it, then copied into place on the devices; and reduce_scatter, one
// reduce-scatter among the ranks of the partials reduced within each rank. Programs are SPMD
// functions written here, one collective each; results against host loops;
// bytes per rank against numbers derived by hand in the cases below (and,
// where the compiler's copies would move more, against those too), through
// the in-process transport's collectives and through the runtime's own
// point-to-point messages (MESHVK_RANK_COLLECTIVES=ring).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "rank_job.h"

namespace meshvk_e2e {
namespace {

constexpr int64_t kRows = 8, kCols = 64;  // each process's block: 8x64 f32 = 2048 bytes = B
constexpr uint64_t kQuarter = kRows * kCols * 4 / 4;

struct BlockCase {
  // op: all_gather0 / all_gather1 (along dimension 0 / 1), broadcast, all_to_all, reduce_scatter
  std::string name, op, grid, axes;
  std::vector<uint32_t> process_rank;
  uint32_t ranks;
  std::string mode;                            // meshvk_rank_collective_mode_name ("": default)
  uint32_t calls;                              // transport calls the plan makes
  uint32_t call;                               // MESHVK_TRANSPORT_... of each
  std::vector<uint64_t> sent, received;        // per rank, in quarters of a block (B/4 = 512 bytes)
  std::vector<uint64_t> copies_received = {};  // the compiler's copies instead (copies mode), quarters
  std::vector<uint64_t> staged = {};  // per rank, quarters copied into / out of device memory (empty: not checked)
};

std::vector<int64_t> GridShape(const std::string& grid) {
  std::vector<int64_t> shape;
  for (size_t at = 0; at < grid.size();) {
    size_t x = grid.find('x', at);
    shape.push_back(std::stoll(grid.substr(at, x == std::string::npos ? std::string::npos : x - at)));
    at = x == std::string::npos ? grid.size() : x + 1;
  }
  return shape;
}

std::vector<int64_t> Axes(const std::string& axes) {
  std::vector<int64_t> out;
  for (char c : axes)
    if (c >= '0' && c <= '9') out.push_back(c - '0');
  return out;
}

// The members of p's group over `axes`, in the collective's order (the
// multi-index over `axes`, first axis slowest).
std::vector<int64_t> GroupOf(const std::vector<int64_t>& grid, const std::vector<int64_t>& axes, int64_t p) {
  const size_t D = grid.size();
  std::vector<int64_t> multi(D);
  for (size_t d = D, rest = p; d-- > 0; rest /= grid[d]) multi[d] = static_cast<int64_t>(rest % grid[d]);
  int64_t n = 1;
  for (int64_t a : axes) n *= grid[a];
  std::vector<int64_t> members;
  for (int64_t k = 0; k < n; ++k) {
    std::vector<int64_t> m = multi;
    for (size_t i = axes.size(), rest = k; i-- > 0; rest /= grid[axes[i]])
      m[axes[i]] = static_cast<int64_t>(rest % grid[axes[i]]);
    int64_t q = 0;
    for (size_t d = 0; d < D; ++d) q = q * grid[d] + m[d];
    members.push_back(q);
  }
  return members;
}

std::string Tensor(int64_t rows, int64_t cols) {
  return "tensor<" + std::to_string(rows) + "x" + std::to_string(cols) + "xf32>";
}

// The local result shape of `op` on a group of n.
std::pair<int64_t, int64_t> ResultShape(const std::string& op, int64_t n) {
  if (op == "all_gather0") return {n * kRows, kCols};
  if (op == "all_gather1") return {kRows, n * kCols};
  if (op == "all_to_all") return {kRows / n, n * kCols};
  if (op == "reduce_scatter") return {kRows / n, kCols};
  return {kRows, kCols};
}

std::string Source(const BlockCase& c, int64_t n) {
  const std::string in = Tensor(kRows, kCols);
  const auto [rows, cols] = ResultShape(c.op, n);
  const std::string out = Tensor(rows, cols), on = " on @grid grid_axes = [" + c.axes + "]";
  std::string body;
  if (c.op == "all_gather0" || c.op == "all_gather1")
    body = "shard.all_gather %x" + on + " gather_axis = " + c.op.substr(10) + " : " + in + " -> " + out;
  else if (c.op == "broadcast")
    body = "shard.broadcast %x" + on + " root = [" + (Axes(c.axes).size() == 2 ? "0, 0" : "0") + "] : (" + in +
           ") -> " + out;
  else if (c.op == "reduce_scatter")
    body = "shard.reduce_scatter %x" + on + " reduction = sum scatter_axis = 0 : " + in + " -> " + out;
  else
    body = "shard.all_to_all %x" + on + " split_axis = 0 concat_axis = 1 : " + in + " -> " + out;
  return "shard.grid @grid(shape = " + c.grid + ")\nfunc.func @main(%x: " + in + ") -> " + out + " {\n  %y = " + body +
         "\n  return %y : " + out + "\n}\n";
}

// Host loops: process p's block is rows [p*kRows, (p+1)*kRows) of x; its
// result is stacked the same way in the output.
HostTensor Reference(const BlockCase& c, const HostTensor& x) {
  const std::vector<int64_t> grid = GridShape(c.grid), axes = Axes(c.axes);
  const int64_t P = static_cast<int64_t>(c.process_rank.size());
  const int64_t n = static_cast<int64_t>(GroupOf(grid, axes, 0).size());
  const auto [rows, cols] = ResultShape(c.op, n);
  HostTensor y = HostTensor::Zeros({P * rows, cols}, MESHVK_ELEMENT_F32);
  auto in = [&](int64_t q, int64_t r, int64_t col) { return x.f[(q * kRows + r) * kCols + col]; };
  for (int64_t p = 0; p < P; ++p) {
    const std::vector<int64_t> g = GroupOf(grid, axes, p);
    const int64_t me = std::find(g.begin(), g.end(), p) - g.begin();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t col = 0; col < cols; ++col) {
        float v = 0;
        if (c.op == "all_gather0") v = in(g[r / kRows], r % kRows, col);
        if (c.op == "all_gather1") v = in(g[col / kCols], r, col % kCols);
        if (c.op == "broadcast") v = in(g[0], r, col);
        if (c.op == "all_to_all") v = in(g[col / kCols], me * rows + r, col % kCols);
        if (c.op == "reduce_scatter")
          for (int64_t q : g) v += in(q, me * rows + r, col);
        y.f[(p * rows + r) * cols + col] = v;
      }
  }
  return y;
}

class BlockCollectivesTest : public JobTest, public ::testing::WithParamInterface<BlockCase> {};

TEST_P(BlockCollectivesTest, EachBlockCrossesRanksOnce) {
  const BlockCase& c = GetParam();
  const std::vector<int64_t> grid = GridShape(c.grid);
  const int64_t P = static_cast<int64_t>(c.process_rank.size());
  const int64_t n = static_cast<int64_t>(GroupOf(grid, Axes(c.axes), 0).size());
  meshvk::CompiledProgram compiled;
  ASSERT_EQ(meshvk::compileProgramSource(Source(c, n), "collective.mlir", meshvk::ProgramOptions{}, &compiled), "");
  HostTensor x = HostTensor::Zeros({P * kRows, kCols}, MESHVK_ELEMENT_F32);
  for (size_t i = 0; i < x.f.size(); ++i) x.f[i] = static_cast<float>(i % 1009);
  const HostTensor expected = Reference(c, x);

  // The result is stacked over all processes: the gather to rank 0 adds each
  // other rank's result shards (one per process), in every mode.
  std::vector<uint64_t> gathered_out(c.ranks, 0), gathered_in(c.ranks, 0);
  for (uint32_t rank : c.process_rank)
    if (rank != 0) {
      gathered_out[rank] += expected.bytes() / P;
      gathered_in[0] += expected.bytes() / P;
    }
  meshvk_module_t* raw_module = nullptr;
  MESHVK_ASSERT_OK(meshvk_module_load(compiled.artifact.data(), compiled.artifact.size(), &raw_module));
  ModulePtr module(raw_module);
  if (!c.copies_received.empty()) {
    std::vector<uint64_t> sent(c.ranks), received(c.ranks);
    MESHVK_EXPECT_OK(meshvk_module_rank_bytes(module.get(), 0, c.process_rank.data(), c.ranks, 0,
                                              MESHVK_RANK_COLLECTIVES_COPIES, sent.data(), received.data()));
    for (uint32_t r = 0; r < c.ranks; ++r)
      EXPECT_EQ(received[r], c.copies_received[r] * kQuarter + gathered_in[r]) << "copies, rank " << r;
  }
  const meshvk_rank_collective_mode_t mode = meshvk_ranks::RankMode(c.mode);
  std::vector<meshvk_rank_collective_t> groups(8, meshvk_rank_collective_t MESHVK_RANK_COLLECTIVE_INIT);
  uint32_t count = 0;
  MESHVK_EXPECT_OK(
      meshvk_module_rank_collectives(module.get(), 0, c.process_rank.data(), c.ranks, mode, groups.data(), 8, &count));
  EXPECT_EQ(count, c.calls);
  for (uint32_t i = 0; i < count && i < 8; ++i) EXPECT_EQ(groups[i].call, c.call) << "group " << i;
  std::vector<HostTensor> outputs = {HostTensor::Zeros(expected.shape, MESHVK_ELEMENT_F32)};
  std::vector<meshvk_transport_stats_t> stats;
  const std::string error = RunJob(compiled.artifact, c.process_rank, c.ranks, {x}, &outputs, &stats, mode);
  ASSERT_EQ(error, "");
  EXPECT_EQ(Compare(outputs[0], expected, 0, 0), "");
  for (uint32_t r = 0; r < c.ranks; ++r) {
    EXPECT_EQ(stats[r].bytes_sent, c.sent[r] * kQuarter + gathered_out[r]) << "rank " << r;
    EXPECT_EQ(stats[r].bytes_received, c.received[r] * kQuarter + gathered_in[r]) << "rank " << r;
    if (!c.staged.empty()) EXPECT_EQ(stats[r].staged_bytes, c.staged[r] * kQuarter) << "rank " << r;
  }
}

// Bytes by hand, in quarters q of a block B (B = 4q). Each line: name, op,
// grid, axes, process -> rank, ranks, MESHVK_RANK_COLLECTIVES, transport
// calls, the call, sent and received per rank, (where the compiler's
// copies would move more) what rank r receives through them, and (where
// given) the bytes each rank's host copied into / out of device memory:
// lavapipe's memory is host-mapped, so an all_gather by default moves its
// blocks from and into device memory with no copy (0; all of a rank's
// processes share one VkDevice here), while `staged` stages each owned block
// out once and each received block into its landing buffer.
std::vector<BlockCase> Cases() {
  const uint32_t gather = MESHVK_TRANSPORT_ALL_GATHER, bcast = MESHVK_TRANSPORT_BROADCAST,
                 all_to_all = MESHVK_TRANSPORT_ALL_TO_ALL, scatter = MESHVK_TRANSPORT_REDUCE_SCATTER;
  const std::vector<uint32_t> ranks2 = {0, 1}, ranks4 = {0, 1, 2, 3}, pairs = {0, 0, 1, 1}, interleaved = {0, 1, 0, 1};
  using V = std::vector<uint64_t>;
  return {
      // all_gather, one process per rank: each rank sends its block to the
      // other(s) and receives theirs.
      {"gather_grid2_ranks2", "all_gather0", "2", "0", ranks2, 2, "", 1, gather, V{4, 4}, V{4, 4}, {}, V{0, 0}},
      {"gather_grid4_ranks4", "all_gather0", "4", "0", ranks4, 4, "", 1, gather, V(4, 12), V(4, 12), {}, V(4, 0)},
      // staged: B out, 3B in.
      {"gather_grid4_ranks4_staged",
       "all_gather0",
       "4",
       "0",
       ranks4,
       4,
       "staged",
       1,
       gather,
       V(4, 12),
       V(4, 12),
       {},
       V(4, 16)},
      // ranks x devices: 2 blocks per rank cross once (2B each way); the
      // copies pull each remote block once per local member (4B); staged: 2B
      // out, 2B in (one landing buffer per block: one VkDevice).
      {"gather_grid4_ranks2", "all_gather0", "4", "0", pairs, 2, "", 1, gather, V{8, 8}, V{8, 8}, V{16, 16}, V{0, 0}},
      {"gather_grid4_ranks2_staged",
       "all_gather0",
       "4",
       "0",
       pairs,
       2,
       "staged",
       1,
       gather,
       V{8, 8},
       V{8, 8},
       {},
       V{16, 16}},
      {"gather_grid4_ranks2_p2p",
       "all_gather0",
       "4",
       "0",
       pairs,
       2,
       "ring",
       1,
       gather,
       V{8, 8},
       V{8, 8},
       {},
       V{16, 16}},
      // 2x2 over both axes, gathered along dimension 1 (strided places):
      // ranks x devices and devices x ranks, 2B each way.
      {"gather_dim1_grid2x2_ranks_axis0", "all_gather1", "2x2", "0, 1", pairs, 2, "", 1, gather, V{8, 8}, V{8, 8},
       V{16, 16}, V{0, 0}},
      {"gather_dim1_grid2x2_ranks_axis0_staged",
       "all_gather1",
       "2x2",
       "0, 1",
       pairs,
       2,
       "staged",
       1,
       gather,
       V{8, 8},
       V{8, 8},
       {},
       V{16, 16}},
      {"gather_grid2x2_ranks_axis1",
       "all_gather0",
       "2x2",
       "0, 1",
       interleaved,
       2,
       "",
       1,
       gather,
       V{8, 8},
       V{8, 8},
       {},
       V{0, 0}},
      {"gather_grid2x2_ranks_axis1_staged",
       "all_gather0",
       "2x2",
       "0, 1",
       interleaved,
       2,
       "staged",
       1,
       gather,
       V{8, 8},
       V{8, 8},
       {},
       V{16, 16}},
      // over axis 1 only: groups {0,1} and {2,3}; on ranks 0,1 both groups
      // share one call (2B each way); on 4 ranks two calls of B.
      {"gather_axis1_grid2x2_ranks_axis1", "all_gather0", "2x2", "1", interleaved, 2, "", 1, gather, V{8, 8}, V{8, 8}},
      {"gather_axis1_grid2x2_ranks4", "all_gather0", "2x2", "1", ranks4, 4, "", 2, gather, V(4, 4), V(4, 4)},
      // over axis 0 with axis 1 on the ranks: every group inside one rank.
      {"gather_axis0_grid2x2_ranks_axis1", "all_gather0", "2x2", "0", interleaved, 2, "", 0, gather, V{0, 0}, V{0, 0}},
      // broadcast from process 0: the other rank(s) receive B once, however
      // many members they hold (the copies: once per member); staged (not
      // an all_gather): B out on rank 0, B in on rank 1.
      {"bcast_grid4_ranks2", "broadcast", "4", "0", pairs, 2, "", 1, bcast, V{4, 0}, V{0, 4}, V{0, 8}, V{4, 4}},
      {"bcast_grid4_ranks2_p2p", "broadcast", "4", "0", pairs, 2, "ring", 1, bcast, V{4, 0}, V{0, 4}},
      {"bcast_grid2x2_ranks4", "broadcast", "2x2", "0, 1", ranks4, 4, "", 1, bcast, V{12, 0, 0, 0}, V{0, 4, 4, 4}},
      // all_to_all in a group of 4: member i gets chunk i (B/4 = q) of every
      // member. Two members per rank: 2 x 2 remote chunks each way (host
      // copies: those 4 chunks out, 4 in).
      {"alltoall_grid4_ranks2", "all_to_all", "4", "0", pairs, 2, "", 1, all_to_all, V{4, 4}, V{4, 4}, {}, V{8, 8}},
      {"alltoall_grid4_ranks2_p2p", "all_to_all", "4", "0", pairs, 2, "ring", 1, all_to_all, V{4, 4}, V{4, 4}},
      {"alltoall_grid2x2_ranks_axis1", "all_to_all", "2x2", "0, 1", interleaved, 2, "", 1, all_to_all, V{4, 4},
       V{4, 4}},
      {"alltoall_grid4_ranks4", "all_to_all", "4", "0", ranks4, 4, "", 1, all_to_all, V(4, 3), V(4, 3)},
      // reduce_scatter (sum) in a group of 4: member i gets chunk i (q) of
      // the sum. Two members per rank: each rank sends the other its 2
      // chunks of its rank's reduced partial and receives its own 2 (the
      // copies: 2 remote chunks per member, 4q); members 0, 2 on rank 0
      // (devices x ranks) need their chunks reordered. A group of 2: chunks
      // of 2q. Host copies: each local member's whole partial out (2 x 4q)
      // and its chunk in (2 x q).
      {"rs_grid4_ranks2", "reduce_scatter", "4", "0", pairs, 2, "", 1, scatter, V{2, 2}, V{2, 2}, V{4, 4}, V{10, 10}},
      {"rs_grid2x2_ranks_axis1", "reduce_scatter", "2x2", "0, 1", interleaved, 2, "", 1, scatter, V{2, 2}, V{2, 2},
       V{4, 4}},
      {"rs_grid2x2_ranks_axis1_p2p", "reduce_scatter", "2x2", "0, 1", interleaved, 2, "ring", 1, scatter, V{2, 2},
       V{2, 2}},
      {"rs_grid4_ranks4", "reduce_scatter", "4", "0", ranks4, 4, "", 1, scatter, V(4, 3), V(4, 3)},
      {"rs_grid2_ranks2", "reduce_scatter", "2", "0", ranks2, 2, "", 1, scatter, V{2, 2}, V{2, 2}},
  };
}

INSTANTIATE_TEST_SUITE_P(Transport, BlockCollectivesTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<BlockCase>& info) { return info.param.name; });

}  // namespace
}  // namespace meshvk_e2e
