// The schedule of a loaded artifact, computed without a device: which phase
// each command of each function runs in, how transients share reuse slots,
// and per-process summaries. (The compiler's plan IR is what produced the
// artifact; this is what the runtime derives from it when loading.)
//
// Phase rule: a command runs in the same phase as the previous command of its
// process, or later if it depends on a command of another process: then it
// runs one phase after that command. Inside a phase a process's commands form
// one command buffer; between phases timeline semaphores carry the order.
#ifndef MESHVK_RUNTIME_MODULE_SCHEDULE_H_
#define MESHVK_RUNTIME_MODULE_SCHEDULE_H_

#include <cstdint>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/module.h"

namespace meshvk::module {

struct FunctionSchedule {
  uint32_t phase_count = 0;
  // phase_of[p][c]: phase of command c of process p.
  std::vector<std::vector<uint32_t>> phase_of;
  // Command statistics per process (byte fields of allocations left 0).
  std::vector<meshvk_process_summary_t> processes;
};

struct Schedule {
  // Transient reuse: slot_size[p][slot] = largest buffer of that slot.
  std::vector<std::vector<uint64_t>> slot_size;
  // Allocation statistics per process (command fields left 0).
  std::vector<meshvk_process_summary_t> allocations;
  std::vector<FunctionSchedule> functions;
};

// Commands of process p in function f of a verified artifact (null: none).
const flatbuffers::Vector<flatbuffers::Offset<mvk::Command>>* StreamOf(const mvk::Artifact* artifact, uint32_t function,
                                                                       uint32_t process);

// Payload bytes of a copy (strided regions: their words).
uint64_t CopyBytes(const mvk::Copy* copy);

// Bytes a dispatch binding covers in a buffer of `buffer_size` bytes: its
// range, or, for range 0, the rest of the buffer from its offset (0 when the
// offset is at or past the end). The one place range 0 is resolved.
uint64_t BindingBytes(const mvk::BufferBinding* binding, uint64_t buffer_size);

// `artifact` must have passed VerifyArtifact (acyclic, indices in range).
Schedule ComputeSchedule(const mvk::Artifact* artifact);

}  // namespace meshvk::module

#endif  // MESHVK_RUNTIME_MODULE_SCHEDULE_H_
