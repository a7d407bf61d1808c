// The executor: a module instantiated on a device set.
//
// Everything that can be decided once is decided in meshvk_program_create:
// buffers, pipelines, and one recorded command buffer per (process, phase),
// with the semaphore waits each one needs. An invoke only streams the input
// shards in, submits the recorded segments in phase order and gathers results.
//
// Synchronisation, in one place:
//  * inside a segment: the command buffer's own hazard tracking (barriers);
//  * between segments of one process: a wait on that process's timeline
//    semaphore for the previous segment (submissions on one queue are not
//    ordered for memory without it);
//  * across processes: a wait on the producer's semaphore at the value its
//    producing segment signals; when the two processes live on different
//    VkDevices (no shared semaphores there), the host waits instead, and a
//    segment still waiting does not hold back the ready ones of its phase;
//  * copies from another VkDevice read an imported view of the source, or a
//    landing buffer the host fills once the producer finished (cross_device.h);
//  * copies from another rank read a landing buffer filled from the transport
//    before the segment is submitted; the source rank sends once its producer
//    finished (remote_copies.h). Waits on processes of other ranks are not
//    recorded: the transport's receive is the dependency;
//  * collective groups that span ranks run as host steps between phases
//    (rank_collectives.h); their commands are not recorded, waits on them are
//    dropped (the step finished before the waiting phase is submitted).
// Timeline values grow by phase_count per invoke, so recorded waits stay valid.
#include "program.h"

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "artifact_verifier.h"
#include "cross_device.h"
#include "invoke_trace.h"
#include "meshvk/artifact/builder.h"
#include "meshvk/module.h"
#include "meshvk/queue.h"
#include "meshvk/trace.h"
#include "meshvk/transport.h"
#include "module.h"
#include "remote_copies.h"
#include "schedule.h"
#include "status.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;
namespace mvk = meshvk::mvk;

using meshvk::module::RankGroup;
using meshvk::module::Segment;
using meshvk::module::Wait;

}  // namespace

