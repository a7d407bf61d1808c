// One broken-file test per rule of the .mvk verifier: each builds a file that
// breaks exactly one rule (starting from a valid program) and checks that
// loading fails with DATA_LOSS and a message naming the field and the reason.
// No Vulkan: loading must not need a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "meshvk/artifact/integrity.h"
#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "programs.h"

namespace meshvk_test {
namespace {

using namespace meshvk::artifact;

// Loads `bytes`; returns "" on success, else "CODE: message".
std::string Load(const std::vector<uint8_t>& bytes) {
  meshvk_module_t* module = nullptr;
  meshvk_status_t status = meshvk_module_load(bytes.data(), bytes.size(), &module);
  if (!status) {
    meshvk_module_release(module);
    return "";
  }
  EXPECT_EQ(module, nullptr);
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}

#define EXPECT_REFUSED(bytes, needle)                                   \
  do {                                                                  \
    std::string _error = Load(bytes);                                   \
    EXPECT_NE(_error.find("DATA_LOSS: "), std::string::npos) << _error; \
    EXPECT_NE(_error.find(needle), std::string::npos) << _error;        \
  } while (0)

// The valid base: c = a + 2 b on 4x8 f32, rows split over a grid of 2.
ArtifactBuilder Base(FunctionDesc* function = nullptr) {
  return ElementwiseBuilder({2}, {{0}, {}}, 4, 8, 2.0f, function);
}

DispatchDesc GoodDispatch() {
  DispatchDesc d;
  d.executable = 0;
  d.bindings = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  d.push_constants = ScaledAddPush(16, 1.0f);
  return d;
}

std::vector<uint8_t> WithDispatch(const std::function<void(DispatchDesc&)>& edit) {
  ArtifactBuilder b = Base();
  DispatchDesc d = GoodDispatch();
  edit(d);
  b.AddDispatch(1, d);
  return b.Finish();
}

CopyDesc LocalCopy() {  // process 1: a shard -> c shard, 64 bytes
  CopyDesc c;
  c.src_process = 1;
  c.src_buffer = 0;
  c.dst_buffer = 2;
  c.size = 64;
  return c;
}

std::vector<uint8_t> WithCopy(const std::function<void(CopyDesc&)>& edit) {
  ArtifactBuilder b = Base();
  CopyDesc c = LocalCopy();
  edit(c);
  b.AddCopy(1, c);
  return b.Finish();
}

std::vector<uint8_t> WithFunction(const std::function<void(FunctionDesc&)>& edit) {
  FunctionDesc fn;
  ArtifactBuilder b = Base(&fn);
  edit(fn);
  b.AddFunction(fn);
  return b.Finish();
}

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
  meshvk_grid_info_t grid;
  meshvk_module_grid_info(module, &grid);
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
  meshvk_tensor_info_t x{};
  ASSERT_EQ(meshvk_module_argument_info(module, 0, 0, &x), MESHVK_OK);
  EXPECT_EQ(x.rank, 1u);
  EXPECT_EQ(x.shape[0], 64u);
  EXPECT_EQ(x.byte_size, 256u);
  EXPECT_EQ(x.split_axis_count[0], 1u);
  meshvk_process_summary_t plan{};
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
  meshvk_process_summary_t plan{};
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

// --- executables -------------------------------------------------------------

std::vector<uint8_t> WithKernel(const std::function<void(ExecutableDesc&)>& edit) {
  ArtifactBuilder b = Base();
  ExecutableDesc x = ScaledAddKernel();
  edit(x);
  b.AddExecutable(x);
  return b.Finish();
}

TEST(ArtifactVerifier, InvalidSpirvIsRefused) {
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.spirv = {1, 2, 3, 4, 5, 6}; }),
                 "executables[1].spirv: not a SPIR-V module (bad magic number)");
  // Valid header, garbage instruction stream: SPIRV-Tools says why.
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.spirv.resize(x.spirv.size() / 2); }),
                 "executables[1].spirv: SPIR-V validation failed");
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.spirv.clear(); }), "executables[1].spirv: empty");
}

