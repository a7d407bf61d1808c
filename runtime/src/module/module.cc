// meshvk_module_*: loading (through the verifier) and read-only queries.
#include "module.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "artifact_verifier.h"
#include "meshvk/artifact/builder.h"
#include "status.h"
#include "structure.h"

namespace {

using meshvk::CheckStructure;
using meshvk::FillKeepingHeader;
using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;

// The split axes of every tensor of a plan as arrays meshvk_tensor_info_t
// points at (the artifact holds each dimension's axes as a table).
void IndexSplitAxes(meshvk_module_s* module) {
  const auto* functions = module->artifact->functions();
  if (!functions) return;
  for (const meshvk::mvk::Function* fn : *functions) {
    std::vector<meshvk_module_s::TensorAxes>& tensors = module->tensor_axes.emplace_back();
    for (const auto* list : {fn->arguments(), fn->results()}) {
      if (!list) continue;
      for (const meshvk::mvk::TensorSignature* t : *list) {
        meshvk_module_s::TensorAxes& axes = tensors.emplace_back();
        const uint32_t rank = t->shape() ? t->shape()->size() : 0;
        axes.counts.assign(rank, 0);
        axes.axes.assign(rank, nullptr);
        for (uint32_t d = 0; d < rank && t->split_axes() && d < t->split_axes()->size(); ++d) {
          const auto* split = t->split_axes()->Get(d)->axes();
          if (!split || split->size() == 0) continue;
          axes.counts[d] = split->size();
          axes.axes[d] = split->data();
        }
      }
    }
  }
}

Status LoadBytes(std::vector<uint8_t> bytes, const std::string& what, meshvk_module_t** out) {
  auto module = std::make_unique<meshvk_module_s>();
  module->bytes = std::move(bytes);
  const meshvk::mvk::Artifact* artifact = nullptr;
  std::string error = meshvk::module::VerifyArtifact(module->bytes.data(), module->bytes.size(), &artifact);
  if (!error.empty()) return MakeStatus(MESHVK_STATUS_DATA_LOSS, "%s%s", what.c_str(), error.c_str());
  module->artifact = artifact;
  if (!artifact->variants()) {
    module->schedule = meshvk::module::ComputeSchedule(artifact);
    IndexSplitAxes(module.get());
  } else {
    // Every plan was verified where it lies in the file; each module gets a
    // copy of those same bytes (heap-aligned), so it needs no second check.
    for (const meshvk::mvk::GridVariant* v : *artifact->variants()) {
      auto plan = std::make_unique<meshvk_module_s>();
      plan->bytes.assign(v->artifact()->begin(), v->artifact()->end());
      plan->artifact = meshvk::mvk::GetArtifact(plan->bytes.data());
      plan->schedule = meshvk::module::ComputeSchedule(plan->artifact);
      IndexSplitAxes(plan.get());
      module->variants.push_back(plan.release());
    }
  }
  *out = module.release();
  return Status();
}

// Reads a .mvk file without trusting it: a regular file's size is checked
// against the 1 GiB limit before anything is read (a sparse 8 GiB file costs
// nothing); anything else (a pipe, /dev/zero) must start with the file
// identifier and is read at most one byte past the limit.
Status ReadBounded(const char* path, std::vector<uint8_t>* out) {
  using meshvk::module::kMaxArtifactBytes;
  FILE* file = std::fopen(path, "rb");
  if (!file) return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: cannot open: %s", path, std::strerror(errno));
  std::unique_ptr<FILE, int (*)(FILE*)> closer(file, std::fclose);
  struct stat st{};
  if (fstat(fileno(file), &st) != 0)
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: cannot read: %s", path, std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: cannot read: %s", path, std::strerror(EISDIR));
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxArtifactBytes)
    return MakeStatus(MESHVK_STATUS_DATA_LOSS, "%s: %llu bytes, larger than the %llu-byte limit of a .mvk file", path,
                      static_cast<unsigned long long>(st.st_size), static_cast<unsigned long long>(kMaxArtifactBytes));
  if (S_ISREG(st.st_mode)) out->reserve(static_cast<size_t>(st.st_size));
  uint8_t chunk[1 << 16];
  size_t n;
  bool checked_identifier = false;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
    out->insert(out->end(), chunk, chunk + n);
    if (!checked_identifier && out->size() >= 8) {
      checked_identifier = true;
      std::string error = meshvk::module::CheckFileIdentifier(out->data(), out->size());
      if (!error.empty()) return MakeStatus(MESHVK_STATUS_DATA_LOSS, "%s: %s", path, error.c_str());
    }
    if (out->size() > kMaxArtifactBytes)
      return MakeStatus(MESHVK_STATUS_DATA_LOSS, "%s: more than the %llu-byte limit of a .mvk file", path,
                        static_cast<unsigned long long>(kMaxArtifactBytes));
  }
  if (std::ferror(file))
    return MakeStatus(MESHVK_STATUS_UNAVAILABLE, "%s: cannot read: %s", path, std::strerror(errno));
  return Status();
}

