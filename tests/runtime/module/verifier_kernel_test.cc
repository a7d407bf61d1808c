// The .mvk verifier's rules for executables: the SPIR-V is valid, matches
// what the executable entry declares, and is a meshvk kernel; every result
// byte is written by some command.
#include <gtest/gtest.h>

#include <cstdint>

#include "verifier_test_util.h"

namespace meshvk_test {
namespace {

// --- executables -------------------------------------------------------------

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

}  // namespace
}  // namespace meshvk_test
