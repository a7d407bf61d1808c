// meshvk.DeviceTensor: a function's result left on the devices
// (fn(x, keep_on_device=True)), one buffer per shard on the shard's process,
// laid out as the program lays the result out. Passed back in as an argument
// of a program on the same device set whose argument has the same sharding,
// its buffers are used in place (meshvk_program_invoke_async binds them or
// copies them on the device): nothing passes through host memory. With
// another sharding, or on another device set, it is read to the host and
// sent as a host array would be (the Python layer says so in its docs).
//
// Lifetime: a tensor keeps its runtime core alive, and the core knows its
// tensors weakly: closing the runtime closes its programs, then frees every
// tensor's buffers (the tensor is then closed: numpy() and use as an
// argument raise FailedPreconditionError), then the device sets. A tensor is
// made only while its program is open (under the program's run mutex), so a
// runtime close never misses one.
#ifndef MESHVK_PYTHON_DEVICE_TENSOR_H_
#define MESHVK_PYTHON_DEVICE_TENSOR_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <vector>

#include "artifact.h"
#include "meshvk/buffer.h"
#include "meshvk/module.h"

namespace meshvk_py {

namespace py = pybind11;

class RuntimeCore;

class DeviceTensor {
 public:
  // Takes ownership of `buffers` (one per placement, in shard order; NULL for
  // an empty shard).
  // `declared`: the model's dtype for it (numpy() and dtype give it; the
  // buffers hold `info`'s element type).
  DeviceTensor(std::shared_ptr<RuntimeCore> runtime, const meshvk_device_set_t* set, const meshvk_tensor_info_t& info,
               meshvk_declared_type_t declared, std::vector<ShardPlacement> placements,
               std::vector<meshvk_buffer_t*> buffers);
  ~DeviceTensor() { Release(); }
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;

  // The global tensor read from the devices into a new array (each distinct
  // shard read once; replicas skipped), in the declared dtype (an ONNX int64
  // result as int64). FailedPrecondition once closed.
  py::array Numpy();
  // True when the program's `placements` on `set` lay the tensor out exactly
  // as this one is laid out: same device set, same shards on the same processes.
  bool LaidOutAs(const meshvk_device_set_t* set, const std::vector<ShardPlacement>& placements) const;
  // The shard buffers for meshvk_device_tensor_t, each retained: the caller
  // releases them (ReleaseShards) after the invoke. FailedPrecondition once closed.
  std::vector<meshvk_shard_buffer_t> RetainShards();
  // Frees the buffers (runtime close, or close()). Idempotent.
  void Release();
  bool closed();

  const meshvk_tensor_info_t& info() const { return info_; }
  const std::vector<ShardPlacement>& placements() const { return placements_; }
  py::tuple Shape() const;
  py::dtype Dtype() const;        // the declared dtype (what numpy() returns)
  py::dtype DeviceDtype() const;  // the buffers' (int32 for an int64 or bool tensor)
  py::list SplitAxes() const;
  // Bytes held on each process's device: {process: bytes}.
  py::dict BytesPerProcess() const;
  std::string Repr();

 private:
  std::shared_ptr<RuntimeCore> runtime_;
  const meshvk_device_set_t* set_;  // compared only: buffers_ keep it alive
  meshvk_tensor_info_t info_ = MESHVK_TENSOR_INFO_INIT;
  meshvk_declared_type_t declared_ = MESHVK_DECLARED_SAME;
  std::vector<ShardPlacement> placements_;
  std::mutex mutex_;
  std::vector<meshvk_buffer_t*> buffers_;
  bool closed_ = false;
};

// The first shard of each distinct block (replicas after the first skipped:
// their values may differ in the last bits, e.g. after an all-reduce, and the
// host invoke reads the first), and the global array put together from them.
std::vector<size_t> DistinctShards(const std::vector<ShardPlacement>& placements);
py::array AssembleShards(const meshvk_tensor_info_t& info, const std::vector<ShardPlacement>& placements,
                         const std::vector<size_t>& shards, const std::vector<py::array>& parts);

// Releases what DeviceTensor::RetainShards retained.
void ReleaseShards(const std::vector<meshvk_shard_buffer_t>& shards);

// The slices of the global tensor `shard` holds, as numpy indexes them.
py::tuple SlicesOf(const ShardPlacement& shard);

// Bytes of one shard of `info`'s element type.
uint64_t ShardBytes(const meshvk_tensor_info_t& info, const ShardPlacement& shard);

void BindDeviceTensor(py::module_& m);

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_DEVICE_TENSOR_H_
