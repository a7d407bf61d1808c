// bitflip_sweep ARTIFACT --input=SPEC... --expected=SPEC... [--every=N]
//   (SPEC as in mesh-vk-run, or @file.npy alone)
//               [--reseal] [--first=K] [--count=M]
// Flips every Nth bit of a .mvk file, one at a time, and runs each variant as
// mesh-vk-run would (load, check the signature, create the program on
// lavapipe, invoke, compare with the expected results from an independent
// oracle). The property (issue 13): no flipped bit runs to a wrong answer
// with success. Without --reseal the integrity trailer must refuse every
// flip; with --reseal the checksum is recomputed after the flip, so the
// verifier and program creation face the corruption: every variant must then
// be refused at load (or at creation for a device limit), or run. A variant
// that passes the verifier and then fails program creation fails the sweep
// (a structural defect the verifier missed). A flip may make a valid,
// different program (a push-constant value, an operand id, a binding
// window): its answer is counted and printed with --verbose, not judged. A
// crash or hang fails the sweep through the test's timeout or exit status.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compare.h"
#include "meshvk/artifact/integrity.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "meshvk_environment.h"
#include "tensor_io.h"

namespace {

using meshvk_run::HostTensor;

std::string Take(meshvk_status_t status) {
  std::string message = meshvk_status_message(status);
  meshvk_status_free(status);
  return message;
}

bool ReadAll(const std::string& path, std::vector<uint8_t>* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint8_t chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) out->insert(out->end(), chunk, chunk + n);
  std::fclose(f);
  return true;
}

enum class Outcome {
  kRefusedChecksum,
  kRefusedLoad,
  kRefusedSignature,
  kExceedsDevice,
  kFailedCreate,
  kFailedInvoke,
  kSame,
  kDifferent
};
const char* Name(Outcome o) {
  switch (o) {
    case Outcome::kRefusedChecksum:
      return "refused at load (file identifier or integrity trailer)";
    case Outcome::kRefusedLoad:
      return "refused at load (verifier)";
    case Outcome::kRefusedSignature:
      return "refused: signature no longer matches the inputs";
    case Outcome::kExceedsDevice:
      return "refused at program creation: exceeds a device limit (mesh-vk-run: exit 2)";
    case Outcome::kFailedCreate:
      return "failed at program creation (mesh-vk-run: exit 3)";
    case Outcome::kFailedInvoke:
      return "failed cleanly at invoke";
    case Outcome::kSame:
      return "ran, same answer";
    case Outcome::kDifferent:
      return "ran, different answer";
  }
  return "?";
}

struct Sweep {
  std::vector<HostTensor> inputs, expected;
  meshvk_instance_t* instance = nullptr;
  std::map<uint32_t, meshvk_device_set_t*> sets;  // by process count

  meshvk_device_set_t* SetFor(uint32_t processes, std::string* error) {
    auto it = sets.find(processes);
    if (it != sets.end()) return it->second;
    meshvk_device_set_create_info_t info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
    info.topology = MESHVK_TOPOLOGY_AUTO;
    info.process_count = processes;
    meshvk_device_set_t* set = nullptr;
    if (meshvk_status_t s = meshvk_device_set_create(instance, &info, &set)) {
      *error = Take(s);
      return nullptr;
    }
    return sets[processes] = set;
  }

  Outcome Run(const std::vector<uint8_t>& bytes, std::string* detail) {
    meshvk_module_t* module = nullptr;
    if (meshvk_status_t s = meshvk_module_load(bytes.data(), bytes.size(), &module)) {
      *detail = Take(s);
      bool checksum = detail->find("checksum") != std::string::npos ||
                      detail->find("integrity trailer") != std::string::npos ||
                      detail->find("not a .mvk artifact") != std::string::npos;
      return checksum ? Outcome::kRefusedChecksum : Outcome::kRefusedLoad;
    }
    Outcome outcome = RunModule(module, detail);
    meshvk_module_release(module);
    return outcome;
  }

