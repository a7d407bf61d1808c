// Conformance: what a sharded program does to a set of devices, checked on
// every topology this machine offers. Written once; ctest runs the binary
// plainly (lavapipe: logical devices on one physical device, a "group" of 1)
// and under runtime/layer's emulated device groups of 2 and 4 (Khronos
// validation ABOVE the layer, shuffled execution, cross-device race check).
// The Vulkan fixture turns ANY validation message or race report into a
// failure.
//
// Oracles are independent of the compiler: buffer sizes from the tensor
// shapes and the sharding written in the sample, minimum cross-device bytes
// from the collective each sample needs (formulas below), results from host
// loops (tests/e2e/samples.cc).
#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <string>

#include "meshvk/artifact/mvk_generated.h"
#include "program_runner.h"
#include "samples.h"
#include "vulkan_fixture.h"

namespace meshvk_e2e {
namespace {

// The runtime's host-staging chunk (runtime/src/host_staging.h).
constexpr uint64_t kStagingChunk = 1ull << 20;

namespace mvk = meshvk::mvk;
constexpr uint32_t kSeed = 7;

// The programs the suite runs, with the bytes each process must pull from
// peers, worked out from the program text alone (per process p of P):
//   all_gather of a tensor split in n: (n-1) * global/n
//   all_reduce (direct) of a partial of S bytes over n: (n-1) * S
//   all_to_all of a shard of S bytes over n: (n-1) * S/n
struct Conformance {
  std::string sample, grid;
  uint64_t min_peer_bytes_per_process;
};

const std::vector<Conformance>& Programs() {
  static const std::vector<Conformance> programs = {
      // y partial 32x64 f32 = 8192 B, all_reduce over 4: 3 * 8192.
      {"mlp_megatron", "4", 3 * 8192},
      // C rows gathered: C = 256x64 f32 = 65536 B split in 4: 3 * 16384.
      {"matmul_rows", "4", 3 * 16384},
      // x 64x32 i32 rows -> cols: all_to_all of an 8192/4 = 2048 B shard: 3 * 512;
      // then y 32x64 i32 (8192 B) gathered from 4 row shards: 3 * 2048.
      {"transpose_reshard", "4", 3 * 512 + 3 * 2048},
      // 2x2: y partial 16x64 f32 = 4096 B all_reduced over axis 1 (n=2): 4096;
      // then the batch halves gathered over axis 0 (n=2): 4096.
      {"mlp_data_tensor_parallel", "2x2", 4096 + 4096},
  };
  return programs;
}

uint64_t CopyBytes(const mvk::Copy* copy) {
  if (!copy->regions() || copy->regions()->size() == 0) return copy->size();
  uint64_t words = 0;
  for (const mvk::StridedRegion* r : *copy->regions())
    words += uint64_t(r->count().x()) * r->count().y() * r->count().z();
  return words * 4;
}

uint64_t ElementBytes(mvk::ElementType t) { return t == mvk::ElementType::F16 ? 2 : 4; }

class ConformanceTest : public meshvk_test::VulkanTest, public ::testing::WithParamInterface<Conformance> {
 protected:
  // The topologies this instance offers for P processes: logical devices
  // always; a device group (of whatever size group 0 has) too.
  std::vector<meshvk_topology_t> Topologies() {
    std::vector<meshvk_topology_t> t = {MESHVK_TOPOLOGY_LOGICAL};
    if (meshvk_instance_device_group_count(instance()) > 0) t.push_back(MESHVK_TOPOLOGY_DEVICE_GROUP);
    // Independent devices: one VkDevice per physical device (lavapipe
    // registered twice, or the emulation layer's separate groups).
    if (meshvk_instance_physical_device_count(instance()) > 1) t.push_back(MESHVK_TOPOLOGY_INDEPENDENT);
    return t;
  }
  // Process -> device mappings to try. DEVICE_GROUP: round robin, reversed,
  // neighbours sharing a device, over the group's devices. LOGICAL: every
  // process on one physical device (the first, then the last). INDEPENDENT:
  // round robin, reversed and neighbours sharing over the physical devices.
  std::vector<std::vector<uint32_t>> Mappings(meshvk_topology_t topology, uint32_t P) {
    if (topology == MESHVK_TOPOLOGY_LOGICAL) {
      uint32_t last = std::max(1u, meshvk_instance_physical_device_count(instance())) - 1;
      return {std::vector<uint32_t>(P, 0), std::vector<uint32_t>(P, last)};
    }
    uint32_t D = std::max(
        1u, topology == MESHVK_TOPOLOGY_INDEPENDENT ? meshvk_instance_physical_device_count(instance()) : Group0Size());
    std::vector<uint32_t> forward(P), reverse(P), pairs(P);
    for (uint32_t p = 0; p < P; ++p) {
      forward[p] = p % D;
      reverse[p] = (P - 1 - p) % D;
      pairs[p] = (p / 2) % D;  // neighbours share a device
    }
    return {forward, reverse, pairs};
  }
};

// Shard buffers live on their owner only, are sized from the local shard shape,
// and each process allocates exactly the plan's bytes.
TEST_P(ConformanceTest, ShardBuffersAreLocalAndAllocationsEqualThePlan) {
  const Conformance& c = GetParam();
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample(c.sample, c.grid, &program), "");
  const uint32_t P = ProcessCount(c.grid);
  const mvk::Artifact* a = mvk::GetArtifact(program->artifact.data());
  ASSERT_EQ(a->processes()->size(), P);

