// The executor: a module instantiated on a device set. This file creates it
// (buffers, executables, semaphores) and answers questions about it; the
// recording is in program_record.cc, the submission in program_submit.cc,
// the host-tensor invoke in program_invoke.cc, the device-resident one in
// invoke_async.cc.
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

#include <memory>
#include <string>
#include <vector>

#include "artifact_verifier.h"
#include "cross_device.h"
#include "invoke_trace.h"
#include "memory_fit.h"
#include "meshvk/module.h"
#include "meshvk/transport.h"
#include "module.h"
#include "remote_copies.h"
#include "schedule.h"
#include "status.h"
#include "structure.h"

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;
namespace mvk = meshvk::mvk;

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
        meshvk_buffer_create_info_t info = MESHVK_BUFFER_CREATE_INFO_INIT;
        info.process = p;
        info.size = size;
        info.flags = exportable[p][b] ? static_cast<meshvk_buffer_flags_t>(MESHVK_BUFFER_EXPORTABLE_BIT) : 0u;
        Status created = FromC(meshvk_buffer_create_with_info(prog->set, &info, &buffer),
                               "processes[" + std::to_string(p) + "].buffers[" + std::to_string(b) + "]");
        // An exportable allocation's failure keeps its own line (buffer.cc says what was refused).
        if (!created.ok())
          return exportable[p][b] ? created : meshvk::module::OutOfDeviceMemory(prog, p, b, size, created);
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
    meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
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

Status Create(meshvk_module_t* module, meshvk_device_set_t* set, const meshvk_program_ranks_t* ranks,
              meshvk_program_t* prog) {
  if (!module->variants.empty())  // a file of plans: the caller picks one first
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION,
                      "%s: choose one with meshvk_module_select_process_count before creating a program",
                      meshvk::module::VariantsText(module).c_str());
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
    meshvk_device_limits_t limits = MESHVK_DEVICE_LIMITS_INIT;
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_device_set_process_limits(set, p, &limits), "process " + std::to_string(p)));
    std::string error = meshvk::module::VerifyAgainstLimits(prog->artifact, p, limits);
    if (!error.empty()) return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "%s", error.c_str());
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    MESHVK_RETURN_IF_ERROR(FromC(meshvk_device_set_process_info(set, p, &info), "process " + std::to_string(p)));
    prog->logical_device.push_back(info.logical_device);
  }
  MESHVK_RETURN_IF_ERROR(prog->remote->Init(prog->artifact, module->schedule, ranks));
  // Memory next: a program that cannot fit is refused before its first buffer.
  MESHVK_RETURN_IF_ERROR(meshvk::module::CheckMemoryFits(prog));
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
  return meshvk::module::RecordProgram(prog);
}

// Where shard `shard` of argument or result `index` lives: the program's own
// buffer, offset and the shard's place in the global tensor.
meshvk_status_t ShardView(const meshvk_program_t* program, uint32_t function, uint32_t index, bool result,
                          uint32_t shard, meshvk_shard_view_t* out_view) {
  const char* what = result ? "result" : "argument";
  if (!program)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_%s_shard: program is NULL", what).ToC();
  if (Status checked = meshvk::CheckStructure(out_view, MESHVK_STRUCTURE_TYPE_SHARD_VIEW, "out_view"); !checked.ok())
    return MakeStatus(checked.code(), "meshvk_program_%s_shard: %s", what, checked.message().c_str()).ToC();
  meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
  uint32_t buffer = 0;
  if (Status placed = meshvk::module::ShardViewOf(program->module, function, index, result, shard, &view, &buffer);
      !placed.ok())
    return placed.ToC();
  view.buffer = program->buffers[view.process][buffer];
  meshvk::FillKeepingHeader(out_view, view);
  return MESHVK_OK;
}

}  // namespace

const meshvk::mvk::TensorSignature* meshvk::module::TensorSignatureOf(const meshvk_program_t* prog, uint32_t function,
                                                                      uint32_t index, bool result) {
  const auto* functions = prog->artifact->functions();
  if (!functions || function >= functions->size()) return nullptr;
  const auto* list = result ? functions->Get(function)->results() : functions->Get(function)->arguments();
  return list && index < list->size() ? list->Get(index) : nullptr;
}