const meshvk::mvk::TensorSignature* Tensor(const meshvk_module_t* m, uint32_t function, uint32_t index, bool result) {
  if (!m || !m->artifact->functions() || function >= m->artifact->functions()->size()) return nullptr;
  const meshvk::mvk::Function* fn = m->artifact->functions()->Get(function);
  const auto* list = result ? fn->results() : fn->arguments();
  if (!list || index >= list->size()) return nullptr;
  return list->Get(index);
}

meshvk_status_t TensorInfo(const meshvk_module_t* m, uint32_t function, uint32_t index, bool result,
                           meshvk_tensor_info_t* out) {
  if (!m) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module is NULL").ToC();
  if (Status checked = CheckStructure(out, MESHVK_STRUCTURE_TYPE_TENSOR_INFO, "out_info"); !checked.ok())
    return checked.ToC();
  const meshvk::mvk::TensorSignature* t = Tensor(m, function, index, result);
  if (!t)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u has no %s %u", function, result ? "result" : "argument",
                      index)
        .ToC();
  const uint32_t arguments = m->artifact->functions()->Get(function)->arguments()
                                 ? m->artifact->functions()->Get(function)->arguments()->size()
                                 : 0;
  const meshvk_module_s::TensorAxes& axes = m->tensor_axes[function][result ? arguments + index : index];
  meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
  info.rank = t->shape() ? t->shape()->size() : 0;
  info.shape = info.rank ? t->shape()->data() : nullptr;
  info.element_type = static_cast<meshvk_element_type_t>(t->element_type());
  info.byte_size = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  for (uint32_t d = 0; d < info.rank; ++d) info.byte_size *= info.shape[d];
  info.split_axis_count = axes.counts.data();
  info.split_axes = axes.axes.data();
  info.shard_count = t->shards() ? t->shards()->size() : 0;
  info.name = t->name() ? t->name()->c_str() : "";
  FillKeepingHeader(out, info);
  return MESHVK_OK;
}

meshvk_status_t DeclaredType(const meshvk_module_t* m, uint32_t function, uint32_t index, bool result,
                             meshvk_declared_type_t* out) {
  if (!m) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module is NULL").ToC();
  if (!out) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_type is NULL").ToC();
  *out = MESHVK_DECLARED_SAME;
  const meshvk::mvk::TensorSignature* t = Tensor(m, function, index, result);
  if (!t)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u has no %s %u", function, result ? "result" : "argument",
                      index)
        .ToC();
  *out = static_cast<meshvk_declared_type_t>(t->declared_type());  // the verifier checked the value
  return MESHVK_OK;
}

}  // namespace

meshvk_module_s::~meshvk_module_s() {
  for (meshvk_module_t* plan : variants) meshvk_module_release(plan);
}

