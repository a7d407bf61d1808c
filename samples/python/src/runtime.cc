// See runtime.h.
#include "runtime.h"

#include <pybind11/stl.h>

#include <cstdlib>
#include <cstring>

#include "artifact.h"
#include "device_tensor.h"
#include "errors.h"
#include "meshvk/instance.h"
#include "meshvk/trace.h"
#include "meshvk_environment.h"
#include "program.h"
#include "ranks.h"

namespace meshvk_py {
namespace {

py::list QueueFlagNames(uint32_t flags) {
  py::list names;
  const char* all[] = {"graphics", "compute", "transfer", "sparse"};
  for (uint32_t b = 0; b < 4; ++b)
    if (flags & (1u << b)) names.append(all[b]);
  return names;
}

// VkPeerMemoryFeatureFlags in --list-devices' letters: copy-src, copy-dst,
// generic-src, generic-dst ("CDcd"; '-' where missing).
std::string PeerText(uint32_t flags) {
  std::string text = "----";
  const char letters[] = "CDcd";
  for (int b = 0; b < 4; ++b)
    if (flags & (1u << b)) text[b] = letters[b];
  return text;
}

// Every instance this module makes goes through here. Why: the runtime loads
// volk's instance-level function pointers process-wide from the most recently
// created instance (runtime/src/vulkan/loader.cc), so an instance created
// WITHOUT validation nulls vkDestroyDebugUtilsMessengerEXT, and releasing a
// validated instance created earlier then calls NULL (a crash seen in the
// tests: a validated Runtime, then meshvk.compile's device probe). Until the
// runtime keeps those pointers per instance, an instance is created with
// validation whenever a validated one is alive, and creation is serialised, so
// the pointers always come from an instance that has the debug-utils
// extension while any instance needs it.
std::mutex instance_mutex;
uint32_t validated_instances = 0;  // guarded by instance_mutex

// Sets *validated for ReleaseInstance. MESHVK_VALIDATION is the default of
// the flags (meshvk_environment.h).
meshvk_instance_t* CreateInstance(meshvk_instance_create_info_t info, bool* validated) {
  std::lock_guard<std::mutex> lock(instance_mutex);
  if (validated_instances > 0) info.flags |= MESHVK_INSTANCE_VALIDATION_BIT;
  Check(meshvk_environment_instance_flags(&info));
  meshvk_instance_t* instance = nullptr;
  Check(meshvk_instance_create(&info, &instance));
  *validated = info.flags & MESHVK_INSTANCE_VALIDATION_BIT;
  if (*validated) ++validated_instances;
  return instance;
}

void ReleaseInstance(meshvk_instance_t* instance, bool validated) {
  if (!instance) return;
  std::lock_guard<std::mutex> lock(instance_mutex);
  meshvk_instance_release(instance);
  if (validated) --validated_instances;
}

// A temporary instance for the module-level queries, released on scope exit.
struct TemporaryInstance {
  meshvk_instance_t* instance = nullptr;
  bool validated = false;
  TemporaryInstance() {
    meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
    info.application_name = "meshvk (Python)";
    instance = CreateInstance(info, &validated);
  }
  ~TemporaryInstance() { ReleaseInstance(instance, validated); }
};

}  // namespace

py::list ListDevices(meshvk_instance_t* instance) {
  std::optional<TemporaryInstance> temporary;
  if (!instance) instance = temporary.emplace().instance;
  py::list devices;
  for (uint32_t i = 0; i < meshvk_instance_physical_device_count(instance); ++i) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    Check(meshvk_instance_physical_device_info(instance, i, &info));
    const meshvk_device_limits_t& l = info.limits;
    py::dict limits;
    limits["max_workgroup_size"] =
        py::make_tuple(l.max_workgroup_size[0], l.max_workgroup_size[1], l.max_workgroup_size[2]);
    limits["max_workgroup_count"] =
        py::make_tuple(l.max_workgroup_count[0], l.max_workgroup_count[1], l.max_workgroup_count[2]);
    limits["max_workgroup_invocations"] = l.max_workgroup_invocations;
    limits["max_shared_memory_bytes"] = l.max_shared_memory_bytes;
    limits["subgroup_size"] = l.subgroup_size;
    limits["max_push_constants_bytes"] = l.max_push_constants_bytes;
    limits["max_storage_buffer_range"] = l.max_storage_buffer_range;
    limits["max_memory_allocation_size"] = l.max_memory_allocation_size;
    limits["min_storage_buffer_offset_alignment"] = l.min_storage_buffer_offset_alignment;
    py::list queues, heaps;
    for (uint32_t q = 0; q < info.queue_family_count; ++q) {
      py::dict family;
      family["queue_count"] = info.queue_families[q].queue_count;
      family["flags"] = QueueFlagNames(info.queue_families[q].queue_flags);
      family["timestamp_valid_bits"] = info.queue_families[q].timestamp_valid_bits;
      queues.append(family);
    }
    for (uint32_t h = 0; h < info.heap_count; ++h) {
      py::dict heap;
      heap["size"] = info.heap_sizes[h];
      heap["device_local"] = (info.heap_flags[h] & 0x1) != 0;
      heaps.append(heap);
    }
    py::dict d;
    d["index"] = i;
    d["name"] = std::string(info.name);
    d["type"] = meshvk_physical_device_type_name(info.device_type);
    d["vendor_id"] = info.vendor_id;
    d["device_id"] = info.device_id;
    d["api_version"] = std::to_string(info.api_version >> 22) + "." + std::to_string((info.api_version >> 12) & 0x3ff) +
                       "." + std::to_string(info.api_version & 0xfff);
    d["timestamp_period_ns"] = info.timestamp_period_ns;
    d["float16"] = info.shader_float16 != 0;
    d["storage_16bit"] = info.storage_buffer_16bit != 0;
    d["float64"] = info.shader_float64 != 0;
    d["limits"] = limits;
    d["queue_families"] = queues;
    d["heaps"] = heaps;
    devices.append(d);
  }
  return devices;
}

