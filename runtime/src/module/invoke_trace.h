// The trace of a traced program (meshvk/trace.h): a timestamp pair recorded
// around every command, the host steps of each invoke, and the events handed
// to the sink once the invoke's work has completed. Kept out of program.cc,
// which only calls these hooks where it records, submits and waits.
#ifndef MESHVK_RUNTIME_MODULE_INVOKE_TRACE_H_
#define MESHVK_RUNTIME_MODULE_INVOKE_TRACE_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/command_buffer.h"
#include "meshvk/trace.h"
#include "status.h"

namespace meshvk::module {

// The host clock of trace events (steady clock, ns).
uint64_t TraceNowNs();

class InvokeTrace {
 public:
  InvokeTrace(const meshvk_trace_sink_t& sink, const mvk::Artifact* artifact);

  // The timestamp indices of one recorded command.
  struct CommandMarks {
    uint32_t command = 0;
    uint32_t begin = 0, end = 0;
  };
  // Recording, around one command of a segment's command buffer.
  Status Before(meshvk_command_buffer_t* cb, uint32_t command, std::vector<CommandMarks>* marks);
  Status After(meshvk_command_buffer_t* cb, std::vector<CommandMarks>* marks);

  // An invoke: StartInvoke, Host steps as they happen, one Segment per
  // submitted segment after the wait, FinishInvoke.
  void StartInvoke(uint32_t function) { function_ = function; }
  // (`flags`: MESHVK_TRACE_*_BIT of the event, e.g. a shifted clock.)
  // Thread-safe: between Defer and Flush (the pump's device threads) events
  // are kept, then handed to the sink on the invoking thread in time order.
  void Host(meshvk_trace_event_kind_t kind, uint32_t process, uint32_t phase, uint32_t peer, uint64_t begin_ns,
            uint64_t end_ns, uint64_t bytes = 0, uint32_t flags = 0);
  void Defer();
  void Flush();
  // Device events of a completed segment: its commands, and the semaphore
  // wait from its submission (`submit_ns`) to its first command when it
  // waited for another process (`waited`, else MESHVK_TRACE_NONE).
  Status Segment(const meshvk_command_buffer_t* cb, uint32_t process, uint32_t phase,
                 const std::vector<CommandMarks>& marks, uint64_t submit_ns, uint32_t waited);
  void FinishInvoke() {
    ++invoke_;
    device_end_ns_.clear();
  }

 private:
  void Emit(meshvk_trace_event_t* event);
  std::mutex mutex_;  // deferring_ and deferred_
  bool deferring_ = false;
  std::vector<meshvk_trace_event_t> deferred_;
  meshvk_trace_sink_t sink_ = MESHVK_TRACE_SINK_INIT;
  const mvk::Artifact* artifact_;
  uint32_t function_ = 0;
  uint64_t invoke_ = 0;
  // Per process, the end of its last command traced in this invoke (segments
  // come in phase order): where its next wait starts.
  std::map<uint32_t, uint64_t> device_end_ns_;
};

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_INVOKE_TRACE_H_
