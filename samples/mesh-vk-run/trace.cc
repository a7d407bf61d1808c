// Chrome trace-event JSON for mesh-vk-run --trace (see trace.h).
#include "trace.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>

#include "copy_path.h"
#include "output_files.h"
#include "plan_graph.h"

namespace meshvk_run {
namespace {

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// Microseconds with ns precision, as trace-event "ts"/"dur" want.
std::string Micros(uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
  return buf;
}

const char* KindName(meshvk_trace_event_kind_t kind) {
  switch (kind) {
    case MESHVK_TRACE_DISPATCH:
      return "dispatch";
    case MESHVK_TRACE_COPY:
      return "copy";
    case MESHVK_TRACE_FILL:
      return "fill";
    case MESHVK_TRACE_SEMAPHORE_WAIT:
      return "semaphore wait";
    case MESHVK_TRACE_WRITE_INPUTS:
      return "write inputs";
    case MESHVK_TRACE_SUBMIT:
      return "submit";
    case MESHVK_TRACE_HOST_WAIT:
      return "host wait";
    case MESHVK_TRACE_WAIT:
      return "wait";
    case MESHVK_TRACE_READ_RESULTS:
      return "read results";
    case MESHVK_TRACE_HOST_STAGING:
      return "host staging";
  }
  return "event";
}

constexpr uint32_t kHostPid = 0, kToolTid = 1, kInvokeTid = 2;

}  // namespace

uint64_t NowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

void Trace::HostStep(const std::string& name, uint64_t begin_ns, uint64_t end_ns, uint64_t bytes) {
  Span s;
  s.name = name;
  s.cat = "host";
  s.pid = kHostPid;
  s.tid = kToolTid;
  s.begin_ns = begin_ns;
  s.end_ns = end_ns;
  if (bytes) s.args = "\"bytes\":" + std::to_string(bytes);
  spans_.push_back(std::move(s));
}

void Trace::SetProgram(const meshvk_module_t* module, uint32_t function, meshvk_instance_t* instance,
                       const meshvk_device_set_t* set) {
  module_ = module;
  function_ = function;
  uint32_t processes = meshvk_device_set_process_count(set);
  track_names_.clear();
  for (uint32_t p = 0; p < processes; ++p) track_names_.push_back(ProcessTrackName(instance, set, p));
  paths_.assign(processes, std::vector<std::string>(processes));
  for (uint32_t src = 0; src < processes; ++src)
    for (uint32_t dst = 0; dst < processes; ++dst) paths_[src][dst] = CopyPathName(set, src, dst);
}

meshvk_trace_sink_t Trace::Sink() {
  meshvk_trace_sink_t sink = MESHVK_TRACE_SINK_INIT;
  sink.event = &Trace::OnEvent;
  sink.user_data = this;
  return sink;
}

void Trace::OnEvent(void* self_pointer, const meshvk_trace_event_t* e) {
  Trace* self = static_cast<Trace*>(self_pointer);
  Span s;
  s.begin_ns = e->begin_ns;
  s.end_ns = e->end_ns < e->begin_ns ? e->begin_ns : e->end_ns;
  s.args = "\"invoke\":" + std::to_string(e->invoke);
  if (e->phase != MESHVK_TRACE_NONE) s.args += ",\"phase\":" + std::to_string(e->phase);
  if (e->command != MESHVK_TRACE_NONE) s.args += ",\"command\":" + std::to_string(e->command);
  if (e->bytes) s.args += ",\"bytes\":" + std::to_string(e->bytes);
  if (e->flags & MESHVK_TRACE_SHIFTED_BIT) s.args += ",\"clock\":\"shifted to the submission\"";
  bool device = e->kind <= MESHVK_TRACE_SEMAPHORE_WAIT;
  if (device) {
    s.pid = 1 + e->process;
    s.tid = 0;
    s.cat = "device";
    ++self->device_events_;
  } else {
    s.pid = kHostPid;
    s.tid = kInvokeTid;
    s.cat = "host";
    if (e->process != MESHVK_TRACE_NONE) s.args += ",\"process\":" + std::to_string(e->process);
  }
  switch (e->kind) {
    case MESHVK_TRACE_DISPATCH: {
      meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
      meshvk_status_t status =
          self->module_ ? meshvk_module_command_info(self->module_, self->function_, e->process, e->command, &info)
                        : nullptr;
      s.name = status || !self->module_ ? std::string(e->name ? e->name : "dispatch")
                                        : KernelName(info.name, info.executable);
      meshvk_status_free(status);
      s.cat = "device,dispatch";
      break;
    }
    case MESHVK_TRACE_COPY: {
      std::string path = e->peer < self->paths_.size() && e->process < self->paths_.size()
                             ? self->paths_[e->peer][e->process]
                             : "unknown";
      s.name = "copy " + std::to_string(e->bytes) + " B from process " + std::to_string(e->peer);
      s.cat = "device,copy";
      s.args += ",\"from_process\":" + std::to_string(e->peer) + ",\"path\":\"" + Escape(path) + "\"";
      break;
    }
    case MESHVK_TRACE_SEMAPHORE_WAIT:
      s.name = "wait for process " + std::to_string(e->peer);
      s.cat = "device,wait";
      break;
    case MESHVK_TRACE_SUBMIT:
      s.name = "submit process " + std::to_string(e->process) + " phase " + std::to_string(e->phase);
      break;
    case MESHVK_TRACE_HOST_WAIT:
      s.name = "host wait for process " + std::to_string(e->peer);
      break;
    case MESHVK_TRACE_HOST_STAGING:
      s.name = "host staging " + std::to_string(e->bytes) + " B from process " + std::to_string(e->peer);
      break;
    default:
      s.name = KindName(e->kind);
  }
  if (device && e->command != MESHVK_TRACE_NONE)
    self->command_span_[{e->invoke, e->process, e->command}] = self->spans_.size();
  self->spans_.push_back(std::move(s));
}

std::string Trace::Json() const {
  uint64_t origin = UINT64_MAX;
  for (const Span& s : spans_) origin = std::min(origin, s.begin_ns);
  if (origin == UINT64_MAX) origin = 0;
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  auto meta = [&](uint32_t pid, int64_t tid, const char* what, const std::string& name, bool last = false) {
    out += "{\"ph\":\"M\",\"name\":\"" + std::string(what) +
           "\",\"cat\":\"__metadata\",\"pid\":" + std::to_string(pid) +
           ",\"tid\":" + std::to_string(tid < 0 ? 0 : tid) + ",\"ts\":0,\"args\":{\"name\":\"" + Escape(name) + "\"}}" +
           (last ? "" : ",\n");
  };
  meta(kHostPid, -1, "process_name", "mesh-vk-run (host)");
  meta(kHostPid, kToolTid, "thread_name", "mesh-vk-run: compile, load, create, files");
  meta(kHostPid, kInvokeTid, "thread_name", "meshvk invoke: inputs, submit, wait, results");
  for (uint32_t p = 0; p < track_names_.size(); ++p) {
    meta(1 + p, -1, "process_name", track_names_[p]);
    meta(1 + p, 0, "thread_name", "device timeline");
    out += "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"cat\":\"__metadata\",\"pid\":" + std::to_string(1 + p) +
           ",\"tid\":0,\"ts\":0,\"args\":{\"sort_index\":" + std::to_string(1 + p) + "}},\n";
  }
  for (const Span& s : spans_) {
    out += "{\"ph\":\"X\",\"name\":\"" + Escape(s.name) + "\",\"cat\":\"" + s.cat +
           "\",\"pid\":" + std::to_string(s.pid) + ",\"tid\":" + std::to_string(s.tid) +
           ",\"ts\":" + Micros(s.begin_ns - origin) + ",\"dur\":" + Micros(s.end_ns - s.begin_ns) + ",\"args\":{" +
           s.args + "}},\n";
  }
  // Flow arrows: producer -> copy -> consumer, within one invoke.
  uint64_t flow_id = 1;
  auto flow = [&](const Span& from, const Span& to, const std::string& name) {
    std::string id = std::to_string(flow_id++);
    out += "{\"ph\":\"s\",\"name\":\"" + name + "\",\"cat\":\"flow\",\"id\":" + id +
           ",\"pid\":" + std::to_string(from.pid) + ",\"tid\":" + std::to_string(from.tid) +
           ",\"ts\":" + Micros(from.begin_ns - origin) + "},\n";
    out += "{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"" + name + "\",\"cat\":\"flow\",\"id\":" + id +
           ",\"pid\":" + std::to_string(to.pid) + ",\"tid\":" + std::to_string(to.tid) +
           ",\"ts\":" + Micros(to.begin_ns - origin) + "},\n";
  };
  if (module_) {
    // Each copy: an arrow from its producer into it, one from it to its consumer.
    for (const auto& [key, index] : command_span_) {
      const auto& [invoke, p, c] = key;
      if (spans_[index].cat != "device,copy") continue;
      CommandRef producer, consumer;
      FindCopyEnds(module_, function_, p, c, &producer, &consumer);
      if (producer.valid()) {
        auto it = command_span_.find({invoke, producer.process, producer.command});
        if (it != command_span_.end()) flow(spans_[it->second], spans_[index], "produces");
      }
      if (consumer.valid()) {
        auto it = command_span_.find({invoke, consumer.process, consumer.command});
        if (it != command_span_.end()) flow(spans_[index], spans_[it->second], "consumes");
      }
    }
  }
  // A last metadata record closes the list without a trailing comma.
  out +=
      "{\"ph\":\"M\",\"name\":\"process_labels\",\"cat\":\"__metadata\",\"pid\":0,\"tid\":0,\"ts\":0,"
      "\"args\":{\"labels\":\"meshvk\"}}\n";
  out += "]}\n";
  return out;
}

bool Trace::Write(const std::string& path, std::string* error) const {
  std::string text = Json();
  OutputFiles file;
  return file.StageBytes(path, text.data(), text.size(), error) && file.Commit(error);
}

}  // namespace meshvk_run
