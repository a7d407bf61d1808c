// Submission of a function's recorded segments, phase by phase, shared by
// the host-tensor invoke (program_invoke.cc) and the asynchronous one
// (invoke_async.cc): host waits for producers on other VkDevices, host-staged
// bytes (on the pump's device threads: segment_pump.h), transport receives
// and the host steps of collectives between ranks.
#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cross_device.h"
#include "invoke_trace.h"
#include "meshvk/module.h"
#include "meshvk/queue.h"
#include "meshvk/trace.h"
#include "module.h"
#include "program.h"
#include "remote_copies.h"
#include "schedule.h"
#include "segment_pump.h"
#include "status.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;

}  // namespace

namespace meshvk::module {
namespace {

// Whether the producers `seg` waits for on the host (other VkDevices) have
// signalled; blocks for the first one that has not when `block`.
Status HostWaitsMet(meshvk_program_t* prog, const Segment& seg, uint64_t base, bool block, uint64_t timeout_ns,
                    bool* met) {
  *met = true;
  for (const Wait& w : seg.waits) {
    if (!w.host) continue;
    const uint64_t value = base + w.phase + 1;
    uint64_t now = 0;
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_semaphore_query(prog->semaphores[w.process], &now),
              "process " + std::to_string(seg.process) + " polling process " + std::to_string(w.process)));
    if (now >= value) continue;
    if (!block) {
      *met = false;
      return Status();
    }
    InvokeTrace* trace = prog->trace.get();
    uint64_t begin = trace ? TraceNowNs() : 0;
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_semaphore_wait(prog->semaphores[w.process], value, timeout_ns),
              "process " + std::to_string(seg.process) + " waiting for process " + std::to_string(w.process)));
    if (trace) trace->Host(MESHVK_TRACE_HOST_WAIT, seg.process, seg.phase, w.process, begin, TraceNowNs());
  }
  return Status();
}

// Submits one segment whose host waits are met: device-side waits on its own
// VkDevice (for a process's first segment also the caller's `first_waits`
// there), the host-staged bytes from other VkDevices, then the submit.
// `pump`: called on one of its threads.
Status SubmitSegment(meshvk_program_t* prog, Segment& seg, uint64_t base, const std::vector<uint64_t>& previous_invoke,
                     const std::vector<meshvk_semaphore_value_t>& first_waits, uint64_t timeout_ns,
                     SegmentPump* pump = nullptr) {
  InvokeTrace* trace = prog->trace.get();
  std::vector<meshvk_semaphore_value_t> waits;
  if (seg.previous_phase >= 0) {
    waits.push_back({prog->semaphores[seg.process], base + seg.previous_phase + 1});
  } else {
    // A process's first segment: the previous invoke has completed (the
    // host waited), but a device-side wait on every process of this VkDevice
    // makes the order explicit, e.g. for a peer that still read this
    // process's buffers late in the previous invoke.
    for (uint32_t q = 0; q < prog->semaphores.size(); ++q)
      if (previous_invoke[q] > 0 && prog->logical_device[q] == prog->logical_device[seg.process])
        waits.push_back({prog->semaphores[q], previous_invoke[q]});
    for (const meshvk_semaphore_value_t& w : first_waits)
      if (prog->logical_device[meshvk_semaphore_process(w.semaphore)] == prog->logical_device[seg.process])
        waits.push_back({w.semaphore, w.value});
  }
  for (const Wait& w : seg.waits)
    if (!w.host) waits.push_back({w.view ? w.view : prog->semaphores[w.process], base + w.phase + 1});
  // The producers on other VkDevices have finished: bring their bytes over
  // (on the pump, one transfer out of each source device at a time).
  for (const HostCopy& copy : seg.host_copies) {
    std::unique_lock<std::mutex> source;
    if (pump)
      source = std::unique_lock<std::mutex>(pump->SourceLock(prog->logical_device[meshvk_buffer_process(copy.src)]));
    uint64_t begin = trace ? TraceNowNs() : 0;
    MESHVK_RETURN_IF_ERROR(RunHostCopy(copy, timeout_ns));
    if (trace)
      trace->Host(MESHVK_TRACE_HOST_STAGING, seg.process, seg.phase, meshvk_buffer_process(copy.src), begin,
                  TraceNowNs(), copy.size);
  }
  // Bytes from other ranks arrive through the transport.
  MESHVK_RETURN_IF_ERROR(prog->remote->Receive(seg.remote_receives));
  meshvk_semaphore_value_t signal{prog->semaphores[seg.process], base + seg.phase + 1};
  meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
  submit.command_buffer = seg.command_buffer;
  submit.waits = waits.data();
  submit.wait_count = static_cast<uint32_t>(waits.size());
  submit.signals = &signal;
  submit.signal_count = 1;
  seg.submitted_ns = trace ? TraceNowNs() : 0;
  MESHVK_RETURN_IF_ERROR(FromC(meshvk_queue_submit(prog->set, &submit),
                               "process " + std::to_string(seg.process) + " phase " + std::to_string(seg.phase)));
  if (trace)
    trace->Host(MESHVK_TRACE_SUBMIT, seg.process, seg.phase, MESHVK_TRACE_NONE, seg.submitted_ns, TraceNowNs());
  prog->last_signal[seg.process] = signal.value;
  return Status();
}

