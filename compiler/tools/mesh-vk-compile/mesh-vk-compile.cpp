// mesh-vk-compile: PROGRAM.mlir -> PROGRAM.mvk (the whole chain of
// meshvk/Artifact/CompileProgram.h). Exit codes: 0 ok, 2 bad input or usage
// (one line on stderr: file:line:col, what, what was expected), 3 device
// discovery failed (--target-device=auto). The output file is written under a
// temporary name and renamed, so a failure never leaves a half-written .mvk.
// Options are LLVM cl options (it is an MLIR tool), MLIR's debugging options
// included; PROGRAM.mlir may be - (stdin).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "meshvk_environment.h"
#include "meshvk/Codegen/RuntimeDevice.h"
#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/Import/OnnxImport.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "flag_spelling.h"
#include "output_files.h"
#include "plan_graph.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

namespace {

constexpr int kExitOk = 0, kExitUsage = 2, kExitDevice = 3;

// Options live in one category so --help shows them first; MLIR's debugging
// options (--mlir-print-ir-after-all, --mlir-timing,
// --mlir-print-op-on-diagnostic, ...) are registered in main.
llvm::cl::OptionCategory toolCategory("mesh-vk-compile options");
llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                     llvm::cl::desc("PROGRAM.mlir (- reads stdin)"),
                                     llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("the .mvk artifact to write"),
                                      llvm::cl::value_desc("file"), llvm::cl::cat(toolCategory));
llvm::cl::alias outputAlias("output", llvm::cl::desc("alias for -o"),
                            llvm::cl::aliasopt(outputFile));
llvm::cl::opt<std::string> targetDevice(
    "target-device", llvm::cl::init("lavapipe"), llvm::cl::cat(toolCategory),
    llvm::cl::desc(
        "device limits the kernels are tiled for: lavapipe (default), gpu (the GPU tuning "
        "family, runs on any device), generic, or auto (probe this machine's physical devices: "
        "one target all of them run)"));
llvm::cl::opt<std::string> vulkanVersion(
    "vulkan-version", llvm::cl::init("1.1"), llvm::cl::cat(toolCategory),
    llvm::cl::desc(
        "target Vulkan version 1.1 (default), 1.2 or 1.3; caps the SPIR-V version of the kernels"));
llvm::cl::opt<std::string> precision(
    "precision", llvm::cl::init("f32"), llvm::cl::cat(toolCategory),
    llvm::cl::desc("f32 (default) or f16: f32 weights and activations stored as f16, matmuls, "
                   "convolutions and reductions accumulating in f32; inputs and results stay f32"));
llvm::cl::opt<std::string> gridShape(
    "grid-shape", llvm::cl::cat(toolCategory),
    llvm::cl::desc("compile for another grid than the program's shard.grid (e.g. 1, 2, 4, 2x2)"));
llvm::cl::opt<std::string> gridSizes(
    "grid-sizes", llvm::cl::cat(toolCategory), llvm::cl::value_desc("counts"),
    llvm::cl::desc("a dynamic grid (shard.grid @g(shape = ?)): the process counts to put a plan "
                   "for into the one .mvk, e.g. 1,2,4,8 or 1-4,8 (default 1-8); counts the "
                   "program cannot take are left out with a warning"));
llvm::cl::opt<std::string> shardPolicy(
    "shard", llvm::cl::cat(toolCategory), llvm::cl::init("none"), llvm::cl::value_desc("policy"),
    llvm::cl::desc("an ONNX model's sharding: none (default), data (batch split), tensor "
                   "(Megatron weights), data,tensor (one policy per axis of a 2-D "
                   "--grid-shape, e.g. 2x2), or SPEC.json; over --grid-shape's processes"));
llvm::cl::list<std::string> inputShapes(
    "input-shape", llvm::cl::cat(toolCategory), llvm::cl::value_desc("name=AxBx..."),
    llvm::cl::desc("an ONNX model's dynamic input dimensions, e.g. x=1x3x224x224 (repeatable)"));
llvm::cl::opt<bool>
    printPlan("print-plan", llvm::cl::cat(toolCategory),
              llvm::cl::desc("print per-process bytes and collectives of the plan"));
llvm::cl::opt<std::string> dumpKernels(
    "dump-kernels", llvm::cl::cat(toolCategory), llvm::cl::value_desc("dir"),
    llvm::cl::desc("also write each distinct kernel's SPIR-V and disassembly to DIR (created)"));