namespace meshvk::module {

Status ShardViewOf(const meshvk_module_t* module, uint32_t function, uint32_t index, bool result, uint32_t shard,
                   meshvk_shard_view_t* view, uint32_t* buffer_index) {
  const meshvk::mvk::TensorSignature* t = Tensor(module, function, index, result);
  if (!t)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u has no %s %u", function, result ? "result" : "argument",
                      index);
  const uint32_t shards = t->shards() ? t->shards()->size() : 0;
  if (shard >= shards)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "shard %u out of range (%u shards)", shard, shards);
  const meshvk::mvk::Shard* sh = t->shards()->Get(shard);
  view->process = sh->process();
  view->offset = sh->offset();
  view->rank = t->shape() ? t->shape()->size() : 0;
  view->global_offset = view->rank ? sh->global_offset()->data() : nullptr;
  view->shape = view->rank ? sh->shape()->data() : nullptr;
  *buffer_index = sh->buffer();
  return Status();
}

std::string VariantsText(const meshvk_module_t* module) {
  std::string counts;
  for (size_t i = 0; i < module->variants.size(); ++i) {
    if (i) counts += i + 1 == module->variants.size() ? " and " : ", ";
    counts += std::to_string(meshvk_module_variant_process_count(module, static_cast<uint32_t>(i)));
  }
  return "the module holds plans for " + counts + " processes (a dynamic grid)";
}

}  // namespace meshvk::module

extern "C" {

meshvk_status_t meshvk_module_load(const void* data, size_t size, meshvk_module_t** out_module) {
  if (!out_module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_module is NULL").ToC();
  *out_module = nullptr;
  if (!data && size) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "data is NULL").ToC();
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  return LoadBytes(std::vector<uint8_t>(bytes, bytes + size), "", out_module).ToC();
}

meshvk_status_t meshvk_module_load_file(const char* path, meshvk_module_t** out_module) {
  if (!out_module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_module is NULL").ToC();
  *out_module = nullptr;
  if (!path) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "path is NULL").ToC();
  std::vector<uint8_t> bytes;
  Status status = ReadBounded(path, &bytes);
  if (!status.ok()) return status.ToC();
  return LoadBytes(std::move(bytes), std::string(path) + ": ", out_module).ToC();
}

void meshvk_module_retain(meshvk_module_t* module) {
  if (module) module->references.fetch_add(1, std::memory_order_relaxed);
}

void meshvk_module_release(meshvk_module_t* module) {
  if (module && module->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete module;
}

meshvk_status_t meshvk_module_grid_info(const meshvk_module_t* module, meshvk_grid_info_t* out) {
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_grid_info: module is NULL").ToC();
  if (Status checked = CheckStructure(out, MESHVK_STRUCTURE_TYPE_GRID_INFO, "meshvk_module_grid_info: out_info");
      !checked.ok())
    return checked.ToC();
  meshvk_grid_info_t info = MESHVK_GRID_INFO_INIT;
  if (module->variants.empty()) {  // a set of plans has no grid until one is chosen
    const meshvk::mvk::Grid* grid = module->artifact->grid();
    info.rank = grid->shape()->size();
    info.shape = grid->shape()->data();
    info.process_count = 1;
    for (uint32_t a = 0; a < info.rank; ++a) info.process_count *= info.shape[a];
    if (grid->peered_axes())
      for (uint32_t axis : *grid->peered_axes())
        if (axis < 32) info.peered_axes_mask |= 1u << axis;
  }
  FillKeepingHeader(out, info);
  return MESHVK_OK;
}

uint32_t meshvk_module_function_count(const meshvk_module_t* module) {
  if (!module) return 0;
  return module->artifact->functions() ? module->artifact->functions()->size() : 0;
}

meshvk_status_t meshvk_module_find_function(const meshvk_module_t* module, const char* name, uint32_t* out_function) {
  if (!module || !out_function)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_find_function: module or out_function is NULL")
        .ToC();
  if (!module->variants.empty())
    return MakeStatus(MESHVK_STATUS_FAILED_PRECONDITION, "%s: choose one with meshvk_module_select_process_count",
                      meshvk::module::VariantsText(module).c_str())
        .ToC();
  uint32_t count = meshvk_module_function_count(module);
  std::string names;
  for (uint32_t f = 0; f < count; ++f) {
    const auto* fn_name = module->artifact->functions()->Get(f)->name();
    if (name && *name && fn_name->str() == name) {
      *out_function = f;
      return MESHVK_OK;
    }
    names += (f ? ", " : "") + fn_name->str();
  }
  if (name && *name)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "no function named '%s' (the program has: %s)", name,
                      count ? names.c_str() : "no functions")
        .ToC();
  if (count == 1) {
    *out_function = 0;
    return MESHVK_OK;
  }
  return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s",
                    count ? ("the program has several functions, choose one: " + names).c_str()
                          : "the program has no functions")
      .ToC();
}

