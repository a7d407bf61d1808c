// Internal view of meshvk_program_t: the recorded segments and the state an
// invoke needs, shared by creation (program.cc), recording
// (program_record.cc), submission (program_submit.cc), the host-tensor invoke
// (program_invoke.cc) and the device-resident, asynchronous one
// (invoke_async.cc).
#ifndef MESHVK_RUNTIME_MODULE_PROGRAM_H_
#define MESHVK_RUNTIME_MODULE_PROGRAM_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "async_worker.h"
#include "cross_device.h"
#include "invoke_trace.h"
#include "meshvk/module.h"
#include "meshvk/queue.h"
#include "module.h"
#include "remote_copies.h"
#include "segment_pump.h"
#include "status.h"

namespace meshvk::module {

struct Wait {
  uint32_t process;   // whose semaphore
  uint32_t phase;     // the producing segment's phase (value = base + phase + 1)
  bool host = false;  // different VkDevice: the host waits before submitting
  // Different VkDevice sharing semaphores: the device waits on this view of
  // the producer's semaphore (cross_device.h); null otherwise.
  meshvk_semaphore_t* view = nullptr;
};

struct Segment {
  uint32_t process = 0;
  uint32_t phase = 0;
  int64_t previous_phase = -1;  // this process's previous segment, or -1
  std::vector<Wait> waits;      // cross-process, deduplicated (max phase per process)
  meshvk_command_buffer_t* command_buffer = nullptr;
  uint32_t command_count = 0;
  // Bytes the host stages from other VkDevices before this segment runs.
  std::vector<HostCopy> host_copies;
  // Bytes received from other ranks before this segment runs.
  std::vector<RemoteReceive> remote_receives;
  std::vector<InvokeTrace::CommandMarks> marks;  // traced programs only
  uint64_t submitted_ns = 0;                     // traced programs only
};

// Device-side copies between the caller's shard buffers and the program's own
// (async invokes), recorded once per distinct set of caller buffers.
struct ShardCopies {
  std::vector<meshvk_command_buffer_t*> per_process;  // null: nothing to copy
  ShardCopies() = default;
  ShardCopies(const ShardCopies&) = delete;
  ShardCopies& operator=(const ShardCopies&) = delete;
  ~ShardCopies() { Clear(); }
  void Clear() {
    for (meshvk_command_buffer_t* cb : per_process) meshvk_command_buffer_release(cb);
    per_process.clear();
  }
};

// A function recorded again with caller shard buffers bound in place of the
// program's own (async invokes), for one set of caller buffers.
struct BoundSegments {
  std::vector<Segment> segments;
  uint32_t direct_shards = 0;  // shards bound directly (the rest are copied)
  BoundSegments() = default;
  BoundSegments(const BoundSegments&) = delete;
  BoundSegments& operator=(const BoundSegments&) = delete;
  ~BoundSegments() { Clear(); }
  void Clear() {
    for (Segment& seg : segments) meshvk_command_buffer_release(seg.command_buffer);
    segments.clear();
    direct_shards = 0;
  }
};

// Everything an async invoke records for one set of caller buffers: the
// copies of the shards not bound directly and the function recorded with
// the bound ones. The command buffers retain the caller's buffers, so a key's
// pointers cannot name a newer buffer at a reused address while it is cached.
struct Binding {
  std::vector<const void*> key;  // function + flags + argument and result buffers + offsets
  ShardCopies copies_in, copies_out;
  BoundSegments bound;
  uint64_t last_use = 0;  // BindingCache's clock
};

// The bindings of a program's async invokes, least recently used replaced
// (invoke_async.cc). A decode loop whose results become the next step's
// arguments alternates between two or three sets of buffers (ping-pong
// caches, the prompt's host ids): with a few kept, each is recorded once
// instead of on every call. A replaced binding's last release waits for its
// last submission (meshvk_command_buffer_release); a queued host-ordered
// invoke holds its own reference (shared_ptr), so nothing it uses goes away.
struct BindingCache {
  static constexpr size_t kCapacity = 4;
  std::vector<std::shared_ptr<Binding>> entries;
  uint64_t clock = 0;
  uint64_t recorded = 0;  // bindings recorded (cache misses)
  uint64_t reused = 0;    // invokes that found theirs (cache hits)
  void Clear() { entries.clear(); }
};

}  // namespace meshvk::module

