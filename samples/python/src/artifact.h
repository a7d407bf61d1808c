// A loaded .mvk artifact (meshvk.Program's core): the verified meshvk_module_t
// plus the bytes it came from, which the runtime's C API does not hand back
// and which kernels() and save() need. Immutable once made, so it is shared
// (std::shared_ptr) by every program loaded from it, on any thread.
#ifndef MESHVK_PYTHON_ARTIFACT_H_
#define MESHVK_PYTHON_ARTIFACT_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meshvk/module.h"
#include "tensors.h"

namespace meshvk_py {

// Where one process keeps its shard of an argument or a result (static: from
// the artifact).
struct ShardPlacement {
  uint32_t process = 0;
  std::vector<uint64_t> global_offset, shape;
};

class Artifact {
 public:
  // Verifies `bytes` (meshvk_module_load): DataLossError names the field.
  // `name` (a path or "<compiled>") prefixes messages.
  static std::shared_ptr<Artifact> FromBytes(std::string bytes, const std::string& name);
  // Reads and verifies a .mvk file (UnavailableError when it cannot be read).
  static std::shared_ptr<Artifact> FromFile(const std::string& path);
  ~Artifact();
  Artifact(const Artifact&) = delete;
  Artifact& operator=(const Artifact&) = delete;

  meshvk_module_t* module() const { return module_; }
  const std::string& name() const { return name_; }
  const std::string& bytes() const { return bytes_; }
  uint32_t process_count() const;
  std::vector<uint32_t> grid_shape() const;
  std::vector<uint32_t> peered_axes() const;
  std::vector<std::string> function_names() const;
  // A .mvk of a dynamic grid holds a plan per process count: those counts
  // (file order; empty for a file of one plan), and the plan for one of them
  // as an Artifact of its own (OutOfRangeError lists the counts held).
  std::vector<uint32_t> process_counts() const;
  std::shared_ptr<Artifact> ForProcessCount(uint32_t processes) const;

  // `name` "" picks the only function. OutOfRangeError for an unknown name.
  FunctionSignature Signature(const std::string& name) const;
  std::vector<ShardPlacement> ResultShards(uint32_t function, uint32_t result) const;
  std::vector<ShardPlacement> ArgumentShards(uint32_t function, uint32_t argument) const;

  py::dict SignatureDict(const std::string& function) const;
  // Per-process bytes, dispatches, copies and phases of one function (or of
  // the whole module when `function` is "" and there is one function).
  py::dict PlanDict(const std::string& function) const;
  // Each distinct kernel: entry point, workgroup size, bindings, SPIR-V words
  // as bytes and the SPIR-V disassembly (SPIRV-Tools).
  py::list Kernels() const;
  // The plan of one function as Graphviz DOT (mesh-vk-run --plan-graph's
  // writer). `set` NULL: copies are "local" or "peer"; a device set names the
  // path each copy takes on it.
  std::string PlanGraph(const std::string& function, const meshvk_device_set_t* set) const;
  // Writes the artifact through a temporary file and a rename, so a failure
  // never leaves a half-written file behind.
  void Save(const std::string& path) const;

 private:
  Artifact(std::string bytes, std::string name, meshvk_module_t* module)
      : bytes_(std::move(bytes)), name_(std::move(name)), module_(module) {}
  std::string bytes_;
  std::string name_;
  meshvk_module_t* module_ = nullptr;
};

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_ARTIFACT_H_