// Before phase `phase` is submitted: the host steps of collective groups
// between ranks due by then, each after the sends other ranks may wait for
// (rank_collectives.h), then everything other ranks may wait for in `phase`.
Status EnterPhase(meshvk_program_t* prog, uint32_t function, uint32_t phase, uint64_t base, uint64_t timeout_ns) {
  for (const RankGroup* g = prog->remote->NextGroup(function); g && g->phase <= phase;
       g = prog->remote->NextGroup(function)) {
    MESHVK_RETURN_IF_ERROR(
        prog->remote->SendReady(function, g->phase, prog->buffers, prog->semaphores, base, timeout_ns));
    MESHVK_RETURN_IF_ERROR(
        prog->remote->RunNextGroup(function, prog->buffers, prog->semaphores, prog->last_signal, timeout_ns));
  }
  return prog->remote->SendReady(function, phase, prog->buffers, prog->semaphores, base, timeout_ns);
}

// Whether the source's device copies `copy`'s bytes out (on its queue).
bool SourceQueueCopies(const HostCopy& copy) { return meshvk_buffer_host_address(copy.src) == nullptr; }

// One invoke's submissions across the pump's device threads: the values each
// process has submitted so far, and whether a thread failed. A thread waits
// (on the host or on its device) only for values already submitted, so a
// failure elsewhere stops it here instead of in a wait for work that will
// never be submitted.
class SubmitOrder {
 public:
  explicit SubmitOrder(size_t processes) : submitted_(processes, 0) {}
  // Blocks until `process` submitted `value`; false when a thread failed.
  bool WaitSubmitted(uint32_t process, uint64_t value) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || submitted_[process] >= value; });
    return !failed_;
  }
  void Submitted(uint32_t process, uint64_t value) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      submitted_[process] = value;
    }
    changed_.notify_all();
  }
  // A host-staged pull out of `source` by a segment of phase `phase`, whose
  // bytes the source's device copies out (memory the host cannot map). Added
  // before the threads start.
  void AddPull(uint32_t source, uint32_t phase) { ++pulls_[{source, phase}]; }
  void PullDone(uint32_t source, uint32_t phase) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pulls_[{source, phase}] == 0) pulls_.erase({source, phase});
    }
    changed_.notify_all();
  }
  // Blocks until the pulls out of `process` by segments of phases before
  // `phase` have run; false when a thread failed. Why: such a pull's copies
  // go to the source's queue, and on a device with one queue they would wait
  // behind every kernel submitted there first, so the consumer would get its
  // bytes only after the source's later work (on the layer's discrete pairs:
  // 1.3 s instead of 55 ms). Waiting only for earlier phases cannot
  // deadlock: every wait between threads goes to a strictly earlier phase.
  bool WaitPulls(uint32_t process, uint32_t phase) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
      auto first = pulls_.lower_bound({process, 0});
      return failed_ || first == pulls_.end() || first->first.first != process || first->first.second >= phase;
    });
    return !failed_;
  }
  Status Fail(Status status) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      failed_ = true;
    }
    changed_.notify_all();
    return status;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<uint64_t> submitted_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pulls_;  // (source process, consumer phase) -> pending
  bool failed_ = false;
};

