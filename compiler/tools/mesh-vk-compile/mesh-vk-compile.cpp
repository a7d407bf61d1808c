// mesh-vk-compile: PROGRAM.mlir -> PROGRAM.mvk (the whole chain of
// meshvk/Artifact/CompileProgram.h). Exit codes: 0 ok, 2 bad input or usage
// (one line on stderr: file:line:col, what, what was expected), 3 device
// discovery failed (--target-device=auto). The output file is written under a
// temporary name and renamed, so a failure never leaves a half-written .mvk.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "meshvk/Codegen/RuntimeDevice.h"
#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/meshvk.h"

namespace {

constexpr int kExitOk = 0, kExitUsage = 2, kExitDevice = 3;

const char kUsage[] =
    "usage: mesh-vk-compile PROGRAM.mlir -o PROGRAM.mvk [options]\n"
    "  -o FILE, --output=FILE     the .mvk artifact to write\n"
    "  --target-device=NAME       device limits the kernels are tiled for: lavapipe (default),\n"
    "                             generic, or auto (probe physical device 0 of this machine)\n"
    "  --vulkan-version=V         target Vulkan version 1.1 (default), 1.2 or 1.3; caps the\n"
    "                             SPIR-V version of the kernels (1.3, 1.5, 1.6)\n"
    "  --grid-shape=SHAPE         compile for another grid than the program's shard.grid\n"
    "                             (e.g. 1, 2, 4, 2x2); shards must still divide evenly\n"
    "  --print-plan               print per-process bytes and collectives of the plan\n"
    "  --dump-kernels=DIR         also write each distinct kernel's SPIR-V to DIR/<kernel>.spv\n"
    "                             and its disassembly to DIR/<kernel>.spvasm (DIR is created)\n";

int Usage(const std::string& message) {
  std::fprintf(stderr, "mesh-vk-compile: %s (see --help)\n", message.c_str());
  return kExitUsage;
}

// Fills `out` from physical device 0 through the runtime's discovery.
int ProbeDevice(meshvk::codegen::TargetDescription* out, uint32_t* api_version) {
  meshvk_instance_t* instance = nullptr;
  if (meshvk_status_t status = meshvk_instance_create(nullptr, &instance)) {
    std::fprintf(stderr, "mesh-vk-compile: --target-device=auto: %s\n", meshvk_status_message(status));
    meshvk_status_free(status);
    return kExitDevice;
  }
  meshvk_physical_device_info_t info{};
  meshvk_status_t status = meshvk_instance_physical_device_count(instance) == 0
                               ? nullptr
                               : meshvk_instance_physical_device_info(instance, 0, &info);
  bool none = meshvk_instance_physical_device_count(instance) == 0;
  meshvk_instance_release(instance);
  if (none || status) {
    std::fprintf(stderr, "mesh-vk-compile: --target-device=auto: %s\n",
                 none ? "no Vulkan physical device found" : meshvk_status_message(status));
    meshvk_status_free(status);
    return kExitDevice;
  }
  // Limits come from the device, tuning knobs from the preset measured for it
  // (the one mapping mesh-vk-run and the codegen tests use too).
  *out = meshvk::codegen::targetForDevice(info);
  *api_version = ((info.api_version >> 22) & 0x7f) * 100 + ((info.api_version >> 12) & 0x3ff);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  std::string input, output, device = "lavapipe", vulkan = "1.1", grid;
  bool print_plan = false;
  meshvk::ProgramOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* name, std::string* into) {
      std::string prefix = std::string(name) + "=";
      if (arg.rfind(prefix, 0) != 0) return false;
      *into = arg.substr(prefix.size());
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return kExitOk;
    } else if (arg == "-o") {
      if (i + 1 >= argc) return Usage("-o needs a file name");
      output = argv[++i];
    } else if (value("--output", &output) || value("--target-device", &device) ||
               value("--vulkan-version", &vulkan) || value("--grid-shape", &grid)) {
    } else if (value("--dump-kernels", &options.dumpDirectory)) {
      if (options.dumpDirectory.empty()) return Usage("--dump-kernels needs a directory (--dump-kernels=DIR)");
    } else if (arg == "--print-plan") {
      print_plan = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return Usage("unknown option '" + arg + "'");
    } else if (input.empty()) {
      input = arg;
    } else {
      return Usage("one program at a time (got '" + input + "' and '" + arg + "')");
    }
  }
  if (input.empty()) return Usage("no PROGRAM.mlir given");
  if (output.empty()) return Usage("no output given (-o PROGRAM.mvk)");

  std::string error;
  if (!meshvk::parseVulkanVersion(vulkan, &options.vulkanVersion, &error))
    return Usage("--vulkan-version: " + error);
  if (!grid.empty() && !meshvk::parseGridShape(grid, &options.gridShape, &error))
    return Usage("--grid-shape: " + error);
  if (device == "auto") {
    uint32_t api = 0;
    if (int code = ProbeDevice(&options.device, &api)) return code;
    if (api < options.vulkanVersion)
      return Usage("--vulkan-version=" + vulkan + ": device '" + options.device.name + "' supports Vulkan " +
                   std::to_string(api / 100) + "." + std::to_string(api % 100));
  } else if (!meshvk::codegen::lookupTarget(device, &options.device)) {
    return Usage("--target-device: unknown device '" + device + "' (expected lavapipe, generic or auto)");
  }

  meshvk::CompiledProgram program;
  error = meshvk::compileProgramFile(input, options, &program);
  if (!error.empty()) {
    std::fprintf(stderr, "mesh-vk-compile: %s\n", error.c_str());
    return kExitUsage;
  }
  std::string temporary = output + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(program.artifact.data()),
              static_cast<std::streamsize>(program.artifact.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      std::fprintf(stderr, "mesh-vk-compile: %s: cannot write: %s\n", output.c_str(), std::strerror(errno));
      return kExitUsage;
    }
  }
  if (std::rename(temporary.c_str(), output.c_str()) != 0) {
    std::remove(temporary.c_str());
    std::fprintf(stderr, "mesh-vk-compile: %s: cannot write: %s\n", output.c_str(), std::strerror(errno));
    return kExitUsage;
  }
  if (print_plan) {
    std::string shape;
    for (int64_t e : program.gridShape) shape += (shape.empty() ? "" : "x") + std::to_string(e);
    std::printf("grid %s, %zu processes, %zu bytes written to %s\n", shape.c_str(), program.memory.size(),
                program.artifact.size(), output.c_str());
    for (size_t p = 0; p < program.memory.size(); ++p)
      std::printf("process %zu: arguments %llu B, results %llu B, transients %llu B\n", p,
                  (unsigned long long)program.memory[p].argumentBytes,
                  (unsigned long long)program.memory[p].resultBytes,
                  (unsigned long long)program.memory[p].transientBytes);
    for (const auto& c : program.collectives) {
      long long total = 0;
      for (int64_t b : c.pulledBytes) total += b;
      std::printf("collective %s (%s, group of %lld): %lld bytes pulled across devices\n", c.kind.c_str(),
                  c.algorithm.c_str(), (long long)c.groupSize, total);
    }
  }
  return kExitOk;
}
