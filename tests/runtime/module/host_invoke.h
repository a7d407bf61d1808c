// The invoke info of a host invoke (meshvk_program_invoke): the tests' inputs
// and outputs are whole host vectors, one struct per tensor, in order.
#ifndef MESHVK_TESTS_RUNTIME_MODULE_HOST_INVOKE_H_
#define MESHVK_TESTS_RUNTIME_MODULE_HOST_INVOKE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "meshvk/module.h"

namespace meshvk_test {

// All of `v` as an input or an output.
inline meshvk_host_input_t HostIn(const std::vector<float>& v) { return {v.data(), v.size() * 4}; }
inline meshvk_host_output_t HostOut(std::vector<float>& v) { return {v.data(), v.size() * 4}; }

// `info` reads `inputs` and writes `outputs`; set further fields (flags) on
// it. It points into this object: not copyable.
struct HostInvoke {
  HostInvoke(std::vector<meshvk_host_input_t> in, std::vector<meshvk_host_output_t> out)
      : inputs(std::move(in)), outputs(std::move(out)) {
    info.inputs = inputs.empty() ? nullptr : inputs.data();
    info.input_count = static_cast<uint32_t>(inputs.size());
    info.outputs = outputs.empty() ? nullptr : outputs.data();
    info.output_count = static_cast<uint32_t>(outputs.size());
  }
  HostInvoke(const HostInvoke&) = delete;
  HostInvoke& operator=(const HostInvoke&) = delete;

  std::vector<meshvk_host_input_t> inputs;
  std::vector<meshvk_host_output_t> outputs;
  meshvk_invoke_info_t info = MESHVK_INVOKE_INFO_INIT;
};

}  // namespace meshvk_test

#endif  // MESHVK_TESTS_RUNTIME_MODULE_HOST_INVOKE_H_
