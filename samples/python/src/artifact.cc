// See artifact.h.
#include "artifact.h"

#include <pybind11/stl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "errors.h"
#include "plan_graph.h"  // mesh-vk-run's DOT writer (meshvk_run_views)
#include "spirv-tools/libspirv.hpp"

namespace meshvk_py {

std::shared_ptr<Artifact> Artifact::FromBytes(std::string bytes, const std::string& name) {
  meshvk_module_t* module = nullptr;
  Check(meshvk_module_load(bytes.data(), bytes.size(), &module), name + ": ");
  return std::shared_ptr<Artifact>(new Artifact(std::move(bytes), name, module));
}

std::shared_ptr<Artifact> Artifact::FromFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Raise(MESHVK_STATUS_UNAVAILABLE, path + ": cannot read: " + std::strerror(errno));
  std::stringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) Raise(MESHVK_STATUS_UNAVAILABLE, path + ": cannot read: " + std::strerror(errno));
  return FromBytes(bytes.str(), path);
}

Artifact::~Artifact() { meshvk_module_release(module_); }

uint32_t Artifact::process_count() const {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module_, &grid));
  return grid.process_count;
}

std::vector<uint32_t> Artifact::grid_shape() const {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module_, &grid));
  return std::vector<uint32_t>(grid.shape, grid.shape + grid.rank);
}

std::vector<uint32_t> Artifact::peered_axes() const {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module_, &grid));
  std::vector<uint32_t> axes;
  for (uint32_t a = 0; a < grid.rank; ++a)
    if (grid.peered_axes_mask & (1u << a)) axes.push_back(a);
  return axes;
}

std::vector<uint32_t> Artifact::process_counts() const {
  std::vector<uint32_t> counts;
  for (uint32_t i = 0; i < meshvk_module_variant_count(module_); ++i)
    counts.push_back(meshvk_module_variant_process_count(module_, i));
  return counts;
}

std::shared_ptr<Artifact> Artifact::ForProcessCount(uint32_t processes) const {
  meshvk_module_t* plan = nullptr;
  Check(meshvk_module_select_process_count(module_, processes, &plan), name_ + ": ");
  if (plan == module_) return std::shared_ptr<Artifact>(new Artifact(bytes_, name_, plan));
  // The plan's own bytes (save()): a .mvk file of that plan alone.
  const void* data = nullptr;
  size_t size = 0;
  if (meshvk_status_t status = meshvk_module_bytes(plan, &data, &size)) {
    meshvk_module_release(plan);
    Check(status, name_ + ": ");
  }
  return std::shared_ptr<Artifact>(new Artifact(std::string(static_cast<const char*>(data), size),
                                                name_ + " (plan for " + std::to_string(processes) + " processes)",
                                                plan));
}

std::vector<std::string> Artifact::function_names() const {
  std::vector<std::string> names;
  for (uint32_t f = 0; f < meshvk_module_function_count(module_); ++f) {
    meshvk_function_info_t info = MESHVK_FUNCTION_INFO_INIT;
    Check(meshvk_module_function_info(module_, f, &info));
    names.push_back(info.name);
  }
  return names;
}

FunctionSignature Artifact::Signature(const std::string& name) const {
  FunctionSignature s;
  Check(meshvk_module_find_function(module_, name.c_str(), &s.index), name_ + ": ");
  meshvk_function_info_t info = MESHVK_FUNCTION_INFO_INIT;
  Check(meshvk_module_function_info(module_, s.index, &info));
  s.name = info.name;
  s.arguments.resize(info.argument_count, meshvk_tensor_info_t MESHVK_TENSOR_INFO_INIT);
  s.results.resize(info.result_count, meshvk_tensor_info_t MESHVK_TENSOR_INFO_INIT);
  for (uint32_t i = 0; i < info.argument_count; ++i)
    Check(meshvk_module_argument_info(module_, s.index, i, &s.arguments[i]));
  for (uint32_t i = 0; i < info.result_count; ++i) Check(meshvk_module_result_info(module_, s.index, i, &s.results[i]));
  s.argument_declared.resize(info.argument_count, MESHVK_DECLARED_SAME);
  s.result_declared.resize(info.result_count, MESHVK_DECLARED_SAME);
  for (uint32_t i = 0; i < info.argument_count; ++i)
    Check(meshvk_module_argument_declared_type(module_, s.index, i, &s.argument_declared[i]));
  for (uint32_t i = 0; i < info.result_count; ++i)
    Check(meshvk_module_result_declared_type(module_, s.index, i, &s.result_declared[i]));
  return s;
}

namespace {

using ShardQuery = meshvk_status_t (*)(const meshvk_module_t*, uint32_t, uint32_t, uint32_t, meshvk_shard_view_t*);

std::vector<ShardPlacement> PlacementsOf(const meshvk_module_t* module, uint32_t function, uint32_t index,
                                         const meshvk_tensor_info_t& tensor, ShardQuery query) {
  std::vector<ShardPlacement> shards;
  for (uint32_t s = 0; s < tensor.shard_count; ++s) {
    meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
    Check(query(module, function, index, s, &view));
    ShardPlacement p;
    p.process = view.process;
    p.global_offset.assign(view.global_offset, view.global_offset + view.rank);
    p.shape.assign(view.shape, view.shape + view.rank);
    shards.push_back(std::move(p));
  }
  return shards;
}

}  // namespace

std::vector<ShardPlacement> Artifact::ResultShards(uint32_t function, uint32_t result) const {
  meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
  Check(meshvk_module_result_info(module_, function, result, &info));
  return PlacementsOf(module_, function, result, info, meshvk_module_result_shard);
}

