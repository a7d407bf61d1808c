// Function::CallOnDevice (program.h): a call on device-resident tensors.
//
// Steps: (with the GIL) each argument becomes either a DeviceTensor's shard
// buffers, used in place, or host shards (a ShardedTensor's arrays when they
// are laid out as the argument is, else slices of the host array); then
// (without the GIL, under the run mutex) the host shards are written into the
// program's own argument shards, result buffers are made when the results
// stay on the devices, meshvk_program_invoke_async runs the function on the
// device tensors, and meshvk_program_wait waits for it; then (with the GIL)
// the results become DeviceTensors, ShardedTensors or arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>

#include "device_tensor.h"
#include "errors.h"
#include "program.h"

namespace meshvk_py {
namespace {

// One argument of the call: device buffers used in place (retained), or one
// C-contiguous host array per shard of the argument.
struct CallArgument {
  std::vector<meshvk_shard_buffer_t> device;
  std::vector<py::array> host;
};

class DeviceCall {
 public:
  DeviceCall(ProgramCore& program, const FunctionSignature& signature)
      : program_(program), signature_(signature), artifact_(*program.artifact()) {}
  ~DeviceCall() {
    for (const CallArgument& a : arguments_) ReleaseShards(a.device);
  }
  DeviceCall(const DeviceCall&) = delete;
  DeviceCall& operator=(const DeviceCall&) = delete;

  void TakeArguments(const py::args& args);
  // Host arrays for the result shards read back, unless the results stay on
  // the devices: every shard when kept sharded, else each distinct block once.
  void PrepareHostResults(bool keep_sharded);
  void Run(meshvk_program_t* program, meshvk_device_set_t* set, bool keep_on_device, uint64_t timeout_ns);
  py::object Results(bool keep_sharded);

 private:
  CallArgument Take(uint32_t i, py::object value);
  static std::vector<py::array> HostShards(const std::vector<ShardPlacement>& placements, const py::array& global);
  bool ShardsInPlace(uint32_t i, const std::vector<ShardPlacement>& placements, const py::object& sharded,
                     std::vector<py::array>* out) const;
  void WriteHostShards(meshvk_program_t* program) const;
  void MakeResultTensors(meshvk_device_set_t* set);