llvm::cl::opt<std::string> planGraph(
    "plan-graph", llvm::cl::cat(toolCategory), llvm::cl::value_desc("file.dot"),
    llvm::cl::desc(
        "also write the plan of the (first) function as a Graphviz picture: processes x phases as "
        "clusters, dispatches as nodes, copies as edges with bytes and path"));
llvm::cl::opt<bool>
    verbose("verbose", llvm::cl::cat(toolCategory),
            llvm::cl::desc("tell on stderr what the compiler decided (target, grid, sizes)"));
llvm::cl::alias verboseAlias("v", llvm::cl::desc("alias for --verbose"),
                             llvm::cl::aliasopt(verbose));

int Usage(const std::string &message) {
  std::fprintf(stderr, "mesh-vk-compile: %s (see --help)\n", message.c_str());
  return kExitUsage;
}

// Fills `out` from every physical device of this machine through the
// runtime's discovery: one target all of them run (a run may place processes
// on any of them), each device mapped as mesh-vk-run maps it; `*api_version`
// the lowest Vulkan version among them (major * 100 + minor).
int ProbeDevices(meshvk::codegen::TargetDescription *out, uint32_t *api_version) {
  meshvk_instance_t *instance = nullptr;
  if (meshvk_status_t status = meshvk_environment_create_instance(&instance)) {
    std::fprintf(stderr, "mesh-vk-compile: --target-device=auto: %s\n",
                 meshvk_status_message(status));
    meshvk_status_free(status);
    return kExitDevice;
  }
  std::vector<meshvk::codegen::TargetDescription> targets;
  *api_version = UINT32_MAX;
  meshvk_status_t status = nullptr;
  for (uint32_t i = 0; !status && i < meshvk_instance_physical_device_count(instance); ++i) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    status = meshvk_instance_physical_device_info(instance, i, &info);
    if (status)
      break;
    // Limits come from the device, tuning knobs from the preset measured for
    // it (the one mapping mesh-vk-run and the codegen tests use too).
    targets.push_back(meshvk::codegen::targetForDevice(info));
    *api_version = std::min<uint32_t>(*api_version, ((info.api_version >> 22) & 0x7f) * 100 +
                                                        ((info.api_version >> 12) & 0x3ff));
  }
  meshvk_instance_release(instance);
  if (targets.empty() || status) {
    std::fprintf(stderr, "mesh-vk-compile: --target-device=auto: %s\n",
                 status ? meshvk_status_message(status) : "no Vulkan physical device found");
    meshvk_status_free(status);
    return kExitDevice;
  }
  *out = meshvk::codegen::commonTarget(targets);
  return kExitOk;
}

// What one run was asked for, from the command line.
struct Invocation {
  std::string input, output, device, vulkan, grid, graph;
  meshvk::ProgramOptions options;
};

// --shard and --input-shape, which only an ONNX model takes.
int ParseOnnxOptions(Invocation *run) {
  bool onnx = llvm::StringRef(run->input).ends_with(".onnx");
  if (!onnx && (shardPolicy.getNumOccurrences() || inputShapes.getNumOccurrences()))
    return Usage("--shard and --input-shape apply to ONNX models (.onnx); an .mlir program carries "
                 "its own shard annotations");
  run->options.onnxShard = shardPolicy;
  std::string error; // checkOnnxShardGrid parses the policy first
  if (onnx && !meshvk::checkOnnxShardGrid(shardPolicy, run->options.gridShape, &error))
    return Usage(error);
  if (!meshvk::parseOnnxInputShapes({inputShapes.begin(), inputShapes.end()}, &run->options,
                                    &error))
    return Usage(error);
  return kExitOk;
}

// The options --help lists (not the hidden ones): what an unknown flag is
// compared with for a suggestion.
std::vector<std::string> VisibleOptions() {
  std::vector<std::string> names;
  for (const auto &entry : llvm::cl::getRegisteredOptions())
    if (entry.second->getOptionHiddenFlag() == llvm::cl::NotHidden)
      names.push_back(entry.first.str());
  return names;
}

