// Phases and per-process summaries. Phases are computed in a topological order of
// each function's command graph (stream order + deps), which the verifier
// proved exists.
#include "schedule.h"

#include <algorithm>

namespace meshvk::module {

const flatbuffers::Vector<flatbuffers::Offset<mvk::Command>>* StreamOf(const mvk::Artifact* a, uint32_t function,
                                                                       uint32_t process) {
  if (!a->functions() || function >= a->functions()->size()) return nullptr;
  const auto* streams = a->functions()->Get(function)->streams();
  return streams && process < streams->size() ? streams->Get(process)->commands() : nullptr;
}

uint64_t CopyBytes(const mvk::Copy* copy) {
  if (!copy->regions() || copy->regions()->size() == 0) return copy->size();
  uint64_t bytes = 0;
  for (const mvk::StridedRegion* r : *copy->regions()) bytes += 4ull * r->count().x() * r->count().y() * r->count().z();
  return bytes;
}

uint64_t BindingBytes(const mvk::BufferBinding* binding, uint64_t buffer_size) {
  if (binding->range()) return binding->range();
  return binding->offset() < buffer_size ? buffer_size - binding->offset() : 0;
}

namespace {

FunctionSchedule ScheduleFunction(const mvk::Artifact* a, uint32_t f) {
  FunctionSchedule schedule;
  uint32_t processes = a->processes()->size();
  schedule.phase_of.resize(processes);
  schedule.processes.assign(processes, meshvk_process_summary_t{});
  std::vector<uint32_t> next(processes, 0), counts(processes, 0);
  uint32_t remaining = 0;
  for (uint32_t p = 0; p < processes; ++p) {
    const auto* commands = StreamOf(a, f, p);
    counts[p] = commands ? commands->size() : 0;
    schedule.phase_of[p].assign(counts[p], 0);
    remaining += counts[p];
  }
  // Round-robin over processes, advancing each stream while its next
  // command's deps are scheduled. Terminates because the graph is acyclic.
  while (remaining > 0) {
    bool progressed = false;
    for (uint32_t p = 0; p < processes; ++p) {
      const auto* commands = StreamOf(a, f, p);
      while (next[p] < counts[p]) {
        uint32_t c = next[p];
        const mvk::Command* cmd = commands->Get(c);
        uint32_t phase = c > 0 ? schedule.phase_of[p][c - 1] : 0;
        bool ready = true;
        if (cmd->deps()) {
          for (const mvk::CommandRef* dep : *cmd->deps()) {
            if (dep->command() >= next[dep->process()]) {
              ready = false;
              break;
            }
            uint32_t dep_phase = schedule.phase_of[dep->process()][dep->command()];
            phase = std::max(phase, dep->process() == p ? dep_phase : dep_phase + 1);
          }
        }
        if (!ready) break;
        schedule.phase_of[p][c] = phase;
        schedule.phase_count = std::max(schedule.phase_count, phase + 1);
        ++next[p];
        --remaining;
        progressed = true;
      }
    }
    if (!progressed) break;  // unreachable for verified artifacts
  }

  for (uint32_t p = 0; p < processes; ++p) {
    const auto* commands = StreamOf(a, f, p);
    meshvk_process_summary_t& s = schedule.processes[p];
    std::vector<bool> phase_used(schedule.phase_count, false);
    for (uint32_t c = 0; c < counts[p]; ++c) {
      const mvk::Command* cmd = commands->Get(c);
      phase_used[schedule.phase_of[p][c]] = true;
      if (cmd->op_type() == mvk::Op::Dispatch) ++s.dispatch_count;
      if (cmd->op_type() == mvk::Op::Fill) ++s.fill_count;
      if (const mvk::Copy* copy = cmd->op_as_Copy()) {
        ++s.copy_count;
        uint64_t bytes = CopyBytes(copy);
        (copy->src_process() == p ? s.local_copy_bytes : s.peer_bytes_in) += bytes;
      }
    }
    s.phase_count = static_cast<uint32_t>(std::count(phase_used.begin(), phase_used.end(), true));
  }
  return schedule;
}

}  // namespace

Schedule ComputeSchedule(const mvk::Artifact* a) {
  Schedule schedule;
  uint32_t processes = a->processes()->size();
  schedule.slot_size.resize(processes);
  schedule.allocations.assign(processes, meshvk_process_summary_t{});
  for (uint32_t p = 0; p < processes; ++p) {
    const mvk::Process* proc = a->processes()->Get(p);
    meshvk_process_summary_t& s = schedule.allocations[p];
    if (proc->buffers()) {
      for (const mvk::Buffer* b : *proc->buffers()) {
        switch (b->kind()) {
          case mvk::BufferKind::ArgumentShard:
            s.argument_bytes += b->size();
            break;
          case mvk::BufferKind::ResultShard:
            s.result_bytes += b->size();
            break;
          case mvk::BufferKind::Constant:
            s.constant_bytes += b->size();
            break;
          case mvk::BufferKind::Transient:
            if (b->reuse_slot() < 0) {
              s.transient_bytes += b->size();
            } else {
              auto& slots = schedule.slot_size[p];
              if (slots.size() <= static_cast<size_t>(b->reuse_slot())) slots.resize(b->reuse_slot() + 1, 0);
              slots[b->reuse_slot()] = std::max(slots[b->reuse_slot()], b->size());
            }
            break;
        }
      }
    }
    for (uint64_t slot : schedule.slot_size[p]) s.transient_bytes += slot;
    s.peak_bytes = s.argument_bytes + s.result_bytes + s.transient_bytes + s.constant_bytes;
  }
  for (uint32_t f = 0; a->functions() && f < a->functions()->size(); ++f)
    schedule.functions.push_back(ScheduleFunction(a, f));
  return schedule;
}

}  // namespace meshvk::module