meshvk_status_t meshvk_module_function_info(const meshvk_module_t* module, uint32_t function,
                                            meshvk_function_info_t* out_info) {
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_function_info: module is NULL").ToC();
  if (Status checked =
          CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_FUNCTION_INFO, "meshvk_module_function_info: out_info");
      !checked.ok())
    return checked.ToC();
  if (function >= meshvk_module_function_count(module))
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  const meshvk::mvk::Function* fn = module->artifact->functions()->Get(function);
  meshvk_function_info_t info = MESHVK_FUNCTION_INFO_INIT;
  info.name = fn->name()->c_str();
  info.argument_count = fn->arguments() ? fn->arguments()->size() : 0;
  info.result_count = fn->results() ? fn->results()->size() : 0;
  FillKeepingHeader(out_info, info);
  return MESHVK_OK;
}

meshvk_status_t meshvk_module_argument_info(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                            meshvk_tensor_info_t* out_info) {
  return TensorInfo(module, function, argument, false, out_info);
}

meshvk_status_t meshvk_module_result_info(const meshvk_module_t* module, uint32_t function, uint32_t result,
                                          meshvk_tensor_info_t* out_info) {
  return TensorInfo(module, function, result, true, out_info);
}

meshvk_status_t meshvk_module_argument_declared_type(const meshvk_module_t* module, uint32_t function,
                                                     uint32_t argument, meshvk_declared_type_t* out_type) {
  return DeclaredType(module, function, argument, false, out_type);
}

meshvk_status_t meshvk_module_result_declared_type(const meshvk_module_t* module, uint32_t function, uint32_t result,
                                                   meshvk_declared_type_t* out_type) {
  return DeclaredType(module, function, result, true, out_type);
}

namespace {

meshvk_status_t ModuleShard(const meshvk_module_t* module, uint32_t function, uint32_t index, bool result,
                            uint32_t shard, meshvk_shard_view_t* out_view) {
  const char* what = result ? "meshvk_module_result_shard" : "meshvk_module_argument_shard";
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: module is NULL", what).ToC();
  Status status = CheckStructure(out_view, MESHVK_STRUCTURE_TYPE_SHARD_VIEW, "out_view");
  meshvk_shard_view_t view{};
  uint32_t buffer = 0;
  if (status.ok()) status = meshvk::module::ShardViewOf(module, function, index, result, shard, &view, &buffer);
  if (!status.ok()) return MakeStatus(status.code(), "%s: %s", what, status.message().c_str()).ToC();
  FillKeepingHeader(out_view, view);
  return MESHVK_OK;
}

const meshvk::mvk::Executable* ExecutableOf(const meshvk_module_t* module, uint32_t index) {
  const auto* executables = module && module->variants.empty() ? module->artifact->executables() : nullptr;
  return executables && index < executables->size() ? executables->Get(index) : nullptr;
}

}  // namespace

meshvk_status_t meshvk_module_argument_shard(const meshvk_module_t* module, uint32_t function, uint32_t argument,
                                             uint32_t shard, meshvk_shard_view_t* out_view) {
  return ModuleShard(module, function, argument, /*result=*/false, shard, out_view);
}