  // Every argument/result shard: its buffer is one of its own process's
  // buffers and holds exactly the shard (never the global tensor when split).
  const mvk::Function* fn = a->functions()->Get(0);
  for (auto* list : {fn->arguments(), fn->results()})
    for (const mvk::TensorSignature* t : *list) {
      uint64_t global = ElementBytes(t->element_type());
      for (uint64_t d : *t->shape()) global *= d;
      bool split = false;
      for (const mvk::SplitAxes* s : *t->split_axes()) split |= s->axes() && s->axes()->size() > 0;
      ASSERT_EQ(t->shards()->size(), P);
      for (const mvk::Shard* s : *t->shards()) {
        uint64_t shard = ElementBytes(t->element_type());
        for (uint64_t d : *s->shape()) shard *= d;
        const mvk::Buffer* b = a->processes()->Get(s->process())->buffers()->Get(s->buffer());
        EXPECT_EQ(b->size(), shard) << "shard of process " << s->process();
        if (split) EXPECT_LT(b->size(), global) << "a split tensor's shard sized like the global tensor";
      }
    }

  for (meshvk_topology_t topology : Topologies()) {
    std::vector<uint32_t> mapping = Mappings(topology, P).front();
    meshvk_test::DeviceSet set = MakeSet(topology, P, mapping.data());
    ASSERT_TRUE(set);
    std::vector<uint64_t> before(P);
    for (uint32_t p = 0; p < P; ++p) before[p] = meshvk_device_set_allocated_bytes(set.get(), p);
    std::vector<HostTensor> outputs;
    ProgramPtr prog;
    const Sample& sample = SampleNamed(c.sample);
    ASSERT_EQ(RunOnce(program->artifact, set.get(), sample.make_inputs(kSeed), &outputs, &prog), "");
    for (uint32_t p = 0; p < P; ++p) {
      const auto& plan = program->memory[p];
      uint64_t planned = plan.argumentBytes + plan.resultBytes + plan.transientBytes;
      uint64_t in_artifact = 0;
      for (const mvk::Buffer* b : *a->processes()->Get(p)->buffers()) in_artifact += b->size();
      EXPECT_EQ(in_artifact, planned) << "process " << p;
      EXPECT_EQ(meshvk_device_set_allocated_bytes(set.get(), p) - before[p], planned)
          << "process " << p << " on topology " << topology;
    }
    // Staging (host-staged landing buffers and staging rings) is counted
    // apart, and bounded: the landing buffers of the bytes that arrive by
    // host staging (at most the source buffers' sizes) plus the two rings of
    // two chunks each device keeps (in a device group, each device of the
    // group its own: a ring of one device would reach another's memory as a
    // peer).
    // Staging is per VkDevice: the processes sharing one add up.
    std::map<uint32_t, uint64_t> staged_in;                      // VkDevice -> landing bytes
    std::map<uint32_t, std::set<uint32_t>> devices_of_vkdevice;  // VkDevice -> device indices used
    for (uint32_t p = 0; p < P; ++p) {
      meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
      ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_process_info(set.get(), p, &info)), "");
      devices_of_vkdevice[info.logical_device].insert(info.device_index);
      uint64_t& staged = staged_in[info.logical_device];
      for (const mvk::Command* cmd : *a->functions()->Get(0)->streams()->Get(p)->commands()) {
        const mvk::Copy* copy = cmd->op_as_Copy();
        meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
        if (!copy) continue;
        ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_copy_path(set.get(), copy->src_process(), p, &path)), "");
        if (path.path == MESHVK_COPY_PATH_HOST_STAGING)
          staged += a->processes()->Get(copy->src_process())->buffers()->Get(copy->src_buffer())->size();
      }
    }
    for (uint32_t p = 0; p < P; ++p) {
      meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
      ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_process_info(set.get(), p, &info)), "");
      const uint64_t bound =
          staged_in[info.logical_device] + devices_of_vkdevice[info.logical_device].size() * 2 * 2 * kStagingChunk;
      EXPECT_LE(meshvk_device_set_staging_bytes(set.get(), p), bound) << "process " << p;
      EXPECT_LE(meshvk_device_set_peak_staging_bytes(set.get(), p), bound) << "process " << p;
    }
    // Result shards handed out by the runtime are buffers of their owner.
    for (uint32_t s = 0; s < P; ++s) {
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      ASSERT_EQ(meshvk_test::StatusText(meshvk_program_result_shard(prog.get(), 0, 0, s, &view)), "");
      EXPECT_EQ(meshvk_buffer_process(view.buffer), view.process);
    }
  }
}

