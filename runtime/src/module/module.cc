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

namespace {

using meshvk::FromC;
using meshvk::MakeStatus;
using meshvk::Status;

Status LoadBytes(std::vector<uint8_t> bytes, const std::string& what, meshvk_module_t** out) {
  auto module = std::make_unique<meshvk_module_s>();
  module->bytes = std::move(bytes);
  const meshvk::mvk::Artifact* artifact = nullptr;
  std::string error = meshvk::module::VerifyArtifact(module->bytes.data(), module->bytes.size(), &artifact);
  if (!error.empty()) return MakeStatus(MESHVK_STATUS_DATA_LOSS, "%s%s", what.c_str(), error.c_str());
  module->artifact = artifact;
  if (!artifact->variants()) {
    module->schedule = meshvk::module::ComputeSchedule(artifact);
  } else {
    // Every plan was verified where it lies in the file; each module gets a
    // copy of those same bytes (heap-aligned), so it needs no second check.
    for (const meshvk::mvk::GridVariant* v : *artifact->variants()) {
      auto plan = std::make_unique<meshvk_module_s>();
      plan->bytes.assign(v->artifact()->begin(), v->artifact()->end());
      plan->artifact = meshvk::mvk::GetArtifact(plan->bytes.data());
      plan->schedule = meshvk::module::ComputeSchedule(plan->artifact);
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
  if (!out) return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "out_info is NULL").ToC();
  const meshvk::mvk::TensorSignature* t = Tensor(m, function, index, result);
  if (!t)
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u has no %s %u", function, result ? "result" : "argument",
                      index)
        .ToC();
  *out = meshvk_tensor_info_t{};
  out->rank = t->shape() ? t->shape()->size() : 0;
  out->element_type = static_cast<meshvk_element_type_t>(t->element_type());
  out->byte_size = meshvk::artifact::ElementSize(static_cast<meshvk::artifact::ElementType>(t->element_type()));
  for (uint32_t d = 0; d < out->rank; ++d) {
    out->shape[d] = t->shape()->Get(d);
    out->byte_size *= out->shape[d];
    if (t->split_axes() && d < t->split_axes()->size() && t->split_axes()->Get(d)->axes()) {
      const auto* axes = t->split_axes()->Get(d)->axes();
      out->split_axis_count[d] = axes->size();
      for (uint32_t i = 0; i < axes->size(); ++i) out->split_axes[d][i] = axes->Get(i);
    }
  }
  out->shard_count = t->shards() ? t->shards()->size() : 0;
  out->name = t->name() ? t->name()->c_str() : "";
  return MESHVK_OK;
}

}  // namespace

meshvk_module_s::~meshvk_module_s() {
  for (meshvk_module_t* plan : variants) meshvk_module_release(plan);
}

namespace meshvk::module {

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

void meshvk_module_grid_info(const meshvk_module_t* module, meshvk_grid_info_t* out) {
  if (!out) return;
  *out = meshvk_grid_info_t{};
  if (!module) return;
  if (!module->variants.empty()) return;  // no grid until a plan is chosen
  const meshvk::mvk::Grid* grid = module->artifact->grid();
  out->rank = grid->shape()->size();
  out->process_count = 1;
  for (uint32_t a = 0; a < out->rank; ++a) {
    out->shape[a] = grid->shape()->Get(a);
    out->process_count *= out->shape[a];
  }
  if (grid->peered_axes())
    for (uint32_t axis : *grid->peered_axes()) out->peered_axes_mask |= 1u << axis;
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
  if (!module || !out_info)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_function_info: module or out_info is NULL").ToC();
  if (function >= meshvk_module_function_count(module))
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range", function).ToC();
  const meshvk::mvk::Function* fn = module->artifact->functions()->Get(function);
  out_info->name = fn->name()->c_str();
  out_info->argument_count = fn->arguments() ? fn->arguments()->size() : 0;
  out_info->result_count = fn->results() ? fn->results()->size() : 0;
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

meshvk_status_t meshvk_module_function_process_summary(const meshvk_module_t* module, uint32_t function,
                                                       uint32_t process, meshvk_process_summary_t* out_summary) {
  if (!module || !out_summary)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT,
                      "meshvk_module_function_process_summary: module or out_summary is NULL")
        .ToC();
  const meshvk::module::Schedule& schedule = module->schedule;
  if (function >= schedule.functions.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "function %u out of range (%zu functions)", function,
                      schedule.functions.size())
        .ToC();
  if (process >= schedule.allocations.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "process %u out of range (%zu processes)", process,
                      schedule.allocations.size())
        .ToC();
  *out_summary = schedule.functions[function].processes[process];
  const meshvk_process_summary_t& bytes = schedule.allocations[process];
  out_summary->argument_bytes = bytes.argument_bytes;
  out_summary->result_bytes = bytes.result_bytes;
  out_summary->transient_bytes = bytes.transient_bytes;
  out_summary->constant_bytes = bytes.constant_bytes;
  out_summary->peak_bytes = bytes.peak_bytes;
  return MESHVK_OK;
}

meshvk_status_t meshvk_module_process_summary(const meshvk_module_t* module, uint32_t process,
                                              meshvk_process_summary_t* out_summary) {
  if (!module || !out_summary)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_process_summary: module or out_summary is NULL")
        .ToC();
  const meshvk::module::Schedule& schedule = module->schedule;
  if (process >= schedule.allocations.size())
    return MakeStatus(MESHVK_STATUS_OUT_OF_RANGE, "process %u out of range (%zu processes)", process,
                      schedule.allocations.size())
        .ToC();
  *out_summary = schedule.allocations[process];
  for (const meshvk::module::FunctionSchedule& fn : schedule.functions) {
    const meshvk_process_summary_t& s = fn.processes[process];
    out_summary->dispatch_count += s.dispatch_count;
    out_summary->copy_count += s.copy_count;
    out_summary->fill_count += s.fill_count;
    out_summary->peer_bytes_in += s.peer_bytes_in;
    out_summary->local_copy_bytes += s.local_copy_bytes;
    out_summary->phase_count = std::max(out_summary->phase_count, s.phase_count);
  }
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
  if (!module || !out)
    return MakeStatus(MESHVK_STATUS_INVALID_ARGUMENT, "meshvk_module_shader_features: module or out is NULL").ToC();
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
    meshvk_grid_info_t grid{};
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
