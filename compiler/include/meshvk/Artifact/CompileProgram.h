// meshvk/Artifact/CompileProgram.h — the whole compiler chain behind one call:
// .mlir text -> parse -> (grid override) -> meshvk-compile-plan -> kernel
// codegen -> .mvk bytes. Used by mesh-vk-compile, by mesh-vk-run to compile
// in-process, and by the e2e/conformance tests.
//
// Only standard C++ types in this header (no MLIR), so a tool that links the
// runtime can include it without MLIR's include paths mattering.
#ifndef MESHVK_ARTIFACT_COMPILEPROGRAM_H_
#define MESHVK_ARTIFACT_COMPILEPROGRAM_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "meshvk/Codegen/TargetDescription.h"

namespace meshvk {

struct ProgramOptions {
  // Limits the kernels are tiled for (a preset from codegen::lookupTarget, or
  // filled from a real device by the caller).
  codegen::TargetDescription device = codegen::lavapipeTarget();
  // Vulkan version of the target, major * 100 + minor: 101, 102 or 103. It caps
  // the SPIR-V version the kernels may use (1.1 -> 1.3, 1.2 -> 1.5, 1.3 -> 1.6).
  uint32_t vulkanVersion = 101;
  // Replaces the shape of the program's (only) shard.grid before partitioning,
  // e.g. {2, 2}; empty keeps the shape written in the program.
  std::vector<int64_t> gridShape;
  // The process count for a grid whose shape has `?` axes (`shard.grid @g(shape
  // = ?)`, or `2x?`): the `?` axis gets processes / (product of the static
  // axes). 0: such a grid is refused with what to pass. `gridShape` wins.
  int64_t dynamicGridProcesses = 0;
  // A grid with a `?` axis and neither `gridShape` nor `dynamicGridProcesses`:
  // the process counts to compile a plan for, all packed into ONE .mvk (a file
  // of variants, meshvk/artifact/variants.h; the runtime picks one by its
  // device count). Empty: kDefaultGridSizes. A count the program cannot take
  // (a shard would be empty, a static axis does not divide it, ...) is left
  // out with one warning; none compiling is the (one-line) error. Non-empty for a program
  // without a `?` grid is an error.
  std::vector<int64_t> gridSizes;
  // false: a dynamic grid with no count is refused with what to pass instead
  // of compiled for every count (mesh-vk-run, which runs one count only).
  bool compileGridVariants = true;
  std::string producer = "mesh-vk-compile 0.1";
  // When set: each deduplicated kernel's SPIR-V and its disassembly are written
  // to <dir>/<kernel>.spv and <dir>/<kernel>.spvasm (the directory is created).
  std::string dumpDirectory;
  // mesh-vk-compile's MLIR debugging options: apply MLIR's registered
  // command-line options to the plan pipeline's pass manager
  // (--mlir-print-ir-*, --mlir-timing), and keep the "see current operation"
  // note in the error line (--mlir-print-op-on-diagnostic given explicitly).
  bool applyMlirCommandLineOptions = false;
  bool keepOperationNotes = false;
  // ONNX models (compileProgramFile of a `.onnx` path): the sharding policy
  // the importer writes as annotations: "none" (one process), "data", "tensor"
  // (over a 1-D grid of gridShape's product processes), or a SPEC.json path.
  std::string onnxShard = "none";
  // Dynamic input dimensions fixed by ONNX input name: {"x", {1, 3, 224, 224}}.
  std::vector<std::pair<std::string, std::vector<int64_t>>> onnxInputShapes;
  // The shapes of the inputs a run will pass, in the order given, each with
  // its ONNX input name or "" for a positional one (an empty shape when it is
  // not known): dynamic dimensions no onnxInputShapes entry fixes are taken
  // from them where they fit (OnnxImportOptions::inputShapeHintsByName/-Position).
  std::vector<std::pair<std::string, std::vector<int64_t>>> onnxInputShapeHints;
  // Compile in a child process (fork), so that a crash in upstream code on
  // bad input (MLIR's parser, a pass, libonnx's shape inference) becomes the
  // one error line naming the stage instead of taking the caller down.
  // false: compile in this process (libFuzzer targets, which need the
  // coverage of the code they run; MESHVK_COMPILE_IN_PROCESS=1 does the same
  // for a debugger).
  bool isolateCrashes = true;
  // --precision=f16: f32 tensors (weights, activations, the function's
  // arguments and results) stored as f16, arithmetic and accumulators f32
  // (meshvk-store-in-f16). The boundary keeps f32: each such argument and
  // result is declared F32 in the artifact, so runners convert at upload and
  // read-back. Needs device.storageBuffer16BitAccess (one error otherwise).
  bool storeInF16 = false;
};

// What the plan says, for --print-plan style reports and for tests that compare
// the runtime's allocations and copies with the plan.
struct ProcessMemoryPlan {
  uint64_t argumentBytes = 0, resultBytes = 0, transientBytes = 0, constantBytes = 0;
};
struct CollectivePlan {
  std::string kind, algorithm;
  int64_t groupSize = 0;
  std::vector<int64_t> pulledBytes; // per process
};
// One plan of a file of variants, as compiled.
struct CompiledVariant {
  int64_t processes = 0;
  std::vector<int64_t> gridShape;
  uint64_t artifactBytes = 0; // the plan's own .mvk image
  double compileSeconds = 0;
  std::vector<ProcessMemoryPlan> memory;
  std::vector<CollectivePlan> collectives;
};
struct CompiledProgram {
  std::vector<uint8_t> artifact;         // the .mvk image
  std::vector<int64_t> gridShape;        // the grid it was compiled for (empty: variants)
  std::vector<ProcessMemoryPlan> memory; // per process
  std::vector<CollectivePlan> collectives;
  // One line per warning the compiler gave ("NAME:LINE:COL: warning: what"),
  // e.g. annotations it ignored; the tools print them to stderr.
  std::vector<std::string> warnings;
  // An ONNX model: which sharding policy put which split on which tensor, and
  // what it left replicated and why (OnnxSignature::plan); --print-plan prints it.
  std::vector<std::string> shardingPlan;
  // A dynamic grid compiled for several process counts: the plans in the
  // file, in the order of ProgramOptions::gridSizes (gridShape, memory and
  // collectives above are then empty).
  std::vector<CompiledVariant> variants;
};

// The process counts a dynamic grid is compiled for when none are asked for:
// 1 to 8, the device counts of one machine (a node of 8 GPUs is the common
// large case). Each plan costs about one compile (~0.2 s for a small program).
inline const std::vector<int64_t> kDefaultGridSizes = {1, 2, 3, 4, 5, 6, 7, 8};

// Compiles `source` (named `bufferName` in messages). Returns "" on success,
// else ONE line "NAME:LINE:COL: error: what (expected ...)"; `out` is then left
// empty (a dynamic grid that compiles for none of its counts: the line names
// each count's reason). Never aborts on bad input.
std::string compileProgramSource(const std::string &source, const std::string &bufferName,
                                 const ProgramOptions &options, CompiledProgram *out);
// Reads `path` first ("PATH: cannot read: <errno text>" when it cannot). A
// path ending in `.onnx` is an ONNX model: imported (meshvk/Import/OnnxImport.h)
// with options.onnxShard and options.onnxInputShapes, then compiled the same way.
std::string compileProgramFile(const std::string &path, const ProgramOptions &options,
                               CompiledProgram *out);

// Parses "4", "2x2", "1" into a grid shape; false (with *error) otherwise.
bool parseGridShape(const std::string &text, std::vector<int64_t> *shape, std::string *error);
// Parses a list of process counts for a dynamic grid: counts 1..1024 and
// ranges A-B joined by commas ("1,2,4,8", "1-4", "1-4,8"), each count once;
// false (with *error) otherwise.
bool parseGridSizes(const std::string &text, std::vector<int64_t> *sizes, std::string *error);
// Parses an ONNX input's fixed shape, "x=1x3x224x224" (NAME=AxBx..., extents
// as parseGridShape's), into {name, shape}: the value of mesh-vk-compile's and
// mesh-vk-run's --input-shape. False otherwise, *error then "expected
// NAME=AxBx... (e.g. x=1x3x224x224)".
bool parseOnnxInputShape(const std::string &text,
                         std::pair<std::string, std::vector<int64_t>> *nameAndShape,
                         std::string *error);
// Each of `specs` (--input-shape values) by parseOnnxInputShape, appended to
// options->onnxInputShapes; false with "--input-shape=SPEC: ..." for the
// first bad one. What mesh-vk-compile and mesh-vk-run's in-process compile
// both do with the flag.
bool parseOnnxInputShapes(const std::vector<std::string> &specs, ProgramOptions *options,
                          std::string *error);
// Whether an ONNX model's --shard policy splits over a grid its caller
// gives (data, tensor, data,tensor: --grid-shape or the process count), not
// none or a SPEC.json (which names its own grid). Text that is no policy
// counts as one that splits: its compile then says what is wrong with it.
bool onnxShardTakesGrid(const std::string &policy);
// Parses "1.1", "1.2", "1.3" into 101..103; false (with *error) otherwise.
bool parseVulkanVersion(const std::string &text, uint32_t *version, std::string *error);
// --precision: "f32" (false) or "f16" (true: ProgramOptions::storeInF16);
// anything else false with "'f8' is not a precision (expected f32 or f16)".
bool parsePrecision(const std::string &text, bool *storeInF16, std::string *error);

} // namespace meshvk

#endif // MESHVK_ARTIFACT_COMPILEPROGRAM_H_