// Copies are pulls recorded in the destination's stream, never onto the data's
// own process, and move exactly the collective's minimum across devices.
TEST_P(ConformanceTest, CrossDeviceCopiesArePullsOfTheMinimumBytes) {
  const Conformance& c = GetParam();
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample(c.sample, c.grid, &program), "");
  const uint32_t P = ProcessCount(c.grid);
  const mvk::Artifact* a = mvk::GetArtifact(program->artifact.data());
  std::vector<uint64_t> pulled(P, 0);
  const mvk::Function* fn = a->functions()->Get(0);
  ASSERT_TRUE(fn->streams() && fn->streams()->size() == P) << "one command stream per process";
  for (uint32_t p = 0; p < P; ++p)
    for (const mvk::Command* cmd : *fn->streams()->Get(p)->commands()) {
      const mvk::Copy* copy = cmd->op_as_Copy();
      if (!copy) continue;
      EXPECT_EQ(copy->dst_process(), p) << "a copy recorded on a process that is not its destination";
      if (copy->src_process() != p) {
        pulled[p] += CopyBytes(copy);
      } else {
        EXPECT_FALSE(copy->src_buffer() == copy->dst_buffer() && copy->src_offset() == copy->dst_offset())
            << "a copy onto the data's own place";
      }
    }
  meshvk_module_t* raw = nullptr;
  ASSERT_EQ(meshvk_test::StatusText(meshvk_module_load(program->artifact.data(), program->artifact.size(), &raw)), "");
  ModulePtr module(raw);
  for (uint32_t p = 0; p < P; ++p) {
    EXPECT_EQ(pulled[p], c.min_peer_bytes_per_process) << "process " << p;
    meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
    ASSERT_EQ(meshvk_test::StatusText(meshvk_module_process_summary(module.get(), p, &plan)), "");
    EXPECT_EQ(plan.peer_bytes_in, c.min_peer_bytes_per_process) << "runtime's accounting, process " << p;
    int64_t compiler = 0;
    for (const auto& coll : program->collectives) compiler += coll.pulledBytes.at(p);
    EXPECT_EQ(static_cast<uint64_t>(compiler), c.min_peer_bytes_per_process) << "compiler's accounting";
  }
}

