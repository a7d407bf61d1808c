// Traced invokes (see invoke_trace.h).
#include "invoke_trace.h"

#include <algorithm>
#include <chrono>

#include "schedule.h"

namespace meshvk::module {

uint64_t TraceNowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

InvokeTrace::InvokeTrace(const meshvk_trace_sink_t& sink, const mvk::Artifact* artifact)
    : sink_(sink), artifact_(artifact) {}

Status InvokeTrace::Before(meshvk_command_buffer_t* cb, uint32_t command, std::vector<CommandMarks>* marks) {
  CommandMarks m;
  m.command = command;
  MESHVK_RETURN_IF_ERROR(
      FromC(meshvk_command_buffer_write_timestamp(cb, MESHVK_TIMESTAMP_BEFORE_NEXT, &m.begin), "trace timestamps"));
  marks->push_back(m);
  return Status();
}

Status InvokeTrace::After(meshvk_command_buffer_t* cb, std::vector<CommandMarks>* marks) {
  return FromC(meshvk_command_buffer_write_timestamp(cb, MESHVK_TIMESTAMP_AFTER_PREVIOUS, &marks->back().end),
               "trace timestamps");
}

void InvokeTrace::Emit(meshvk_trace_event_t* event) {
  event->invoke = invoke_;
  event->function = function_;
  if (sink_.event) sink_.event(sink_.user_data, event);
}

void InvokeTrace::Host(meshvk_trace_event_kind_t kind, uint32_t process, uint32_t phase, uint32_t peer,
                       uint64_t begin_ns, uint64_t end_ns, uint64_t bytes, uint32_t flags) {
  meshvk_trace_event_t e = MESHVK_TRACE_EVENT_INIT;
  e.kind = kind;
  e.flags = flags;
  e.process = process;
  e.phase = phase;
  e.command = MESHVK_TRACE_NONE;
  e.peer = peer;
  e.begin_ns = begin_ns;
  e.end_ns = end_ns;
  e.bytes = bytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (deferring_) {
      deferred_.push_back(e);
      return;
    }
  }
  Emit(&e);
}

void InvokeTrace::Defer() {
  std::lock_guard<std::mutex> lock(mutex_);
  deferring_ = true;
}

void InvokeTrace::Flush() {
  std::vector<meshvk_trace_event_t> events;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    deferring_ = false;
    events.swap(deferred_);
  }
  std::stable_sort(events.begin(), events.end(), [](const meshvk_trace_event_t& a, const meshvk_trace_event_t& b) {
    return a.begin_ns < b.begin_ns;
  });
  for (meshvk_trace_event_t& e : events) Emit(&e);
}

Status InvokeTrace::Segment(const meshvk_command_buffer_t* cb, uint32_t process, uint32_t phase,
                            const std::vector<CommandMarks>& marks, uint64_t submit_ns, uint32_t waited) {
  if (marks.empty()) return Status();
  uint32_t count = marks.back().end + 1;
  std::vector<uint64_t> ns(count);
  MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_read_timestamps(cb, ns.data(), count),
                               "trace timestamps of process " + std::to_string(process)));
  // Device timestamps on the host's steady clock (lavapipe: CLOCK_MONOTONIC)
  // fall between the submission and now; any other clock is shifted so that
  // the segment's first command starts at its submission.
  const uint64_t now = TraceNowNs();
  const uint64_t first = ns[marks.front().begin];
  const uint64_t slack = 1000000;  // 1 ms: a timestamp may be taken just before the host's clock read
  bool same_clock = first + slack >= submit_ns && first <= now;
  int64_t shift = same_clock ? 0 : static_cast<int64_t>(submit_ns) - static_cast<int64_t>(first);
  uint32_t flags = same_clock ? 0 : MESHVK_TRACE_SHIFTED_BIT;
  auto host_time = [&](uint64_t t) { return static_cast<uint64_t>(static_cast<int64_t>(t) + shift); };

  const auto* commands = StreamOf(artifact_, function_, process);
  // Every phase is submitted up front, so a later phase's wait starts where
  // the process's earlier phases end, not at its submission (which would
  // enclose the process's own earlier kernels).
  uint64_t& process_end = device_end_ns_[process];
  uint64_t wait_begin = std::max(submit_ns, process_end);
  if (waited != MESHVK_TRACE_NONE && host_time(first) > wait_begin)
    Host(MESHVK_TRACE_SEMAPHORE_WAIT, process, phase, waited, wait_begin, host_time(first), 0, flags);
  for (const CommandMarks& m : marks) {
    const mvk::Command* cmd = commands->Get(m.command);
    meshvk_trace_event_t e = MESHVK_TRACE_EVENT_INIT;
    e.flags = flags;
    e.process = process;
    e.phase = phase;
    e.command = m.command;
    e.peer = MESHVK_TRACE_NONE;
    e.begin_ns = host_time(ns[m.begin]);
    e.end_ns = host_time(ns[m.end]);
    if (e.end_ns < e.begin_ns) e.end_ns = e.begin_ns;
    if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) {
      e.kind = MESHVK_TRACE_DISPATCH;
      e.name = artifact_->executables()->Get(d->executable())->entry_point()->c_str();
    } else if (const mvk::Copy* c = cmd->op_as_Copy()) {
      e.kind = MESHVK_TRACE_COPY;
      e.bytes = CopyBytes(c);
      e.peer = c->src_process();
    } else if (const mvk::Fill* f = cmd->op_as_Fill()) {
      e.kind = MESHVK_TRACE_FILL;
      e.bytes = f->size();
    }
    process_end = std::max(process_end, e.end_ns);
    Emit(&e);
  }
  return Status();
}

}  // namespace meshvk::module