  Outcome RunModule(meshvk_module_t* module, std::string* detail) {
    uint32_t function = 0;
    meshvk_function_info_t fn = MESHVK_FUNCTION_INFO_INIT;
    if (meshvk_status_t s = meshvk_module_find_function(module, nullptr, &function)) {
      *detail = Take(s);
      return Outcome::kRefusedSignature;
    }
    meshvk_status_free(meshvk_module_function_info(module, function, &fn));
    if (fn.argument_count != inputs.size() || fn.result_count != expected.size()) {
      *detail = "argument/result count changed";
      return Outcome::kRefusedSignature;
    }
    std::vector<meshvk_tensor_info_t> results(fn.result_count, meshvk_tensor_info_t MESHVK_TENSOR_INFO_INIT);
    for (uint32_t i = 0; i < fn.argument_count; ++i) {
      meshvk_tensor_info_t info = MESHVK_TENSOR_INFO_INIT;
      meshvk_status_free(meshvk_module_argument_info(module, function, i, &info));
      if (info.element_type != inputs[i].type ||
          std::vector<uint64_t>(info.shape, info.shape + info.rank) != inputs[i].shape) {
        *detail = "argument " + std::to_string(i) + " changed";
        return Outcome::kRefusedSignature;
      }
    }
    for (uint32_t i = 0; i < fn.result_count; ++i) {
      meshvk_status_free(meshvk_module_result_info(module, function, i, &results[i]));
      if (results[i].element_type != expected[i].type ||
          std::vector<uint64_t>(results[i].shape, results[i].shape + results[i].rank) != expected[i].shape) {
        *detail = "result " + std::to_string(i) + " changed";
        return Outcome::kRefusedSignature;
      }
    }
    meshvk_grid_info_t grid = MESHVK_GRID_INFO_INIT;
    meshvk_status_free(meshvk_module_grid_info(module, &grid));
    meshvk_device_set_t* set = SetFor(grid.process_count, detail);
    if (!set) return Outcome::kFailedCreate;
    meshvk_program_t* program = nullptr;
    if (meshvk_status_t s = meshvk_program_create(module, set, &program)) {
      bool limits = meshvk_status_code(s) == MESHVK_STATUS_OUT_OF_RANGE;
      *detail = Take(s);
      return limits ? Outcome::kExceedsDevice : Outcome::kFailedCreate;
    }
    std::vector<meshvk_host_input_t> host_inputs;
    for (const HostTensor& t : inputs) host_inputs.push_back({t.data.data(), t.data.size()});
    std::vector<HostTensor> outputs(expected.size());
    std::vector<meshvk_host_output_t> host_outputs;
    for (size_t i = 0; i < outputs.size(); ++i) {
      outputs[i].shape = expected[i].shape;
      outputs[i].type = expected[i].type;
      outputs[i].data.assign(results[i].byte_size, 0);
      host_outputs.push_back({outputs[i].data.data(), outputs[i].data.size()});
    }
    meshvk_invoke_info_t invoke = MESHVK_INVOKE_INFO_INIT;
    invoke.function = function;
    invoke.inputs = host_inputs.data();
    invoke.input_count = static_cast<uint32_t>(host_inputs.size());
    invoke.outputs = host_outputs.data();
    invoke.output_count = static_cast<uint32_t>(host_outputs.size());
    invoke.timeout = 10ull * 1000 * 1000 * 1000;
    meshvk_status_t s = meshvk_program_invoke(program, &invoke);
    meshvk_program_release(program);
    if (s) {
      *detail = Take(s);
      return Outcome::kFailedInvoke;
    }
    meshvk_run::Tolerance tolerance;
    tolerance.atol = 1e-4;
    tolerance.rtol = 1e-4;
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string report;
      if (!meshvk_run::TensorsClose(outputs[i], expected[i], tolerance, &report)) {
        *detail = report;
        return Outcome::kDifferent;
      }
    }
    return Outcome::kSame;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: bitflip_sweep ARTIFACT --input=SPEC... --expected=SPEC... [--every=N] [--reseal] "
                 "[--first=K] [--count=M]\n");
    return 2;
  }
  Sweep sweep;
  uint64_t every = 1, first = 0, count = UINT64_MAX;
  bool reseal = false, verbose = false;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i], error;
    auto value = [&](const char* flag) { return arg.substr(std::strlen(flag)); };
    if (arg.rfind("--input=", 0) == 0 || arg.rfind("--expected=", 0) == 0) {
      bool input = arg[2] == 'i';
      HostTensor t;
      std::string spec = value(input ? "--input=" : "--expected=");
      // "@file.npy" alone: the shape comes from the file.
      bool ok = spec[0] == '@' ? meshvk_run::ReadNpy(spec.substr(1), &t, &error)
                               : meshvk_run::ParseTensorSpec(spec, &t, &error);
      if (!ok) {
        std::fprintf(stderr, "bitflip_sweep: %s: %s\n", arg.c_str(), error.c_str());
        return 2;
      }
      (input ? sweep.inputs : sweep.expected).push_back(std::move(t));
    } else if (arg.rfind("--every=", 0) == 0) {
      every = std::stoull(value("--every="));
    } else if (arg.rfind("--first=", 0) == 0) {
      first = std::stoull(value("--first="));
    } else if (arg.rfind("--count=", 0) == 0) {
      count = std::stoull(value("--count="));
    } else if (arg == "--reseal") {
      reseal = true;
    } else if (arg == "--verbose") {
      verbose = true;
    } else {
      std::fprintf(stderr, "bitflip_sweep: unknown flag %s\n", arg.c_str());
      return 2;
    }
  }
  std::vector<uint8_t> original;
  if (!ReadAll(argv[1], &original)) {
    std::fprintf(stderr, "bitflip_sweep: cannot read %s\n", argv[1]);
    return 2;
  }
  if (meshvk_status_t s = meshvk_environment_create_instance(&sweep.instance)) {
    std::fprintf(stderr, "bitflip_sweep: %s\n", Take(s).c_str());
    return 3;
  }
  std::string detail;
  Outcome baseline = sweep.Run(original, &detail);
  if (baseline != Outcome::kSame) {
    std::fprintf(stderr, "bitflip_sweep: the unmodified artifact does not give the expected answer: %s: %s\n",
                 Name(baseline), detail.c_str());
    return 1;
  }
  // Without --reseal the trailer itself is flipped too; with it, the trailer
  // is recomputed, so only the FlatBuffer's bits are swept.
  uint64_t bits = 8 * (reseal ? original.size() - meshvk::artifact::kTrailerSize : original.size());
  std::map<Outcome, uint64_t> tally;
  uint64_t runs = 0, wrong = 0;
  auto start = std::chrono::steady_clock::now();
  for (uint64_t bit = first; bit < bits && runs < count; bit += every, ++runs) {
    std::vector<uint8_t> bytes = original;
    bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    if (reseal) meshvk::artifact::Reseal(&bytes);
    Outcome o = sweep.Run(bytes, &detail);
    ++tally[o];
    if (o == Outcome::kDifferent && !reseal) {
      ++wrong;
      std::printf("WRONG ANSWER with success: bit %llu (byte %llu): %s\n", static_cast<unsigned long long>(bit),
                  static_cast<unsigned long long>(bit / 8), detail.c_str());
    }
    if (verbose && reseal && o != Outcome::kRefusedLoad && o != Outcome::kRefusedChecksum && o != Outcome::kSame)
      std::printf("bit %llu (byte %llu): %s: %s\n", static_cast<unsigned long long>(bit),
                  static_cast<unsigned long long>(bit / 8), Name(o), detail.c_str());
    if (o == Outcome::kFailedCreate) {
      ++wrong;  // a structural defect the verifier let through (issue 13: exit 2 at load, never 3 at creation)
      std::printf("bit %llu: passed the verifier, failed at program creation: %s\n",
                  static_cast<unsigned long long>(bit), detail.c_str());
    }
    if (o == Outcome::kRefusedLoad && !reseal) {
      ++wrong;  // the trailer must be what refuses an unresealed flip
      std::printf("bit %llu: refused by the verifier, not the checksum: %s\n", static_cast<unsigned long long>(bit),
                  detail.c_str());
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %llu flips of %llu bits (every %llu from %llu%s) in %.1f s\n", argv[1],
              static_cast<unsigned long long>(runs), static_cast<unsigned long long>(bits),
              static_cast<unsigned long long>(every), static_cast<unsigned long long>(first),
              reseal ? ", checksum recomputed" : "", seconds);
  for (const auto& [o, n] : tally) std::printf("  %6llu %s\n", static_cast<unsigned long long>(n), Name(o));
  for (auto& [n, set] : sweep.sets) meshvk_device_set_release(set);
  meshvk_instance_release(sweep.instance);
  return wrong ? 1 : 0;
}
