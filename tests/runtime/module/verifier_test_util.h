// What every .mvk verifier test shares: loading a file to "" or "CODE:
// message", the refusal check, and the valid base program with one dispatch,
// copy or function edited. Each verifier_*_test.cc builds files that break
// exactly one rule of the verifier from this base. No Vulkan: loading must not
// need a device.
#ifndef MESHVK_TESTS_RUNTIME_MODULE_VERIFIER_TEST_UTIL_H_
#define MESHVK_TESTS_RUNTIME_MODULE_VERIFIER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "meshvk/artifact/mvk_generated.h"
#include "meshvk/meshvk.h"
#include "meshvk/module.h"
#include "programs.h"

namespace meshvk_test {

using namespace meshvk::artifact;

// Consumes `status`: "CODE: message" (also for OK).
inline std::string CodeAndMessage(meshvk_status_t status) {
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}

// Loads `bytes`; returns "" on success, else "CODE: message".
inline std::string Load(const std::vector<uint8_t>& bytes) {
  meshvk_module_t* module = nullptr;
  meshvk_status_t status = meshvk_module_load(bytes.data(), bytes.size(), &module);
  if (!status) {
    meshvk_module_release(module);
    return "";
  }
  EXPECT_EQ(module, nullptr);
  return CodeAndMessage(status);
}

#define EXPECT_REFUSED(bytes, needle)                                   \
  do {                                                                  \
    std::string _error = Load(bytes);                                   \
    EXPECT_NE(_error.find("DATA_LOSS: "), std::string::npos) << _error; \
    EXPECT_NE(_error.find(needle), std::string::npos) << _error;        \
  } while (0)

// The valid base: c = a + 2 b on 4x8 f32, rows split over a grid of 2.
inline ArtifactBuilder Base(FunctionDesc* function = nullptr) {
  return ElementwiseBuilder({2}, {{0}, {}}, 4, 8, 2.0f, function);
}

inline DispatchDesc GoodDispatch() {
  DispatchDesc d;
  d.executable = 0;
  d.bindings = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  d.push_constants = ScaledAddPush(16, 1.0f);
  return d;
}

inline std::vector<uint8_t> WithDispatch(const std::function<void(DispatchDesc&)>& edit) {
  ArtifactBuilder b = Base();
  DispatchDesc d = GoodDispatch();
  edit(d);
  b.AddDispatch(1, d);
  return b.Finish();
}

inline CopyDesc LocalCopy() {  // process 1: a shard -> c shard, 64 bytes
  CopyDesc c;
  c.src_process = 1;
  c.src_buffer = 0;
  c.dst_buffer = 2;
  c.size = 64;
  return c;
}

inline std::vector<uint8_t> WithCopy(const std::function<void(CopyDesc&)>& edit) {
  ArtifactBuilder b = Base();
  CopyDesc c = LocalCopy();
  edit(c);
  b.AddCopy(1, c);
  return b.Finish();
}

inline std::vector<uint8_t> WithFunction(const std::function<void(FunctionDesc&)>& edit) {
  FunctionDesc fn;
  ArtifactBuilder b = Base(&fn);
  edit(fn);
  b.AddFunction(fn);
  return b.Finish();
}

// The base with a second executable (the test kernel) edited.
inline std::vector<uint8_t> WithKernel(const std::function<void(ExecutableDesc&)>& edit) {
  ArtifactBuilder b = Base();
  ExecutableDesc x = ScaledAddKernel();
  edit(x);
  b.AddExecutable(x);
  return b.Finish();
}

}  // namespace meshvk_test

#endif  // MESHVK_TESTS_RUNTIME_MODULE_VERIFIER_TEST_UTIL_H_