TEST(ArtifactVerifier, ExecutableMustMatchItsSpirv) {
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.entry_point = "other"; }),
                 "executables[1].spirv: no GLCompute entry point named 'other'");
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.workgroup_size[0] = 32; }),
                 "executables[1].spirv: entry point 'main' has LocalSize 64x1x1 but workgroup_size says 32x1x1");
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.workgroup_size[1] = 0; }), "executables[1].workgroup_size[1]: 0");
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.push_constant_size = 6; }),
                 "executables[1].push_constant_size: 6 (must be a multiple of 4");
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.entry_point = ""; }), "executables[1].entry_point: missing");
}

// Issue 13: push_constant_size is the SPIR-V block's size, exactly (the
// compiler declares the block it emits; more would push bytes no kernel
// reads, less is a Vulkan error).
TEST(ArtifactVerifier, PushConstantSizeIsTheBlocksSize) {
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.push_constant_size = 12; }),
                 "executables[1].push_constant_size: 12 bytes declared, the push-constant block of 'main' in its "
                 "SPIR-V needs 8");
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.push_constant_size = 4; }),
                 "executables[1].spirv: the push-constant block needs 8 bytes but push_constant_size is 4");
}

// The index of the first word of instruction `opcode` whose operands start
// with `operands` (the test kernel's SPIR-V, scaled_add.comp).
size_t FindInstruction(const std::vector<uint32_t>& words, uint32_t opcode, const std::vector<uint32_t>& operands) {
  for (size_t i = 5; i < words.size();) {
    uint32_t count = words[i] >> 16;
    if ((words[i] & 0xffff) == opcode && count > operands.size()) {
      bool match = true;
      for (size_t k = 0; k < operands.size(); ++k)
        if (operands[k] != UINT32_MAX && words[i + 1 + k] != operands[k]) match = false;
      if (match) return i;
    }
    i += count ? count : 1;
  }
  ADD_FAILURE() << "instruction " << opcode << " not found";
  return 0;
}

// SPIR-V the validator (SPIRV-Tools 2023.1) accepts but no meshvk kernel
// contains; each was a resealed bit flip of add.mvk (bitflip_sweep --reseal)
// that crashed lavapipe or ran to a wrong answer.
TEST(ArtifactVerifier, KernelInterfaceIsAMeshvkKernel) {
  constexpr uint32_t kOpDecorate = 71, kOpMemberDecorate = 72, kBuiltIn = 11, kArrayStride = 6, kOffset = 35;
  // GlobalInvocationId (28) -> LocalInvocationIndex (29) on a uvec3: lavapipe's LLVM segfaulted.
  EXPECT_REFUSED(WithKernel([&](ExecutableDesc& x) {
                   x.spirv[FindInstruction(x.spirv, kOpDecorate, {UINT32_MAX, kBuiltIn, 28}) + 3] = 29;
                 }),
                 "(LocalInvocationIndex) is a 3-component vector of 32-bit integers; Vulkan requires a 32-bit integer");
  // Two variables with the same built-in (GlobalInvocationId -> NumWorkgroups).
  EXPECT_REFUSED(WithKernel([&](ExecutableDesc& x) {
                   x.spirv[FindInstruction(x.spirv, kOpDecorate, {UINT32_MAX, kBuiltIn, 28}) + 3] = 24;
                 }),
                 "are both BuiltIn NumWorkgroups");
  // A storage buffer read with a stride of 8 bytes over 4-byte floats.
  EXPECT_REFUSED(WithKernel([&](ExecutableDesc& x) {
                   x.spirv[FindInstruction(x.spirv, kOpDecorate, {UINT32_MAX, kArrayStride}) + 3] = 8;
                 }),
                 "has ArrayStride 8 for 4-byte elements");
  // A buffer's array moved 4096 bytes into the binding (member 0 of the first block).
  EXPECT_REFUSED(WithKernel([&](ExecutableDesc& x) {
                   size_t i = 5;
                   for (;; i += x.spirv[i] >> 16) {  // the first Offset 0 of a one-member block (not the push block)
                     if ((x.spirv[i] & 0xffff) == kOpMemberDecorate && x.spirv[i + 3] == kOffset &&
                         x.spirv[i + 4] == 0 && i > FindInstruction(x.spirv, kOpMemberDecorate, {UINT32_MAX, 1}))
                       break;
                   }
                   x.spirv[i + 4] = 4096;
                 }),
                 "is at Offset 4096, densely packed it is at 0");
  // A capability Vulkan allows but meshvk neither binds nor enables
  // (ImageQuery, 50), inserted after the kernel's first OpCapability.
  EXPECT_REFUSED(WithKernel([&](ExecutableDesc& x) {
                   constexpr uint32_t kOpCapability = 17, kImageQuery = 50;
                   size_t at = FindInstruction(x.spirv, kOpCapability, {});
                   x.spirv.insert(x.spirv.begin() + at + 2, {(2u << 16) | kOpCapability, kImageQuery});
                 }),
                 "capability 50 is not one a meshvk kernel may declare");
  // The reserved schema word: lavapipe failed pipeline creation (exit 3 before).
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.spirv[4] = 1; }),
                 "SPIR-V header: schema word is 1 (reserved, must be 0)");
}

