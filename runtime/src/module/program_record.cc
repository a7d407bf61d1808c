// Recording: every (process, phase) of every function becomes one command
// buffer, recorded once at program creation, with the semaphore waits it
// needs (program.cc's header says which waits and why).
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cross_device.h"
#include "invoke_trace.h"
#include "meshvk/module.h"
#include "meshvk/queue.h"
#include "module.h"
#include "program.h"
#include "remote_copies.h"
#include "schedule.h"
#include "status.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;
namespace mvk = meshvk::mvk;

using meshvk::module::Segment;
using meshvk::module::Wait;

}  // namespace

namespace {

Status RecordCommand(meshvk_program_t* prog, meshvk_command_buffer_t* cb, uint32_t f, uint32_t p, uint32_t c,
                     const mvk::Command* cmd, Segment* seg) {
  std::string path = "processes[" + std::to_string(p) + "].commands[" + std::to_string(c) + "]";
  const auto& bufs = prog->buffers[p];
  if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) {
    const mvk::Executable* x = prog->artifact->executables()->Get(d->executable());
    std::vector<meshvk_binding_t> bindings;
    for (uint32_t i = 0; d->bindings() && i < d->bindings()->size(); ++i) {
      const mvk::BufferBinding* b = d->bindings()->Get(i);
      meshvk_binding_t binding{};
      binding.buffer = bufs[b->buffer()];
      binding.offset = b->offset();
      // 0 means "to the end" of the artifact's buffer, which may be smaller
      // than a reuse slot's shared allocation: make it explicit.
      binding.range =
          meshvk::module::BindingBytes(b, prog->artifact->processes()->Get(p)->buffers()->Get(b->buffer())->size());
      binding.writes = x->bindings()->Get(i)->writable() ? 1 : 0;
      bindings.push_back(binding);
    }
    meshvk_dispatch_info_t info = MESHVK_DISPATCH_INFO_INIT;
    info.executable = prog->executables[d->executable()];
    info.bindings = bindings.data();
    info.binding_count = static_cast<uint32_t>(bindings.size());
    info.push_constants = d->push_constants() ? d->push_constants()->data() : nullptr;
    info.push_constant_size = d->push_constants() ? d->push_constants()->size() : 0;
    info.workgroup_count[0] = d->workgroup_count()->x();
    info.workgroup_count[1] = d->workgroup_count()->y();
    info.workgroup_count[2] = d->workgroup_count()->z();
    return FromC(meshvk_command_buffer_dispatch(cb, &info), path + ".dispatch");
  }
  if (const mvk::Copy* copy = cmd->op_as_Copy()) {
    // From another VkDevice: its imported view, or a landing buffer the host fills.
    // From another rank: a landing buffer the transport fills.
    meshvk_buffer_t* src = nullptr;
    if (!prog->remote->Local(copy->src_process())) {
      MESHVK_RETURN_IF_ERROR(
          prog->remote->LandingFor(prog->set, f, p, c, copy, path + ".copy", &src, &seg->remote_receives));
    } else {
      MESHVK_RETURN_IF_ERROR(prog->cross_device->SourceFor(
          f, copy, prog->buffers[copy->src_process()][copy->src_buffer()], path + ".copy", &src, &seg->host_copies));
    }
    meshvk_buffer_t* dst = bufs[copy->dst_buffer()];
    if (!copy->regions() || copy->regions()->size() == 0) {
      return FromC(meshvk_command_buffer_copy(cb, src, copy->src_offset(), dst, copy->dst_offset(), copy->size()),
                   path + ".copy");
    }
    for (uint32_t r = 0; r < copy->regions()->size(); ++r) {
      const mvk::StridedRegion* reg = copy->regions()->Get(r);
      meshvk_strided_region_t region{};
      region.src_offset_words = copy->src_offset() / 4 + reg->src_offset_words();
      region.dst_offset_words = copy->dst_offset() / 4 + reg->dst_offset_words();
      const mvk::Dim3 n = reg->count(), s = reg->src_stride(), t = reg->dst_stride();
      region.count[0] = n.x();
      region.count[1] = n.y();
      region.count[2] = n.z();
      region.src_stride[0] = s.x();
      region.src_stride[1] = s.y();
      region.src_stride[2] = s.z();
      region.dst_stride[0] = t.x();
      region.dst_stride[1] = t.y();
      region.dst_stride[2] = t.z();
      MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_copy_strided(cb, src, dst, &region),
                                   path + ".copy.regions[" + std::to_string(r) + "]"));
    }
    return Status();
  }
  const mvk::Fill* fill = cmd->op_as_Fill();
  return FromC(meshvk_command_buffer_fill(cb, bufs[fill->buffer()], fill->offset(), fill->size(), fill->value()),
               path + ".fill");
}