// The segments of the processes on VkDevice `device`, in phase order, on its
// pump thread: each after its producers on other VkDevices were submitted
// and (host waits) finished, with their bytes staged over, and after the
// earlier phases' pulls out of its own device (SubmitOrder::WaitPulls).
// Another device never waits for this one's host waits or copies.
Status SubmitDeviceSegments(meshvk_program_t* prog, std::vector<Segment>& segments, uint32_t device, uint64_t base,
                            const std::vector<uint64_t>& previous_invoke,
                            const std::vector<meshvk_semaphore_value_t>& first_waits, uint64_t timeout_ns,
                            SubmitOrder* order) {
  for (Segment& seg : segments) {
    if (prog->logical_device[seg.process] != device) continue;
    for (const Wait& w : seg.waits)
      if ((w.host || w.view) && !order->WaitSubmitted(w.process, base + w.phase + 1)) return Status();
    if (!order->WaitPulls(seg.process, seg.phase)) return Status();
    bool met = false;
    Status status = HostWaitsMet(prog, seg, base, /*block=*/true, timeout_ns, &met);
    if (status.ok())
      status = SubmitSegment(prog, seg, base, previous_invoke, first_waits, timeout_ns, prog->pump.get());
    if (!status.ok()) return order->Fail(std::move(status));
    order->Submitted(seg.process, base + seg.phase + 1);
    for (const HostCopy& copy : seg.host_copies)
      if (SourceQueueCopies(copy)) order->PullDone(meshvk_buffer_process(copy.src), seg.phase);
  }
  return Status();
}

// Whether an invoke of `function` goes through the pump: segments wait on the
// host for other VkDevices (no shared semaphores), and no rank takes part
// (collectives between ranks are host steps between phases).
bool UsesPump(const meshvk_program_t* prog, uint32_t function) {
  if (prog->remote->enabled()) return false;
  for (const Segment& seg : prog->segments[function])
    for (const Wait& w : seg.waits)
      if (w.host) return true;
  return false;
}

// All segments of `function` through the pump, one thread per VkDevice.
Status PumpSegments(meshvk_program_t* prog, uint32_t function, uint64_t base,
                    const std::vector<uint64_t>& previous_invoke,
                    const std::vector<meshvk_semaphore_value_t>& first_waits, uint64_t timeout_ns) {
  std::vector<Segment>& segments = prog->segments[function];
  std::vector<uint32_t> devices;
  for (const Segment& seg : segments) {
    const uint32_t d = prog->logical_device[seg.process];
    if (std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
  }
  if (!prog->pump) prog->pump = std::make_unique<SegmentPump>();
  SubmitOrder order(prog->semaphores.size());
  for (const Segment& seg : segments)
    for (const HostCopy& copy : seg.host_copies)
      if (SourceQueueCopies(copy)) order.AddPull(meshvk_buffer_process(copy.src), seg.phase);
  std::vector<SegmentPump::Job> jobs;
  for (uint32_t d : devices)
    jobs.push_back([&, d] {
      return SubmitDeviceSegments(prog, segments, d, base, previous_invoke, first_waits, timeout_ns, &order);
    });
  InvokeTrace* trace = prog->trace.get();
  if (trace) trace->Defer();
  Status status = prog->pump->Run(std::move(jobs));
  if (trace) trace->Flush();
  return status;
}

}  // namespace

