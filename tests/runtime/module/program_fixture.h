// Modules and programs in the tests that run them on the Vulkan fixture's
// devices: owning handles, loading and creating (a failure fails the test and
// leaves the handle null), and a trace sink that keeps every event.
#ifndef MESHVK_TESTS_RUNTIME_MODULE_PROGRAM_FIXTURE_H_
#define MESHVK_TESTS_RUNTIME_MODULE_PROGRAM_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "host_invoke.h"
#include "meshvk/module.h"
#include "meshvk/trace.h"
#include "vulkan_fixture.h"

namespace meshvk_test {

using Module = std::unique_ptr<meshvk_module_t, Releaser<meshvk_module_t, meshvk_module_release>>;
using Program = std::unique_ptr<meshvk_program_t, Releaser<meshvk_program_t, meshvk_program_release>>;

inline Module LoadModule(const std::vector<uint8_t>& bytes) {
  meshvk_module_t* module = nullptr;
  EXPECT_EQ(StatusText(meshvk_module_load(bytes.data(), bytes.size(), &module)), "");
  return Module(module);
}

inline Program MakeProgram(meshvk_module_t* module, meshvk_device_set_t* set) {
  meshvk_program_t* program = nullptr;
  EXPECT_EQ(StatusText(meshvk_program_create(module, set, &program)), "");
  return Program(program);
}

// Keeps the trace events of the program MakeTracedProgram creates with it.
struct Recorder {
  std::vector<meshvk_trace_event_t> events;
  static void On(void* self, const meshvk_trace_event_t* e) { static_cast<Recorder*>(self)->events.push_back(*e); }
};

// A program created with a trace sink that records into `recorder`.
inline Program MakeTracedProgram(meshvk_module_t* module, meshvk_device_set_t* set, Recorder* recorder) {
  const meshvk_trace_sink_t sink{MESHVK_STRUCTURE_TYPE_TRACE_SINK, nullptr, &Recorder::On, recorder};
  const meshvk_program_create_info_t info{MESHVK_STRUCTURE_TYPE_PROGRAM_CREATE_INFO, &sink, module, set};
  meshvk_program_t* program = nullptr;
  EXPECT_EQ(StatusText(meshvk_program_create_with_info(&info, &program)), "");
  return Program(program);
}

}  // namespace meshvk_test

#endif  // MESHVK_TESTS_RUNTIME_MODULE_PROGRAM_FIXTURE_H_