py::list ListDeviceGroups(meshvk_instance_t* instance) {
  std::optional<TemporaryInstance> temporary;
  if (!instance) instance = temporary.emplace().instance;
  py::list groups;
  meshvk_device_group_info_t group = MESHVK_DEVICE_GROUP_INFO_INIT;
  for (uint32_t g = 0; g < meshvk_instance_device_group_count(instance); ++g) {
    Check(meshvk_instance_device_group_info(instance, g, &group));
    py::list devices, heaps;
    for (uint32_t d = 0; d < group.device_count; ++d) devices.append(group.physical_devices[d]);
    for (uint32_t h = 0; h < group.heap_count; ++h) {
      py::list rows;
      for (uint32_t l = 0; l < group.device_count; ++l) {
        py::list row;
        for (uint32_t r = 0; r < group.device_count; ++r) {
          uint32_t features = 0;
          Check(meshvk_instance_device_group_peer_features(instance, g, h, l, r, &features));
          row.append(PeerText(features));
        }
        rows.append(row);
      }
      heaps.append(rows);
    }
    py::dict d;
    d["index"] = g;
    d["physical_devices"] = devices;
    d["subset_allocation"] = group.subset_allocation != 0;
    d["peer_memory"] = heaps;  // [heap][local][remote] -> "CDcd"
    groups.append(d);
  }
  return groups;
}

RuntimeCore::RuntimeCore(const DeviceChoice& choice, int validation) : choice_(choice) {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  if (validation > 0) info.flags |= MESHVK_INSTANCE_VALIDATION_BIT;
  if (validation > 1) info.flags |= MESHVK_INSTANCE_SYNC_VALIDATION_BIT;
  info.message_callback = &RuntimeCore::OnMessage;
  info.message_user_data = this;
  info.application_name = "meshvk (Python)";
  instance_ = CreateInstance(info, &validated_);
}

RuntimeCore::~RuntimeCore() { Close(); }

void RuntimeCore::OnMessage(meshvk_message_severity_t, const char* message, void* user_data) {
  auto* core = static_cast<RuntimeCore*>(user_data);
  std::lock_guard<std::mutex> lock(core->messages_mutex_);
  core->messages_.push_back(message);
}

std::vector<std::string> RuntimeCore::Messages() {
  std::lock_guard<std::mutex> lock(messages_mutex_);
  return messages_;
}

void RuntimeCore::CheckOpen() const {
  if (closed()) Raise(MESHVK_STATUS_FAILED_PRECONDITION, "the runtime is closed");
}