// A result whose buffer no command writes would return whatever it held.
TEST(ArtifactVerifier, EveryResultByteIsWritten) {
  FunctionDesc main;
  ArtifactBuilder b = Base(&main);
  for (uint32_t p = 0; p < 2; ++p) main.results[0].shards[p].buffer = b.AddBuffer(p, {64, BufferKind::kResultShard});
  b.AddFunction(main);
  EXPECT_REFUSED(b.Finish(),
                 "functions[0].results[0].shards[0]: byte 0 of buffer 3 of process 0 is written by no command");
  // One process, c = a + b over 16 floats; the result binding starts 16
  // bytes in: its bytes 0..15 stay unwritten.
  auto one_dispatch = [](uint64_t result_offset) {
    ArtifactBuilder one({1});
    uint32_t kernel = one.AddExecutable(ScaledAddKernel());
    uint32_t ba = one.AddBuffer(0, {64, BufferKind::kArgumentShard});
    uint32_t bb = one.AddBuffer(0, {64, BufferKind::kArgumentShard});
    uint32_t bc = one.AddBuffer(0, {64, BufferKind::kResultShard});
    DispatchDesc d;
    d.executable = kernel;
    d.bindings = {{ba, 0, 0}, {bb, 0, 0}, {bc, result_offset, 0}};
    d.push_constants = ScaledAddPush(16, 1.0f);
    one.AddDispatch(0, d);
    auto tensor = [](uint32_t buffer) {
      TensorDesc t;
      t.shape = {16};
      t.split_axes = {{}};
      t.shards = {{0, buffer, 0, {0}, {16}}};
      return t;
    };
    one.AddFunction({"main", {tensor(ba), tensor(bb)}, {tensor(bc)}});
    return one.Finish();
  };
  EXPECT_EQ(Load(one_dispatch(0)), "");
  EXPECT_REFUSED(one_dispatch(16),
                 "functions[0].results[0].shards[0]: byte 0 of buffer 2 of process 0 is written by no command");
}

// --- dispatches --------------------------------------------------------------

TEST(ArtifactVerifier, DispatchIndicesInRange) {
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.executable = 5; }),
                 "functions[0].streams[1].commands[1].dispatch.executable: 5 out of range (1 executables)");
  EXPECT_REFUSED(
      WithDispatch([](DispatchDesc& d) { d.bindings[1].buffer = 9; }),
      "functions[0].streams[1].commands[1].dispatch.bindings[1].buffer: 9 out of range (process 1 has 3 buffers)");
}

TEST(ArtifactVerifier, DispatchShapeRules) {
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.bindings.pop_back(); }),
                 "functions[0].streams[1].commands[1].dispatch.bindings: 2 bindings, executable 0 has 3");
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.push_constants.resize(4); }),
                 "functions[0].streams[1].commands[1].dispatch.push_constants: 4 bytes, executable 0 takes 8");
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.workgroup_count[2] = 0; }),
                 "functions[0].streams[1].commands[1].dispatch.workgroup_count: 1x1x0");
}

TEST(ArtifactVerifier, BindingRangesInsideBuffers) {
  // Shards are 2x8 f32 = 64 bytes.
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.bindings[0].range = 128; }),
                 "functions[0].streams[1].commands[1].dispatch.bindings[0]: bytes [0, 0+128) leave buffer 0 of process "
                 "1 (64 bytes)");
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.bindings[2].offset = 64; }),
                 "functions[0].streams[1].commands[1].dispatch.bindings[2]: bytes [64, 64+0) leave buffer 2");
  EXPECT_REFUSED(
      WithDispatch([](DispatchDesc& d) { d.bindings[0] = {0, 2, 8}; }),
      "functions[0].streams[1].commands[1].dispatch.bindings[0]: offset 2 and range 8 must be multiples of 4");
}

