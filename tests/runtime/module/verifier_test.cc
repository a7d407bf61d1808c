// The .mvk verifier's rules for the file as a whole: valid programs load and
// describe themselves, truncation, the integrity trailer, identifier and
// version, the grid and buffer tables, shared constant data, and files no
// builder writes. Each broken file breaks exactly one rule of a valid program
// and loading fails with DATA_LOSS and a message naming the field and the
// reason. The other rules: verifier_kernel_test.cc (executables),
// verifier_command_test.cc (dispatches, copies, fills, dependencies),
// verifier_function_test.cc (functions).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "meshvk/artifact/integrity.h"
#include "verifier_test_util.h"

namespace meshvk_test {
namespace {

TEST(ArtifactVerifier, ValidProgramsLoad) {
  EXPECT_EQ(Load(Base().Finish()), "");
  EXPECT_EQ(Load(Elementwise({2, 2}, {{0}, {1}}, 8, 8, 1.0f)), "");
  EXPECT_EQ(Load(Elementwise({4}, {{}, {0}}, 4, 16, 1.0f)), "");
  for (uint32_t p : {1u, 2u, 4u}) EXPECT_EQ(Load(RingAllGather(p, 16)), "") << p;
  EXPECT_EQ(Load(DispatchChain(5, 64)), "");
}

TEST(ArtifactVerifier, ModuleQueriesDescribeTheProgram) {
  std::vector<uint8_t> bytes = RingAllGather(4, 16);
  meshvk_module_t* module = nullptr;
  ASSERT_EQ(meshvk_module_load(bytes.data(), bytes.size(), &module), MESHVK_OK);
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module, &grid));
  EXPECT_EQ(grid.process_count, 4u);
  EXPECT_EQ(grid.peered_axes_mask, 1u);
  EXPECT_EQ(meshvk_module_phase_count(module), 4u);  // own block + 3 ring steps
  uint32_t fn = 99;
  ASSERT_EQ(meshvk_module_find_function(module, nullptr, &fn), MESHVK_OK);
  EXPECT_EQ(fn, 0u);
  meshvk_status_t missing = meshvk_module_find_function(module, "nope", &fn);
  ASSERT_NE(missing, MESHVK_OK);
  EXPECT_NE(std::string(meshvk_status_message(missing)).find("all_gather"), std::string::npos);
  meshvk_status_free(missing);
  meshvk_tensor_info_t x = MESHVK_TENSOR_INFO_INIT;
  ASSERT_EQ(meshvk_module_argument_info(module, 0, 0, &x), MESHVK_OK);
  EXPECT_EQ(x.rank, 1u);
  EXPECT_EQ(x.shape[0], 64u);
  EXPECT_EQ(x.byte_size, 256u);
  EXPECT_EQ(x.split_axis_count[0], 1u);
  meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
  ASSERT_EQ(meshvk_module_process_summary(module, 2, &plan), MESHVK_OK);
  EXPECT_EQ(plan.copy_count, 4u);
  EXPECT_EQ(plan.fill_count, 1u);
  EXPECT_EQ(plan.peer_bytes_in, 3u * 64u);
  EXPECT_EQ(plan.local_copy_bytes, 64u);
  EXPECT_EQ(plan.argument_bytes, 64u);
  EXPECT_EQ(plan.result_bytes, 256u);
  EXPECT_EQ(plan.phase_count, 4u);
  meshvk_module_release(module);
}

TEST(ArtifactVerifier, TransientsSharingASlotAreCountedOnce) {
  ArtifactBuilder b = Base();
  b.AddBuffer(0, {256, BufferKind::kTransient, 0});
  b.AddBuffer(0, {1024, BufferKind::kTransient, 0});
  b.AddBuffer(0, {128, BufferKind::kTransient});
  std::vector<uint8_t> bytes = b.Finish();
  meshvk_module_t* module = nullptr;
  ASSERT_EQ(meshvk_module_load(bytes.data(), bytes.size(), &module), MESHVK_OK);
  meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
  ASSERT_EQ(meshvk_module_process_summary(module, 0, &plan), MESHVK_OK);
  EXPECT_EQ(plan.transient_bytes, 1024u + 128u);
  meshvk_module_release(module);
}