namespace {

Status AllocateBuffers(meshvk_program_t* prog) {
  const auto* processes = prog->artifact->processes();
  const meshvk::module::Schedule& schedule = prog->module->schedule;
  prog->buffers.resize(processes->size());
  // Only buffers a copy on another VkDevice reads through external memory
  // are exportable: nothing else pays for it.
  const std::vector<std::vector<bool>> exportable =
      meshvk::module::CrossDeviceCopies::ExportableBuffers(prog->artifact, prog->set);
  for (uint32_t p = 0; p < processes->size(); ++p) {
    const auto* list = processes->Get(p)->buffers();
    if (!prog->remote->Local(p)) {  // another rank's process: nothing here
      prog->buffers[p].assign(list ? list->size() : 0, nullptr);
      continue;
    }
    std::vector<meshvk_buffer_t*> slots(schedule.slot_size[p].size(), nullptr);
    for (uint32_t b = 0; list && b < list->size(); ++b) {
      const mvk::Buffer* desc = list->Get(b);
      meshvk_buffer_t* buffer = nullptr;
      int32_t slot = desc->reuse_slot();
      if (slot >= 0 && slots[slot]) {
        buffer = slots[slot];
        meshvk_buffer_retain(buffer);
      } else {
        uint64_t size = slot >= 0 ? schedule.slot_size[p][slot] : desc->size();
        meshvk_buffer_create_info_t info{
            p, size, exportable[p][b] ? static_cast<meshvk_buffer_flags_t>(MESHVK_BUFFER_EXPORTABLE_BIT) : 0u};
        MESHVK_RETURN_IF_ERROR(FromC(meshvk_buffer_create_with_info(prog->set, &info, &buffer),
                                     "processes[" + std::to_string(p) + "].buffers[" + std::to_string(b) + "]"));
        if (slot >= 0) slots[slot] = buffer;
      }
      prog->buffers[p].push_back(buffer);
      if (desc->kind() == mvk::BufferKind::Constant) {
        MESHVK_RETURN_IF_ERROR(
            FromC(meshvk_buffer_write(buffer, 0, desc->initial_data()->data(), desc->initial_data()->size()),
                  "processes[" + std::to_string(p) + "].buffers[" + std::to_string(b) + "] constant data"));
      }
    }
  }
  return Status();
}

Status CreateExecutables(meshvk_program_t* prog) {
  const auto* list = prog->artifact->executables();
  for (uint32_t i = 0; list && i < list->size(); ++i) {
    const mvk::Executable* x = list->Get(i);
    meshvk_executable_create_info_t info{};
    info.spirv = x->spirv()->data();
    info.spirv_size = x->spirv()->size() * sizeof(uint32_t);
    info.entry_point = x->entry_point()->c_str();
    info.binding_count = x->bindings() ? x->bindings()->size() : 0;
    info.push_constant_size = x->push_constant_size();
    for (int d = 0; d < 3; ++d) info.workgroup_size[d] = x->workgroup_size()->Get(d);
    meshvk_executable_t* exe = nullptr;
    MESHVK_RETURN_IF_ERROR(
        FromC(meshvk_executable_create(prog->set, &info, &exe), "executables[" + std::to_string(i) + "]"));
    prog->executables.push_back(exe);
  }
  return Status();
}

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
    meshvk_dispatch_info_t info{};
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

Status Record(meshvk_program_t* prog) {
  auto start = std::chrono::steady_clock::now();
  prog->segments.resize(prog->module->schedule.functions.size());
  for (uint32_t f = 0; f < prog->segments.size(); ++f) MESHVK_RETURN_IF_ERROR(RecordFunction(prog, f));
  prog->record_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  return Status();
}

Status Create(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
              meshvk_program_t* prog) {
  prog->module = module;
  meshvk_module_retain(module);
  prog->set = set;
  meshvk_device_set_retain(set);
  prog->artifact = module->artifact;
  uint32_t P = prog->artifact->processes()->size();
  uint32_t set_processes = meshvk_device_set_process_count(set);
  if (set_processes != P)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "the program's grid has %u processes but the device set has %u",
                      P, set_processes);
  // Device limits first: nothing is allocated for a program a device cannot run.
  for (uint32_t p = 0; p < P; ++p) {
    meshvk_device_limits_t limits{};
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_device_set_process_limits(set, p, &limits), "process " + std::to_string(p)));
    std::string error = meshvk::module::VerifyAgainstLimits(prog->artifact, p, limits);
    if (!error.empty()) return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s", error.c_str());
    meshvk_process_info_t info{};
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_device_set_process_info(set, p, &info), "process " + std::to_string(p)));
    prog->logical_device.push_back(info.logical_device);
  }
  MESHVK_RETURN_IF_ERROR(prog->remote->Init(prog->artifact, module->schedule, ranks));
  MESHVK_RETURN_IF_ERROR(AllocateBuffers(prog));
  prog->cross_device->Init(set, module->artifact->functions() ? module->artifact->functions()->size() : 0, P);
  MESHVK_RETURN_IF_ERROR(CreateExecutables(prog));
  for (uint32_t p = 0; p < P; ++p) {
    meshvk_semaphore_t* sem = nullptr;
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_semaphore_create(set, p, 0, &sem), "process " + std::to_string(p)));
    prog->semaphores.push_back(sem);
  }
  prog->cross_device->ShareSemaphores(prog->semaphores);
  prog->last_signal.assign(P, 0);
  return Record(prog);
}