// Results do not depend on the topology or on which device runs which process:
// bitwise for i32, and within tolerance for floats (same kernels, same order:
// we still allow rounding noise).
TEST_P(ConformanceTest, ResultsAreTheSameOnEveryTopologyAndMapping) {
  const Conformance& c = GetParam();
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample(c.sample, c.grid, &program), "");
  const uint32_t P = ProcessCount(c.grid);
  const Sample& sample = SampleNamed(c.sample);
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed);
  std::vector<HostTensor> expected = sample.reference(inputs);
  std::vector<HostTensor> first;
  int runs = 0;
  for (meshvk_topology_t topology : Topologies()) {
    std::vector<std::vector<uint32_t>> mappings = Mappings(topology, P);
    for (const std::vector<uint32_t>* mapping = mappings.data(); mapping != mappings.data() + mappings.size();
         ++mapping) {
      meshvk_test::DeviceSet set = MakeSet(topology, P, mapping->data());
      ASSERT_TRUE(set);
      for (uint32_t p = 0; p < P; ++p) {
        meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
        ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_process_info(set.get(), p, &info)), "");
        if (topology == MESHVK_TOPOLOGY_DEVICE_GROUP)
          EXPECT_EQ(info.device_index, (*mapping)[p]);
        else
          EXPECT_EQ(info.physical_device, (*mapping)[p]);
      }
      std::vector<HostTensor> outputs;
      ASSERT_EQ(RunOnce(program->artifact, set.get(), inputs, &outputs), "");
      EXPECT_EQ(Compare(outputs[0], expected[0], 1e-3, 1e-4), "") << "topology " << topology;
      if (runs++ == 0) {
        first = outputs;
      } else if (expected[0].type == MESHVK_ELEMENT_I32) {
        EXPECT_EQ(outputs[0].i, first[0].i) << "i32 results differ between topologies/mappings";
      } else {
        EXPECT_EQ(Compare(outputs[0], first[0], 1e-6, 1e-6), "") << "topology " << topology;
      }
    }
  }
}

// Bytes that arrive by each path equal the plan's copies, each pair of
// processes uses the path the device set reports for it, and no copy goes
// through the host when the pair shares external memory or a group.
TEST_P(ConformanceTest, CopiesTakeTheirPairsPathAndMoveThePlannedBytes) {
  const Conformance& c = GetParam();
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample(c.sample, c.grid, &program), "");
  const uint32_t P = ProcessCount(c.grid);
  const mvk::Artifact* a = mvk::GetArtifact(program->artifact.data());
  const Sample& sample = SampleNamed(c.sample);
  for (meshvk_topology_t topology : Topologies()) {
    for (const std::vector<uint32_t>& mapping : Mappings(topology, P)) {
      meshvk_test::DeviceSet set = MakeSet(topology, P, mapping.data());
      ASSERT_TRUE(set);
      std::vector<HostTensor> outputs;
      ProgramPtr prog;
      ASSERT_EQ(RunOnce(program->artifact, set.get(), sample.make_inputs(kSeed), &outputs, &prog), "");
      for (uint32_t p = 0; p < P; ++p) {
        uint64_t expected[MESHVK_COPY_PATH_COUNT] = {};
        for (const mvk::Command* cmd : *a->functions()->Get(0)->streams()->Get(p)->commands()) {
          const mvk::Copy* copy = cmd->op_as_Copy();
          if (!copy) continue;
          meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
          ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_copy_path(set.get(), copy->src_process(), p, &path)), "");
          expected[path.path] += CopyBytes(copy);
          meshvk_process_info_t src = MESHVK_PROCESS_INFO_INIT, dst = MESHVK_PROCESS_INFO_INIT;
          ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_process_info(set.get(), copy->src_process(), &src)), "");
          ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_process_info(set.get(), p, &dst)), "");
          meshvk_copy_path_info_t pair = MESHVK_COPY_PATH_INFO_INIT;
          if (src.logical_device != dst.logical_device) {
            ASSERT_EQ(meshvk_test::StatusText(
                          meshvk_instance_copy_path(instance(), src.physical_device, dst.physical_device, &pair)),
                      "");
            EXPECT_EQ(path.path, pair.path) << "the set's path differs from what the drivers allow: " << pair.reason;
            EXPECT_EQ(path.handle_type, pair.handle_type) << "process " << copy->src_process() << " -> " << p;
            // Shared semaphores wherever both drivers allow them (device-side
            // waits instead of host waits).
            EXPECT_EQ(path.external_semaphores, pair.external_semaphores)
                << "process " << copy->src_process() << " -> " << p;
          } else {
            EXPECT_TRUE(path.path == MESHVK_COPY_PATH_SAME_DEVICE || path.path == MESHVK_COPY_PATH_GROUP_PEER)
                << "processes on one VkDevice copy " << meshvk_copy_path_name(path.path);
          }
        }
        uint64_t got[MESHVK_COPY_PATH_COUNT] = {};
        ASSERT_EQ(meshvk_test::StatusText(meshvk_program_copy_bytes(prog.get(), 0, p, got)), "");
        for (uint32_t k = 0; k < MESHVK_COPY_PATH_COUNT; ++k)
          EXPECT_EQ(got[k], expected[k]) << "process " << p << ", " << meshvk_copy_path_name(meshvk_copy_path_t(k))
                                         << ", topology " << topology;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, ConformanceTest, ::testing::ValuesIn(Programs()),
                         [](const ::testing::TestParamInfo<Conformance>& info) {
                           return info.param.sample + "_grid" + info.param.grid;
                         });