// --- whole-file rules --------------------------------------------------------

TEST(ArtifactVerifier, TruncatedFiles) {
  std::vector<uint8_t> good = Base().Finish();
  EXPECT_REFUSED(std::vector<uint8_t>(), "truncated: 0 bytes");
  EXPECT_REFUSED(std::vector<uint8_t>(good.begin(), good.begin() + 4), "truncated");
  for (size_t cut : {good.size() / 2, good.size() - 16, good.size() / 5, good.size() - 1}) {
    std::vector<uint8_t> part(good.begin(), good.begin() + cut);
    SCOPED_TRACE(cut);
    EXPECT_REFUSED(part, "no integrity trailer");  // the end of the file is gone
    // With a fresh trailer the FlatBuffers verifier sees the cut.
    // (Cuts inside the trailer leave the whole FlatBuffer: nothing to see.)
    if (cut >= good.size() - meshvk::artifact::kTrailerSize) continue;
    meshvk::artifact::Reseal(&part);
    EXPECT_REFUSED(part, "truncated or corrupt");
  }
}

// The integrity trailer (integrity.h) is checked before anything reads the
// FlatBuffer: every flipped bit is refused as corruption (issue 13: one bit
// could load, run and return wrong numbers).
TEST(ArtifactVerifier, ChecksumIsCheckedFirst) {
  std::vector<uint8_t> good = Base().Finish();
  for (size_t bit : {size_t(70), size_t(8 * good.size() / 2 + 3), 8 * good.size() - 1}) {
    std::vector<uint8_t> bad = good;
    bad[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    SCOPED_TRACE(bit);
    EXPECT_REFUSED(bad, "checksum mismatch: the file is corrupt");  // FlatBuffer bytes and the checksum itself
  }
  std::vector<uint8_t> no_trailer(good.begin(), good.end() - meshvk::artifact::kTrailerSize);
  EXPECT_REFUSED(no_trailer, "no integrity trailer at the end of the file");
  std::vector<uint8_t> other = good;
  other[good.size() - 12] = 9;  // the algorithm field
  EXPECT_REFUSED(other, "unknown checksum algorithm 9");
  // Reseal recomputes it: the loader then judges the content.
  std::vector<uint8_t> resealed = good;
  resealed[good.size() / 2] ^= 1;
  meshvk::artifact::Reseal(&resealed);
  EXPECT_EQ(Load(resealed).find("checksum"), std::string::npos);
  EXPECT_EQ(Load(good), "");
}

TEST(ArtifactVerifier, WrongFileIdentifier) {
  std::vector<uint8_t> bytes = Base().Finish();
  bytes[4] = 'X';
  EXPECT_REFUSED(bytes, "not a .mvk artifact: file identifier 'XVK1', expected 'MVK1'");
}

TEST(ArtifactVerifier, OldAndNewerVersionsAreRefused) {
  ArtifactBuilder old_file = Base();
  old_file.set_format_version(0);
  EXPECT_REFUSED(old_file.Finish(), "format_version: 0 is older than this runtime's version 1 (recompile");
  ArtifactBuilder newer = Base();
  newer.set_format_version(3);  // 2 is a file of variants (variants_test.cc)
  EXPECT_REFUSED(newer.Finish(), "format_version: 3 is newer than this runtime's version 2 (update meshvk)");
}

TEST(ArtifactVerifier, FlippedBytesNeverCrash) {
  // Deterministic corruption sweep; the fuzz target does the random version.
  std::vector<uint8_t> good = RingAllGather(2, 8);
  for (size_t i = 8; i < good.size(); i += 7) {
    std::vector<uint8_t> bad = good;
    bad[i] ^= 0xA5;
    Load(bad);  // any result, but no crash or sanitizer report
  }
}

TEST(ArtifactVerifier, MissingFile) {
  meshvk_module_t* module = nullptr;
  meshvk_status_t status = meshvk_module_load_file("/nonexistent/dir/p.mvk", &module);
  ASSERT_NE(status, MESHVK_OK);
  EXPECT_EQ(meshvk_status_code(status), MESHVK_STATUS_UNAVAILABLE);
  EXPECT_NE(std::string(meshvk_status_message(status)).find("/nonexistent/dir/p.mvk: cannot open"), std::string::npos);
  meshvk_status_free(status);
}

// --- grid and buffers --------------------------------------------------------

TEST(ArtifactVerifier, GridRules) {
  EXPECT_REFUSED(ArtifactBuilder({2, 0}).Finish(), "grid.shape[1]: extent 0");
  EXPECT_REFUSED(ArtifactBuilder({2}, {3}).Finish(), "grid.peered_axes[0]: axis 3 out of range");
  EXPECT_REFUSED(ArtifactBuilder({2}, {0, 0}).Finish(), "grid.peered_axes[1]: axis 0 repeated");
  ArtifactBuilder extra = Base();
  extra.AddBuffer(2, {64, BufferKind::kTransient});  // a third process in a grid of 2
  EXPECT_REFUSED(extra.Finish(), "processes: 3 entries but the grid has 2 processes");
}

TEST(ArtifactVerifier, BufferRules) {
  auto with_buffer = [](BufferDesc desc) {
    ArtifactBuilder b = Base();
    b.AddBuffer(1, desc);
    return b.Finish();
  };
  EXPECT_REFUSED(with_buffer({0, BufferKind::kTransient}), "processes[1].buffers[3].size: 0");
  EXPECT_REFUSED(with_buffer({64, BufferKind::kConstant}),
                 "processes[1].buffers[3].initial_data: 0 bytes for a constant buffer of 64 bytes");
  EXPECT_REFUSED(with_buffer({4, BufferKind::kTransient, -1, {1, 2, 3, 4}}),
                 "processes[1].buffers[3].initial_data: only constant buffers");
  EXPECT_REFUSED(with_buffer({64, BufferKind::kArgumentShard, 2}),
                 "processes[1].buffers[3].reuse_slot: only transient buffers");
  EXPECT_REFUSED(with_buffer({64, BufferKind::kTransient, -3}), "processes[1].buffers[3].reuse_slot: -3");
}

TEST(ArtifactVerifier, ConstantsAreReadOnly) {
  auto with_constant = [](const std::function<void(ArtifactBuilder&, uint32_t)>& use) {
    ArtifactBuilder b = Base();
    uint32_t constant = b.AddBuffer(1, {64, BufferKind::kConstant, -1, std::vector<uint8_t>(64, 1)});
    use(b, constant);
    return b.Finish();
  };
  EXPECT_EQ(Load(with_constant([](ArtifactBuilder& b, uint32_t k) {
              DispatchDesc d = GoodDispatch();
              d.bindings[1].buffer = k;  // read: fine
              b.AddDispatch(1, d);
            })),
            "");
  EXPECT_REFUSED(
      with_constant([](ArtifactBuilder& b, uint32_t k) {
        DispatchDesc d = GoodDispatch();
        d.bindings[2].buffer = k;
        b.AddDispatch(1, d);
      }),
      "functions[0].streams[1].commands[1].dispatch.bindings[2]: the kernel writes it but buffer 3 is a constant");
  EXPECT_REFUSED(with_constant([](ArtifactBuilder& b, uint32_t k) {
                   CopyDesc c = LocalCopy();
                   c.dst_buffer = k;
                   b.AddCopy(1, c);
                 }),
                 "functions[0].streams[1].commands[1].copy.dst_buffer: buffer 3 is a constant (read-only)");
  EXPECT_REFUSED(with_constant([](ArtifactBuilder& b, uint32_t k) { b.AddFill(1, {k, 0, 4, 0}); }),
                 "functions[0].streams[1].commands[1].fill.buffer: buffer 3 is a constant (read-only)");
}

// --- shared constant data ---------------------------------------------------

// A replicated constant: the same bytes on both processes (and a different
// one on process 1), as the compiler emits a weight every process holds whole.
ArtifactBuilder WithConstants(size_t bytes) {
  ArtifactBuilder b = Base();
  std::vector<uint8_t> weight(bytes), other(bytes);
  for (size_t i = 0; i < bytes; ++i) {
    weight[i] = static_cast<uint8_t>(i * 7 + 1);
    other[i] = static_cast<uint8_t>(i * 5 + 3);
  }
  b.AddBuffer(0, {bytes, BufferKind::kConstant, -1, weight});
  b.AddBuffer(1, {bytes, BufferKind::kConstant, -1, weight});
  b.AddBuffer(1, {bytes, BufferKind::kConstant, -1, other});
  return b;
}

const meshvk::mvk::Buffer* BufferOf(const std::vector<uint8_t>& file, uint32_t process, uint32_t buffer) {
  return meshvk::mvk::GetArtifact(file.data())->processes()->Get(process)->buffers()->Get(buffer);
}

TEST(ArtifactBuilder, IdenticalConstantDataIsStoredOnce) {
  const size_t kBytes = 1 << 16;
  std::vector<uint8_t> file = WithConstants(kBytes).Finish();
  EXPECT_EQ(Load(file), "");
  // Three constant buffers, two distinct contents: the file holds 2 x 64 KiB
  // (plus the base program), not 3 x.
  const size_t base = Base().Finish().size();
  EXPECT_GE(file.size(), base + 2 * kBytes);
  EXPECT_LT(file.size(), base + 2 * kBytes + 256);
  const meshvk::mvk::Buffer* a = BufferOf(file, 0, 3);
  const meshvk::mvk::Buffer* b = BufferOf(file, 1, 3);
  const meshvk::mvk::Buffer* c = BufferOf(file, 1, 4);
  EXPECT_EQ(a->initial_data()->data(), b->initial_data()->data());
  EXPECT_NE(a->initial_data()->data(), c->initial_data()->data());
  EXPECT_EQ(a->initial_data()->size(), kBytes);
}

TEST(ArtifactVerifier, BadSharedConstantReference) {
  // Process 1's reference to the shared bytes (its buffer 3's initial_data
  // offset) pointed elsewhere: past the end of the file, into the other
  // constant's bytes (a vector whose length is garbage), at a valid vector of
  // the wrong size. Each is refused with one line; none crashes or loads.
  const size_t kBytes = 64;
  std::vector<uint8_t> good = WithConstants(kBytes).Finish();
  uint32_t flatbuffer_size = static_cast<uint32_t>(good.size() - 16);  // before the trailer
  const meshvk::mvk::Buffer* b = BufferOf(good, 1, 3);
  const uint8_t* field =
      reinterpret_cast<const flatbuffers::Table*>(b)->GetAddressOf(meshvk::mvk::Buffer::VT_INITIAL_DATA);
  ASSERT_NE(field, nullptr);
  const size_t at = static_cast<size_t>(field - good.data());
  auto pointing = [&](int64_t target) {  // the field's uoffset so that it points at `target`
    std::vector<uint8_t> bad = good;
    uint32_t offset = static_cast<uint32_t>(target - static_cast<int64_t>(at));
    std::memcpy(&bad[at], &offset, 4);
    meshvk::artifact::Reseal(&bad);
    return bad;
  };
  std::string past_end = Load(pointing(flatbuffer_size + 64));
  EXPECT_NE(past_end.find("DATA_LOSS: "), std::string::npos) << past_end;
  const size_t other =
      static_cast<size_t>(reinterpret_cast<const uint8_t*>(BufferOf(good, 1, 4)->initial_data()) - good.data());
  std::string garbage = Load(pointing(static_cast<int64_t>(other) + 4));
  EXPECT_NE(garbage.find("DATA_LOSS: "), std::string::npos) << garbage;
  // A valid vector of the wrong size (process 0's list of 4 buffers, which
  // lies after the field: offsets only point forward): the semantic check
  // names the buffer.
  const size_t list = static_cast<size_t>(
      reinterpret_cast<const uint8_t*>(meshvk::mvk::GetArtifact(good.data())->processes()->Get(0)->buffers()) -
      good.data());
  ASSERT_GT(list, at);
  EXPECT_REFUSED(pointing(static_cast<int64_t>(list)),
                 "processes[1].buffers[3].initial_data: 4 bytes for a constant buffer of 64 bytes");
}

// Files no builder writes, made with FlatBuffers directly: what the fuzz
// target found.
TEST(ArtifactVerifier, UnionTypeWithoutValue) {
  namespace mvk = meshvk::mvk;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<meshvk::mvk::Command>> commands = {
      meshvk::mvk::CreateCommand(fbb, meshvk::mvk::Op::Dispatch, 0)};
  std::vector<flatbuffers::Offset<meshvk::mvk::CommandStream>> streams = {
      meshvk::mvk::CreateCommandStream(fbb, fbb.CreateVector(commands))};
  std::vector<flatbuffers::Offset<meshvk::mvk::Function>> functions = {
      meshvk::mvk::CreateFunction(fbb, fbb.CreateString("f"), 0, 0, fbb.CreateVector(streams))};
  std::vector<flatbuffers::Offset<meshvk::mvk::Process>> processes = {meshvk::mvk::CreateProcess(fbb)};
  std::vector<uint32_t> shape = {1};
  auto grid = meshvk::mvk::CreateGrid(fbb, fbb.CreateVector(shape));
  auto root = meshvk::mvk::CreateArtifact(fbb, kFormatVersion, 0, grid, fbb.CreateVector(processes), 0,
                                          fbb.CreateVector(functions));
  meshvk::mvk::FinishArtifactBuffer(fbb, root);
  std::vector<uint8_t> bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  meshvk::artifact::AppendTrailer(&bytes);
  EXPECT_REFUSED(bytes, "functions[0].streams[0].commands[0].op: missing or unknown operation");
}

TEST(ArtifactVerifier, MisalignedEightByteVector) {
  // What the fuzz target found: the FlatBuffers verifier accepts a uint64
  // vector whose length sits 8-byte aligned, so its data is not. Make one by
  // pointing a shard's shape (length 2, after 4 zero padding bytes) 4 bytes
  // earlier: a zero-length vector with misaligned data.
  std::vector<uint8_t> good = Base().Finish();
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, &good[at], 4);
    return v;
  };
  int tried = 0;
  for (size_t length_at = 8; length_at + 20 <= good.size() && tried < 3; length_at += 4) {
    if (length_at % 8 != 4 || u32(length_at) != 2 || u32(length_at - 4) != 0) continue;
    for (size_t field = 0; field + 4 <= good.size(); field += 4) {
      if (field + u32(field) != length_at) continue;
      std::vector<uint8_t> bad = good;
      uint32_t earlier = u32(field) - 4;
      std::memcpy(&bad[field], &earlier, 4);
      meshvk::artifact::Reseal(&bad);
      std::string error = Load(bad);
      EXPECT_NE(error.find("misaligned vector (corrupt file)"), std::string::npos) << error;
      ++tried;
    }
  }
  EXPECT_GT(tried, 0);
}

TEST(ArtifactVerifier, OneStreamPerProcess) {
  ArtifactBuilder b = Base();
  b.AddFill(3, {0, 0, 4, 0});  // a stream for process 3 of a 2-process grid
  EXPECT_REFUSED(b.Finish(), "functions[0].streams: 4 entries, the grid has 2 processes");
}

TEST(ArtifactBuilder, DeduplicatesExecutables) {
  ArtifactBuilder b({2});
  EXPECT_EQ(b.AddExecutable(ScaledAddKernel()), 0u);
  EXPECT_EQ(b.AddExecutable(ScaledAddKernel()), 0u);
  ExecutableDesc other = ScaledAddKernel();
  other.push_constant_size = 4;
  EXPECT_EQ(b.AddExecutable(other), 1u);
}

}  // namespace
}  // namespace meshvk_test
