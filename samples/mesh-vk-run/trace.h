// mesh-vk-run --trace=FILE.json: a Chrome trace-event file (opens in the
// Perfetto UI and chrome://tracing as is). Tracks:
//   pid 0 "mesh-vk-run (host)": tid 1 the tool's steps (compile, load +
//     verify, create + record, input/output files), tid 2 the runtime's host
//     steps of each invoke (write inputs, submit, host waits, wait, read results);
//   pid 1+p "process p": the device timeline of process p from per-command
//     timestamp queries: each dispatch by kernel name, each copy with its
//     bytes and path, fills, semaphore waits.
// Flow arrows ("ph":"s"/"f") go from each copy's producers to the copy and
// from the copy to the commands that consume it. Every event carries
// ph, name, cat, pid, tid, ts (and dur for complete events), which is what
// Perfetto needs; args hold invoke, phase, command, bytes, path.
#ifndef MESHVK_SAMPLES_MESH_VK_RUN_TRACE_H_
#define MESHVK_SAMPLES_MESH_VK_RUN_TRACE_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "meshvk/device_set.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"

namespace meshvk_run {

// The host's steady clock in ns (the clock meshvk's trace events use).
uint64_t NowNs();

class Trace {
 public:
  // A step of mesh-vk-run itself, on the host track.
  void HostStep(const std::string& name, uint64_t begin_ns, uint64_t end_ns, uint64_t bytes = 0);
  // The program the runtime's events belong to (names, copy paths, flows).
  void SetProgram(const meshvk_module_t* module, uint32_t function, meshvk_instance_t* instance,
                  const meshvk_device_set_t* set);
  // The sink to pass to meshvk_program_create_with_info; `this` must outlive the program.
  meshvk_trace_sink_t Sink();
  // Writes the JSON file (one line on failure).
  bool Write(const std::string& path, std::string* error) const;
  // The JSON text (tests and Write).
  std::string Json() const;

  size_t device_event_count() const { return device_events_; }

 private:
  static void OnEvent(void* self, const meshvk_trace_event_t* event);
  struct Span {
    std::string name, cat;
    uint32_t pid = 0, tid = 0;
    uint64_t begin_ns = 0, end_ns = 0;
    std::string args;  // JSON object members, without braces
  };
  std::vector<Span> spans_;
  // (invoke, process, command) -> index into spans_ (device commands).
  std::map<std::tuple<uint64_t, uint32_t, uint32_t>, size_t> command_span_;
  std::vector<std::string> track_names_;  // per process
  const meshvk_module_t* module_ = nullptr;
  uint32_t function_ = 0;
  std::vector<std::vector<std::string>> paths_;  // [src][dst] copy path words
  size_t device_events_ = 0;
};

}  // namespace meshvk_run

#endif  // MESHVK_SAMPLES_MESH_VK_RUN_TRACE_H_
