// libFuzzer target: program creation (and one run) from artifacts that the
// verifier accepts. Random bytes almost never verify, so the input drives a
// builder instead: the grid, the tensor size, then extra copies, fills and
// dispatches with fuzzed offsets, ranges, strides and workgroup counts. Every
// artifact the loader accepts is created on lavapipe, invoked with a short
// timeout and released: nothing may crash, leak or hang, and a verified
// artifact must fail (if at all) with a status, never a Vulkan validation
// error the verifier should have caught. Built in the sanitizer build only
// (it links the whole runtime).
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk_environment.h"
#include "programs.h"

namespace {

using namespace meshvk::artifact;

struct Reader {
  const uint8_t* p;
  size_t n;
  uint32_t U32(uint32_t max) {  // [0, max]
    uint32_t v = 0;
    for (int i = 0; i < 4 && n > 0; ++i, --n) v = (v << 8) | *p++;
    return max == UINT32_MAX ? v : v % (max + 1);
  }
  bool More() const { return n > 0; }
};

meshvk_instance_t* Instance() {
  static meshvk_instance_t* instance = [] {
    meshvk_instance_t* i = nullptr;
    if (meshvk_status_t s = meshvk_environment_create_instance(&i)) {
      meshvk_status_free(s);
      __builtin_trap();
    }
    return i;
  }();
  return instance;
}

meshvk_device_set_t* SetFor(uint32_t processes) {
  // Never destroyed: the sets live as long as the process (LeakSanitizer
  // would report them once a static map's destructor dropped the pointers).
  static auto& sets = *new std::map<uint32_t, meshvk_device_set_t*>();
  auto it = sets.find(processes);
  if (it != sets.end()) return it->second;
  meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  info.process_count = processes;
  meshvk_device_set_t* set = nullptr;
  if (meshvk_status_t s = meshvk_device_set_create(Instance(), &info, &set)) {
    meshvk_status_free(s);
    __builtin_trap();
  }
  return sets[processes] = set;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  static const std::vector<uint32_t> kGrids[] = {{1}, {2}, {4}, {2, 2}};
  std::vector<uint32_t> grid = kGrids[r.U32(3)];
  uint64_t rows = 1 + r.U32(15) * (grid.size() == 2 ? 2 : grid[0]), cols = 1 + r.U32(31);
  ArtifactBuilder b = meshvk_test::ElementwiseBuilder(grid, {{0}, {}}, rows, cols, 0.5f);
  uint32_t processes = b.process_count();
  // Extra commands appended to main (references spelled out: they count from
  // 0 after the last AddFunction, see builder.h).
  for (int c = 0; c < 6 && r.More(); ++c) {
    uint32_t p = r.U32(processes - 1), kind = r.U32(2);
    if (kind == 0) {
      FillDesc f{r.U32(3), 4 * r.U32(64), 4 * r.U32(64), r.U32(UINT32_MAX)};
      b.AddFill(p, f, {{p, 0}});
    } else if (kind == 1) {
      CopyDesc copy;
      copy.src_process = r.U32(processes - 1);
      copy.src_buffer = r.U32(2);
      copy.dst_buffer = 2;
      copy.src_offset = 4 * r.U32(16);
      copy.dst_offset = 4 * r.U32(16);
      copy.size = 4 * r.U32(64);
      if (r.U32(1)) {
        StridedRegionDesc region;
        for (int d = 0; d < 3; ++d) {
          region.count[d] = 1 + r.U32(7);
          region.src_stride[d] = r.U32(64);
          region.dst_stride[d] = r.U32(64);
        }
        copy.regions = {region};
        copy.size = 0;
      }
      b.AddCopy(p, copy, {{p, 0}, {copy.src_process, 0}});
    } else {
      DispatchDesc d;
      d.executable = 0;
      for (int i = 0; i < 3; ++i) d.workgroup_count[i] = 1 + r.U32(3);
      for (int i = 0; i < 3; ++i) d.bindings.push_back({i == 2 ? 2u : r.U32(2), 16 * r.U32(4), 4 * r.U32(32)});
      d.push_constants = meshvk_test::ScaledAddPush(r.U32(4096), 1.0f);
      b.AddDispatch(p, d, {{p, 0}});
    }
  }
  std::vector<uint8_t> bytes = b.Finish();
  meshvk_module_t* module = nullptr;
  if (meshvk_status_t s = meshvk_module_load(bytes.data(), bytes.size(), &module)) {
    meshvk_status_free(s);
    return 0;
  }
  meshvk_program_t* program = nullptr;
  if (meshvk_status_t s = meshvk_program_create(module, SetFor(processes), &program)) {
    meshvk_status_free(s);
  } else {
    std::vector<float> a(rows * cols, 1.0f), bb(rows * cols, 2.0f), c(rows * cols);
    meshvk_host_input_t inputs[2] = {{a.data(), a.size() * 4}, {bb.data(), bb.size() * 4}};
    meshvk_host_output_t output = {c.data(), c.size() * 4};
    meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
    invoke.inputs = inputs;
    invoke.input_count = 2;
    invoke.outputs = &output;
    invoke.output_count = 1;
    invoke.timeout = 10ull * 1000 * 1000 * 1000;
    meshvk_status_free(meshvk_program_invoke(program, &invoke));
    meshvk_program_release(program);
  }
  meshvk_module_release(module);
  return 0;
}