extern "C" {

meshvk_status_t meshvk_program_create(meshvk_module_t* module, meshvk_device_set_t* set,
                                      meshvk_program_t** out_program) {
  meshvk_program_create_info_t info = MESHVK_PROGRAM_CREATE_INFO_INIT;
  info.module = module;
  info.set = set;
  return meshvk_program_create_with_info(&info, out_program);
}

meshvk_status_t meshvk_program_create_with_info(const meshvk_program_create_info_t* info,
                                                meshvk_program_t** out_program) {
  if (!out_program) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_program is NULL").ToC();
  *out_program = nullptr;
  if (Status checked = meshvk::CheckStructure(info, MESHVK_STRUCTURE_TYPE_PROGRAM_CREATE_INFO, "info"); !checked.ok())
    return checked.ToC();
  if (!info->module || !info->set)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module or device set is NULL").ToC();
  const auto* sink = meshvk::FindChained<meshvk_trace_sink_t>(info, MESHVK_STRUCTURE_TYPE_TRACE_SINK);
  const auto* ranks = meshvk::FindChained<meshvk_program_ranks_t>(info, MESHVK_STRUCTURE_TYPE_PROGRAM_RANKS);
  auto prog = std::make_unique<meshvk_program_s>();
  if (sink) {
    if (!sink->event) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "trace sink without an event function").ToC();
    prog->trace = std::make_unique<meshvk::module::InvokeTrace>(*sink, info->module->artifact);
  }
  Status status = Create(info->module, info->set, ranks, prog.get());
  if (!status.ok()) return status.ToC();
  *out_program = prog.release();
  return MESHVK_OK;
}

meshvk_status_t meshvk_program_transport_stats(const meshvk_program_t* program, meshvk_transport_stats_t* out_stats) {
  if (!program)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_transport_stats: program is NULL").ToC();
  if (Status checked = meshvk::CheckStructure(out_stats, MESHVK_STRUCTURE_TYPE_TRANSPORT_STATS,
                                              "meshvk_program_transport_stats: out_stats");
      !checked.ok())
    return checked.ToC();
  meshvk_transport_stats_t stats = MESHVK_TRANSPORT_STATS_INIT;
  stats.bytes_sent = program->remote->bytes_sent();
  stats.bytes_received = program->remote->bytes_received();
  stats.host_ns = program->remote->host_ns();
  stats.staged_bytes = program->remote->staged_bytes();
  meshvk::FillKeepingHeader(out_stats, stats);
  return MESHVK_OK;
}

void meshvk_program_retain(meshvk_program_t* program) {
  if (program) program->references.fetch_add(1);
}

void meshvk_program_release(meshvk_program_t* program) {
  if (!program || program->references.fetch_sub(1) != 1) return;
  // Recorded work may still run after a failed invoke or an async one: let
  // it finish first (after the async worker stopped submitting more). The
  // program waits for its own timelines (bounded by the device timeout), not
  // for the set's queues or devices to go idle: other programs on the set
  // keep running. Each command buffer's release then waits for its own last
  // submission (command_buffer.cc).
  program->worker.reset();
  (void)meshvk::module::WaitForEarlierInvokes(program, UINT64_MAX);
  delete program;
}

meshvk_status_t meshvk_program_result_shard(const meshvk_program_t* program, uint32_t function, uint32_t result,
                                            uint32_t shard, meshvk_shard_view_t* out_view) {
  return ShardView(program, function, result, /*result=*/true, shard, out_view);
}

meshvk_status_t meshvk_program_argument_shard(const meshvk_program_t* program, uint32_t function, uint32_t argument,
                                              uint32_t shard, meshvk_shard_view_t* out_view) {
  return ShardView(program, function, argument, /*result=*/false, shard, out_view);
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

meshvk_status_t meshvk_program_stats(const meshvk_program_t* program, meshvk_program_stats_t* out_stats) {
  if (!program) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_program_stats: program is NULL").ToC();
  if (Status checked =
          meshvk::CheckStructure(out_stats, MESHVK_STRUCTURE_TYPE_PROGRAM_STATS, "meshvk_program_stats: out_stats");
      !checked.ok())
    return checked.ToC();
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  stats.command_buffer_count = program->command_buffer_count;
  stats.command_count = program->command_count;
  stats.record_ns = program->record_ns;
  meshvk::FillKeepingHeader(out_stats, stats);
  return MESHVK_OK;
}

}  // extern "C"