TEST(ArtifactVerifier, OverlappingWrittenBindings) {
  EXPECT_REFUSED(WithDispatch([](DispatchDesc& d) { d.bindings[2] = {0, 32, 32}; }),
                 "functions[0].streams[1].commands[1].dispatch.bindings[2]: overlaps bindings[0] in buffer 0 and one "
                 "of them is written");
  // Two read-only bindings may alias.
  EXPECT_EQ(Load(WithDispatch([](DispatchDesc& d) { d.bindings[1] = {0, 0, 0}; })), "");
  // Disjoint halves of one buffer may be read and written.
  EXPECT_EQ(Load(WithDispatch([](DispatchDesc& d) {
              d.bindings[0] = {2, 0, 32};
              d.bindings[2] = {2, 32, 32};
            })),
            "");
}

// --- copies ------------------------------------------------------------------

TEST(ArtifactVerifier, CopyIndicesInRange) {
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) { c.src_process = 7; }),
                 "functions[0].streams[1].commands[1].copy.src_process: 7 out of range (2 processes)");
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) { c.src_buffer = 3; }),
                 "functions[0].streams[1].commands[1].copy.src_buffer: 3 out of range (process 1 has 3 buffers)");
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) { c.dst_buffer = 4; }),
                 "functions[0].streams[1].commands[1].copy.dst_buffer: 4 out of range (process 1 has 3 buffers)");
}

TEST(ArtifactVerifier, CopyRangesInsideBuffers) {
  EXPECT_REFUSED(
      WithCopy([](CopyDesc& c) { c.src_offset = 32; }),
      "functions[0].streams[1].commands[1].copy: source bytes [32, 32+64) leave buffer 0 of process 1 (64 bytes)");
  EXPECT_REFUSED(
      WithCopy([](CopyDesc& c) { c.dst_offset = 4; }),
      "functions[0].streams[1].commands[1].copy: destination bytes [4, 4+64) leave buffer 2 of process 1 (64 bytes)");
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) { c.size = 0; }), "functions[0].streams[1].commands[1].copy.size: 0");
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) { c.src_offset = ~0ull - 8; }), "leave buffer 0");  // no overflow
}

TEST(ArtifactVerifier, OverlappingCopyInOneBuffer) {
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) {
                   c.src_buffer = 2;
                   c.size = 32;
                   c.dst_offset = 16;
                 }),
                 "functions[0].streams[1].commands[1].copy: source and destination ranges overlap in buffer 2");
  EXPECT_EQ(Load(WithCopy([](CopyDesc& c) {
              c.src_buffer = 2;
              c.size = 32;
              c.dst_offset = 32;
            })),
            "");
}

TEST(ArtifactVerifier, StridedRegionsInsideBuffers) {
  auto strided = [](StridedRegionDesc r, uint32_t src_buffer = 0) {
    return WithCopy([=](CopyDesc& c) {
      c.src_buffer = src_buffer;
      c.size = 0;
      c.regions = {r};
    });
  };
  StridedRegionDesc good;  // a 2x4 block out of a 2x8 row-major shard
  good.count[0] = 4;
  good.count[1] = 2;
  good.src_stride[0] = 1;
  good.src_stride[1] = 8;
  good.dst_stride[0] = 1;
  good.dst_stride[1] = 4;
  EXPECT_EQ(Load(strided(good)), "");
  StridedRegionDesc far = good;
  far.src_offset_words = 6;  // last element at 6 + 3 + 8 = 17 > 15
  EXPECT_REFUSED(strided(far),
                 "functions[0].streams[1].commands[1].copy.regions[0]: source words [6, 6+12) leave buffer 0 of "
                 "process 1 (16 words)");
  StridedRegionDesc zero = good;
  zero.count[2] = 0;
  EXPECT_REFUSED(strided(zero), "functions[0].streams[1].commands[1].copy.regions[0].count: each must be >= 1");
  StridedRegionDesc self = good;  // same buffer, overlapping words
  self.dst_offset_words = 2;
  EXPECT_REFUSED(strided(self, 2),
                 "functions[0].streams[1].commands[1].copy.regions[0]: source and destination ranges overlap");
  // More elements than the strided copy kernel runs (2^31): refused at load
  // (exit 2), not at program creation (exit 3). Zero strides keep it inside.
  StridedRegionDesc huge;
  huge.count[0] = 2048;
  huge.count[1] = 1024;
  huge.count[2] = 1025;
  EXPECT_REFUSED(strided(huge),
                 "functions[0].streams[1].commands[1].copy.regions[0].count: 2048x1024x1025 = 2149580800 elements, "
                 "more than the strided copy's limit of 2^31");
}

