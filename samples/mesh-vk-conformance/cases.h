// The cases the kit runs on one topology. Each case is one check, named
// "<family>.<subject>.<check>" (program.mlp_megatron.results,
// copy.0-1.contents, ...), so a report says exactly what broke.
#ifndef MESHVK_CONFORMANCE_CASES_H_
#define MESHVK_CONFORMANCE_CASES_H_

#include <functional>
#include <string>
#include <vector>

#include "meshvk/instance.h"
#include "report.h"
#include "topologies.h"

namespace meshvk_conformance {

struct KitOptions {
  std::string programs_dir;  // the installed .mvk files
  uint64_t timeout_ns = 0;   // bound of every wait on a device
  uint64_t bandwidth_bytes = 16ull << 20;
  // Whether the case named "<topology>/<case>" is selected (--filter).
  std::function<bool(const std::string&)> selected;
};

// The names of the cases `RunProgramCases` / `RunCopyCases` would run, for --list.
std::vector<std::string> ProgramCaseNames(const KitOptions& options);
std::vector<std::string> CopyCaseNames(meshvk_instance_t* instance, const Topology& topology);
std::vector<std::string> GroupCaseNames(meshvk_instance_t* instance, const Topology& topology);

// Every known program (host_references.h) found in options.programs_dir, on
// `topology`: results vs the host reference, bytes between processes vs the
// plan, copy placement (pulled by the destination, none to itself), device
// memory vs the plan.
void RunProgramCases(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                     TopologyResult& out);

// Copies between every two processes of the topology by the path the set
// chose for them (group peer memory, external memory, host staging, same
// device): contents checked, bandwidth and latency measured.
void RunCopyCases(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                  TopologyResult& out);

// Device groups only: the peer memory features reported per heap and pair
// (into out.peer_features; the case checks the spec's COPY_DST floor), each
// reported feature exercised from every device on every other one's memory
// (copy source/destination, shader source/destination), not supported with
// the reported features otherwise, and one dispatch split over the devices
// with vkCmdDispatchBase.
void RunGroupCases(meshvk_instance_t* instance, const Topology& topology, const KitOptions& options,
                   TopologyResult& out);

}  // namespace meshvk_conformance

#endif  // MESHVK_CONFORMANCE_CASES_H_