// Calls `fn(buffer_offset, host_offset, row_bytes, rows, buffer_pitch, host_pitch)`
// for the runs of one shard inside a dense row-major global tensor.
template <typename Fn>
Status ForEachShardRun(const mvk::TensorSignature* t, const mvk::Shard* sh, uint32_t elem, Fn fn) {
  uint32_t rank = t->shape()->size();
  if (rank == 0) return fn(sh->offset(), 0, elem, 1, elem, elem);
  std::vector<uint64_t> g(rank), s(rank), o(rank), gstride(rank), sstride(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    g[d] = t->shape()->Get(d);
    s[d] = sh->shape()->Get(d);
    o[d] = sh->global_offset()->Get(d);
  }
  gstride[rank - 1] = sstride[rank - 1] = elem;
  for (uint32_t d = rank - 1; d-- > 0;) {
    gstride[d] = gstride[d + 1] * g[d + 1];
    sstride[d] = sstride[d + 1] * s[d + 1];
  }
  // k: the outermost dimension from which the shard is one contiguous run.
  uint32_t k = rank - 1;
  while (k > 0 && s[k] == g[k]) --k;
  uint64_t run = s[k] * sstride[k];
  uint64_t base_host = 0;
  for (uint32_t d = 0; d < rank; ++d) base_host += o[d] * gstride[d];
  if (k == 0) return fn(sh->offset(), base_host, run, 1, run, run);
  // Rows along dimension k-1; loop over dimensions 0..k-2.
  uint64_t outer = 1;
  for (uint32_t d = 0; d + 1 < k; ++d) outer *= s[d];
  std::vector<uint64_t> idx(k > 1 ? k - 1 : 0, 0);
  for (uint64_t i = 0; i < outer; ++i) {
    uint64_t host = base_host, dev = sh->offset();
    for (uint32_t d = 0; d + 1 < k; ++d) {
      host += idx[d] * gstride[d];
      dev += idx[d] * sstride[d];
    }
    MESHVK_RETURN_IF_ERROR(fn(dev, host, run, s[k - 1], sstride[k - 1], gstride[k - 1]));
    for (uint32_t d = k - 1; d-- > 0;) {  // increment the multi-index
      if (++idx[d] < s[d]) break;
      idx[d] = 0;
    }
  }
  return Status();
}

// Bytes of the dense row-major host tensor an input or output of `t` is.
uint64_t HostBytes(const mvk::TensorSignature* t) {
  uint64_t bytes = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  for (uint64_t e : *t->shape()) bytes *= e;
  return bytes;
}

Status WriteInputs(meshvk_program_t* prog, const mvk::Function* fn, const meshvk_invoke_info_t* info) {
  uint32_t count = fn->arguments() ? fn->arguments()->size() : 0;
  if (info->input_count != count)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "function '%s' takes %u inputs, got %u", fn->name()->c_str(),
                      count, info->input_count);
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = fn->arguments()->Get(i);
    uint32_t elem = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
    uint64_t bytes = HostBytes(t);
    if (!info->inputs[i].data || info->inputs[i].size != bytes)
      return MakeStatus(
          MESHVK_STATUS_INVALID_ARGUMENT, "input %u of '%s': %llu bytes given, the %s tensor needs %llu", i,
          fn->name()->c_str(), static_cast<unsigned long long>(info->inputs[i].size),
          meshvk::artifact::ElementTypeName(static_cast<meshvk::artifact::ElementType>(t->element_type())),
          static_cast<unsigned long long>(bytes));
    const uint8_t* host = static_cast<const uint8_t*>(info->inputs[i].data);
    for (const mvk::Shard* sh : *t->shards()) {
      if (!prog->remote->Local(sh->process())) continue;  // another rank writes it
      meshvk_buffer_t* buffer = prog->buffers[sh->process()][sh->buffer()];
      MESHVK_RETURN_IF_ERROR(ForEachShardRun(
          t, sh, elem,
          [&](uint64_t dev, uint64_t host_off, uint64_t run, uint64_t rows, uint64_t dev_pitch, uint64_t host_pitch) {
            return FromC(meshvk_buffer_write_strided(buffer, dev, dev_pitch, host + host_off, host_pitch, run, rows),
                         "input " + std::to_string(i) + " shard of process " + std::to_string(sh->process()));
          }));
    }
  }
  return Status();
}

