// Program-run flags of mesh-vk-run (see run_flags.h).
#include "run_flags.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace meshvk_run {
namespace {

bool ParseTolerance(const std::string& value, double* out) {
  if (value.empty()) return false;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(value.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0) return false;
  *out = v;
  return true;
}

// A whole decimal count in [1, max]; false for anything else.
bool ParseCount(const std::string& value, unsigned long max, uint32_t* out) {
  if (value.empty() || value[0] < '0' || value[0] > '9') return false;
  char* end = nullptr;
  errno = 0;
  unsigned long n = std::strtoul(value.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE || n == 0 || n > max) return false;
  *out = static_cast<uint32_t>(n);
  return true;
}

bool CheckOutput(const std::string& value, std::string* error) {
  if (value != "-" && (value.empty() || value[0] != '@' || value.size() < 2)) {
    *error = "flag --output: expected @FILE.npy or -, got '" + value + "'";
    return false;
  }
  if (value != "-" && (value.size() < 5 || value.compare(value.size() - 4, 4, ".npy") != 0)) {
    *error = "flag --output: '" + value.substr(1) + "' must end in .npy";
    return false;
  }
  return true;
}

// A scalar option whose text is kept for CheckRunFlags; the last one given wins.
void AddText(CLI::App* app, const std::string& name, std::string* text, bool* set) {
  app->add_option_function<std::string>(name,
                                        [text, set](const std::string& v) {
                                          *text = v;
                                          *set = true;
                                        })
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

}  // namespace

const char* RunUsageText() {
  return "usage: mesh-vk-run PROGRAM.mvk|.mlir|.onnx [--function=NAME] --input=[NAME=]SHAPExTYPE=VALUES|@a.npy|@a.bin "
         "...\n"
         "                   [--output=@c.npy|-]... [--expected-output=SPEC... [--atol=A] [--rtol=R]]\n"
         "                   [--devices=auto|N|group:G|I,J,...] [--topology=auto|group|logical|independent]\n"
         "                   [--validation] [--print-plan] [--plan-graph=F.dot] [--trace=F.json]\n"
         "                   [--benchmark=N [--benchmark-format=json]] [--rank-axes=A,...]\n"
         "                   [-v] [--version]\n"
         "  --function=NAME        function to run (default: the only one)\n"
         "  --input=SPEC           a whole (global) input tensor, e.g. 2x3xf32=\"1 2 3 4 5 6\",\n"
         "                         4x4xf16=@a.npy or 16xi32=@a.bin; one per argument, in order;\n"
         "                         @a.npy takes shape and type from the file, @args.npz gives one\n"
         "                         argument per array (in order), @args.npz:NAME one array;\n"
         "                         NAME=SOURCE gives the argument of that name (an ONNX input),\n"
         "                         the others fill the remaining arguments in order. The text\n"
         "                         before the first '=' is a NAME when it is one of the\n"
         "                         program's argument names, else SHAPExTYPE\n"
         "  --output=@file.npy|-   where each result goes (default: print all results)\n"
         "  --print-max-element-count=N  print at most N elements of a result (default 1024)\n"
         "  --expected-output=SPEC compare each result (numpy.testing.assert_allclose); exit 1 if one differs\n"
         "  --atol=A --rtol=R      tolerances (defaults 1e-8 and 1e-5, like numpy)\n"
         "  --devices=auto|N|group:G|I,J,...  processes: the program's grid (auto), N (a .mvk must\n"
         "                         match it; a 1-D .mlir program is recompiled for N, a\n"
         "                         dynamic grid (shape = ?) is compiled for N, and a .mvk\n"
         "                         of a dynamic grid runs its plan for N),\n"
         "                         or the device group G; I,J,...: run on those physical\n"
         "                         devices (indices of --list-devices), processes dealt over them\n"
         "  --topology=T           group (one VkDevice over a device group), logical (all\n"
         "                         processes on one physical device), independent (one\n"
         "                         VkDevice per GPU; copies through external memory or host\n"
         "                         staging), auto (default: group, else independent, else one)\n"
         "  --validation           enable the Khronos validation layer (also MESHVK_VALIDATION=1)\n"
         "  --print-plan           per process: device, bytes by kind, dispatches, peer bytes\n"
         "  --benchmark=N          run N times after a warm-up: wall, per-phase and per-dispatch\n"
         "                         GPU times (min/median/max ms), bytes/s, a roofline line per\n"
         "                         dispatch against the measured copy bandwidth and FMA peak\n"
         "  --benchmark-format=console|json  json: Google-Benchmark-like fields on stdout\n"
         "  --trace=FILE.json      Chrome trace-event file (Perfetto): host steps, every command\n"
         "                         on each process's device timeline, copy flow arrows\n"
         "  --plan-graph=FILE.dot  the plan as a Graphviz picture (dot -Tsvg FILE.dot)\n"
         "  --device-timeout=S     bound of every wait on a device, in seconds (default 60,\n"
         "                         or MESHVK_DEVICE_TIMEOUT_MS); a timeout exits 3\n"
         "  --rank-axes=A[,B]      under mpirun: the grid axes across MPI ranks (default: the\n"
         "                         outermost axes whose sizes multiply to the rank count)\n"
         "  PROGRAM.mlir           compiled in-process (needs a build with MESHVK_BUILD_COMPILER=ON)\n"
         "  PROGRAM.onnx           an ONNX model, imported and compiled in-process likewise:\n"
         "  --shard=none|data|tensor|data,tensor|SPEC.json  its sharding (mesh-vk-compile's\n"
         "                         --shard), over --devices=N processes (default none: one\n"
         "                         process); data,tensor: one policy per grid axis\n"
         "  --grid-shape=AxB       the grid of the --devices=N processes a policy list splits\n"
         "                         over (data,tensor: --grid-shape=2x2 for 4: axis 0 the batch,\n"
         "                         axis 1 the weights); its product must be N\n"
         "  --input-shape=NAME=AxB its dynamic input dimensions, e.g. x=1x3x224x224 (repeatable)\n"
         "  --precision=f32|f16    a program compiled here: f16 stores weights and activations\n"
         "                         as f16 (f32 accumulation); inputs and results stay f32\n"
         "flags are spelled with dashes; underscores are accepted too (--expected_output,\n"
         "--print_max_element_count, --benchmark_format: iree-run-module's spelling)\n"
         "exit codes: 0 ok, 1 results differ from --expected-output, 2 bad input/usage,\n"
         "            3 runtime/device failure\n";
}

void AddRunFlags(CLI::App* app, RunFlags* flags, RunFlagValues* values) {
  app->add_option("--function", flags->function)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // One value per occurrence: `--input A PROGRAM` must not swallow the program.
  app->add_option("--input", flags->inputs)->allow_extra_args(false);
  app->add_option("--output", values->outputs)->allow_extra_args(false);
  app->add_option("--expected-output", flags->expected)->allow_extra_args(false);
  AddText(app, "--atol", &values->atol, &values->atol_set);
  AddText(app, "--rtol", &values->rtol, &values->rtol_set);
  AddText(app, "--benchmark", &values->benchmark, &values->benchmark_set);
  AddText(app, "--print-max-element-count", &values->print_max, &values->print_max_set);
  AddText(app, "--benchmark-format", &values->benchmark_format, &values->benchmark_format_set);
  AddText(app, "--trace", &values->trace, &values->trace_set);
  AddText(app, "--plan-graph", &values->plan_graph, &values->plan_graph_set);
  AddText(app, "--device-timeout", &values->device_timeout, &values->device_timeout_set);
  app->add_flag("--print-plan", flags->print_plan)->disable_flag_override();
  app->add_option("--rank-axes", flags->rank_axes)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  AddText(app, "--shard", &flags->shard, &flags->shard_set);
  AddText(app, "--grid-shape", &flags->grid_shape, &flags->grid_shape_set);
  AddText(app, "--precision", &flags->precision, &flags->precision_set);
  app->add_option("--input-shape", flags->input_shapes)->allow_extra_args(false);
}

bool CheckRunFlags(const RunFlagValues& values, RunFlags* flags, std::string* error) {
  for (const std::string& output : values.outputs) {
    if (!CheckOutput(output, error)) return false;
    flags->outputs.push_back(output);
  }
  if (values.atol_set && !ParseTolerance(values.atol, &flags->tolerance.atol)) {
    *error = "flag --atol: expected a non-negative number, got '" + values.atol + "'";
    return false;
  }
  if (values.rtol_set && !ParseTolerance(values.rtol, &flags->tolerance.rtol)) {
    *error = "flag --rtol: expected a non-negative number, got '" + values.rtol + "'";
    return false;
  }
  if (values.benchmark_set && !ParseCount(values.benchmark, 1000000, &flags->benchmark)) {
    *error = "flag --benchmark: expected a repetition count 1..1000000, got '" + values.benchmark + "'";
    return false;
  }
  if (flags->precision_set && flags->precision != "f32" && flags->precision != "f16") {
    *error = "flag --precision: expected f32 or f16, got '" + flags->precision + "'";
    return false;
  }
  if (values.benchmark_format_set) {
    if (values.benchmark_format != "console" && values.benchmark_format != "json") {
      *error = "flag --benchmark-format: expected console or json, got '" + values.benchmark_format + "'";
      return false;
    }
    flags->benchmark_format = values.benchmark_format;
  }
  auto file_flag = [&](bool set, const std::string& value, const char* name, const char* suffix, std::string* out) {
    if (!set) return true;
    if (value.empty() || value.size() <= std::strlen(suffix) ||
        value.compare(value.size() - std::strlen(suffix), std::strlen(suffix), suffix) != 0) {
      *error = std::string("flag ") + name + ": expected a file name ending in " + suffix + ", got '" + value + "'";
      return false;
    }
    *out = value;
    return true;
  };
  if (!file_flag(values.trace_set, values.trace, "--trace", ".json", &flags->trace) ||
      !file_flag(values.plan_graph_set, values.plan_graph, "--plan-graph", ".dot", &flags->plan_graph))
    return false;
  if (values.print_max_set) {
    char* end = nullptr;
    errno = 0;
    const std::string& v = values.print_max;
    unsigned long long n = !v.empty() && v[0] >= '0' && v[0] <= '9' ? std::strtoull(v.c_str(), &end, 10) : 0;
    if (!end || *end != '\0' || errno == ERANGE) {
      *error = "flag --print-max-element-count: expected a count of elements (0 or more), got '" + v + "'";
      return false;
    }
    flags->print_max_element_count = n;
  }
  if (values.device_timeout_set) {
    char* end = nullptr;
    const std::string& v = values.device_timeout;
    double seconds = !v.empty() && ((v[0] >= '0' && v[0] <= '9') || v[0] == '.') ? std::strtod(v.c_str(), &end) : -1;
    if (!end || *end != '\0' || !(seconds >= 0.001 && seconds <= 86400)) {
      *error = "flag --device-timeout: expected seconds, 0.001..86400, got '" + v + "'";
      return false;
    }
    flags->device_timeout_ms = static_cast<uint64_t>(seconds * 1000 + 0.5);
  }
  return true;
}

}  // namespace meshvk_run