struct meshvk_program_s {
  std::atomic<uint32_t> references{1};
  meshvk_module_t* module = nullptr;
  meshvk_device_set_t* set = nullptr;
  const meshvk::mvk::Artifact* artifact = nullptr;
  std::vector<std::vector<meshvk_buffer_t*>> buffers;  // [process][buffer], +1 each
  std::vector<meshvk_executable_t*> executables;
  std::vector<meshvk_semaphore_t*> semaphores;                 // one timeline per process
  std::vector<uint32_t> logical_device;                        // per process
  std::vector<std::vector<meshvk::module::Segment>> segments;  // [function], in phase order
  std::vector<uint64_t> last_signal;                           // per process, last value signalled
  uint64_t base = 0;                                           // timeline base of the next invoke
  uint64_t record_ns = 0;
  uint32_t command_count = 0;
  uint32_t command_buffer_count = 0;
  bool timings_valid = false;
  bool timestamps_unavailable = false;  // a device has no timestamp queries
  std::vector<meshvk_phase_timing_t> timings;
  // Imported views and landing buffers of copies between VkDevices.
  std::unique_ptr<meshvk::module::CrossDeviceCopies> cross_device =
      std::make_unique<meshvk::module::CrossDeviceCopies>();
  // Landing buffers and sends of copies between ranks (meshvk/transport.h).
  std::unique_ptr<meshvk::module::RemoteCopies> remote = std::make_unique<meshvk::module::RemoteCopies>();
  std::unique_ptr<meshvk::module::InvokeTrace> trace;  // set: a traced program (meshvk/trace.h)
  // Async invokes: per process a timeline for the copies in and out
  // (io_value: its last value), the cached copies, and an empty command
  // buffer that joins all processes and signals the caller's semaphores.
  std::vector<meshvk_semaphore_t*> io_semaphores;
  std::vector<uint64_t> io_value;
  meshvk::module::BindingCache bindings;  // caller buffers bound or copied (invoke_async.cc)
  std::deque<std::string> async_notes;  // (stable addresses) why a caller shard was copied, not bound (once per reason)
  meshvk_command_buffer_t* join = nullptr;
  // Async invokes over several VkDevices run here (async_worker.h); first to go.
  std::unique_ptr<meshvk::module::AsyncWorker> worker;
  // One thread per VkDevice for invokes with host waits (segment_pump.h):
  // idle between invokes, joined after the worker (whose jobs use it).
  std::unique_ptr<meshvk::module::SegmentPump> pump;
  std::vector<meshvk_command_buffer_t*> joins;  // per process, empty: the worker's signals

  ~meshvk_program_s() {
    worker.reset();
    pump.reset();
    for (meshvk_command_buffer_t* cb : joins) meshvk_command_buffer_release(cb);
    bindings.Clear();
    meshvk_command_buffer_release(join);
    for (auto& list : segments)
      for (meshvk::module::Segment& s : list) meshvk_command_buffer_release(s.command_buffer);
    cross_device.reset();  // its buffers before the set goes
    remote.reset();
    for (meshvk_semaphore_t* s : io_semaphores) meshvk_semaphore_release(s);
    for (meshvk_semaphore_t* s : semaphores) meshvk_semaphore_release(s);
    for (meshvk_executable_t* e : executables) meshvk_executable_release(e);
    for (auto& list : buffers)
      for (meshvk_buffer_t* b : list) meshvk_buffer_release(b);
    if (set) meshvk_device_set_release(set);
    if (module) meshvk_module_release(module);
  }
};

namespace meshvk::module {

// The signature of argument or result `index` of `function`, or null when
// either is out of range.
const meshvk::mvk::TensorSignature* TensorSignatureOf(const meshvk_program_t* prog, uint32_t function, uint32_t index,
                                                      bool result);

// Submits the recorded segments of `function` phase by phase; inside a phase,
// segments whose producers on other VkDevices are done go first (and their
// host-staged bytes are brought over before each). Each process's first
// segment also waits for `first_waits` (those on its VkDevice). With `async`,
// nothing blocks the calling thread: a function that needs host waits or host
// copies (processes on different VkDevices) is UNIMPLEMENTED before anything is
// submitted, and the end is not waited for. Advances prog->base.
Status SubmitSegments(meshvk_program_t* prog, uint32_t function, uint64_t timeout_ns,
                      const std::vector<meshvk_semaphore_value_t>& first_waits, bool async);

// Records every function of a program whose buffers, executables and
// semaphores exist (program creation's last step).
Status RecordProgram(meshvk_program_t* prog);

// Records `function` again into `out` with `buffers` ([process][buffer], the
// shape of prog->buffers) in place of the program's own buffers; the
// program's own recording is untouched.
Status RecordFunctionWith(meshvk_program_t* prog, uint32_t function,
                          const std::vector<std::vector<meshvk_buffer_t*>>& buffers, std::vector<Segment>* out);

// Waits on the host until every earlier invoke (host or async) of `prog` has
// finished with the program's buffers.
Status WaitForEarlierInvokes(meshvk_program_t* prog, uint64_t timeout_ns);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_PROGRAM_H_
