// See device_tensor.h.
#include "device_tensor.h"

#include <pybind11/stl.h>

#include <map>

#include "errors.h"
#include "runtime.h"
#include "tensor_io.h"
#include "tensors.h"

namespace meshvk_py {
namespace {

bool SamePlace(const ShardPlacement& a, const ShardPlacement& b) {
  return a.global_offset == b.global_offset && a.shape == b.shape;
}

[[noreturn]] void RaiseClosed() {
  Raise(MESHVK_STATUS_FAILED_PRECONDITION,
        "the DeviceTensor is closed (its runtime was closed, or close() was called): its buffers are gone");
}

}  // namespace

py::tuple SlicesOf(const ShardPlacement& shard) {
  py::tuple slices(shard.shape.size());
  for (size_t d = 0; d < shard.shape.size(); ++d)
    slices[d] = py::slice(static_cast<py::ssize_t>(shard.global_offset[d]),
                          static_cast<py::ssize_t>(shard.global_offset[d] + shard.shape[d]), 1);
  return slices;
}

uint64_t ShardBytes(const meshvk_tensor_info_t& info, const ShardPlacement& shard) {
  uint64_t bytes = meshvk_run::ElementBytes(info.element_type);
  for (uint64_t extent : shard.shape) bytes *= extent;
  return bytes;
}

void ReleaseShards(const std::vector<meshvk_shard_buffer_t>& shards) {
  for (const meshvk_shard_buffer_t& shard : shards)
    if (shard.buffer) meshvk_buffer_release(shard.buffer);
}

DeviceTensor::DeviceTensor(std::shared_ptr<RuntimeCore> runtime, const meshvk_device_set_t* set,
                           const meshvk_tensor_info_t& info, meshvk_declared_type_t declared,
                           std::vector<ShardPlacement> placements, std::vector<meshvk_buffer_t*> buffers)
    : runtime_(std::move(runtime)),
      set_(set),
      info_(info),
      declared_(declared),
      placements_(std::move(placements)),
      buffers_(std::move(buffers)) {
  info_.name = nullptr;  // owned by the module, which may go first
}

std::vector<size_t> DistinctShards(const std::vector<ShardPlacement>& placements) {
  std::vector<size_t> distinct;
  for (size_t s = 0; s < placements.size(); ++s) {
    bool seen = false;
    for (size_t t : distinct) seen |= SamePlace(placements[t], placements[s]);
    if (!seen) distinct.push_back(s);
  }
  return distinct;
}

py::array AssembleShards(const meshvk_tensor_info_t& info, const std::vector<ShardPlacement>& placements,
                         const std::vector<size_t>& shards, const std::vector<py::array>& parts) {
  py::array out = NewArray(info);
  for (size_t i = 0; i < shards.size(); ++i) out[SlicesOf(placements[shards[i]])] = parts[i];
  return out;
}

py::array DeviceTensor::Numpy() {
  // Each distinct block once: a replicated tensor has a full copy per process.
  const std::vector<size_t> distinct = DistinctShards(placements_);
  std::vector<py::array> parts;
  std::vector<void*> memory;
  for (size_t s : distinct) {
    const ShardPlacement& p = placements_[s];
    parts.push_back(py::array(DtypeOf(info_.element_type), std::vector<py::ssize_t>(p.shape.begin(), p.shape.end())));
    memory.push_back(parts.back().mutable_data());
  }
  {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) RaiseClosed();
    for (size_t i = 0; i < distinct.size(); ++i) {
      const size_t s = distinct[i];
      const uint64_t bytes = ShardBytes(info_, placements_[s]);
      if (bytes)
        Check(meshvk_buffer_read(buffers_[s], 0, memory[i], bytes), "DeviceTensor shard " + std::to_string(s) + ": ");
    }
  }
  return AsDeclared(AssembleShards(info_, placements_, distinct, parts), declared_);
}

bool DeviceTensor::LaidOutAs(const meshvk_device_set_t* set, const std::vector<ShardPlacement>& placements) const {
  if (set != set_ || placements.size() != placements_.size()) return false;
  for (size_t s = 0; s < placements.size(); ++s)
    if (placements[s].process != placements_[s].process || !SamePlace(placements[s], placements_[s])) return false;
  return true;
}

std::vector<meshvk_shard_buffer_t> DeviceTensor::RetainShards() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) RaiseClosed();
  std::vector<meshvk_shard_buffer_t> shards;
  for (meshvk_buffer_t* buffer : buffers_) {
    if (buffer) meshvk_buffer_retain(buffer);
    shards.push_back({buffer, 0});
  }
  return shards;
}

void DeviceTensor::Release() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (meshvk_buffer_t* buffer : buffers_)
    if (buffer) meshvk_buffer_release(buffer);
  buffers_.clear();
  closed_ = true;
}

bool DeviceTensor::closed() {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

py::tuple DeviceTensor::Shape() const { return py::tuple(py::cast(ShapeOf(info_))); }

py::dtype DeviceTensor::Dtype() const { return DeclaredDtypeOf(info_.element_type, declared_); }

py::dtype DeviceTensor::DeviceDtype() const { return DtypeOf(info_.element_type); }

py::list DeviceTensor::SplitAxes() const { return TensorInfoDict(info_)["split_axes"]; }

py::dict DeviceTensor::BytesPerProcess() const {
  std::map<uint32_t, uint64_t> bytes;
  for (const ShardPlacement& p : placements_) bytes[p.process] += ShardBytes(info_, p);
  py::dict d;
  for (const auto& [process, n] : bytes) d[py::int_(process)] = n;
  return d;
}

std::string DeviceTensor::Repr() {
  std::string split = py::str(SplitAxes()).cast<std::string>();
  return "<meshvk.DeviceTensor " + SignatureString(info_) + " split_axes=" + split + ", " +
         std::to_string(placements_.size()) + " shards" + (closed() ? ", closed" : "") + ">";
}

void BindDeviceTensor(py::module_& m) {
  py::class_<DeviceTensor, std::shared_ptr<DeviceTensor>>(m, "DeviceTensor")
      .def_property_readonly("shape", &DeviceTensor::Shape)
      .def_property_readonly("dtype", &DeviceTensor::Dtype)
      .def_property_readonly("device_dtype", &DeviceTensor::DeviceDtype)
      .def_property_readonly("split_axes", &DeviceTensor::SplitAxes)
      .def_property_readonly("shard_count", [](const DeviceTensor& t) { return t.placements().size(); })
      .def_property_readonly("bytes_per_process", &DeviceTensor::BytesPerProcess)
      .def_property_readonly("closed", &DeviceTensor::closed)
      .def("numpy", &DeviceTensor::Numpy)
      .def(
          "__array__",
          [](DeviceTensor& t, const py::object& dtype, const py::object&) {
            py::array out = t.Numpy();
            return dtype.is_none() ? out : py::array(out.attr("astype")(dtype, py::arg("copy") = false));
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none())
      .def("close", &DeviceTensor::Release)
      .def("__repr__", &DeviceTensor::Repr);
}

}  // namespace meshvk_py