Status ReadResults(meshvk_program_t* prog, const mvk::Function* fn, const meshvk_invoke_info_t* info) {
  uint32_t count = fn->results() ? fn->results()->size() : 0;
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = fn->results()->Get(i);
    uint32_t elem = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
    uint8_t* host = static_cast<uint8_t*>(info->outputs[i].data);
    std::set<std::vector<uint64_t>> done;  // replicas: read each part once
    size_t part_index = i * 1024;          // result tags: distinct per (result, part)
    for (const mvk::Shard* sh : *t->shards()) {
      std::vector<uint64_t> part(sh->global_offset()->begin(), sh->global_offset()->end());
      if (!done.insert(part).second) continue;
      meshvk::module::RemoteCopies& remote = *prog->remote;
      const uint32_t tag = meshvk::module::kResultTagBase + static_cast<uint32_t>(part_index++);
      if (remote.enabled() && remote.RankOf(sh->process()) != remote.root()) {
        // Gathered to the root rank: the owner sends the dense shard once.
        const uint64_t bytes = meshvk::module::ShardBytes(t, sh);
        std::vector<uint8_t> dense(bytes);
        if (remote.Local(sh->process())) {
          MESHVK_RETURN_IF_ERROR(
              FromC(meshvk_buffer_read(prog->buffers[sh->process()][sh->buffer()], sh->offset(), dense.data(), bytes),
                    "result " + std::to_string(i) + " shard of process " + std::to_string(sh->process())));
          MESHVK_RETURN_IF_ERROR(remote.Send(remote.root(), tag, std::move(dense)));
        } else if (remote.transport()->rank == remote.root()) {
          MESHVK_RETURN_IF_ERROR(remote.ReceiveInto(remote.RankOf(sh->process()), tag, dense.data(), bytes));
          MESHVK_RETURN_IF_ERROR(ForEachShardRun(
              t, sh, elem,
              [&](uint64_t dev, uint64_t host_off, uint64_t run, uint64_t rows, uint64_t dev_pitch,
                  uint64_t host_pitch) {
                for (uint64_t r = 0; r < rows; ++r)
                  std::memcpy(host + host_off + r * host_pitch, dense.data() + dev - sh->offset() + r * dev_pitch, run);
                return Status();
              }));
        }
        continue;
      }
      if (!remote.Local(sh->process())) continue;  // the root's own shard, on the root
      meshvk_buffer_t* buffer = prog->buffers[sh->process()][sh->buffer()];
      MESHVK_RETURN_IF_ERROR(ForEachShardRun(
          t, sh, elem,
          [&](uint64_t dev, uint64_t host_off, uint64_t run, uint64_t rows, uint64_t dev_pitch, uint64_t host_pitch) {
            return FromC(meshvk_buffer_read_strided(buffer, dev, dev_pitch, host + host_off, host_pitch, run, rows),
                         "result " + std::to_string(i) + " shard of process " + std::to_string(sh->process()));
          }));
    }
  }
  return Status();
}

Status CheckOutputs(const mvk::Function* fn, const meshvk_invoke_info_t* info) {
  if (info->flags & MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT) return Status();
  uint32_t count = fn->results() ? fn->results()->size() : 0;
  if (info->output_count != count || (count && !info->outputs))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "function '%s' returns %u results, got %u outputs",
                      fn->name()->c_str(), count, info->output_count);
  for (uint32_t i = 0; i < count; ++i) {
    const mvk::TensorSignature* t = fn->results()->Get(i);
    uint64_t bytes = HostBytes(t);
    if (!info->outputs[i].data || info->outputs[i].size != bytes)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "output %u of '%s': %llu bytes given, the result needs %llu", i,
                        fn->name()->c_str(), static_cast<unsigned long long>(info->outputs[i].size),
                        static_cast<unsigned long long>(bytes));
  }
  return Status();
}

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
Status SubmitSegment(meshvk_program_t* prog, Segment& seg, uint64_t base, const std::vector<uint64_t>& previous_invoke,
                     const std::vector<meshvk_semaphore_value_t>& first_waits, uint64_t timeout_ns) {
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
  // The producers on other VkDevices have finished: bring their bytes over.
  for (const HostCopy& copy : seg.host_copies) {
    uint64_t begin = trace ? TraceNowNs() : 0;
    MESHVK_RETURN_IF_ERROR(RunHostCopy(copy, timeout_ns));
    if (trace)
      trace->Host(MESHVK_TRACE_HOST_STAGING, seg.process, seg.phase, meshvk_buffer_process(copy.src), begin,
                  TraceNowNs(), copy.size);
  }
  // Bytes from other ranks arrive through the transport.
  MESHVK_RETURN_IF_ERROR(prog->remote->Receive(seg.remote_receives));
  meshvk_semaphore_value_t signal{prog->semaphores[seg.process], base + seg.phase + 1};
  meshvk_submit_info_t submit{};
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

}  // namespace