  ProgramCore& program_;
  const FunctionSignature& signature_;
  const Artifact& artifact_;
  std::vector<CallArgument> arguments_;
  std::vector<std::vector<ShardPlacement>> result_placements_;
  std::vector<std::vector<size_t>> result_read_;                  // per result, the shards read back
  std::vector<std::vector<py::array>> result_shards_;             // host results, one per result_read_ entry
  std::vector<std::vector<meshvk_host_output_t>> result_memory_;  // touched without the GIL
  std::vector<std::shared_ptr<DeviceTensor>> result_tensors_;     // results kept on the devices
};

void DeviceCall::TakeArguments(const py::args& args) {
  CheckInputCount(signature_, args.size());
  for (uint32_t i = 0; i < args.size(); ++i) arguments_.push_back(Take(i, args[i]));
  for (uint32_t r = 0; r < signature_.results.size(); ++r)
    result_placements_.push_back(artifact_.ResultShards(signature_.index, r));
}

CallArgument DeviceCall::Take(uint32_t i, py::object value) {
  const meshvk_tensor_info_t& info = signature_.arguments[i];
  const std::vector<ShardPlacement> placements = artifact_.ArgumentShards(signature_.index, i);
  CallArgument argument;
  if (py::isinstance<DeviceTensor>(value)) {
    auto tensor = value.cast<std::shared_ptr<DeviceTensor>>();
    if (SignatureString(tensor->info()) != SignatureString(info))
      Raise(MESHVK_STATUS_INVALID_ARGUMENT,
            "inputs[" + std::to_string(i) + "]: DeviceTensor " + SignatureString(tensor->info()) + " given, argument " +
                std::to_string(i) + " of '" + signature_.name + "' is " + SignatureString(info));
    if (tensor->LaidOutAs(program_.set_identity(), placements)) {
      argument.device = tensor->RetainShards();
      return argument;
    }
    value = tensor->Numpy();  // another sharding or device set: through the host
  }
  py::object sharded_class = py::module_::import("meshvk._runtime").attr("ShardedTensor");
  if (py::isinstance(value, sharded_class)) {
    if (ShardsInPlace(i, placements, value, &argument.host)) return argument;
    value = value.attr("assemble")();
  }
  argument.host = HostShards(placements, CheckInput(signature_, i, value));
  return argument;
}

std::vector<py::array> DeviceCall::HostShards(const std::vector<ShardPlacement>& placements, const py::array& global) {
  py::object contiguous = py::module_::import("numpy").attr("ascontiguousarray");
  std::vector<py::array> shards;
  for (const ShardPlacement& p : placements) shards.push_back(contiguous(global[SlicesOf(p)]));
  return shards;
}

// A ShardedTensor whose every shard the argument needs is there (same
// process, offset and shape) is written shard by shard, never assembled.
bool DeviceCall::ShardsInPlace(uint32_t i, const std::vector<ShardPlacement>& placements, const py::object& sharded,
                               std::vector<py::array>* out) const {
  const meshvk_tensor_info_t& info = signature_.arguments[i];
  if (py::str(sharded.attr("dtype")).cast<std::string>() != py::str(DtypeOf(info.element_type)).cast<std::string>())
    return false;
  py::object contiguous = py::module_::import("numpy").attr("ascontiguousarray");
  std::vector<py::array> shards;
  for (const ShardPlacement& p : placements) {
    py::object found = py::none();
    for (py::handle shard : sharded.attr("shards")) {
      if (shard.attr("process").cast<uint32_t>() == p.process &&
          shard.attr("global_offset").cast<std::vector<uint64_t>>() == p.global_offset &&
          py::tuple(shard.attr("array").attr("shape")).cast<std::vector<uint64_t>>() == p.shape) {
        found = py::reinterpret_borrow<py::object>(shard.attr("array"));
        break;
      }
    }
    if (found.is_none()) return false;
    shards.push_back(contiguous(found, DtypeOf(info.element_type)));
  }
  *out = std::move(shards);
  return true;
}

void DeviceCall::PrepareHostResults(bool keep_sharded) {
  for (uint32_t r = 0; r < result_placements_.size(); ++r) {
    const std::vector<ShardPlacement>& placements = result_placements_[r];
    std::vector<size_t> read(placements.size());
    for (size_t s = 0; s < read.size(); ++s) read[s] = s;
    if (!keep_sharded) read = DistinctShards(placements);  // replicas of a block read once
    result_read_.push_back(read);
    result_shards_.emplace_back();
    result_memory_.emplace_back(placements.size(), meshvk_host_output_t{nullptr, 0});
    for (size_t s : read) {
      const ShardPlacement& p = placements[s];
      result_shards_[r].push_back(py::array(DtypeOf(signature_.results[r].element_type),
                                            std::vector<py::ssize_t>(p.shape.begin(), p.shape.end())));
      result_memory_[r][s] = {result_shards_[r].back().mutable_data(),
                              static_cast<uint64_t>(result_shards_[r].back().nbytes())};
    }
  }
}

void DeviceCall::WriteHostShards(meshvk_program_t* program) const {
  for (uint32_t i = 0; i < arguments_.size(); ++i) {
    for (uint32_t s = 0; s < arguments_[i].host.size(); ++s) {
      const py::array& shard = arguments_[i].host[s];
      if (shard.nbytes() == 0) continue;
      const std::string where =
          signature_.name + ": argument " + std::to_string(i) + " shard " + std::to_string(s) + ": ";
      meshvk_shard_view_t view = MESHVK_SHARD_VIEW_INIT;
      Check(meshvk_program_argument_shard(program, signature_.index, i, s, &view), where);
      Check(meshvk_buffer_write(view.buffer, view.offset, shard.data(), static_cast<uint64_t>(shard.nbytes())), where);
    }
  }
}

// One buffer per result shard on the shard's process (the invoke writes each
// result there, bound directly or copied on the device): a set from the
// program's pool whose tensor is gone, else new buffers (then pooled).
void DeviceCall::MakeResultTensors(meshvk_device_set_t* set) {
  ResultPool& pool = program_.result_pool();
  for (uint32_t r = 0; r < result_placements_.size(); ++r) {
    std::vector<meshvk_buffer_t*> buffers;
    auto keep = [&](meshvk_status_t status) {
      if (!status) return;
      for (meshvk_buffer_t* b : buffers)
        if (b) meshvk_buffer_release(b);
      Check(status, signature_.name + ": result " + std::to_string(r) + ": ");
    };
    if (!pool.Take(signature_.index, r, &buffers)) {
      for (const ShardPlacement& p : result_placements_[r]) {
        meshvk_buffer_t* buffer = nullptr;
        const uint64_t bytes = ShardBytes(signature_.results[r], p);
        if (bytes) keep(meshvk_buffer_create(set, p.process, bytes, &buffer));
        buffers.push_back(buffer);
      }
    }
    result_tensors_.push_back(std::make_shared<DeviceTensor>(
        program_.runtime(), set, signature_.results[r], signature_.result_declared[r], result_placements_[r], buffers));
    pool.Keep(signature_.index, r, result_tensors_.back(), buffers);
    program_.runtime()->Register(result_tensors_.back());
  }
}

void DeviceCall::Run(meshvk_program_t* program, meshvk_device_set_t* set, bool keep_on_device, uint64_t timeout_ns) {
  // The program's own argument shards are written by the host: nothing
  // earlier may still read them.
  Check(meshvk_program_wait(program, timeout_ns), signature_.name + ": ");
  WriteHostShards(program);
  // Host shards are NULL entries: the program's own buffers, just written.
  std::vector<std::vector<meshvk_shard_buffer_t>> host_entries(arguments_.size());
  std::vector<meshvk_device_tensor_t> arguments;
  for (uint32_t i = 0; i < arguments_.size(); ++i) {
    if (arguments_[i].device.empty())
      host_entries[i].assign(arguments_[i].host.size(), meshvk_shard_buffer_t{nullptr, 0});
    const auto& shards = arguments_[i].device.empty() ? host_entries[i] : arguments_[i].device;
    arguments.push_back({shards.data(), static_cast<uint32_t>(shards.size())});
  }
  std::vector<std::vector<meshvk_shard_buffer_t>> result_shards;
  std::vector<meshvk_device_tensor_t> results;
  if (keep_on_device) {
    MakeResultTensors(set);
    for (const auto& tensor : result_tensors_) result_shards.push_back(tensor->RetainShards());
    for (const auto& shards : result_shards) results.push_back({shards.data(), static_cast<uint32_t>(shards.size())});
  }
  meshvk_async_invoke_info_t info = MESHVK_ASYNC_INVOKE_INFO_INIT;
  info.function = signature_.index;
  info.arguments = arguments.data();
  info.argument_count = static_cast<uint32_t>(arguments.size());
  info.results = keep_on_device ? results.data() : nullptr;
  info.result_count = keep_on_device ? static_cast<uint32_t>(results.size()) : 0;
  meshvk_status_t status = meshvk_program_invoke_async(program, &info);
  if (!status) status = meshvk_program_wait(program, timeout_ns);
  for (const auto& shards : result_shards) ReleaseShards(shards);
  Check(status, signature_.name + ": ");
  if (!keep_on_device) ReadResultShards(program, signature_, result_memory_);
}

py::object DeviceCall::Results(bool keep_sharded) {
  py::list results;
  for (uint32_t r = 0; r < result_placements_.size(); ++r) {
    if (!result_tensors_.empty()) {
      results.append(py::cast(result_tensors_[r]));
    } else if (keep_sharded) {
      results.append(MakeShardedTensor(signature_.results[r], result_placements_[r], result_shards_[r]));
    } else {
      results.append(
          AsDeclared(AssembleShards(signature_.results[r], result_placements_[r], result_read_[r], result_shards_[r]),
                     signature_.result_declared[r]));
    }
  }
  if (results.size() == 1) return results[0];
  return py::tuple(results);
}

}  // namespace

py::object Function::CallOnDevice(const py::args& args, bool keep_on_device, bool keep_sharded,
                                  const py::object& timeout) {
  if (keep_on_device && keep_sharded)
    Raise(MESHVK_STATUS_INVALID_ARGUMENT,
          "keep_on_device and keep_sharded: pick one (device-resident tensors, or host copies of the shards)");
  if (program_->runtime()->choice().transport)
    Raise(MESHVK_STATUS_UNIMPLEMENTED,
          "DeviceTensors over MPI ranks: each rank holds only its own shards, and a DeviceTensor needs them all in "
          "this process; pass host arrays (results arrive on every rank)");
  const uint64_t timeout_ns = TimeoutNs(timeout);
  DeviceCall call(*program_, signature_);
  call.TakeArguments(args);
  if (!keep_on_device) call.PrepareHostResults(keep_sharded);
  {
    py::gil_scoped_release release;
    program_->WithProgram([&](meshvk_program_t* program, meshvk_device_set_t* set) {
      call.Run(program, set, keep_on_device, timeout_ns);
    });
  }
  return call.Results(keep_sharded);
}

py::object Function::CallAny(const py::args& args, bool keep_sharded, bool keep_on_device, const py::object& timeout) {
  py::object sharded_class = py::module_::import("meshvk._runtime").attr("ShardedTensor");
  const bool ranks = program_->runtime()->choice().transport != nullptr;
  bool on_device = keep_on_device;
  py::tuple inputs(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    py::object input = py::reinterpret_borrow<py::object>(args[i]);
    const bool sharded = py::isinstance(input, sharded_class);
    if (sharded && ranks) input = input.attr("assemble")();
    on_device |= py::isinstance<DeviceTensor>(input) || (sharded && !ranks);
    inputs[i] = input;
  }
  if (on_device) return CallOnDevice(py::args(inputs), keep_on_device, keep_sharded, timeout);
  return Call(py::args(inputs), keep_sharded, timeout);
}

}  // namespace meshvk_py
