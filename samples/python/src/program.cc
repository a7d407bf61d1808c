// See program.h.
#include "program.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>

#include "errors.h"
#include "plan_graph.h"
#include "ranks.h"

namespace meshvk_py {

PreparedCall Prepare(const FunctionSignature& signature, const py::args& args) {
  PreparedCall call;
  call.inputs = CheckInputs(signature, args);
  for (const py::array& a : call.inputs) call.host_inputs.push_back({a.data(), static_cast<uint64_t>(a.nbytes())});
  call.invoke.function = signature.index;
  call.invoke.inputs = call.host_inputs.data();
  call.invoke.input_count = static_cast<uint32_t>(call.host_inputs.size());
  return call;
}

uint64_t TimeoutNs(const py::object& timeout) {
  if (timeout.is_none()) return MESHVK_TIMEOUT_INFINITE;
  double seconds = timeout.cast<double>();
  if (!(seconds > 0) || !std::isfinite(seconds))
    Raise(MESHVK_STATUS_INVALID_ARGUMENT, "timeout: " + py::str(timeout).cast<std::string>() +
                                              " given, expected a positive number of seconds (or None)");
  return std::max<uint64_t>(1, static_cast<uint64_t>(seconds * 1e9));
}

void ReadResultShards(meshvk_program_t* program, const FunctionSignature& signature,
                      const std::vector<std::vector<meshvk_host_output_t>>& memory) {
  for (uint32_t r = 0; r < memory.size(); ++r)
    for (uint32_t s = 0; s < memory[r].size(); ++s) {
      if (!memory[r][s].data) continue;  // not wanted (a replica already read)
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      Check(meshvk_program_result_shard(program, signature.index, r, s, &view));
      Check(meshvk_buffer_read(view.buffer, view.offset, memory[r][s].data, memory[r][s].size),
            signature.name + ": result " + std::to_string(r) + " shard " + std::to_string(s) + ": ");
    }
}

py::object MakeShardedTensor(const meshvk_tensor_info_t& info, const std::vector<ShardPlacement>& placements,
                             const std::vector<py::array>& shards) {
  py::module_ runtime = py::module_::import("meshvk._runtime");
  py::list list;
  for (uint32_t s = 0; s < shards.size(); ++s)
    list.append(
        runtime.attr("Shard")(placements[s].process, py::tuple(py::cast(placements[s].global_offset)), shards[s]));
  py::dict d = TensorInfoDict(info);
  return runtime.attr("ShardedTensor")(d["shape"], d["dtype"], d["split_axes"], list);
}

bool ResultPool::Take(uint32_t function, uint32_t result, std::vector<meshvk_buffer_t*>* buffers) {
  for (Entry& entry : entries_[{function, result}]) {
    if (!entry.tensor.expired()) continue;
    for (meshvk_buffer_t* b : entry.buffers)
      if (b) meshvk_buffer_retain(b);
    *buffers = entry.buffers;
    ++reused_;
    return true;
  }
  return false;
}

void ResultPool::Keep(uint32_t function, uint32_t result, const std::shared_ptr<DeviceTensor>& tensor,
                      const std::vector<meshvk_buffer_t*>& buffers) {
  std::vector<Entry>& list = entries_[{function, result}];
  for (Entry& entry : list) {
    if (entry.buffers != buffers) continue;
    entry.tensor = tensor;  // a set handed out again (Take)
    return;
  }
  if (list.size() >= kCapacity) return;
  for (meshvk_buffer_t* b : buffers)
    if (b) meshvk_buffer_retain(b);
  list.push_back({tensor, buffers});
}

void ResultPool::Clear() {
  for (auto& [key, list] : entries_)
    for (Entry& entry : list)
      for (meshvk_buffer_t* b : entry.buffers)
        if (b) meshvk_buffer_release(b);
  entries_.clear();
}

void ProgramCore::Close() {
  std::lock_guard<std::mutex> lock(run_mutex_);
  meshvk_program_release(program_);  // waits until the devices are idle
  program_ = nullptr;
  result_pool_.Clear();
}

void ProgramCore::ThrowClosed() const {
  Raise(MESHVK_STATUS_FAILED_PRECONDITION,
        artifact_->name() + ": the program is closed" + (runtime_->closed() ? " (its runtime was closed)" : ""));
}

py::object Function::Call(const py::args& args, bool keep_sharded, const py::object& timeout) {
  PreparedCall call = Prepare(signature_, args);
  call.invoke.timeout = TimeoutNs(timeout);
  const size_t result_count = signature_.results.size();
  std::vector<py::array> outputs;
  std::vector<meshvk_host_output_t> host_outputs;
  // keep_sharded: one array per (result, shard), shaped like the shard.
  std::vector<std::vector<ShardPlacement>> placements;
  std::vector<std::vector<py::array>> shards(result_count);
  std::vector<std::vector<meshvk_host_output_t>> shard_memory(result_count);  // touched without the GIL
  if (!keep_sharded) {
    for (const meshvk_tensor_info_t& info : signature_.results) {
      outputs.push_back(NewArray(info));
      host_outputs.push_back({outputs.back().mutable_data(), static_cast<uint64_t>(outputs.back().nbytes())});
    }
    call.invoke.outputs = host_outputs.data();
    call.invoke.output_count = static_cast<uint32_t>(host_outputs.size());
  } else {
    call.invoke.flags |= MESHVK_INVOKE_KEEP_RESULTS_SHARDED_BIT;
    for (uint32_t r = 0; r < result_count; ++r) {
      placements.push_back(program_->artifact()->ResultShards(signature_.index, r));
      for (const ShardPlacement& p : placements.back()) {
        shards[r].push_back(py::array(DtypeOf(signature_.results[r].element_type),
                                      std::vector<py::ssize_t>(p.shape.begin(), p.shape.end())));
        shard_memory[r].push_back({shards[r].back().mutable_data(), static_cast<uint64_t>(shards[r].back().nbytes())});
      }
    }
  }
  {
    py::gil_scoped_release release;
    program_->WithProgram([&](meshvk_program_t* program, meshvk_device_set_t*) {
      Check(meshvk_program_invoke(program, &call.invoke), signature_.name + ": ");
      // Over ranks the results land on rank 0: every rank gets them.
      if (const meshvk_transport_t* transport = program_->runtime()->choice().transport; transport && !keep_sharded)
        ShareResults(transport, host_outputs);
      // The shards stay valid until the next invoke, which this lock excludes.
      ReadResultShards(program, signature_, shard_memory);
    });
  }
  py::list results;
  if (!keep_sharded) {
    // As the model declares them (an ONNX int64 / bool result as int64 / bool).
    for (size_t r = 0; r < outputs.size(); ++r) results.append(AsDeclared(outputs[r], signature_.result_declared[r]));
  } else {
    for (uint32_t r = 0; r < result_count; ++r)
      results.append(MakeShardedTensor(signature_.results[r], placements[r], shards[r]));
  }
  if (results.size() == 1) return results[0];
  return py::tuple(results);
}

Function LoadedProgram::Get(const std::string& name) const {
  return Function(program_, program_->artifact()->Signature(name));
}

py::list LoadedProgram::Placement() const {
  struct Row {
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    uint64_t allocated, staging;
  };
  std::vector<Row> rows;
  {
    py::gil_scoped_release release;
    program_->WithProgram([&](meshvk_program_t*, meshvk_device_set_t* set) {
      for (uint32_t p = 0; p < meshvk_device_set_process_count(set); ++p) {
        Row row{};
        Check(meshvk_device_set_process_info(set, p, &row.info));
        row.allocated = meshvk_device_set_allocated_bytes(set, p);
        row.staging = meshvk_device_set_staging_bytes(set, p);
        rows.push_back(row);
      }
    });
  }
  py::list list;
  for (uint32_t p = 0; p < rows.size(); ++p) {
    py::dict d;
    d["process"] = p;
    d["physical_device"] = rows[p].info.physical_device;
    d["device_index"] = rows[p].info.device_index;
    d["logical_device"] = rows[p].info.logical_device;
    d["queue_family"] = rows[p].info.queue_family;
    d["queue_index"] = rows[p].info.queue_index;
    d["allocated_bytes"] = rows[p].allocated;
    d["staging_bytes"] = rows[p].staging;  // host-staged copies between VkDevices
    list.append(d);
  }
  return list;
}

py::dict LoadedProgram::Stats() const {
  meshvk_program_stats_t stats = MESHVK_PROGRAM_STATS_INIT;
  meshvk_binding_stats_t bindings = MESHVK_BINDING_STATS_INIT;
  uint64_t pooled = 0;
  {
    py::gil_scoped_release release;
    program_->WithProgram([&](meshvk_program_t* program, meshvk_device_set_t*) {
      meshvk_status_free(meshvk_program_stats(program, &stats));
      meshvk_status_free(meshvk_program_binding_stats(program, &bindings));
      pooled = program_->result_pool().reused();
    });
  }
  py::dict d;
  d["command_buffers"] = stats.command_buffer_count;
  d["commands"] = stats.command_count;
  d["record_ms"] = stats.record_ns / 1e6;
  // Calls on DeviceTensors: sets of buffers recorded, calls that replayed a
  // recording, and result buffer sets handed out again (ResultPool).
  d["bindings_recorded"] = bindings.recorded;
  d["bindings_reused"] = bindings.reused;
  d["result_buffers_reused"] = pooled;
  return d;
}

std::string LoadedProgram::Topology() const {
  meshvk_topology_t topology = MESHVK_TOPOLOGY_AUTO;
  py::gil_scoped_release release;
  program_->WithProgram(
      [&](meshvk_program_t*, meshvk_device_set_t* set) { topology = meshvk_device_set_topology(set); });
  return meshvk_topology_name(topology);
}

std::string LoadedProgram::PlanGraph(const std::string& function) const {
  const uint32_t index = program_->artifact()->Signature(function).index;  // raises for an unknown name
  std::string dot;
  py::gil_scoped_release release;
  program_->WithProgram([&](meshvk_program_t*, meshvk_device_set_t* set) {
    dot = meshvk_run::PlanGraphDot(program_->artifact()->module(), index, set);
  });
  return dot;
}

bool LoadedProgram::closed() const {
  py::gil_scoped_release release;  // waits for a run in progress
  return program_->closed();
}

void LoadedProgram::Close() {
  py::gil_scoped_release release;
  program_->Close();
}

}  // namespace meshvk_py
