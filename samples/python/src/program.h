// meshvk.LoadedProgram and meshvk.Function: an artifact instantiated on a
// runtime's device set (meshvk_program_t), and one of its functions, callable
// with numpy arrays.
//
// Threads: the GIL is released while a program runs (inputs streamed in,
// phases submitted and waited for, results gathered), so other Python threads
// keep running and two programs run at once. meshvk_program_invoke must not
// run twice at once on one program: each program has a run mutex, taken only
// with the GIL released (never wait for a mutex while holding the GIL, so no
// thread can hold one and wait for the other).
#ifndef MESHVK_PYTHON_PROGRAM_H_
#define MESHVK_PYTHON_PROGRAM_H_

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "artifact.h"
#include "meshvk/module.h"
#include "runtime.h"

namespace meshvk_py {

namespace py = pybind11;

// A call's inputs checked against the signature, in the invoke's form.
struct PreparedCall {
  std::vector<py::array> inputs;  // keep the arrays alive while the GIL is released
  std::vector<meshvk_host_input_t> host_inputs;
  meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
};
PreparedCall Prepare(const FunctionSignature& signature, const py::args& args);

// Seconds (None: 0, the runtime's device timeout) as an invoke's timeout_ns.
uint64_t TimeoutNs(const py::object& timeout);
// Reads result shards left on the devices by the last invoke into `memory`
// (per result, per shard; an entry with NULL data is skipped). Call without
// the GIL, under the run mutex.
void ReadResultShards(meshvk_program_t* program, const FunctionSignature& signature,
                      const std::vector<std::vector<meshvk_host_output_t>>& memory);
// meshvk.ShardedTensor of result `r` from its shards' arrays.
py::object MakeShardedTensor(const meshvk_tensor_info_t& info, const std::vector<ShardPlacement>& placements,
                             const std::vector<py::array>& shards);

class DeviceTensor;

// Result buffers of keep_on_device calls, kept for reuse: per (function,
// result) up to kCapacity sets, each handed out again once the DeviceTensor
// that had it is gone. A decode loop that feeds each step's results back as
// the next step's arguments then alternates between two sets of buffers, and
// the runtime, which records each distinct set of buffers once and keeps a
// few (meshvk_program_binding_stats), replays its recordings instead of
// recording again on every call. The pool holds one reference on each buffer
// (so a set outlives its tensor until the program closes). Used under the
// program's run mutex.
class ResultPool {
 public:
  static constexpr size_t kCapacity = 4;
  ResultPool() = default;
  ResultPool(const ResultPool&) = delete;
  ResultPool& operator=(const ResultPool&) = delete;
  ~ResultPool() { Clear(); }
  // A free set of result `result`'s buffers (each retained for the caller),
  // or false when none is free.
  bool Take(uint32_t function, uint32_t result, std::vector<meshvk_buffer_t*>* buffers);
  // Keeps `tensor`'s `buffers` (retained here) for when it is gone; nothing
  // when the pool of that result is full of tensors still alive.
  void Keep(uint32_t function, uint32_t result, const std::shared_ptr<DeviceTensor>& tensor,
            const std::vector<meshvk_buffer_t*>& buffers);
  void Clear();
  uint64_t reused() const { return reused_; }

 private:
  struct Entry {
    std::weak_ptr<DeviceTensor> tensor;
    std::vector<meshvk_buffer_t*> buffers;
  };
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Entry>> entries_;
  uint64_t reused_ = 0;
};

class ProgramCore {
 public:
  ProgramCore(std::shared_ptr<RuntimeCore> runtime, std::shared_ptr<Artifact> artifact, meshvk_device_set_t* set,
              meshvk_program_t* program)
      : runtime_(std::move(runtime)), artifact_(std::move(artifact)), set_(set), program_(program) {}
  ~ProgramCore() { Close(); }
  // Waits for a run in progress, then releases the program. Idempotent.
  void Close();

