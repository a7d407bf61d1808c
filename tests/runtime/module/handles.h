// One live object of each kind of handle, borrowed (the tests that make them
// release them): the hostile-argument sweep and the lifetime tests.
#ifndef MESHVK_TESTS_RUNTIME_MODULE_HANDLES_H_
#define MESHVK_TESTS_RUNTIME_MODULE_HANDLES_H_

#include "meshvk/meshvk.h"

namespace meshvk_test {

struct Handles {
  meshvk_instance_t* instance = nullptr;
  meshvk_device_set_t* set = nullptr;
  meshvk_buffer_t* buffer = nullptr;
  meshvk_command_buffer_t* command_buffer = nullptr;
  meshvk_executable_t* executable = nullptr;  // not made by the lifetime tests
  meshvk_semaphore_t* semaphore = nullptr;
  meshvk_module_t* module = nullptr;
  meshvk_program_t* program = nullptr;
};

}  // namespace meshvk_test

#endif  // MESHVK_TESTS_RUNTIME_MODULE_HANDLES_H_
