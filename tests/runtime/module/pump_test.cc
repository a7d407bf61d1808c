// The pump (runtime/src/module/segment_pump.h): on VkDevices that share no
// semaphores, a consumer's host-staged copy runs while the source device
// already runs its later kernels (where the host maps the source's memory),
// or ahead of them (where the source's device copies the bytes out on its
// queue). Proved from the invoke's trace (device timestamps on the host's
// clock, lavapipe), not from a timing.
//
// The program, 3 processes on 3 VkDevices (S = 0, D = 1, E = 2), x split by rows:
//   phase 0: S: a = 2 x_S   D: r_D = 0 (a fill)     E: r_E = 1 (a fill)
//   phase 1: D: r_D = a, 3 more pulls of a (from S)  E: u = 2 r_E[0:64] (after S's phase 0)
//   phase 2: S: six doublings a -> r_S (after E's phase 1)
// Submitted phase by phase on one thread, S's phase 2 waited behind D's copy
// of a (phase 1); with a thread per device it starts once E's tiny phase 1
// is done, while D's thread still moves a's bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "meshvk/artifact/builder.h"
#include "meshvk/buffer.h"
#include "program_fixture.h"
#include "programs.h"

namespace meshvk_test {
namespace {

using namespace meshvk::artifact;

constexpr uint32_t kS = 0, kD = 1, kE = 2;
constexpr uint32_t kDoublings = 6;
constexpr uint64_t kSmall = 64;  // elements E's phase 1 touches
constexpr uint32_t kExtraPulls = 3;
constexpr uint32_t kFillBits = 0x3f800000u;  // 1.0f

DispatchDesc Doubling(uint32_t kernel, uint32_t from, uint32_t to, uint64_t count) {
  DispatchDesc d;
  d.executable = kernel;
  d.workgroup_count[0] = static_cast<uint32_t>(std::min<uint64_t>((count + 63) / 64, 256));
  d.bindings = {{from, 0, 0}, {from, 0, 0}, {to, 0, 0}};
  d.push_constants = ScaledAddPush(static_cast<uint32_t>(count), 1.0f);
  return d;
}

std::vector<uint8_t> OverlapProgram(uint64_t n) {
  ArtifactBuilder b({3}, {0});
  const uint32_t kernel = b.AddExecutable(ScaledAddKernel());
  TensorDesc x, r;
  x.shape = r.shape = {3 * n};
  x.split_axes = r.split_axes = {{0}};
  std::vector<uint32_t> bx(3), br(3);
  for (uint32_t p = 0; p < 3; ++p) {
    bx[p] = b.AddBuffer(p, {n * 4, BufferKind::kArgumentShard});
    br[p] = b.AddBuffer(p, {n * 4, BufferKind::kResultShard});
    x.shards.push_back({p, bx[p], 0, {p * n}, {n}});
    r.shards.push_back({p, br[p], 0, {p * n}, {n}});
  }
  const uint32_t a = b.AddBuffer(kS, {n * 4, BufferKind::kTransient});
  const uint32_t t = b.AddBuffer(kS, {n * 4, BufferKind::kTransient});
  CommandRef produce = b.AddDispatch(kS, Doubling(kernel, bx[kS], a, n));
  b.AddFill(kE, {br[kE], 0, n * 4, kFillBits});
  // Every device has work in phase 0 (the fault test: each then has a
  // submission that a bounded wait finds dropped).
  b.AddFill(kD, {br[kD], 0, n * 4, 0});
  // D pulls a into its result and into kExtraPulls transients: host-staged
  // copies one after the other on D's thread, long against E's tiny phase 1.
  for (uint32_t k = 0; k <= kExtraPulls; ++k) {
    CopyDesc pull;
    pull.src_process = kS;
    pull.src_buffer = a;
    pull.dst_buffer = k == 0 ? br[kD] : b.AddBuffer(kD, {n * 4, BufferKind::kTransient});
    pull.size = n * 4;
    b.AddCopy(kD, pull, {produce});
  }
  const uint32_t u = b.AddBuffer(kE, {kSmall * 4, BufferKind::kTransient});
  CommandRef tiny = b.AddDispatch(kE, Doubling(kernel, br[kE], u, kSmall), {produce});
  uint32_t from = a;
  for (uint32_t i = 0; i < kDoublings; ++i) {
    const uint32_t to = i % 2 == 0 ? t : br[kS];
    b.AddDispatch(kS, Doubling(kernel, from, to, n),
                  i == 0 ? std::vector<CommandRef>{tiny} : std::vector<CommandRef>{});
    from = to;
  }
  b.AddFunction({"overlap", {x}, {r}});
  return b.Finish();
}

class PumpTest : public VulkanTest {};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// A fault below the pump (the fault-injection layer dropping every
// submission: GPUs that stop answering): D's and E's threads time out waiting
// for S, S's thread, which waits for E's phase 1 that will never be
// submitted, is released by their failure; the invoke returns the timeout
// within the device bound, and the program (its threads joined) and the set
// are released without waiting on the devices again. MESHVK_TEST_PUMP_FAULT
// names the status expected.
TEST_F(PumpTest, AFaultOnOneDeviceEndsTheInvokeAndEveryThread) {
  const char* expected = std::getenv("MESHVK_TEST_PUMP_FAULT");
  const char* timeout_ms = std::getenv("MESHVK_DEVICE_TIMEOUT_MS");
  if (!expected || !timeout_ms) GTEST_SKIP() << "needs MESHVK_TEST_PUMP_FAULT and the fault-injection layer";
  const double timeout_s = std::atoi(timeout_ms) / 1000.0;
  const uint64_t n = 1ull << 16;
  std::vector<uint8_t> bytes = OverlapProgram(n);
  Module module = LoadModule(bytes);
  ASSERT_TRUE(module);
  const uint32_t devices[3] = {0, 1, 2};
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 3, devices);
  ASSERT_TRUE(set);
  Program program = MakeProgram(module.get(), set.get());
  ASSERT_TRUE(program);
  std::vector<float> x(3 * n, 1.0f), r(3 * n);
  HostInvoke invoke({HostIn(x)}, {HostOut(r)});
  auto start = std::chrono::steady_clock::now();
  const std::string status = StatusText(meshvk_program_invoke(program.get(), &invoke.info));
  EXPECT_EQ(status.rfind(expected, 0), 0u) << status;
  EXPECT_LT(Seconds(start), 2 * timeout_s + 2.0) << "the invoke is bounded by the device timeout";
  start = std::chrono::steady_clock::now();
  program.reset();
  set.reset();
  EXPECT_LT(Seconds(start), timeout_s + 2.0) << "release waited on the devices again";
}

TEST_F(PumpTest, AHostStagedCopyRunsWhileTheSourceRunsALaterKernel) {
  const uint64_t n = 4ull << 20;  // 16 MiB per shard
  std::vector<uint8_t> bytes = OverlapProgram(n);
  Module module = LoadModule(bytes);
  ASSERT_TRUE(module);
  const uint32_t devices[3] = {0, 1, 2};
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_INDEPENDENT, 3, devices);
  if (!set) return;
  for (uint32_t p : {kD, kE}) {
    meshvk_copy_path_info_t path = MESHVK_COPY_PATH_INFO_INIT;
    ASSERT_EQ(StatusText(meshvk_device_set_copy_path(set.get(), kS, p, &path)), "");
    if (path.path != MESHVK_COPY_PATH_HOST_STAGING)
      GTEST_SKIP() << "processes 0 and " << p << " copy by " << meshvk_copy_path_name(path.path) << " (" << path.reason
                   << "), not host staging";
  }
  Recorder recorder;
  Program program = MakeTracedProgram(module.get(), set.get(), &recorder);
  ASSERT_TRUE(program);