std::vector<ShardPlacement> Artifact::ArgumentShards(uint32_t function, uint32_t argument) const {
  meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
  Check(meshvk_module_argument_info(module_, function, argument, &info));
  return PlacementsOf(module_, function, argument, info, meshvk_module_argument_shard);
}

py::dict Artifact::SignatureDict(const std::string& function) const {
  FunctionSignature s = Signature(function);
  py::list arguments, results;
  for (size_t i = 0; i < s.arguments.size(); ++i)
    arguments.append(TensorInfoDict(s.arguments[i], s.argument_declared[i]));
  for (size_t i = 0; i < s.results.size(); ++i) results.append(TensorInfoDict(s.results[i], s.result_declared[i]));
  py::dict dict;
  dict["name"] = s.name;
  dict["arguments"] = arguments;
  dict["results"] = results;
  return dict;
}

namespace {

py::dict ProcessPlanDict(const meshvk_process_summary_t& p) {
  py::dict d;
  d["argument_bytes"] = p.argument_bytes;
  d["result_bytes"] = p.result_bytes;
  d["transient_bytes"] = p.transient_bytes;
  d["constant_bytes"] = p.constant_bytes;
  d["allocated_bytes"] = p.peak_bytes;
  // A model's view of the same bytes: weights, activations, and the most the
  // process holds on its device (all buffers live as long as the program).
  d["parameter_bytes"] = p.constant_bytes;
  d["activation_bytes"] = p.transient_bytes;
  d["peak_bytes"] = p.peak_bytes;
  d["dispatches"] = p.dispatch_count;
  d["copies"] = p.copy_count;
  d["fills"] = p.fill_count;
  d["peer_bytes_in"] = p.peer_bytes_in;
  d["local_copy_bytes"] = p.local_copy_bytes;
  d["phases"] = p.phase_count;
  return d;
}

}  // namespace

py::dict Artifact::PlanDict(const std::string& function) const {
  FunctionSignature s = Signature(function);
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module_, &grid));
  py::list processes;
  meshvk_process_summary_t total = MESHVK_PROCESS_SUMMARY_INIT;
  for (uint32_t p = 0; p < grid.process_count; ++p) {
    meshvk_process_summary_t plan = MESHVK_PROCESS_SUMMARY_INIT;
    Check(meshvk_module_function_process_summary(module_, s.index, p, &plan));
    py::dict d = ProcessPlanDict(plan);
    d["process"] = p;
    processes.append(d);
    total.argument_bytes += plan.argument_bytes;
    total.result_bytes += plan.result_bytes;
    total.transient_bytes += plan.transient_bytes;
    total.constant_bytes += plan.constant_bytes;
    total.dispatch_count += plan.dispatch_count;
    total.copy_count += plan.copy_count;
    total.fill_count += plan.fill_count;
    total.peer_bytes_in += plan.peer_bytes_in;
    total.local_copy_bytes += plan.local_copy_bytes;
    total.peak_bytes += plan.peak_bytes;
  }
  total.phase_count = meshvk_module_function_phase_count(module_, s.index);
  py::dict dict;
  dict["function"] = s.name;
  dict["grid_shape"] = py::tuple(py::cast(grid_shape()));
  dict["peered_axes"] = py::cast(peered_axes());
  dict["process_count"] = grid.process_count;
  dict["phases"] = total.phase_count;
  dict["processes"] = processes;
  dict["total"] = ProcessPlanDict(total);
  return dict;
}

py::list Artifact::Kernels() const {
  py::list kernels;
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  for (uint32_t index = 0; index < meshvk_module_executable_count(module_); ++index) {
    meshvk_executable_create_info_t e = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
    Check(meshvk_module_executable_info(module_, index, &e));
    std::vector<uint32_t> words(e.spirv, e.spirv + e.spirv_size / sizeof(uint32_t));
    std::string text;
    if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
      text = "";  // the loader validated it; an older SPIRV-Tools may still not know an opcode
    py::list writable;
    for (uint32_t b = 0; b < e.binding_count; ++b)
      writable.append(meshvk_module_executable_writes_binding(module_, index, b) == 1);
    py::dict k;
    const std::string entry_point = e.entry_point;
    k["name"] = meshvk_run::KernelName(entry_point.c_str(), index);  // as the plan graph and the trace name it
    k["index"] = index;
    k["entry_point"] = entry_point;
    k["workgroup_size"] = py::make_tuple(e.workgroup_size[0], e.workgroup_size[1], e.workgroup_size[2]);
    k["bindings"] = py::len(writable);
    k["writable_bindings"] = writable;
    k["push_constant_size"] = e.push_constant_size;
    k["spirv"] = py::bytes(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
    k["disassembly"] = text;
    kernels.append(k);
  }
  return kernels;
}

std::string Artifact::PlanGraph(const std::string& function, const meshvk_device_set_t* set) const {
  return meshvk_run::PlanGraphDot(module_, Signature(function).index, set);
}

void Artifact::Save(const std::string& path) const {
  const std::string temp = path + ".tmp";
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) Raise(MESHVK_STATUS_UNAVAILABLE, path + ": cannot write: " + std::strerror(errno));
  bool ok = std::fwrite(bytes_.data(), 1, bytes_.size(), f) == bytes_.size();
  int saved = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    if (ok) saved = errno;
    std::remove(temp.c_str());
    Raise(MESHVK_STATUS_UNAVAILABLE, path + ": cannot write: " + std::strerror(saved));
  }
}

}  // namespace meshvk_py