// cl's first error line in the tool's words. "Unknown command line argument
// 'X'.  Try: ..." (its own suggestion follows on a second line, which the one-
// line contract drops) becomes "unknown flag 'X'; did you mean --Y?" as in
// mesh-vk-run, X as the user typed it (`given`, before DashSpelling).
std::string DescribeParseError(const std::string &errors, const std::vector<std::string> &given,
                               const std::vector<std::string> &spelled) {
  std::string first = errors.substr(0, errors.find('\n'));
  if (first.rfind("mesh-vk-compile: ", 0) == 0)
    first = first.substr(17);
  const std::string unknown = "Unknown command line argument '";
  if (size_t try_help = first.find("'.  Try: ");
      first.rfind(unknown, 0) == 0 && try_help != std::string::npos) {
    std::string arg = first.substr(unknown.size(), try_help - unknown.size());
    for (size_t i = 0; i < spelled.size(); ++i)
      if (spelled[i] == arg) {
        arg = given[i];
        break;
      }
    return meshvk_run::UnknownFlagMessage(arg, VisibleOptions());
  }
  if (size_t try_help = first.find(".  Try: "); try_help != std::string::npos)
    first = first.substr(0, try_help);
  return first;
}

// --help lists the tool's flags and MLIR's documented ones (--mlir-timing,
// ...), not the hundreds LLVM's libraries register (--amdgpu-*, ...), and a
// did-you-mean suggests only those. Hidden flags still parse.
void HideLibraryOptions() {
  llvm::cl::HideUnrelatedOptions(toolCategory);
  for (auto &entry : llvm::cl::getRegisteredOptions())
    if (entry.first.starts_with("mlir-"))
      entry.second->setHiddenFlag(llvm::cl::NotHidden);
}

// Parses and checks the command line into `run`; kExitOk, or the exit code
// after one line on stderr. cl reports into `errors` and returns false (it
// would exit(1) with several lines otherwise): the tool's contract is one
// line and exit 2. Flags are read in their dash spelling, underscores accepted
// (flag_spelling.h: --print_plan is --print-plan, as in mesh-vk-run).
int ParseArguments(int argc, char **argv, Invocation *run) {
  const std::vector<std::string> given(argv, argv + argc);
  const auto &registered = llvm::cl::getRegisteredOptions();
  const std::vector<std::string> spelled = meshvk_run::DashSpelling(
      given, [&](const std::string &name) { return registered.count(name) > 0; });
  std::vector<const char *> spelledArgv;
  for (const std::string &arg : spelled)
    spelledArgv.push_back(arg.c_str());
  HideLibraryOptions();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!llvm::cl::ParseCommandLineOptions(argc, spelledArgv.data(),
                                         "meshvk compiler: PROGRAM.mlir -> PROGRAM.mvk\n",
                                         &errorStream)) {
    errorStream.flush();
    return Usage(DescribeParseError(errors, given, spelled));
  }
  run->input = inputFile, run->output = outputFile, run->device = targetDevice;
  run->vulkan = vulkanVersion, run->grid = gridShape;
  std::string sizes = gridSizes;
  meshvk::ProgramOptions &options = run->options;
  options.dumpDirectory = dumpKernels;
  if (dumpKernels.getNumOccurrences() && options.dumpDirectory.empty())
    return Usage("--dump-kernels needs a directory (--dump-kernels=DIR)");
  options.applyMlirCommandLineOptions = true;
  if (auto *opt = llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic"))
    options.keepOperationNotes = opt->getNumOccurrences() > 0;
  if (run->input.empty())
    return Usage("no PROGRAM.mlir given");
  if (run->output.empty())
    return Usage("no output given (-o PROGRAM.mvk)");
  run->graph = planGraph;
  if (planGraph.getNumOccurrences() && run->graph.empty())
    return Usage("--plan-graph needs a file (--plan-graph=FILE.dot)");
  // Checked before compiling: a bad path is bad usage, not a lost compile.
  if (std::string why; !run->graph.empty() && !meshvk_run::OutputFiles::CheckPath(run->graph, &why))
    return Usage("--plan-graph: " + why);
  std::string error;
  if (!meshvk::parseVulkanVersion(run->vulkan, &options.vulkanVersion, &error))
    return Usage("--vulkan-version: " + error);
  if (!run->grid.empty() && !meshvk::parseGridShape(run->grid, &options.gridShape, &error))
    return Usage("--grid-shape: " + error);
  if (!meshvk::parsePrecision(precision, &options.storeInF16, &error))
    return Usage("--precision: " + error);
  if (gridSizes.getNumOccurrences() && !run->grid.empty())
    return Usage("--grid-sizes and --grid-shape: give one (--grid-shape compiles one plan for one "
                 "grid, --grid-sizes one plan per process count of a dynamic grid)");
  if (gridSizes.getNumOccurrences() && !meshvk::parseGridSizes(sizes, &options.gridSizes, &error))
    return Usage("--grid-sizes: " + error);
  return ParseOnnxOptions(run);
}