// With host waits between VkDevices (and no ranks), the pump submits: one
// thread per VkDevice (segment_pump.h). Otherwise segments go out phase by
// phase on this thread (a segment only depends on earlier phases). Inside a
// phase, a segment whose producer on another VkDevice is still running does
// not hold back the others: those whose host waits are met are submitted
// first, and the host blocks only when none is ready.
Status SubmitSegments(meshvk_program_t* prog, uint32_t function, uint64_t timeout_ns,
                      const std::vector<meshvk_semaphore_value_t>& first_waits, bool async) {
  std::vector<Segment>& segments = prog->segments[function];
  if (async && prog->remote->HasGroups(function))
    return MakeStatus(MESHVK_STATUS_UNIMPLEMENTED,
                      "function %u runs collectives between ranks on the host: an asynchronous invoke cannot",
                      function);
  if (async) {
    // Refused before anything is submitted, so the timelines stay consistent.
    for (const Segment& seg : segments)
      for (const Wait& w : seg.waits)
        if (w.host || w.view)
          return MakeStatus(MESHVK_STATUS_UNIMPLEMENTED,
                            "process %u waits for process %u on another VkDevice: an asynchronous invoke "
                            "cannot wait on the host (nor order the next invoke after that device's reads)",
                            seg.process, w.process);
  }
  uint64_t base = prog->base;
  const std::vector<uint64_t> previous_invoke = prog->last_signal;
  InvokeTrace* trace = prog->trace.get();
  const bool pumped = !async && UsesPump(prog, function);
  if (pumped) MESHVK_RETURN_IF_ERROR(PumpSegments(prog, function, base, previous_invoke, first_waits, timeout_ns));
  for (size_t begin = 0; !pumped && begin < segments.size();) {
    size_t end = begin;
    while (end < segments.size() && segments[end].phase == segments[begin].phase) ++end;
    // Everything other ranks may wait for in this phase goes out first.
    MESHVK_RETURN_IF_ERROR(EnterPhase(prog, function, segments[begin].phase, base, timeout_ns));
    std::vector<Segment*> pending;
    for (size_t i = begin; i < end; ++i) pending.push_back(&segments[i]);
    while (!pending.empty()) {
      bool progressed = false;
      for (size_t i = 0; i < pending.size();) {
        bool met = false;
        MESHVK_RETURN_IF_ERROR(HostWaitsMet(prog, *pending[i], base, false, timeout_ns, &met));
        if (!met) {
          ++i;
          continue;
        }
        MESHVK_RETURN_IF_ERROR(SubmitSegment(prog, *pending[i], base, previous_invoke, first_waits, timeout_ns));
        pending.erase(pending.begin() + static_cast<long>(i));
        progressed = true;
      }
      if (!progressed) {
        bool met = false;
        MESHVK_RETURN_IF_ERROR(HostWaitsMet(prog, *pending.front(), base, true, timeout_ns, &met));
      }
    }
    begin = end;
  }
  MESHVK_RETURN_IF_ERROR(EnterPhase(prog, function, UINT32_MAX, base, timeout_ns));
  if (async) {
    prog->base += prog->module->schedule.functions[function].phase_count;
    return Status();
  }
  uint64_t wait_begin = trace ? meshvk::module::TraceNowNs() : 0;
  for (uint32_t p = 0; p < prog->semaphores.size(); ++p) {
    if (prog->last_signal[p] == 0) continue;
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_wait(prog->semaphores[p], prog->last_signal[p], timeout_ns),
                                 "waiting for process " + std::to_string(p)));
  }
  if (trace) {
    trace->Host(MESHVK_TRACE_WAIT, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, wait_begin,
                meshvk::module::TraceNowNs());
    for (const Segment& seg : prog->segments[function]) {
      uint32_t waited = seg.waits.empty() ? MESHVK_TRACE_NONE : seg.waits.front().process;
      MESHVK_RETURN_IF_ERROR(
          trace->Segment(seg.command_buffer, seg.process, seg.phase, seg.marks, seg.submitted_ns, waited));
    }
  }
  prog->base += prog->module->schedule.functions[function].phase_count;
  return Status();
}

Status WaitForEarlierInvokes(meshvk_program_t* prog, uint64_t timeout_ns) {
  for (uint32_t p = 0; p < prog->semaphores.size(); ++p) {
    if (prog->last_signal[p] > 0)
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_wait(prog->semaphores[p], prog->last_signal[p], timeout_ns),
                                   "waiting for an earlier invoke of process " + std::to_string(p)));
    if (p < prog->io_value.size() && prog->io_value[p] > 0)
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_wait(prog->io_semaphores[p], prog->io_value[p], timeout_ns),
                                   "waiting for the copies of an earlier invoke of process " + std::to_string(p)));
  }
  return Status();
}

}  // namespace meshvk::module