meshvk_status_t meshvk_module_result_shard(const meshvk_module_t* module, uint32_t function, uint32_t result,
                                           uint32_t shard, meshvk_shard_view_t* out_view) {
  return ModuleShard(module, function, result, /*result=*/true, shard, out_view);
}

meshvk_status_t meshvk_module_bytes(const meshvk_module_t* module, const void** out_data, size_t* out_size) {
  if (!module || !out_data || !out_size)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_bytes: module, out_data or out_size is NULL")
        .ToC();
  *out_data = module->bytes.data();
  *out_size = module->bytes.size();
  return MESHVK_OK;
}

uint32_t meshvk_module_executable_count(const meshvk_module_t* module) {
  const auto* executables = module && module->variants.empty() ? module->artifact->executables() : nullptr;
  return executables ? executables->size() : 0;
}

meshvk_status_t meshvk_module_executable_info(const meshvk_module_t* module, uint32_t index,
                                              meshvk_executable_create_info_t* out_info) {
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_executable_info: module is NULL").ToC();
  if (Status checked = CheckStructure(out_info, MESHVK_STRUCTURE_TYPE_EXECUTABLE_CREATE_INFO,
                                      "meshvk_module_executable_info: out_info");
      !checked.ok())
    return checked.ToC();
  const meshvk::mvk::Executable* e = ExecutableOf(module, index);
  if (!e)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "meshvk_module_executable_info: executable %u of %u", index,
                      meshvk_module_executable_count(module))
        .ToC();
  // The loader verified every executable: SPIR-V, entry point, 3 workgroup sizes.
  meshvk_executable_create_info_t info{};
  info.spirv = e->spirv()->data();
  info.spirv_size = e->spirv()->size() * sizeof(uint32_t);
  info.entry_point = e->entry_point() ? e->entry_point()->c_str() : "main";
  info.binding_count = e->bindings() ? e->bindings()->size() : 0;
  info.push_constant_size = e->push_constant_size();
  for (uint32_t d = 0; d < 3; ++d) info.workgroup_size[d] = e->workgroup_size()->Get(d);
  FillKeepingHeader(out_info, info);
  return MESHVK_OK;
}

uint32_t meshvk_module_executable_writes_binding(const meshvk_module_t* module, uint32_t index, uint32_t binding) {
  const meshvk::mvk::Executable* e = ExecutableOf(module, index);
  if (!e || !e->bindings() || binding >= e->bindings()->size()) return 0;
  return e->bindings()->Get(binding)->writable() ? 1 : 0;
}

meshvk_status_t meshvk_module_function_process_summary(const meshvk_module_t* module, uint32_t function,
                                                       uint32_t process, meshvk_process_summary_t* out_summary) {
  if (!module)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_function_process_summary: module is NULL").ToC();
  if (Status checked = CheckStructure(out_summary, MESHVK_STRUCTURE_TYPE_PROCESS_SUMMARY,
                                      "meshvk_module_function_process_summary: out_summary");
      !checked.ok())
    return checked.ToC();
  const meshvk::module::Schedule& schedule = module->schedule;
  if (function >= schedule.functions.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range (%zu functions)", function,
                      schedule.functions.size())
        .ToC();
  if (process >= schedule.allocations.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "process %u out of range (%zu processes)", process,
                      schedule.allocations.size())
        .ToC();
  meshvk_process_summary_t summary = schedule.functions[function].processes[process];
  const meshvk_process_summary_t& bytes = schedule.allocations[process];
  summary.argument_bytes = bytes.argument_bytes;
  summary.result_bytes = bytes.result_bytes;
  summary.transient_bytes = bytes.transient_bytes;
  summary.constant_bytes = bytes.constant_bytes;
  summary.peak_bytes = bytes.peak_bytes;
  FillKeepingHeader(out_summary, summary);
  return MESHVK_OK;
}

