// --print-plan output (see plan_print.h). Numbers come from the module's plan
// (what the artifact allocates and moves) and the device set (where it runs).
#include "plan_print.h"

#include <string>
#include <vector>

#include "tensor_io.h"

namespace meshvk_run {

const char* TopologyText(meshvk_topology_t topology) {
  switch (topology) {
    case MESHVK_TOPOLOGY_DEVICE_GROUP:
      return "device group";
    case MESHVK_TOPOLOGY_INDEPENDENT:
      return "independent devices";
    default:
      return "logical devices";
  }
}

namespace {

// Argument (or, with `result`, result) `i` of `function`; false when the
// module has no such tensor.
bool TensorInfo(const meshvk_module_t* module, uint32_t function, bool result, uint32_t i, meshvk_tensor_info_t* t) {
  meshvk_status_t st =
      result ? meshvk_module_result_info(module, function, i, t) : meshvk_module_argument_info(module, function, i, t);
  const bool ok = st == MESHVK_OK;
  meshvk_status_free(st);
  return ok;
}

// A program whose signature carries the model's names (an ONNX model): its
// inputs and outputs by name, "inputs: x 8x16xf32 (split [[0],[]])", an
// int64 input "ids 4x8xi64 (i32 on the devices, split [[],[]])".
void PrintSignatureNames(FILE* out, const meshvk_module_t* module, uint32_t function,
                         const meshvk_function_info_t& fn) {
  for (int results = 0; results < 2; ++results) {
    const uint32_t count = results ? fn.result_count : fn.argument_count;
    std::string line;
    bool named = false;
    for (uint32_t i = 0; i < count; ++i) {
      meshvk_tensor_info_t t = MESHVK_TENSOR_INFO_INIT;
      if (!TensorInfo(module, function, results, i, &t)) return;
      named |= t.name && *t.name;
      std::string split;
      for (uint32_t d = 0; d < t.rank; ++d) {
        split += d ? ",[" : "[";
        for (uint32_t a = 0; a < t.split_axis_count[d]; ++a)
          split += (a ? "," : "") + std::to_string(t.split_axes[d][a]);
        split += "]";
      }
      // An ONNX int64 / bool tensor by its declared dtype, and the type the
      // devices hold it in: "ids 4x1xi64 (i32 on the devices, split [[],[]])".
      HostTensor declared;
      declared.shape.assign(t.shape, t.shape + t.rank);
      declared.type = t.element_type;
      meshvk_declared_type_t declared_type = MESHVK_DECLARED_SAME;
      meshvk_status_free(results ? meshvk_module_result_declared_type(module, function, i, &declared_type)
                                 : meshvk_module_argument_declared_type(module, function, i, &declared_type));
      declared.stored = StorageOf(declared_type);
      const std::string device =
          declared.stored == StoredAs::kType ? "" : std::string(ElementName(t.element_type)) + " on the devices, ";
      line += std::string(i ? ", " : "") + (t.name && *t.name ? t.name : "?") + " " + TypeString(declared) + " (" +
              device + "split [" + split + "])";
    }
    if (named) std::fprintf(out, "%s: %s\n", results ? "outputs" : "inputs", line.c_str());
  }
}

// "  peak: N bytes on its device (P parameter, A activation, I argument and
// result); heap H bytes": what the process holds while the program is loaded
// (every buffer lives from program creation to release), and the heap it
// comes from when the devices are known.
void PrintPeak(FILE* out, const meshvk_process_summary_t& s, const meshvk_device_set_t* set, uint32_t process) {
  std::string heap;
  meshvk_process_memory_t memory = MESHVK_PROCESS_MEMORY_INIT;
  if (set && meshvk_device_set_process_memory(set, process, &memory) == MESHVK_OK)
    heap = "; heap " + std::to_string(memory.heap_bytes) + " bytes";
  std::fprintf(out, "  peak: %llu bytes on its device (%llu parameter, %llu activation, %llu argument and result)%s\n",
               static_cast<unsigned long long>(s.peak_bytes), static_cast<unsigned long long>(s.constant_bytes),
               static_cast<unsigned long long>(s.transient_bytes),
               static_cast<unsigned long long>(s.argument_bytes + s.result_bytes), heap.c_str());
}

}  // namespace

void PrintPlan(FILE* out, const meshvk_module_t* module, uint32_t function, const meshvk_instance_t* instance,
               const meshvk_device_set_t* set, const meshvk_program_t* program) {
  meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
  meshvk_status_free(meshvk_module_grid_info(module, &grid));
  std::string shape, peered;
  for (uint32_t a = 0; a < grid.rank; ++a) {
    shape += (a ? "x" : "") + std::to_string(grid.shape[a]);
    if (grid.peered_axes_mask & (1u << a)) peered += (peered.empty() ? "" : ",") + std::to_string(a);
  }
  const char* topology = !set ? "none" : TopologyText(meshvk_device_set_topology(set));
  meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
  meshvk_status_free(meshvk_module_function_info(module, function, &fn));
  std::fprintf(out, "plan: function '%s', grid %s (peered axes: %s), %u processes, %u phases, %s\n",
               fn.name ? fn.name : "?", shape.c_str(), peered.empty() ? "none" : peered.c_str(), grid.process_count,
               meshvk_module_function_phase_count(module, function), topology);
  PrintSignatureNames(out, module, function, fn);
  // Uneven shards (a split that does not divide, or explicit offsets): each
  // process's own shard shape, for the tensors where they differ.
  for (int results = 0; program && results < 2; ++results) {
    uint32_t count = results ? fn.result_count : fn.argument_count;
    for (uint32_t i = 0; i < count; ++i) {
      meshvk_tensor_info_t t = MESHVK_TENSOR_INFO_INIT;
      if (!TensorInfo(module, function, results, i, &t)) continue;
      std::string global, shards;
      for (uint32_t d = 0; d < t.rank; ++d) global += std::to_string(t.shape[d]) + "x";
      global += ElementName(t.element_type);
      bool uneven = false;
      std::string first;
      for (uint32_t k = 0; k < t.shard_count; ++k) {
        meshvk_shard_view_t v = MESHVK_SHARD_VIEW_INIT;
        meshvk_status_t st = results ? meshvk_program_result_shard(program, function, i, k, &v)
                                     : meshvk_program_argument_shard(program, function, i, k, &v);
        if (st) {
          meshvk_status_free(st);
          shards.clear();
          break;
        }
        std::string shape;
        for (uint32_t d = 0; d < v.rank; ++d) shape += (d ? "x" : "") + std::to_string(v.shape[d]);
        if (k == 0) first = shape;
        uneven |= shape != first;
        shards += (k ? ", " : "") + shape;
      }
      if (uneven && !shards.empty())
        std::fprintf(out, "%s %u: shards of %s per process: %s (uneven)\n", results ? "result" : "argument", i,
                     global.c_str(), shards.c_str());
    }
  }
  meshvk_process_summary_t total = MESHVK_PROCESS_SUMMARY_INIT;
  uint64_t total_by_path[MESHVK_COPY_PATH_COUNT] = {};
  for (uint32_t p = 0; p < grid.process_count; ++p) {
    meshvk_process_summary_t s = MESHVK_PROCESS_SUMMARY_INIT;
    meshvk_status_free(meshvk_module_function_process_summary(module, function, p, &s));
    std::string device = "-";
    meshvk_process_info_t info = MESHVK_PROCESS_INFO_INIT;
    if (set && meshvk_device_set_process_info(set, p, &info) == MESHVK_OK) {
      device = "physical device " + std::to_string(info.physical_device);
      meshvk_physical_device_info_t pd = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
      if (instance && meshvk_instance_physical_device_info(instance, info.physical_device, &pd) == MESHVK_OK)
        device += " '" + std::string(pd.name) + "'";
      device += " (device index " + std::to_string(info.device_index) + ", VkDevice " +
                std::to_string(info.logical_device) + ")";
    }
    std::fprintf(
        out,
        "process %u: %s\n  bytes: %llu argument, %llu result, %llu transient, %llu constant\n"
        "  %u dispatches, %u copies, %u fills in %u phases; %llu bytes in from peers, %llu bytes local copies\n",
        p, device.c_str(), static_cast<unsigned long long>(s.argument_bytes),
        static_cast<unsigned long long>(s.result_bytes), static_cast<unsigned long long>(s.transient_bytes),
        static_cast<unsigned long long>(s.constant_bytes), s.dispatch_count, s.copy_count, s.fill_count, s.phase_count,
        static_cast<unsigned long long>(s.peer_bytes_in), static_cast<unsigned long long>(s.local_copy_bytes));
    PrintPeak(out, s, set, p);
    uint64_t by_path[MESHVK_COPY_PATH_COUNT] = {};
    if (program && meshvk_program_copy_bytes(program, function, p, by_path) == MESHVK_OK) {
      std::string line;
      for (uint32_t k = MESHVK_COPY_PATH_SAME_DEVICE; k < MESHVK_COPY_PATH_COUNT; ++k) {
        if (!by_path[k]) continue;
        line += (line.empty() ? "" : ", ") + std::to_string(by_path[k]) + " by " +
                meshvk_copy_path_name(static_cast<meshvk_copy_path_t>(k));
        total_by_path[k] += by_path[k];
      }
      std::fprintf(out, "  bytes copied in: %s\n", line.empty() ? "none" : line.c_str());
      if (uint64_t staging = meshvk_device_set_staging_bytes(set, p))
        std::fprintf(out,
                     "  staging: %llu bytes on its device (host-staging landing buffers; not in the plan's bytes)\n",
                     static_cast<unsigned long long>(staging));
    }
    total.argument_bytes += s.argument_bytes;
    total.result_bytes += s.result_bytes;
    total.transient_bytes += s.transient_bytes;
    total.constant_bytes += s.constant_bytes;
    total.dispatch_count += s.dispatch_count;
    total.copy_count += s.copy_count;
    total.fill_count += s.fill_count;
    total.peer_bytes_in += s.peer_bytes_in;
  }
  unsigned long long allocated =
      total.argument_bytes + total.result_bytes + total.transient_bytes + total.constant_bytes;
  std::fprintf(out,
               "total: %llu bytes allocated (%llu argument, %llu result, %llu transient, %llu constant); "
               "%u dispatches, %u copies, %u fills; %llu bytes copied between processes\n",
               allocated, static_cast<unsigned long long>(total.argument_bytes),
               static_cast<unsigned long long>(total.result_bytes),
               static_cast<unsigned long long>(total.transient_bytes),
               static_cast<unsigned long long>(total.constant_bytes), total.dispatch_count, total.copy_count,
               total.fill_count, static_cast<unsigned long long>(total.peer_bytes_in));
  if (!program) return;
  std::string line;
  for (uint32_t k = MESHVK_COPY_PATH_SAME_DEVICE; k < MESHVK_COPY_PATH_COUNT; ++k)
    line += std::string(k > MESHVK_COPY_PATH_SAME_DEVICE ? ", " : "") + std::to_string(total_by_path[k]) + " by " +
            meshvk_copy_path_name(static_cast<meshvk_copy_path_t>(k));
  std::fprintf(out, "copies by path: %s\n", line.c_str());
}

}  // namespace meshvk_run