Status RecordFunction(meshvk_program_t* prog, uint32_t f) {
  const meshvk::module::FunctionSchedule& schedule = prog->module->schedule.functions[f];
  uint32_t P = prog->artifact->processes()->size();
  std::vector<int64_t> previous(P, -1);
  std::vector<Segment>& segments = prog->segments[f];
  for (uint32_t phase = 0; phase < schedule.phase_count; ++phase) {
    for (uint32_t p = 0; p < P; ++p) {
      if (!prog->remote->Local(p)) continue;
      const auto* commands = meshvk::module::StreamOf(prog->artifact, f, p);
      Segment seg;
      seg.process = p;
      seg.phase = phase;
      seg.previous_phase = previous[p];
      std::map<uint32_t, uint32_t> waits;  // producer process -> max phase
      for (uint32_t c = 0; commands && c < commands->size(); ++c) {
        if (schedule.phase_of[p][c] != phase) continue;
        if (prog->remote->Replaced(f, p, c)) continue;  // a host step between ranks runs it
        if (!seg.command_buffer) {
          MESHVK_RETURN_IF_ERROR(FromC(meshvk_command_buffer_create(prog->set, p, &seg.command_buffer),
                                       "process " + std::to_string(p) + " phase " + std::to_string(phase)));
        }
        const mvk::Command* cmd = commands->Get(c);
        if (cmd->deps()) {
          for (const mvk::CommandRef* dep : *cmd->deps()) {
            // Same process, another rank (the receive is the dependency), or
            // a host step (done before this phase is submitted): no wait.
            if (dep->process() == p || !prog->remote->Local(dep->process()) ||
                prog->remote->Replaced(f, dep->process(), dep->command()))
              continue;
            uint32_t dep_phase = schedule.phase_of[dep->process()][dep->command()];
            auto it = waits.find(dep->process());
            if (it == waits.end() || it->second < dep_phase) waits[dep->process()] = dep_phase;
          }
        }
        Status status = prog->trace ? prog->trace->Before(seg.command_buffer, c, &seg.marks) : Status();
        if (status.ok()) status = RecordCommand(prog, seg.command_buffer, f, p, c, cmd, &seg);
        if (status.ok() && prog->trace) status = prog->trace->After(seg.command_buffer, &seg.marks);
        if (!status.ok()) {
          meshvk_command_buffer_release(seg.command_buffer);
          return status;
        }
        ++seg.command_count;
      }
      if (!seg.command_buffer) continue;
      Status status = FromC(meshvk_command_buffer_end(seg.command_buffer),
                            "process " + std::to_string(p) + " phase " + std::to_string(phase));
      if (!status.ok()) {
        meshvk_command_buffer_release(seg.command_buffer);
        return status;
      }
      for (const auto& [q, q_phase] : waits) {
        const bool other = prog->logical_device[q] != prog->logical_device[p];
        meshvk_semaphore_t* view = other ? prog->cross_device->DeviceWaitFor(q, p, seg.host_copies) : nullptr;
        seg.waits.push_back(Wait{q, q_phase, other && !view, view});
      }
      previous[p] = phase;
      prog->command_count += seg.command_count;
      ++prog->command_buffer_count;
      segments.push_back(std::move(seg));
    }
  }
  return Status();
}

}  // namespace

namespace meshvk::module {

Status RecordProgram(meshvk_program_t* prog) {
  auto start = std::chrono::steady_clock::now();
  prog->segments.resize(prog->module->schedule.functions.size());
  for (uint32_t f = 0; f < prog->segments.size(); ++f) MESHVK_RETURN_IF_ERROR(RecordFunction(prog, f));
  prog->record_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  return Status();
}

// invoke_async.cc binds a caller's shard buffers directly: the function is
// recorded once more with those buffers in place of the program's own. Same
// recording code; the program's own segments, counters and cross-device
// bookkeeping are left as they were.
Status RecordFunctionWith(meshvk_program_t* prog, uint32_t function,
                          const std::vector<std::vector<meshvk_buffer_t*>>& buffers, std::vector<Segment>* out) {
  std::vector<std::vector<meshvk_buffer_t*>> own = prog->buffers;
  std::vector<Segment> recorded = std::move(prog->segments[function]);
  auto cross_device = std::make_unique<CrossDeviceCopies>();
  cross_device->Init(prog->set, static_cast<uint32_t>(prog->segments.size()), static_cast<uint32_t>(buffers.size()));
  std::swap(prog->cross_device, cross_device);
  const uint32_t command_count = prog->command_count, command_buffer_count = prog->command_buffer_count;
  prog->buffers = buffers;
  prog->segments[function].clear();
  Status status = RecordFunction(prog, function);
  *out = std::move(prog->segments[function]);
  prog->segments[function] = std::move(recorded);
  prog->buffers = std::move(own);
  std::swap(prog->cross_device, cross_device);
  prog->command_count = command_count;
  prog->command_buffer_count = command_buffer_count;
  if (!status.ok()) {
    for (Segment& seg : *out) meshvk_command_buffer_release(seg.command_buffer);
    out->clear();
  }
  return status;
}

}  // namespace meshvk::module