// Device-group behaviour proper (device masks on every allocation and command,
// peer bindings of the owner's memory instance, vkCmdDispatchBase,
// VkDeviceGroupSubmitInfo) only exists with 2+ physical devices in a group.
class DeviceGroupTest : public meshvk_test::VulkanTest {};

TEST_F(DeviceGroupTest, ProgramsRunAcrossTheGroupsDevicesThroughPeerMemory) {
  uint32_t D = Group0Size();
  if (D < 2)
    GTEST_SKIP() << "device group 0 has " << D
                 << " physical device(s); group-of-2+ behaviour needs a multi-GPU group "
                    "(ctest runs this again under the emulated device-group layer)";
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample("mlp_megatron", "4", &program), "");
  const uint32_t P = 4;
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, P);
  ASSERT_TRUE(set);
  EXPECT_EQ(meshvk_device_set_topology(set.get()), MESHVK_TOPOLOGY_DEVICE_GROUP);
  std::map<uint32_t, uint32_t> processes_per_device;
  for (uint32_t p = 0; p < P; ++p) {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_process_info(set.get(), p, &info)), "");
    EXPECT_EQ(info.device_index, p % D);
    EXPECT_EQ(info.logical_device, 0u) << "one VkDevice for the whole group";
    ++processes_per_device[info.device_index];
    // Every pull in this program reads a peer's memory by copy.
    for (uint32_t q = 0; q < P; ++q)
      EXPECT_NE(meshvk_device_set_peer_features(set.get(), p, q) & 0x1u /*COPY_SRC*/, 0u) << p << " <- " << q;
  }
  EXPECT_EQ(processes_per_device.size(), std::min(D, P)) << "processes spread over the group's devices";
  const Sample& sample = SampleNamed("mlp_megatron");
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed);
  std::vector<HostTensor> outputs;
  ASSERT_EQ(RunOnce(program->artifact, set.get(), inputs, &outputs), "");
  EXPECT_EQ(Compare(outputs[0], sample.reference(inputs)[0], 1e-3, 1e-4), "");
}