// Segments go out phase by phase (a segment only depends on earlier phases).
// Inside a phase, a segment whose producer on another VkDevice is still
// running does not hold back the others: those whose host waits are met are
// submitted first, and the host blocks only when none is ready.
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
  for (size_t begin = 0; begin < segments.size();) {
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

namespace {

// Device time of each segment of the invoke that just completed. A device
// without timestamp queries leaves the timings invalid (not an error).
Status ReadTimings(meshvk_program_t* prog, uint32_t function) {
  if (prog->timestamps_unavailable) return Status();
  prog->timings.clear();
  for (const Segment& seg : prog->segments[function]) {
    uint64_t ns = 0;
    meshvk_status_t status = meshvk_command_buffer_device_time(seg.command_buffer, &ns);
    if (meshvk_status_code(status) == MESHVK_STATUS_UNAVAILABLE) {
      meshvk_status_free(status);
      prog->timestamps_unavailable = true;
      return Status();
    }
    MESHVK_RETURN_IF_ERROR(
        FromC(status, "timestamps of process " + std::to_string(seg.process) + " phase " + std::to_string(seg.phase)));
    prog->timings.push_back({seg.phase, seg.process, ns});
  }
  prog->timings_valid = true;
  return Status();
}

uint64_t InputBytes(const meshvk_invoke_info_t* info) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < info->input_count; ++i) bytes += info->inputs[i].size;
  return bytes;
}

uint64_t OutputBytes(const meshvk_invoke_info_t* info) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; info->outputs && i < info->output_count; ++i) bytes += info->outputs[i].size;
  return bytes;
}

Status Invoke(meshvk_program_t* prog, const meshvk_invoke_info_t* info) {
  const auto* functions = prog->artifact->functions();
  if (!functions || info->function >= functions->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range (%u functions)", info->function,
                      functions ? functions->size() : 0);
  const mvk::Function* fn = functions->Get(info->function);
  MESHVK_RETURN_IF_ERROR(CheckOutputs(fn, info));
  // 0: as long as the runtime's device timeout allows (every wait is bounded
  // by MESHVK_DEVICE_TIMEOUT_MS, default 60 s).
  uint64_t timeout = info->timeout_ns ? info->timeout_ns : UINT64_MAX;
  // Async invokes queued on the worker (several VkDevices) go first; one that
  // failed reports here.
  if (prog->worker) MESHVK_RETURN_IF_ERROR(prog->worker->Drain());
  // An asynchronous invoke may still be using the buffers the host writes.
  MESHVK_RETURN_IF_ERROR(meshvk::module::WaitForEarlierInvokes(prog, timeout));
  meshvk::module::InvokeTrace* trace = prog->trace.get();
  if (trace) trace->StartInvoke(info->function);
  uint64_t step = trace ? meshvk::module::TraceNowNs() : 0;
  MESHVK_RETURN_IF_ERROR(WriteInputs(prog, fn, info));
  if (trace)
    trace->Host(MESHVK_TRACE_WRITE_INPUTS, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, step,
                meshvk::module::TraceNowNs(), InputBytes(info));
  prog->remote->BeginInvoke(info->function);
  prog->timings_valid = false;
  MESHVK_RETURN_IF_ERROR(meshvk::module::SubmitSegments(prog, info->function, timeout, {}, false));
  if (info->flags & MESHVK_INVOKE_TIMESTAMPS_BIT) MESHVK_RETURN_IF_ERROR(ReadTimings(prog, info->function));
  step = trace ? meshvk::module::TraceNowNs() : 0;
  if (!(info->flags & MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT)) MESHVK_RETURN_IF_ERROR(ReadResults(prog, fn, info));
  MESHVK_RETURN_IF_ERROR(prog->remote->FinishInvoke());
  if (trace) {
    if (!(info->flags & MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT))
      trace->Host(MESHVK_TRACE_READ_RESULTS, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, MESHVK_TRACE_NONE, step,
                  meshvk::module::TraceNowNs(), OutputBytes(info));
    trace->FinishInvoke();
  }
  return Status();
}

}  // namespace

