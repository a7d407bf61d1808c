// meshvk.Runtime: a Vulkan instance and the device sets programs run on.
//
// Ownership (a tree, no cycles): the Python Runtime and every program loaded
// on it share one RuntimeCore (std::shared_ptr: Python decides when each
// object dies); the core knows its programs only weakly. So a program keeps
// the instance and devices alive after the Runtime object is dropped, and the
// Vulkan objects go away when the last of them does (or at once on close(),
// which closes every program first: a `with` block or an explicit close is
// deterministic, garbage collection frees the same things later).
//
// Device sets are created on first use, one per process count: with
// devices=N every program runs on N processes; with devices=None each program
// gets a set of its grid's size (like mesh-vk-run without --devices).
#ifndef MESHVK_PYTHON_RUNTIME_H_
#define MESHVK_PYTHON_RUNTIME_H_

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "meshvk/device_set.h"
#include "meshvk/transport.h"

namespace meshvk_py {

namespace py = pybind11;

class ProgramCore;
class Artifact;
class DeviceTensor;

struct DeviceChoice {
  uint32_t processes = 0;                 // 0: each program's grid
  std::vector<uint32_t> process_devices;  // empty: round robin
  meshvk_topology_t topology = MESHVK_TOPOLOGY_AUTO;
  uint32_t group = 0;
  // Over the ranks of an MPI job (ranks.h): the transport, and the grid axes
  // laid over the ranks (empty: the outermost that fit). Null: one rank.
  const meshvk_transport_t* transport = nullptr;
  std::vector<uint32_t> rank_axes;
};

class RuntimeCore {
 public:
  RuntimeCore(const DeviceChoice& choice, int validation);
  ~RuntimeCore();

  // The device set for `processes` (created on first use). Caller holds mutex().
  meshvk_device_set_t* SetFor(uint32_t processes);
  // Releases every program, set and the instance. Idempotent.
  void Close();
  void Register(const std::shared_ptr<ProgramCore>& program);
  // A tensor left on the devices; freed by Close. Call with its program open
  // (under its run mutex), so Close, which closes programs first, sees it.
  void Register(const std::shared_ptr<DeviceTensor>& tensor);
  // Raises FailedPreconditionError once closed. Caller holds mutex().
  void CheckOpen() const;

  std::mutex& mutex() { return mutex_; }
  meshvk_instance_t* instance() const { return instance_; }
  const DeviceChoice& choice() const { return choice_; }
  bool closed() const { return instance_ == nullptr; }
  // The topology of the device set created last ("auto" resolved); nullopt
  // before the first. Caller holds mutex().
  std::optional<meshvk_topology_t> chosen_topology() const { return chosen_topology_; }
  std::vector<std::string> Messages();

 private:
  static void OnMessage(meshvk_message_severity_t severity, const char* message, void* user_data);

  std::mutex mutex_;
  DeviceChoice choice_;
  meshvk_instance_t* instance_ = nullptr;
  bool validated_ = false;
  std::map<uint32_t, meshvk_device_set_t*> sets_;
  std::optional<meshvk_topology_t> chosen_topology_;
  std::vector<std::weak_ptr<ProgramCore>> programs_;
  std::mutex tensors_mutex_;  // taken without mutex_ by calls that make tensors
  std::vector<std::weak_ptr<DeviceTensor>> tensors_;
  std::mutex messages_mutex_;  // the callback runs on whichever thread called Vulkan
  std::vector<std::string> messages_;
};

class Runtime {
 public:
  // devices: None, an int (process count) or a list of device indices (one
  // per process: physical devices, or indices in the group when group= is
  // given or topology="group"). topology: "auto", "group", "logical".
  // validation: None (env MESHVK_VALIDATION decides), False, True, "sync".
  // ranks: None (over MPI when an MPI launcher started 2+ ranks), True
  // (over MPI), False (one rank); rank_axes: None or a list of grid axes.
  Runtime(const py::object& devices, const std::string& topology, const py::object& group, const py::object& validation,
          const py::object& ranks, const py::object& rank_axes);
  ~Runtime();

  std::shared_ptr<ProgramCore> Load(const std::shared_ptr<Artifact>& artifact);
  // With a process count (devices=N or a list), creates the device set now,
  // so a device that does not exist or a topology impossible here is an
  // error of the Runtime's creation, not of the first load.
  void OpenDevices();
  void Close();
  bool closed();
  py::object process_count() const;
  // The topology chosen (what "auto" resolved to): that of the device set
  // programs run on; with devices=None, of the last program's set (None
  // before the first load). requested_topology: the one asked for.
  py::object topology() const;
  std::string requested_topology() const;
  std::vector<std::string> validation_messages() { return core_->Messages(); }
  py::list Devices();
  py::list DeviceGroups();
  // This process's rank and the job's rank count (0 and 1 without ranks).
  uint32_t rank() const;
  uint32_t rank_count() const;

 private:
  std::shared_ptr<RuntimeCore> core_;
};

// Facts of --list-devices as lists of dicts, from a temporary instance
// (`instance` NULL) or a runtime's.
py::list ListDevices(meshvk_instance_t* instance);
py::list ListDeviceGroups(meshvk_instance_t* instance);

}  // namespace meshvk_py

#endif  // MESHVK_PYTHON_RUNTIME_H_