  std::vector<float> x(3 * n), r(3 * n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 1000) * 0.25f;
  HostInvoke invoke({HostIn(x)}, {HostOut(r)});
  const uint32_t invokes = 3;
  for (uint32_t i = 0; i < invokes; ++i) {
    ASSERT_EQ(StatusText(meshvk_program_invoke(program.get(), &invoke.info)), "");
    // Plain loops: S doubles 1 + kDoublings times, D holds a = 2 x_S, E
    // its fill (its phase 1 writes a transient).
    for (uint64_t j = 0; j < n; ++j) {
      ASSERT_EQ(r[kS * n + j], x[kS * n + j] * static_cast<float>(2 << kDoublings)) << "S element " << j;
      ASSERT_EQ(r[kD * n + j], x[kS * n + j] * 2.0f) << "D element " << j;
      ASSERT_EQ(r[kE * n + j], 1.0f) << "E element " << j;
    }
  }

  // Per invoke: D's host-staged copy from S, and S's later kernels (phase 2).
  std::vector<meshvk_trace_event_t> staging(invokes), later_first(invokes), later_last(invokes);
  std::vector<uint32_t> later(invokes, 0), staged(invokes, 0);
  for (const meshvk_trace_event_t& e : recorder.events) {
    if (e.invoke >= invokes) continue;
    if (e.kind == MESHVK_TRACE_HOST_STAGING && e.process == kD && e.peer == kS) {
      meshvk_trace_event_t& all = staging[e.invoke];  // D's pulls, first start to last end
      if (staged[e.invoke]++ == 0) all = e;
      all.begin_ns = std::min(all.begin_ns, e.begin_ns);
      all.end_ns = std::max(all.end_ns, e.end_ns);
      EXPECT_EQ(e.bytes, n * 4);
    }
    if (e.kind == MESHVK_TRACE_DISPATCH && e.process == kS && e.phase == 2) {
      EXPECT_EQ(e.flags & MESHVK_TRACE_SHIFTED_BIT, 0u) << "lavapipe timestamps are on the host's steady clock";
      if (later[e.invoke]++ == 0) later_first[e.invoke] = e;
      later_last[e.invoke] = e;
    }
  }
  // Where the host maps S's memory, the pulls are host memcpys from it: they
  // run while S's later kernels do (phase by phase on one thread, S's phase 2
  // was submitted only after them: no overlap ever). Where it cannot, S's
  // device copies the bytes out on its one queue: consumer first, the pulls
  // end before S's later kernels start (else they queued behind them all).
  meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
  ASSERT_EQ(StatusText(meshvk_program_argument_shard(program.get(), 0, 0, kS, &view)), "");
  const bool mapped = meshvk_buffer_host_address(view.buffer) != nullptr;
  uint32_t overlapped = 0, consumer_first = 0;
  for (uint32_t i = 0; i < invokes; ++i) {
    ASSERT_EQ(staged[i], 1 + kExtraPulls) << "invoke " << i;
    ASSERT_EQ(later[i], kDoublings) << "invoke " << i;
    overlapped += staging[i].begin_ns < later_last[i].end_ns && later_first[i].begin_ns < staging[i].end_ns;
    consumer_first += staging[i].end_ns <= later_first[i].begin_ns;
    std::printf("invoke %u: staging 0..%.3f ms, S's later kernels %.3f..%.3f ms (from the staging's start)\n", i,
                (staging[i].end_ns - staging[i].begin_ns) / 1e6,
                (static_cast<double>(later_first[i].begin_ns) - staging[i].begin_ns) / 1e6,
                (static_cast<double>(later_last[i].end_ns) - staging[i].begin_ns) / 1e6);
  }
  if (mapped) {
    // One invoke of three is enough (the machine's other load may delay a thread in any one).
    EXPECT_GE(overlapped, 1u) << "no invoke moved D's bytes while S ran its later kernels";
  } else {
    EXPECT_EQ(consumer_first, invokes) << "D's pulls waited behind S's later kernels";
  }
}

}  // namespace
}  // namespace meshvk_test
