// mesh-vk-conformance: the platform teams' kit. Discovers every topology the
// machine offers (logical devices per physical device, device groups of 2+,
// pairs and the whole set of physical devices as independent VkDevices) and
// runs on each: the conformance programs (installed precompiled .mvk files:
// no compiler at run time) against host references, and copies between every
// two processes by their path with a bandwidth/latency matrix. Reports: a
// summary on stdout, --junit=FILE, --json=FILE.
// Exit: 0 nothing failed, 1 a case failed, 2 usage, 3 no usable Vulkan device.
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cases.h"
#include "meshvk/instance.h"
#include "report.h"
#include "topologies.h"

namespace meshvk_conformance {
namespace {

struct Flags {
  bool list = false, validation = false;
  std::vector<std::string> filters;
  std::string junit, json, programs;
  uint64_t timeout_ms = 60000, bandwidth_bytes = 16ull << 20;
};

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The installed programs (<prefix>/share/meshvk/conformance beside
// <prefix>/bin), else the build tree's.
std::string DefaultProgramsDir() {
  char exe[PATH_MAX] = {};
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    std::string dir(exe, n);
    dir = dir.substr(0, dir.rfind('/'));
    std::string installed = dir + "/../share/meshvk/conformance";
    if (IsDirectory(installed)) return installed;
  }
  return MESHVK_CONFORMANCE_BUILD_PROGRAMS;
}

int Parse(int argc, char** argv, Flags& f) {
  CLI::App app{"mesh-vk-conformance: what this machine's devices do with sharded programs"};
  app.add_flag("--list", f.list, "print the topologies and cases, run nothing");
  app.add_option("--filter", f.filters, "run only cases whose TOPOLOGY/CASE matches this glob (repeatable)");
  app.add_option("--junit", f.junit, "write a JUnit XML report");
  app.add_option("--json", f.json, "write everything as JSON (bandwidth matrix included)");
  app.add_option("--timeout-ms", f.timeout_ms, "bound of every wait on a device")->check(CLI::Range(1, 86400000));
  app.add_option("--programs", f.programs, "directory of the conformance .mvk files")->check(CLI::ExistingDirectory);
  app.add_option("--bandwidth-bytes", f.bandwidth_bytes, "bytes per bandwidth copy (multiple of 4)")
      ->check(CLI::Range(uint64_t(4), uint64_t(1) << 31));
  app.add_flag("--validation", f.validation, "enable the Khronos validation layer");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "mesh-vk-conformance: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (f.bandwidth_bytes % 4) {
    std::cerr << "mesh-vk-conformance: --bandwidth-bytes=" << f.bandwidth_bytes << ": must be a multiple of 4\n";
    return 2;
  }
  if (f.programs.empty()) f.programs = DefaultProgramsDir();
  return -1;
}

bool Selected(const std::vector<std::string>& filters, const std::string& name) {
  if (filters.empty()) return true;
  for (const std::string& glob : filters)
    if (fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

void List(meshvk_instance_t* instance, const std::vector<Topology>& topologies, const KitOptions& options) {
  for (const Topology& t : topologies) {
    std::vector<std::string> names = ProgramCaseNames(options);
    for (const std::string& n : CopyCaseNames(instance, t)) names.push_back(n);
    for (const std::string& n : GroupCaseNames(instance, t)) names.push_back(n);
    for (const std::string& n : names)
      if (options.selected(t.name + "/" + n)) std::cout << t.name << "/" << n << "\n";
  }
}

std::string Machine(meshvk_instance_t* instance) {
  std::string out;
  for (uint32_t d = 0; d < meshvk_instance_physical_device_count(instance); ++d) {
    meshvk_physical_device_info_t info = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
    Status s(meshvk_instance_physical_device_info(instance, d, &info));
    out += (d ? "; " : "") + std::to_string(d) + ": " + info.name;
  }
  return out;
}

int WriteReports(const Flags& f, const std::vector<TopologyResult>& results, meshvk_instance_t* instance) {
  std::string err;
  if (!f.junit.empty()) err = WriteFileAtomically(f.junit, JunitXml(results));
  if (err.empty() && !f.json.empty()) err = WriteFileAtomically(f.json, JsonReport(results, Machine(instance)));
  if (err.empty()) return 0;
  std::cerr << "mesh-vk-conformance: " << err << "\n";
  return 2;
}

int Run(const Flags& f) {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  if (f.validation) info.flags = MESHVK_INSTANCE_VALIDATION_BIT | MESHVK_INSTANCE_SYNC_VALIDATION_BIT;
  meshvk_instance_t* instance = nullptr;
  Status made(meshvk_instance_create(&info, &instance));
  if (!made.ok() || meshvk_instance_physical_device_count(instance) == 0) {
    std::cerr << "mesh-vk-conformance: no usable Vulkan device: "
              << (made.ok() ? "the instance reports no physical device" : made.Message()) << "\n";
    meshvk_instance_release(instance);
    return 3;
  }
  KitOptions options;
  options.programs_dir = f.programs;
  options.timeout_ns = f.timeout_ms * 1000000ull;
  options.bandwidth_bytes = f.bandwidth_bytes;
  options.selected = [&](const std::string& name) { return Selected(f.filters, name); };
  std::vector<Topology> topologies = DiscoverTopologies(instance);
  if (f.list) {
    List(instance, topologies, options);
    meshvk_instance_release(instance);
    return 0;
  }
  std::vector<TopologyResult> results;
  for (const Topology& t : topologies) {
    TopologyResult r{t.name, t.description, {}, {}, {}};
    RunProgramCases(instance, t, options, r);
    RunCopyCases(instance, t, options, r);
    RunGroupCases(instance, t, options, r);
    if (!r.cases.empty()) results.push_back(std::move(r));
  }
  if (meshvk_instance_message_count(instance) > 0)
    results.push_back(
        {"validation",
         "Khronos validation layer",
         {{"validation.messages", Outcome::kFail,
           std::to_string(meshvk_instance_message_count(instance)) + " validation messages (printed above)", 0}},
         {},
         {}});
  std::cout << SummaryText(results);
  int written = WriteReports(f, results, instance);
  meshvk_instance_release(instance);
  if (written) return written;
  return CountOutcomes(results).fail ? 1 : 0;
}

}  // namespace
}  // namespace meshvk_conformance

int main(int argc, char** argv) {
  meshvk_conformance::Flags flags;
  int parsed = meshvk_conformance::Parse(argc, argv, flags);
  if (parsed >= 0) return parsed;
  return meshvk_conformance::Run(flags);
}