// The device the kernels are tiled for: a preset, or this machine's devices.
int ChooseTarget(Invocation *run) {
  meshvk::ProgramOptions &options = run->options;
  if (run->device == "auto") {
    uint32_t api = 0;
    if (int code = ProbeDevices(&options.device, &api))
      return code;
    if (api < options.vulkanVersion)
      return Usage("--vulkan-version=" + run->vulkan + ": device '" + options.device.name +
                   "' supports Vulkan " + std::to_string(api / 100) + "." +
                   std::to_string(api % 100));
  } else if (!meshvk::codegen::lookupTarget(run->device, &options.device)) {
    return Usage("--target-device: unknown device '" + run->device +
                 "' (expected lavapipe, gpu, generic or auto)");
  }
  if (verbose)
    std::fprintf(stderr,
                 "mesh-vk-compile: target device '%s' (workgroup invocations <= %u, shared memory "
                 "%u B, subgroup %u), "
                 "Vulkan %u.%u, grid %s\n",
                 options.device.name.c_str(), options.device.maxWorkgroupInvocations,
                 options.device.maxSharedMemoryBytes, options.device.subgroupSize,
                 options.vulkanVersion / 100, options.vulkanVersion % 100,
                 run->grid.empty() ? "as written in the program" : run->grid.c_str());
  return kExitOk;
}

// Writes the artifact under a temporary name and renames it, so a failure
// never leaves a half-written .mvk.
int WriteArtifact(const meshvk::CompiledProgram &program, const std::string &output) {
  std::string temporary = output + ".partial";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(program.artifact.data()),
              static_cast<std::streamsize>(program.artifact.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      std::fprintf(stderr, "mesh-vk-compile: %s: cannot write: %s\n", output.c_str(),
                   std::strerror(errno));
      return kExitUsage;
    }
  }
  if (std::rename(temporary.c_str(), output.c_str()) != 0) {
    std::remove(temporary.c_str());
    std::fprintf(stderr, "mesh-vk-compile: %s: cannot write: %s\n", output.c_str(),
                 std::strerror(errno));
    return kExitUsage;
  }
  return kExitOk;
}

// The picture is drawn from the artifact just written, loaded (and verified)
// by the runtime like any .mvk: one writer for both tools. A file of plans (a
// dynamic grid): the picture of the largest count.
int WriteGraph(const meshvk::CompiledProgram &program, const std::string &graph) {
  meshvk_module_t *module = nullptr;
  if (meshvk_status_t status =
          meshvk_module_load(program.artifact.data(), program.artifact.size(), &module)) {
    std::fprintf(stderr, "mesh-vk-compile: --plan-graph: %s\n", meshvk_status_message(status));
    meshvk_status_free(status);
    return kExitDevice;
  }
  if (!program.variants.empty()) {
    meshvk_module_t *plan = nullptr;
    meshvk_status_t status = meshvk_module_select_process_count(
        module, static_cast<uint32_t>(program.variants.back().processes), &plan);
    meshvk_module_release(module);
    if (status) {
      std::fprintf(stderr, "mesh-vk-compile: --plan-graph: %s\n", meshvk_status_message(status));
      meshvk_status_free(status);
      return kExitDevice;
    }
    module = plan;
  }
  std::string why;
  bool ok = meshvk_run::WritePlanGraph(graph, module, 0, nullptr, &why);
  meshvk_module_release(module);
  if (!ok) {
    std::fprintf(stderr, "mesh-vk-compile: --plan-graph: %s\n", why.c_str());
    return kExitUsage;
  }
  return kExitOk;
}

std::string ShapeText(const std::vector<int64_t> &shape) {
  std::string text;
  for (int64_t e : shape)
    text += (text.empty() ? "" : "x") + std::to_string(e);
  return text;
}

