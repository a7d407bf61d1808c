// The kit's results and the three reports made from them: a human summary
// (topology x case), JUnit XML (one testsuite per topology, one testcase per
// check, skipped with the reason) and JSON (everything, the bandwidth matrix
// included).
#ifndef MESHVK_CONFORMANCE_REPORT_H_
#define MESHVK_CONFORMANCE_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace meshvk_conformance {

enum class Outcome { kPass, kFail, kNotSupported };
const char* OutcomeName(Outcome outcome);  // "pass", "fail", "not supported"

struct CaseResult {
  std::string name;  // e.g. "program.mlp_megatron"
  Outcome outcome = Outcome::kPass;
  std::string reason;  // fail: the first difference; not supported: why
  double seconds = 0;
};

// One copy measurement between two processes of a topology.
struct Bandwidth {
  uint32_t src = 0, dst = 0;  // processes
  std::string path;           // meshvk_copy_path_name-like: "same device", "host staging", ...
  uint64_t bytes = 0;
  double gb_per_s = 0;    // median of the timed copies
  double latency_us = 0;  // median time of a 4-byte copy
};

// What vkGetDeviceGroupPeerMemoryFeatures reports for device `local` using
// memory of heap `heap` that lives on device `remote` (a device group).
struct PeerFeatures {
  uint32_t heap = 0, local = 0, remote = 0;
  uint32_t flags = 0;  // VkPeerMemoryFeatureFlags
  bool device_local = false;
};

struct TopologyResult {
  std::string name;         // e.g. "independent:0,1"
  std::string description;  // devices and how they are used
  std::vector<CaseResult> cases;
  std::vector<Bandwidth> bandwidth;
  std::vector<PeerFeatures> peer_features;  // device groups
};

struct Counts {
  uint32_t pass = 0, fail = 0, not_supported = 0;
};
Counts CountOutcomes(const std::vector<TopologyResult>& topologies);

// The summary: one block per topology, one line per case, then the totals.
std::string SummaryText(const std::vector<TopologyResult>& topologies);
std::string JunitXml(const std::vector<TopologyResult>& topologies);
std::string JsonReport(const std::vector<TopologyResult>& topologies, const std::string& machine);

// Writes `text` to `path` through a temporary renamed into place, so a
// report file is whole or absent. Returns "" or one line naming the path.
std::string WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace meshvk_conformance

#endif  // MESHVK_CONFORMANCE_REPORT_H_
