// The command structure of a loaded module for trace viewers and plan
// pictures (meshvk/trace.h): each command's kind, phase, bytes, peer and
// dependencies, read from the verified artifact and its phase plan.
#include <string>

#include "meshvk/artifact/builder.h"
#include "meshvk/trace.h"
#include "module.h"
#include "schedule.h"
#include "status.h"
#include "structure.h"

namespace {

using meshvk::MakeStatus;
namespace mvk = meshvk::mvk;

// The command, or null with *status set (INVALID_ARGUMENT for a NULL module,
// else OUT_OF_RANGE).
const mvk::Command* Find(const meshvk_module_t* module, uint32_t function, uint32_t process, uint32_t command,
                         meshvk_status_t* status) {
  *status = nullptr;
  if (!module) {
    *status = MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module is NULL").ToC();
    return nullptr;
  }
  const auto* commands = module ? meshvk::module::StreamOf(module->artifact, function, process) : nullptr;
  if (!commands || command >= commands->size()) {
    *status =
        MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u process %u has no command %u", function, process, command)
            .ToC();
    return nullptr;
  }
  return commands->Get(command);
}

}  // namespace

extern "C" {

uint32_t meshvk_module_command_count(const meshvk_module_t* module, uint32_t function, uint32_t process) {
  const auto* commands = module ? meshvk::module::StreamOf(module->artifact, function, process) : nullptr;
  return commands ? commands->size() : 0;
}

meshvk_status_t meshvk_module_command_info(const meshvk_module_t* module, uint32_t function, uint32_t process,
                                           uint32_t command, meshvk_command_info_t* out_info) {
  if (meshvk::Status checked =
          meshvk::CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_COMMAND_INFO, "meshvk_module_command_info: out_info");
      !checked.ok())
    return checked.ToC();
  meshvk_status_t status = nullptr;
  const mvk::Command* cmd = Find(module, function, process, command, &status);
  if (!cmd) return status;
  meshvk_command_info_t info = MESHVK_COMMAND_INFO_INIT;
  info.phase = module->schedule.functions[function].phase_of[process][command];
  info.peer = MESHVK_TRACE_NONE;
  info.dependency_count = cmd->deps() ? cmd->deps()->size() : 0;
  if (const mvk::Dispatch* d = cmd->op_as_Dispatch()) {
    info.kind = MESHVK_TRACE_DISPATCH;
    const mvk::Executable* x = module->artifact->executables()->Get(d->executable());
    info.name = x->entry_point()->c_str();
    info.executable = d->executable();
    info.flops = d->flops();
    const auto* buffers = module->artifact->processes()->Get(process)->buffers();
    for (uint32_t i = 0; d->bindings() && i < d->bindings()->size(); ++i) {
      const mvk::BufferBinding* b = d->bindings()->Get(i);
      info.bytes += meshvk::module::BindingBytes(b, buffers->Get(b->buffer())->size());
    }
    info.workgroup_count[0] = d->workgroup_count()->x();
    info.workgroup_count[1] = d->workgroup_count()->y();
    info.workgroup_count[2] = d->workgroup_count()->z();
  } else if (const mvk::Copy* c = cmd->op_as_Copy()) {
    info.kind = MESHVK_TRACE_COPY;
    info.bytes = meshvk::module::CopyBytes(c);
    info.peer = c->src_process();
  } else if (const mvk::Fill* f = cmd->op_as_Fill()) {
    info.kind = MESHVK_TRACE_FILL;
    info.bytes = f->size();
  }
  meshvk::FillKeepingHeader(out_info, info);
  return nullptr;
}

meshvk_status_t meshvk_module_command_dependency(const meshvk_module_t* module, uint32_t function, uint32_t process,
                                                 uint32_t command, uint32_t index, uint32_t* out_process,
                                                 uint32_t* out_command) {
  if (!out_process || !out_command)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_module_command_dependency: out_process or out_command is NULL")
        .ToC();
  meshvk_status_t status = nullptr;
  const mvk::Command* cmd = Find(module, function, process, command, &status);
  if (!cmd) return status;
  if (!cmd->deps() || index >= cmd->deps()->size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "command %u of process %u has %u dependencies, not %u", command,
                      process, cmd->deps() ? cmd->deps()->size() : 0, index + 1)
        .ToC();
  *out_process = cmd->deps()->Get(index)->process();
  *out_command = cmd->deps()->Get(index)->command();
  return nullptr;
}

}  // extern "C"
