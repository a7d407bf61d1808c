// The .mvk verifier's rules for each process's commands: dispatches, copies
// and fills in range and inside their buffers, and dependencies that point at
// earlier commands without cycles.
#include <gtest/gtest.h>

#include "verifier_test_util.h"

namespace meshvk_test {
namespace {

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
  const StridedRegionDesc good = StridedRows(4, 2, 8, 4);  // a 2x4 block out of a 2x8 row-major shard
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

}  // namespace
}  // namespace meshvk_test