TEST(ArtifactVerifier, SpirvBindingsMustBeInTheDeclaredLayout) {
  // The kernel uses bindings 0..2; the executable declares only 0..1.
  EXPECT_REFUSED(WithKernel([](ExecutableDesc& x) { x.writable_bindings = {false, false}; }),
                 "executables[1].spirv: the shader uses set 0 binding 2; the executable declares set 0 bindings 0..1");
}

TEST(ArtifactVerifier, CopiesArePullsAcrossPeeredAxesOnly) {
  ArtifactBuilder push = Base();
  push.set_copy_dst_process_override(0);
  push.AddCopy(1, LocalCopy());
  EXPECT_REFUSED(push.Finish(),
                 "functions[0].streams[1].commands[1].copy.dst_process: 0 but the copy is in process 1's stream");
  // The base grid has no peered axis: a copy from process 0 into 1 cannot be done.
  EXPECT_REFUSED(WithCopy([](CopyDesc& c) { c.src_process = 0; }),
                 "functions[0].streams[1].commands[1].copy.src_process: process 0 and process 1 differ along grid axis "
                 "0, which is not peered");
}

// --- fills -------------------------------------------------------------------

TEST(ArtifactVerifier, FillRules) {
  auto with_fill = [](FillDesc f) {
    ArtifactBuilder b = Base();
    b.AddFill(0, f);
    return b.Finish();
  };
  EXPECT_EQ(Load(with_fill({2, 0, 64, 0})), "");
  EXPECT_REFUSED(with_fill({2, 0, 68, 0}),
                 "functions[0].streams[0].commands[1].fill: bytes [0, 0+68) leave buffer 2 of process 0");
  EXPECT_REFUSED(with_fill({2, 2, 4, 0}),
                 "functions[0].streams[0].commands[1].fill: offset 2 and size 4 must be multiples of 4");
  EXPECT_REFUSED(with_fill({5, 0, 4, 0}), "functions[0].streams[0].commands[1].fill.buffer: 5 out of range");
}

// --- dependencies ------------------------------------------------------------

TEST(ArtifactVerifier, DependencyIndicesInRange) {
  ArtifactBuilder b = Base();
  b.AddFill(0, {2, 0, 4, 0}, {{3, 0}});
  EXPECT_REFUSED(b.Finish(), "functions[0].streams[0].commands[1].deps[0].process: 3 out of range (2 processes)");
  ArtifactBuilder c = Base();
  c.AddFill(0, {2, 0, 4, 0}, {{1, 5}});
  EXPECT_REFUSED(c.Finish(),
                 "functions[0].streams[0].commands[1].deps[0].command: 5 out of range (process 1 has 1 commands)");
}

TEST(ArtifactVerifier, CyclicDependencies) {
  ArtifactBuilder two = Base();  // p0.c1 waits for p1.c1, p1.c1 waits for p0.c1
  two.AddFill(0, {2, 0, 4, 0}, {{1, 1}});
  two.AddFill(1, {2, 0, 4, 0}, {{0, 1}});
  EXPECT_REFUSED(two.Finish(), "dependency cycle");
  ArtifactBuilder forward = Base();  // waits for a later command of its own stream
  forward.AddFill(0, {2, 0, 4, 0}, {{0, 2}});
  forward.AddFill(0, {2, 4, 4, 0});
  EXPECT_REFUSED(forward.Finish(), "functions[0].streams[0].commands[1].deps: dependency cycle");
  ArtifactBuilder self = Base();
  self.AddFill(0, {2, 0, 4, 0}, {{0, 1}});
  EXPECT_REFUSED(self.Finish(), "dependency cycle");
  // The same graph without the back edge is fine.
  ArtifactBuilder ok = Base();
  ok.AddFill(0, {2, 0, 4, 0}, {{1, 0}});
  ok.AddFill(1, {2, 0, 4, 0}, {{0, 0}});
  EXPECT_EQ(Load(ok.Finish()), "");
}