extern "C" {

meshvk_status_t meshvk_program_create(meshvk_module_t* module, meshvk_device_set_t* set,
                                      meshvk_program_t** out_program) {
  meshvk_program_create_info_t info{};
  info.module = module;
  info.set = set;
  return meshvk_program_create_with_info(&info, out_program);
}

meshvk_status_t meshvk_program_create_with_info(const meshvk_program_create_info_t* info,
                                                meshvk_program_t** out_program) {
  if (!out_program) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_program is NULL").ToC();
  *out_program = nullptr;
  if (!info || !info->module || !info->set)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module or device set is NULL").ToC();
  auto prog = std::make_unique<meshvk_program_s>();
  if (info->trace_sink) {
    if (!info->trace_sink->event)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "trace sink without an event function").ToC();
    prog->trace = std::make_unique<meshvk::module::InvokeTrace>(*info->trace_sink, info->module->artifact);
  }
  Status status = Create(info->module, info->set, info->ranks, prog.get());
  if (!status.ok()) return status.ToC();
  *out_program = prog.release();
  return MESHVK_OK;
}

meshvk_status_t meshvk_module_rank_input_runs(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                              const uint32_t* process_rank, uint32_t rank_count, uint32_t rank,
                                              meshvk_host_run_t* out_runs, uint32_t capacity, uint32_t* out_count) {
  if (!module || !process_rank || !out_count || (capacity && !out_runs))
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module, process_rank or outputs are NULL").ToC();
  const auto* functions = module->artifact->functions();
  if (!functions || function >= functions->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  const auto* args = functions->Get(function)->arguments();
  if (!args || argument >= args->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "argument %u out of range", argument).ToC();
  if (rank >= rank_count) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "rank %u of %u", rank, rank_count).ToC();
  const mvk::TensorSignature* t = args->Get(argument);
  const uint32_t elem = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  std::set<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>> runs;  // replicas once, in host order
  for (const mvk::Shard* sh : *t->shards()) {
    if (sh->process() >= module->artifact->processes()->size() || process_rank[sh->process()] >= rank_count)
      return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "process %u has no rank below %u", sh->process(), rank_count)
          .ToC();
    if (process_rank[sh->process()] != rank) continue;
    Status status = ForEachShardRun(
        t, sh, elem, [&](uint64_t, uint64_t host, uint64_t run, uint64_t rows, uint64_t, uint64_t pitch) {
          runs.insert({host, run, rows, pitch});
          return Status();
        });
    if (!status.ok()) return status.ToC();
  }
  *out_count = static_cast<uint32_t>(runs.size());
  uint32_t i = 0;
  for (const auto& [offset, row_bytes, rows, pitch] : runs)
    if (i < capacity) out_runs[i++] = meshvk_host_run_t{offset, row_bytes, rows, pitch};
  return MESHVK_OK;
}