// A group whose devices cannot read each other's memory (the emulation layer
// with MESHVK_EMULATED_PEER_MEMORY_FEATURES=none) cannot run a program that
// pulls from peers: the runtime must refuse it at program creation, naming the
// processes, instead of recording copies that read memory it cannot reach.
TEST_F(DeviceGroupTest, WithoutPeerMemoryAProgramThatPullsIsRefused) {
  uint32_t D = Group0Size();
  if (D < 2) GTEST_SKIP() << "device group 0 has " << D << " physical device(s); no peers to lack";
  meshvk_test::DeviceSet probe = MakeSet(MESHVK_TOPOLOGY_DEVICE_GROUP, 2);
  ASSERT_TRUE(probe);
  if (meshvk_device_set_peer_features(probe.get(), 0, 1) != 0)
    GTEST_SKIP() << "the group's devices share memory (peer features "
                 << meshvk_device_set_peer_features(probe.get(), 0, 1)
                 << "); ctest runs this with MESHVK_EMULATED_PEER_MEMORY_FEATURES=none";
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample("seed_matmul", "2", &program), "");
  std::vector<HostTensor> outputs;
  std::string error = RunOnce(program->artifact, probe.get(), SampleNamed("seed_matmul").make_inputs(kSeed), &outputs);
  EXPECT_NE(error.find("program_create"), std::string::npos) << error;
  EXPECT_NE(error.find("process 1"), std::string::npos) << error;
}

// Faults of external memory (the emulation layer's refuse-import and
// refuse-export switches): a refused import falls back to host staging with
// one line of explanation and the right result; a refused exportable
// allocation is an error naming the buffer, the device and the size.
class ExternalMemoryFaultTest : public meshvk_test::VulkanTest {
 protected:
  std::string Mode() {
    const char* v = std::getenv("MESHVK_EMULATED_EXTERNAL_MEMORY");
    return v ? v : "";
  }
};

TEST_F(ExternalMemoryFaultTest, ARefusedImportFallsBackToHostStaging) {
  if (Mode() != "refuse-import") GTEST_SKIP() << "ctest runs this with MESHVK_EMULATED_EXTERNAL_MEMORY=refuse-import";
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample("mlp_megatron", "4", &program), "");
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 4);
  ASSERT_TRUE(set);
  meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
  ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_copy_path(set.get(), 0, 1, &path)), "");
  ASSERT_EQ(path.path, MESHVK_COPY_PATH_EXTERNAL_MEMORY) << "the devices advertise external memory: " << path.reason;
  // Devices whose memory is host memory share host allocations: then the
  // owner's import of the allocation is refused already, and that is the note.
  const char* memory = std::getenv("MESHVK_EMULATED_MEMORY");
  const bool host_memory = memory && std::string(memory) == "host";
  EXPECT_EQ(path.handle_type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host_memory) << path.reason;
  const Sample& sample = SampleNamed("mlp_megatron");
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed), outputs;
  ProgramPtr prog;
  ASSERT_EQ(RunOnce(program->artifact, set.get(), inputs, &outputs, &prog), "");
  EXPECT_EQ(Compare(outputs[0], sample.reference(inputs)[0], 1e-3, 1e-4), "");
  ASSERT_GT(meshvk_program_note_count(prog.get()), 0u);
  std::string note = meshvk_program_note(prog.get(), 0);
  EXPECT_NE(note.find("falling back to host staging"), std::string::npos) << note;
  EXPECT_NE(note.find("VK_ERROR_INVALID_EXTERNAL_HANDLE"), std::string::npos) << note;
  if (host_memory) EXPECT_NE(note.find("import host allocation"), std::string::npos) << note;
  for (uint32_t p = 0; p < 4; ++p) {
    uint64_t bytes[MESHVK_COPY_PATH_COUNT] = {};
    ASSERT_EQ(meshvk_test::StatusText(meshvk_program_copy_bytes(prog.get(), 0, p, bytes)), "");
    EXPECT_EQ(bytes[MESHVK_COPY_PATH_EXTERNAL_MEMORY], 0u) << "process " << p;
    EXPECT_EQ(bytes[MESHVK_COPY_PATH_HOST_STAGING], 3u * 8192) << "process " << p;
  }
}

TEST_F(ExternalMemoryFaultTest, AFailedExportableAllocationNamesTheBufferDeviceAndSize) {
  if (Mode() != "refuse-export") GTEST_SKIP() << "ctest runs this with MESHVK_EMULATED_EXTERNAL_MEMORY=refuse-export";
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample("mlp_megatron", "4", &program), "");
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 4);
  ASSERT_TRUE(set);
  std::vector<HostTensor> outputs;
  std::string error = RunOnce(program->artifact, set.get(), SampleNamed("mlp_megatron").make_inputs(kSeed), &outputs);
  EXPECT_NE(error.find("RESOURCE_EXHAUSTED"), std::string::npos) << error;
  EXPECT_NE(error.find("processes[0].buffers["), std::string::npos) << error;
  EXPECT_NE(error.find("physical device"), std::string::npos) << error;
  EXPECT_NE(error.find("bytes, exportable"), std::string::npos) << error;
}