meshvk_device_set_t* RuntimeCore::SetFor(uint32_t processes) {
  CheckOpen();
  auto found = sets_.find(processes);
  if (found != sets_.end()) {
    chosen_topology_ = meshvk_device_set_topology(found->second);
    return found->second;
  }
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.topology = choice_.topology;
  info.process_count = processes;
  info.device_group_index = choice_.group;
  info.process_devices = choice_.process_devices.empty() ? nullptr : choice_.process_devices.data();
  // MESHVK_DEVICE_TIMEOUT_MS and MESHVK_PIPELINE_CACHE, else the runtime's defaults.
  meshvk_environment_set_chain_t environment;
  info.next = meshvk_environment_set_chain(&environment, nullptr);
  meshvk_device_set_t* set = nullptr;
  Check(meshvk_device_set_create(instance_, &info, &set), "devices/topology: ");
  sets_[processes] = set;
  chosen_topology_ = meshvk_device_set_topology(set);
  return set;
}

namespace {

// Adds `object` to the weak list, forgetting those that are gone first, so a
// load/close (or call) loop does not grow it.
template <typename T>
void Remember(std::vector<std::weak_ptr<T>>* list, const std::shared_ptr<T>& object) {
  list->erase(std::remove_if(list->begin(), list->end(), [](const std::weak_ptr<T>& w) { return w.expired(); }),
              list->end());
  list->push_back(object);
}

}  // namespace

void RuntimeCore::Register(const std::shared_ptr<ProgramCore>& program) { Remember(&programs_, program); }

void RuntimeCore::Register(const std::shared_ptr<DeviceTensor>& tensor) {
  std::lock_guard<std::mutex> lock(tensors_mutex_);
  Remember(&tensors_, tensor);
}

void RuntimeCore::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  // Programs first (they hold buffers and pipelines on the sets; closing one
  // waits for its call in progress), then the tensors left on the devices,
  // then the sets, then the instance they came from.
  for (const std::weak_ptr<ProgramCore>& weak : programs_)
    if (std::shared_ptr<ProgramCore> program = weak.lock()) program->Close();
  programs_.clear();
  {
    std::lock_guard<std::mutex> tensors_lock(tensors_mutex_);
    for (const std::weak_ptr<DeviceTensor>& weak : tensors_)
      if (std::shared_ptr<DeviceTensor> tensor = weak.lock()) tensor->Release();
    tensors_.clear();
  }
  for (auto& [processes, set] : sets_) meshvk_device_set_release(set);
  sets_.clear();
  ReleaseInstance(instance_, validated_);
  instance_ = nullptr;
}

namespace {

meshvk_topology_t ParseTopology(const std::string& text) {
  if (text == "auto") return MESHVK_TOPOLOGY_AUTO;
  if (text == "group") return MESHVK_TOPOLOGY_DEVICE_GROUP;
  if (text == "logical") return MESHVK_TOPOLOGY_LOGICAL;
  if (text == "independent") return MESHVK_TOPOLOGY_INDEPENDENT;
  Raise(MESHVK_STATUS_INVALID_ARGUMENT,
        "topology: '" + text + "' given, expected 'auto', 'group', 'logical' or 'independent'");
}

int ParseValidation(const py::object& validation) {
  if (validation.is_none()) return 0;  // the instance still honours MESHVK_VALIDATION
  if (py::isinstance<py::str>(validation)) {
    if (validation.cast<std::string>() == "sync") return 2;
    Raise(MESHVK_STATUS_INVALID_ARGUMENT,
          "validation: '" + validation.cast<std::string>() + "' given, expected None, False, True or 'sync'");
  }
  return validation.cast<bool>() ? 1 : 0;
}

}  // namespace

Runtime::Runtime(const py::object& devices, const std::string& topology, const py::object& group,
                 const py::object& validation, const py::object& ranks, const py::object& rank_axes) {
  DeviceChoice choice;
  choice.topology = ParseTopology(topology);
  if (!group.is_none()) {
    int64_t g = group.cast<int64_t>();
    if (g < 0) Raise(MESHVK_STATUS_INVALID_ARGUMENT, "group: " + std::to_string(g) + " given, expected an index >= 0");
    if (choice.topology == MESHVK_TOPOLOGY_LOGICAL)
      Raise(MESHVK_STATUS_INVALID_ARGUMENT, "group: a device group cannot run with topology='logical'");
    choice.group = static_cast<uint32_t>(g);
    choice.topology = MESHVK_TOPOLOGY_DEVICE_GROUP;
  }
  if (py::isinstance<py::int_>(devices)) {
    int64_t n = devices.cast<int64_t>();
    if (n < 1 || n > 1024)
      Raise(MESHVK_STATUS_INVALID_ARGUMENT, "devices: " + std::to_string(n) + " given, expected 1..1024 processes");
    choice.processes = static_cast<uint32_t>(n);
  } else if (!devices.is_none()) {
    for (const py::handle& d : py::iter(devices)) {
      int64_t index = d.cast<int64_t>();
      if (index < 0) Raise(MESHVK_STATUS_INVALID_ARGUMENT, "devices: index " + std::to_string(index) + " is negative");
      choice.process_devices.push_back(static_cast<uint32_t>(index));
    }
    if (choice.process_devices.empty())
      Raise(MESHVK_STATUS_INVALID_ARGUMENT, "devices: an empty list given, expected one device index per process");
    choice.processes = static_cast<uint32_t>(choice.process_devices.size());
  }
  if (ranks.is_none() ? LaunchedAmongRanks() : ranks.cast<bool>()) {
    choice.transport = RankTransport();
    if (!rank_axes.is_none())
      for (const py::handle& a : py::iter(rank_axes)) choice.rank_axes.push_back(a.cast<uint32_t>());
  } else if (!rank_axes.is_none()) {
    Raise(MESHVK_STATUS_INVALID_ARGUMENT, "rank_axes: only for a Runtime over the ranks of an MPI job (ranks=True)");
  }
  int level = ParseValidation(validation);
  py::gil_scoped_release release;
  core_ = std::make_shared<RuntimeCore>(choice, level);
  if (choice.transport) RegisterRankRuntime(core_);
}