// --verbose: what was compiled, on stderr.
void ReportCompiled(const meshvk::CompiledProgram &program, const std::string &output) {
  if (program.variants.empty())
    std::fprintf(stderr,
                 "mesh-vk-compile: grid %s, %zu processes, %zu collectives, %zu-byte artifact "
                 "%s\n",
                 ShapeText(program.gridShape).c_str(), program.memory.size(),
                 program.collectives.size(), program.artifact.size(), output.c_str());
  for (const meshvk::CompiledVariant &v : program.variants)
    std::fprintf(stderr,
                 "mesh-vk-compile: plan for %lld processes: grid %s, %zu collectives, %llu-byte "
                 "plan, compiled in %.2f s\n",
                 (long long)v.processes, ShapeText(v.gridShape).c_str(), v.collectives.size(),
                 (unsigned long long)v.artifactBytes, v.compileSeconds);
  if (!program.variants.empty())
    std::fprintf(stderr, "mesh-vk-compile: %zu plans, %zu-byte artifact %s\n",
                 program.variants.size(), program.artifact.size(), output.c_str());
}

void PrintPlanOf(const std::vector<meshvk::ProcessMemoryPlan> &memory,
                 const std::vector<meshvk::CollectivePlan> &collectives,
                 const std::vector<std::string> &shardingPlan = {}) {
  for (const std::string &line : shardingPlan)
    std::printf("sharding: %s\n", line.c_str());
  for (size_t p = 0; p < memory.size(); ++p)
    std::printf(
        "process %zu: arguments %llu B, results %llu B, transients %llu B, constants %llu B\n", p,
        (unsigned long long)memory[p].argumentBytes, (unsigned long long)memory[p].resultBytes,
        (unsigned long long)memory[p].transientBytes, (unsigned long long)memory[p].constantBytes);
  for (const auto &c : collectives) {
    long long total = 0;
    for (int64_t b : c.pulledBytes)
      total += b;
    std::printf("collective %s (%s, group of %lld): %lld bytes pulled across devices\n",
                c.kind.c_str(), c.algorithm.c_str(), (long long)c.groupSize, total);
  }
}

// --print-plan: per-process bytes and collectives, on stdout.
void PrintPlan(const meshvk::CompiledProgram &program, const std::string &output) {
  if (program.variants.empty()) {
    std::printf("grid %s, %zu processes, %zu bytes written to %s\n",
                ShapeText(program.gridShape).c_str(), program.memory.size(),
                program.artifact.size(), output.c_str());
    PrintPlanOf(program.memory, program.collectives, program.shardingPlan);
    return;
  }
  std::string counts;
  for (const meshvk::CompiledVariant &v : program.variants)
    counts += (counts.empty() ? "" : ", ") + std::to_string(v.processes);
  std::printf("dynamic grid: plans for %s processes, %zu bytes written to %s\n", counts.c_str(),
              program.artifact.size(), output.c_str());
  for (const meshvk::CompiledVariant &v : program.variants) {
    std::printf("plan for %lld processes: grid %s, %llu-byte plan\n", (long long)v.processes,
                ShapeText(v.gridShape).c_str(), (unsigned long long)v.artifactBytes);
    PrintPlanOf(v.memory, v.collectives);
  }
}

// Compiles the program the invocation names (- reads stdin, named <stdin>
// in messages).
std::string Compile(const Invocation &run, meshvk::CompiledProgram *program) {
  if (run.input != "-")
    return meshvk::compileProgramFile(run.input, run.options, program);
  std::string source((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  return meshvk::compileProgramSource(source, "<stdin>", run.options, program);
}

} // namespace

int main(int argc, char **argv) {
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::registerAsmPrinterCLOptions();
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "mesh-vk-compile " MESHVK_VERSION_STRING " (meshvk compiler on MLIR " LLVM_VERSION_STRING
          ")\n";
  });
  Invocation run;
  if (int code = ParseArguments(argc, argv, &run))
    return code;
  if (int code = ChooseTarget(&run))
    return code;
  meshvk::CompiledProgram program;
  if (std::string error = Compile(run, &program); !error.empty()) {
    std::fprintf(stderr, "mesh-vk-compile: %s\n", error.c_str());
    return kExitUsage;
  }
  for (const std::string &warning : program.warnings)
    std::fprintf(stderr, "mesh-vk-compile: %s\n", warning.c_str());
  if (int code = WriteArtifact(program, run.output))
    return code;
  if (!run.graph.empty())
    if (int code = WriteGraph(program, run.graph))
      return code;
  if (verbose)
    ReportCompiled(program, run.output);
  if (printPlan)
    PrintPlan(program, run.output);
  return kExitOk;
}