// --- functions: sizes consistent with shapes and sharding --------------------

TEST(ArtifactVerifier, ShardMustMatchTheSharding) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[1].shape = {4, 8}; }),
                 "functions[0].arguments[0].shards[1]: dimension 0 is offset 2 size 4, past the extent 4");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].shards[0].global_offset = {2, 0}; }),
                 "functions[0].results[0].shards: dimension 0 part 0 is offset 2 size 2; the parts must tile 0..4 in "
                 "order (expected offset 0)");
  // Uneven shards are fine, but they must still tile the dimension.
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].shape = {1, 8}; }),
                 "functions[0].arguments[0].shards: dimension 0 part 1 is offset 2 size 2; the parts must tile 0..4 "
                 "in order (expected offset 1)");
  // An empty part is allowed (3 rows over 4 processes), a gap after it is not.
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].shape = {0, 8}; }),
                 "functions[0].arguments[0].shards: dimension 0 part 1 is offset 2 size 2; the parts must tile 0..4 "
                 "in order (expected offset 0)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[1].shards[0].shape = {2}; }),
                 "functions[0].arguments[1].shards[0]: shape/global_offset have 1/2 entries, tensor rank is 2");
}

TEST(ArtifactVerifier, ShardsMustCoverTheTensor) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].shards.pop_back(); }),
                 "functions[0].results[0].shards: cover 1 of the 2 shards the sharding defines");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.results[0].shards.clear(); }),
                 "functions[0].results[0].shards: empty");
}

TEST(ArtifactVerifier, SplitRules) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shape = {5, 8}; }),
                 "functions[0].arguments[0].shards: dimension 0 parts end at 4, the extent is 5");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].split_axes = {{0}, {0}}; }),
                 "functions[0].arguments[0].split_axes[1].axes[0]: grid axis 0 used twice");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].split_axes = {{1}, {}}; }),
                 "functions[0].arguments[0].split_axes[0].axes[0]: grid axis 1 out of range (grid rank 1)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].split_axes = {{0}}; }),
                 "functions[0].arguments[0].split_axes: 1 entries for a rank-2 tensor");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shape = {4, 0}; }),
                 "functions[0].arguments[0].shape[1]: extent 0");
}

TEST(ArtifactVerifier, ShardBuffersHoldTheShard) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].buffer = 2; }),
                 "functions[0].arguments[0].shards[0].buffer: buffer 2 of process 0 is not a argument shard buffer");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[0].buffer = 8; }),
                 "functions[0].arguments[0].shards[0].buffer: 8 out of range (process 0 has 3 buffers)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[1].offset = 4; }),
                 "functions[0].arguments[0].shards[1]: 64 bytes at offset 4 leave buffer 0 of process 1 (64 bytes)");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[0].shards[1].offset = 2; }),
                 "functions[0].arguments[0].shards[1].offset: 2 not aligned to the element size 4");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[1].shards[0].process = 9; }),
                 "functions[0].arguments[1].shards[0].process: 9 out of range");
}

TEST(ArtifactVerifier, OverlappingArgumentShards) {
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.arguments[1].shards[0].buffer = 0; }),
                 "functions[0].arguments[1].shards[0]: overlaps another argument shard in buffer 0 of process 0");
}

TEST(ArtifactVerifier, FunctionNames) {
  ArtifactBuilder b = Base();
  FunctionDesc extra;
  b = Base(&extra);
  b.AddFunction(extra);
  b.AddFunction(extra);
  EXPECT_REFUSED(b.Finish(), "functions[1].name: 'main' defined twice");
  EXPECT_REFUSED(WithFunction([](FunctionDesc& f) { f.name.clear(); }), "functions[0].name: missing");
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

}  // namespace
}  // namespace meshvk_test

namespace meshvk_test {
namespace {

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