uint32_t Runtime::rank() const { return core_->choice().transport ? core_->choice().transport->rank : 0; }
uint32_t Runtime::rank_count() const { return core_->choice().transport ? core_->choice().transport->rank_count : 1; }

Runtime::~Runtime() = default;  // the core closes when its last program is gone

std::shared_ptr<ProgramCore> Runtime::Load(const std::shared_ptr<Artifact>& artifact) {
  const uint32_t processes = artifact->process_count();
  if (core_->choice().processes != 0 && core_->choice().processes != processes)
    Raise(MESHVK_STATUS_INVALID_ARGUMENT, "devices=" + std::to_string(core_->choice().processes) + ": " +
                                              artifact->name() + " is compiled for " + std::to_string(processes) +
                                              " processes");
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(core_->mutex());
  meshvk_device_set_t* set = core_->SetFor(processes);
  meshvk_program_t* program = nullptr;
  meshvk_program_create_info_t create = MESHVK_PROGRAM_CREATE_INFO_INIT;
  create.module = artifact->module();
  create.set = set;
  // Over ranks: this rank's processes only, bytes between ranks through MPI.
  const meshvk_transport_t* transport = core_->choice().transport;
  std::vector<uint32_t> process_rank;
  meshvk_program_ranks_t ranks = MESHVK_PROGRAM_RANKS_INIT;
  if (transport) {
    process_rank = LayRanks(artifact->module(), transport, core_->choice().rank_axes);
    ranks.transport = transport;
    ranks.process_rank = process_rank.data();
    Check(meshvk_environment_rank_collectives(&ranks.collectives));  // MESHVK_RANK_COLLECTIVES
    create.next = &ranks;
  }
  Check(meshvk_program_create_with_info(&create, &program), artifact->name() + ": ");
  auto core = std::make_shared<ProgramCore>(core_, artifact, set, program);
  core_->Register(core);
  return core;
}

void Runtime::Close() {
  py::gil_scoped_release release;
  core_->Close();
}

bool Runtime::closed() {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(core_->mutex());
  return core_->closed();
}

py::object Runtime::process_count() const {
  return core_->choice().processes ? py::int_(core_->choice().processes) : py::object(py::none());
}

py::object Runtime::topology() const {
  std::lock_guard<std::mutex> lock(core_->mutex());
  std::optional<meshvk_topology_t> chosen = core_->chosen_topology();
  return chosen ? py::object(py::str(meshvk_topology_name(*chosen))) : py::object(py::none());
}

std::string Runtime::requested_topology() const { return meshvk_topology_name(core_->choice().topology); }

void Runtime::OpenDevices() {
  if (!core_->choice().processes) return;
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(core_->mutex());
  core_->SetFor(core_->choice().processes);
}

// Under the core mutex so that a close() on another thread cannot free the
// instance mid-query (safe with the GIL held: no thread holding that mutex
// ever waits for the GIL).
py::list Runtime::Devices() {
  std::lock_guard<std::mutex> lock(core_->mutex());
  core_->CheckOpen();
  return ListDevices(core_->instance());
}

py::list Runtime::DeviceGroups() {
  std::lock_guard<std::mutex> lock(core_->mutex());
  core_->CheckOpen();
  return ListDeviceGroups(core_->instance());
}

}  // namespace meshvk_py