// Real pairs (the emulation layer's MESHVK_EMULATED_UUIDS=distinct,
// MESHVK_EMULATED_DRIVERS=mixed, MESHVK_EMULATED_MEMORY=discrete): each pair
// takes the path its drivers allow, and a program's copies go that way.
// Devices whose UUIDs differ share no opaque fd (memory or semaphores): host
// staging through host memory both devices import, device copies, host
// waits. Devices of one real device (discrete memory only) share opaque fds
// and wait on each other's semaphores on the device.
class RealPairTest : public meshvk_test::VulkanTest {
 protected:
  static std::string Env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
  }
  static bool DistinctUuids() {
    return Env("MESHVK_EMULATED_UUIDS") == "distinct" || Env("MESHVK_EMULATED_DRIVERS") == "mixed";
  }
};

TEST_F(RealPairTest, EachPairTakesThePathItsDriversAllow) {
  if (!DistinctUuids() && Env("MESHVK_EMULATED_MEMORY") != "discrete")
    GTEST_SKIP() << "ctest runs this with the layer's distinct, mixed or discrete modes";
  const meshvk::CompiledProgram* program = nullptr;
  ASSERT_EQ(CompileSample("mlp_megatron", "4", &program), "");
  meshvk_test::DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 4);
  ASSERT_TRUE(set);
  for (uint32_t a = 0; a < 4; ++a) {
    for (uint32_t b = 0; b < 4; ++b) {
      if (a == b) continue;
      meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
      ASSERT_EQ(meshvk_test::StatusText(meshvk_device_set_copy_path(set.get(), a, b, &path)), "");
      std::string reason = path.reason;
      if (DistinctUuids()) {
        EXPECT_EQ(path.path, MESHVK_COPY_PATH_HOST_STAGING) << a << " -> " << b << ": " << reason;
        EXPECT_EQ(path.external_semaphores, 0u) << a << " -> " << b << ": " << reason;
        EXPECT_NE(reason.find("deviceUUID/driverUUID differ"), std::string::npos) << reason;
        EXPECT_NE(reason.find("device copies"), std::string::npos) << reason;
      } else {
        EXPECT_EQ(path.path, MESHVK_COPY_PATH_EXTERNAL_MEMORY) << a << " -> " << b << ": " << reason;
        EXPECT_EQ(path.handle_type, static_cast<uint32_t>(VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)) << reason;
        EXPECT_EQ(path.external_semaphores, 1u) << a << " -> " << b << ": " << reason;
      }
    }
  }
  const Sample& sample = SampleNamed("mlp_megatron");
  std::vector<HostTensor> inputs = sample.make_inputs(kSeed), outputs;
  ProgramPtr prog;
  ASSERT_EQ(RunOnce(program->artifact, set.get(), inputs, &outputs, &prog), "");
  EXPECT_EQ(Compare(outputs[0], sample.reference(inputs)[0], 1e-3, 1e-4), "");
  const meshvk_copy_path_t taken = DistinctUuids() ? MESHVK_COPY_PATH_HOST_STAGING : MESHVK_COPY_PATH_EXTERNAL_MEMORY;
  for (uint32_t p = 0; p < 4; ++p) {
    uint64_t bytes[MESHVK_COPY_PATH_COUNT] = {};
    ASSERT_EQ(meshvk_test::StatusText(meshvk_program_copy_bytes(prog.get(), 0, p, bytes)), "");
    EXPECT_EQ(bytes[taken], 3u * 8192) << "process " << p;
    EXPECT_EQ(bytes[MESHVK_COPY_PATH_EXTERNAL_MEMORY] + bytes[MESHVK_COPY_PATH_HOST_STAGING], 3u * 8192)
        << "process " << p;
  }
}

}  // namespace
}  // namespace meshvk_e2e