void meshvk_program_transport_stats(const meshvk_program_t* program, meshvk_transport_stats_t* out_stats) {
  *out_stats = meshvk_transport_stats_t{};
  if (!program) return;
  out_stats->bytes_sent = program->remote->bytes_sent();
  out_stats->bytes_received = program->remote->bytes_received();
  out_stats->host_ns = program->remote->host_ns();
}

void meshvk_program_release(meshvk_program_t* program) {
  if (!program) return;
  // Recorded work may still run after a failed invoke: let it finish first
  // (after the async worker stopped submitting more).
  program->worker.reset();
  meshvk_status_free(meshvk_device_set_wait_idle(program->set));
  delete program;
}

meshvk_status_t meshvk_program_invoke(meshvk_program_t* program, const meshvk_invoke_info_t* info) {
  if (!program || !info) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "program or info is NULL").ToC();
  return Invoke(program, info).ToC();
}

meshvk_status_t meshvk_program_result_shard(const meshvk_program_t* program, uint32_t function, uint32_t result,
                                            uint32_t shard, meshvk_shard_view_t* out_view) {
  const auto* functions = program->artifact->functions();
  if (!functions || function >= functions->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  const auto* results = functions->Get(function)->results();
  if (!results || result >= results->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "result %u out of range", result).ToC();
  const mvk::TensorSignature* t = results->Get(result);
  if (shard >= t->shards()->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "shard %u out of range (%u shards)", shard, t->shards()->size())
        .ToC();
  const mvk::Shard* sh = t->shards()->Get(shard);
  *out_view = meshvk_shard_view_t{};
  out_view->process = sh->process();
  out_view->buffer = program->buffers[sh->process()][sh->buffer()];
  out_view->offset = sh->offset();
  out_view->rank = t->shape()->size();
  for (uint32_t d = 0; d < out_view->rank; ++d) {
    out_view->global_offset[d] = sh->global_offset()->Get(d);
    out_view->shape[d] = sh->shape()->Get(d);
  }
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_phase_timings(const meshvk_program_t* program, meshvk_phase_timing_t* out_timings,
                                             uint32_t capacity, uint32_t* out_count) {
  if (!program->timings_valid)
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, program->timestamps_unavailable
                                                             ? "the devices have no timestamp support"
                                                             : "no invoke with MESHVK_INVOKE_TIMESTAMPS_BIT yet")
        .ToC();
  *out_count = static_cast<uint32_t>(program->timings.size());
  for (uint32_t i = 0; i < capacity && i < program->timings.size(); ++i) out_timings[i] = program->timings[i];
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_copy_bytes(const meshvk_program_t* program, uint32_t function, uint32_t process,
                                          uint64_t out_bytes[MESHVK_COPY_PATH_COUNT]) {
  if (!program || !out_bytes) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "program or out_bytes is NULL").ToC();
  if (function >= program->segments.size() || process >= program->buffers.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u / process %u out of range", function, process).ToC();
  const auto& bytes = program->cross_device->BytesIn(function, process);
  for (uint32_t k = 0; k < MESHVK_COPY_PATH_COUNT; ++k) out_bytes[k] = bytes[k];
  return MESHVK_OK;
}

uint32_t meshvk_program_note_count(const meshvk_program_t* program) {
  return program ? static_cast<uint32_t>(program->cross_device->notes().size() + program->async_notes.size()) : 0;
}

const char* meshvk_program_note(const meshvk_program_t* program, uint32_t index) {
  if (!program || index >= meshvk_program_note_count(program)) return nullptr;
  const std::vector<std::string>& notes = program->cross_device->notes();
  return index < notes.size() ? notes[index].c_str() : program->async_notes[index - notes.size()].c_str();
}

void meshvk_program_stats(const meshvk_program_t* program, meshvk_program_stats_t* out_stats) {
  out_stats->command_buffer_count = program->command_buffer_count;
  out_stats->command_count = program->command_count;
  out_stats->record_ns = program->record_ns;
}

}  // extern "C"
