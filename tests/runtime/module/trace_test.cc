// meshvk/trace.h: a program created with a trace sink reports, per invoke,
// one device event per command (in stream order, begin <= end, between the
// invoke's submission and its end on the host clock), the host steps, and
// semaphore waits; meshvk_module_command_info describes the same commands.
// Expected counts come from how the test programs are built (programs.h).
#include "meshvk/trace.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <vector>

#include "program_fixture.h"
#include "programs.h"

namespace meshvk_test {
namespace {

uint64_t Now() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

class TraceTest : public VulkanTest {};

TEST_F(TraceTest, RingAllGatherOnFourProcesses) {
  // Each of 4 processes: 1 fill, 1 local copy, 3 pulls around the ring (P phases).
  const uint32_t P = 4, n = 64;
  std::vector<uint8_t> bytes = RingAllGather(P, n);
  Module module = LoadModule(bytes);
  ASSERT_TRUE(module);
  for (uint32_t p = 0; p < P; ++p) {
    ASSERT_EQ(meshvk_module_command_count(module.get(), 0, p), 5u);
    uint32_t copies = 0, fills = 0;
    for (uint32_t c = 0; c < 5; ++c) {
      meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
      ASSERT_EQ(StatusText(meshvk_module_command_info(module.get(), 0, p, c, &info)), "");
      copies += info.kind == MESHVK_TRACE_COPY;
      fills += info.kind == MESHVK_TRACE_FILL;
      if (info.kind == MESHVK_TRACE_COPY) EXPECT_EQ(info.bytes, n * 4u);
    }
    EXPECT_EQ(copies, 4u);
    EXPECT_EQ(fills, 1u);
  }
  meshvk_command_info_t none = MESHVK_COMMAND_INFO_INIT;
  EXPECT_NE(StatusText(meshvk_module_command_info(module.get(), 0, 0, 5, &none)), "");

  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, P);
  Recorder recorder;
  Program program = MakeTracedProgram(module.get(), set.get(), &recorder);
  ASSERT_TRUE(program);

  std::vector<float> x(P * n), y(P * n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  HostInvoke invoke({HostIn(x)}, {HostOut(y)});
  uint64_t start = Now();
  for (int i = 0; i < 2; ++i) ASSERT_EQ(StatusText(meshvk_program_invoke(program.get(), &invoke.info)), "");
  uint64_t end = Now();
  for (size_t i = 0; i < P * n; ++i) ASSERT_EQ(y[i], x[i]);

  std::map<uint64_t, std::map<uint32_t, std::vector<meshvk_trace_event_t>>> device;  // invoke -> process
  std::map<meshvk_trace_event_kind_t, int> host;
  for (const meshvk_trace_event_t& e : recorder.events) {
    EXPECT_LE(e.begin_ns, e.end_ns);
    EXPECT_GE(e.begin_ns, start);
    EXPECT_LE(e.end_ns, end);
    EXPECT_EQ(e.flags & MESHVK_TRACE_SHIFTED_BIT, 0u) << "lavapipe timestamps are on the host's steady clock";
    if (e.kind <= MESHVK_TRACE_FILL)
      device[e.invoke][e.process].push_back(e);
    else if (e.kind != MESHVK_TRACE_SEMAPHORE_WAIT)
      ++host[e.kind];
  }
  ASSERT_EQ(device.size(), 2u);
  for (const auto& [invoke_index, processes] : device) {
    ASSERT_EQ(processes.size(), P);
    for (const auto& [p, events] : processes) {
      ASSERT_EQ(events.size(), 5u);
      for (uint32_t c = 0; c < 5; ++c) EXPECT_EQ(events[c].command, c);
      for (uint32_t c = 1; c < 5; ++c) EXPECT_LE(events[c - 1].end_ns, events[c].begin_ns) << "stream order";
      for (const meshvk_trace_event_t& e : events)
        if (e.kind == MESHVK_TRACE_COPY) EXPECT_EQ(e.bytes, n * 4u);
    }
  }
  EXPECT_EQ(host[MESHVK_TRACE_WRITE_INPUTS], 2);
  EXPECT_EQ(host[MESHVK_TRACE_WAIT], 2);
  EXPECT_EQ(host[MESHVK_TRACE_READ_RESULTS], 2);
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  meshvk_status_free(meshvk_program_stats(program.get(), &stats));
  EXPECT_EQ(host[MESHVK_TRACE_SUBMIT], 2 * static_cast<int>(stats.command_buffer_count));
}

TEST_F(TraceTest, SinkWithoutFunctionIsRefused) {
  std::vector<uint8_t> bytes = DispatchChain(2, 64);
  Module module = LoadModule(bytes);
  ASSERT_TRUE(module);
  DeviceSet set = MakeSet(MESHVK_TOPOLOGY_LOGICAL, 1);
  meshvk_trace_sink_t sink = MESHVK_TRACE_SINK_INIT;  // no event function
  meshvk_program_create_info_t info = MESHVK_PROGRAM_CREATE_INFO_INIT;
  info.next = &sink;
  info.module = module.get();
  info.set = set.get();
  meshvk_program_t* program = nullptr;
  EXPECT_NE(StatusText(meshvk_program_create_with_info(&info, &program)), "");
  EXPECT_EQ(program, nullptr);
}

}  // namespace
}  // namespace meshvk_test