  // Runs `fn` under the run mutex with the program open (FailedPrecondition
  // when it was closed, directly or through its runtime). Call without the GIL.
  template <typename Fn>
  void WithProgram(Fn fn) {
    std::lock_guard<std::mutex> lock(run_mutex_);
    if (!program_) ThrowClosed();
    fn(program_, set_);
  }

  const std::shared_ptr<Artifact>& artifact() const { return artifact_; }
  // The device set, to compare with a DeviceTensor's (never dereference
  // outside WithProgram: it is released with the runtime).
  const meshvk_device_set_t* set_identity() const { return set_; }
  const std::shared_ptr<RuntimeCore>& runtime() const { return runtime_; }
  // Under the run mutex (inside WithProgram) only.
  ResultPool& result_pool() { return result_pool_; }
  bool closed() {
    std::lock_guard<std::mutex> lock(run_mutex_);
    return program_ == nullptr;
  }

 private:
  [[noreturn]] void ThrowClosed() const;
  std::shared_ptr<RuntimeCore> runtime_;
  std::shared_ptr<Artifact> artifact_;
  std::mutex run_mutex_;
  meshvk_device_set_t* set_;  // owned by the runtime core; valid while program_ is
  meshvk_program_t* program_;
  ResultPool result_pool_;  // released with the program
};

class Function {
 public:
  Function(std::shared_ptr<ProgramCore> program, FunctionSignature signature)
      : program_(std::move(program)), signature_(std::move(signature)) {}

  // numpy in, numpy out: one array for one result, a tuple for several. With
  // keep_sharded, each result is a meshvk.ShardedTensor of per-process arrays
  // read from the devices. timeout: seconds (None: the runtime's 60 s).
  py::object Call(const py::args& args, bool keep_sharded, const py::object& timeout);
  // A call whose arguments may be meshvk.DeviceTensors (used in place when
  // laid out as the argument is) or ShardedTensors, and whose results may
  // stay on the devices (keep_on_device: DeviceTensors). device_call.cc.
  py::object CallOnDevice(const py::args& args, bool keep_on_device, bool keep_sharded, const py::object& timeout);
  // Call, or CallOnDevice when results stay on the devices or an argument is
  // a DeviceTensor or a ShardedTensor (over MPI ranks a ShardedTensor is
  // assembled and sent as a host array instead).
  py::object CallAny(const py::args& args, bool keep_sharded, bool keep_on_device, const py::object& timeout);
  // The numbers of mesh-vk-run --benchmark, every time in seconds: one
  // warm-up run, then `iterations` runs with timestamps on a traced twin of
  // the program (same devices), as the runner does: wall, per-(phase,
  // process), per-dispatch and per-copy times as min/median/max, with bytes
  // and FLOPs. No roofline: its probe shaders live in mesh-vk-run (benchmark.cc).
  py::dict Benchmark(const py::args& args, uint32_t iterations);
  const std::string& name() const { return signature_.name; }
  const FunctionSignature& signature() const { return signature_; }
  py::dict SignatureDict() const { return program_->artifact()->SignatureDict(signature_.name); }

 private:
  std::shared_ptr<ProgramCore> program_;
  FunctionSignature signature_;
};

class LoadedProgram {
 public:
  explicit LoadedProgram(std::shared_ptr<ProgramCore> program) : program_(std::move(program)) {}
  Function Get(const std::string& name) const;
  std::vector<std::string> function_names() const { return program_->artifact()->function_names(); }
  // Per process: where it runs (physical device, index in the group, which
  // VkDevice, queue) and the bytes allocated on its device set for it.
  py::list Placement() const;
  py::dict Stats() const;
  // The topology of the device set the program runs on ("group", "logical",
  // "independent"): what "auto" resolved to.
  std::string Topology() const;
  // Artifact::PlanGraph on this program's device set.
  std::string PlanGraph(const std::string& function) const;
  void Close();
  bool closed() const;
  std::string name() const { return program_->artifact()->name(); }

 private:
  std::shared_ptr<ProgramCore> program_;
};

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_PROGRAM_H_