meshvk_status_t meshvk_module_process_summary(const meshvk_module_t* module, uint32_t process,
                                              meshvk_process_summary_t* out_summary) {
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_process_summary: module is NULL").ToC();
  if (Status checked = CheckStructure(out_summary, MESHVK_STRUCTURE_TYPE_PROCESS_SUMMARY,
                                      "meshvk_module_process_summary: out_summary");
      !checked.ok())
    return checked.ToC();
  const meshvk::module::Schedule& schedule = module->schedule;
  if (process >= schedule.allocations.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "process %u out of range (%zu processes)", process,
                      schedule.allocations.size())
        .ToC();
  meshvk_process_summary_t summary = schedule.allocations[process];
  for (const meshvk::module::FunctionSchedule& fn : schedule.functions) {
    const meshvk_process_summary_t& s = fn.processes[process];
    summary.dispatch_count += s.dispatch_count;
    summary.copy_count += s.copy_count;
    summary.fill_count += s.fill_count;
    summary.peer_bytes_in += s.peer_bytes_in;
    summary.local_copy_bytes += s.local_copy_bytes;
    summary.phase_count = std::max(summary.phase_count, s.phase_count);
  }
  FillKeepingHeader(out_summary, summary);
  return MESHVK_OK;
}

uint32_t meshvk_module_function_phase_count(const meshvk_module_t* module, uint32_t function) {
  if (!module) return 0;
  return function < module->schedule.functions.size() ? module->schedule.functions[function].phase_count : 0;
}

uint32_t meshvk_module_phase_count(const meshvk_module_t* module) {
  if (!module) return 0;
  uint32_t phases = 0;
  for (const auto& fn : module->schedule.functions) phases = std::max(phases, fn.phase_count);
  return phases;
}

}  // extern "C"

extern "C" {

meshvk_status_t meshvk_module_shader_features(const meshvk_module_t* module, meshvk_shader_features_t* out) {
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_shader_features: module is NULL").ToC();
  if (Status checked = CheckStructure(out, MESHVK_STRUCTURE_TYPE_SHADER_FEATURES, "meshvk_module_shader_features: out");
      !checked.ok())
    return checked.ToC();
  const auto* executables = module->artifact->executables();
  for (uint32_t i = 0; executables && i < executables->size(); ++i) {
    const auto* spirv = executables->Get(i)->spirv();
    meshvk_status_t status = meshvk_executable_spirv_features(spirv->data(), spirv->size() * sizeof(uint32_t), out);
    if (status) return FromC(status, "executables[" + std::to_string(i) + "]").ToC();
  }
  return MESHVK_OK;
}

}  // extern "C"

extern "C" {

uint32_t meshvk_module_variant_count(const meshvk_module_t* module) {
  return module ? static_cast<uint32_t>(module->variants.size()) : 0;
}

uint32_t meshvk_module_variant_process_count(const meshvk_module_t* module, uint32_t variant) {
  if (!module || variant >= module->variants.size()) return 0;
  return module->artifact->variants()->Get(variant)->process_count();
}

meshvk_status_t meshvk_module_select_process_count(meshvk_module_t* module, uint32_t process_count,
                                                   meshvk_module_t** out_module) {
  if (!out_module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_module is NULL").ToC();
  *out_module = nullptr;
  if (!module) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "module is NULL").ToC();
  if (module->variants.empty()) {
    meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
    meshvk_module_grid_info(module, &grid);
    if (process_count != 0 && process_count != grid.process_count)
      return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "the module is compiled for %u processes, not %u",
                        grid.process_count, process_count)
          .ToC();
    meshvk_module_retain(module);
    *out_module = module;
    return MESHVK_OK;
  }
  if (process_count == 0)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "%s: choose one (process count 0 given)",
                      meshvk::module::VariantsText(module).c_str())
        .ToC();
  for (uint32_t i = 0; i < module->variants.size(); ++i)
    if (meshvk_module_variant_process_count(module, i) == process_count) {
      meshvk_module_retain(module->variants[i]);
      *out_module = module->variants[i];
      return MESHVK_OK;
    }
  return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "no plan for %u processes: %s", process_count,
                    meshvk::module::VariantsText(module).c_str())
      .ToC();
}

}  // extern "C"
