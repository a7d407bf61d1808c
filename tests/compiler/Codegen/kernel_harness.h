// Test/benchmark support for generated kernels: compile MLIR text with the
// codegen pipeline, and run SPIR-V on a device through meshvk's runtime C API
// (lavapipe in CI; validation layer on for tests, off for benchmarks).
#ifndef MESHVK_TESTS_CODEGEN_KERNEL_HARNESS_H_
#define MESHVK_TESTS_CODEGEN_KERNEL_HARNESS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "meshvk/Codegen/KernelCompiler.h"
#include "meshvk/Codegen/TargetDescription.h"
#include "meshvk/meshvk.h"

namespace meshvk_codegen_test {

// Compiles `mlir` (a module of meshvk.kernel functions). Returns "" on
// success, else the diagnostics.
std::string CompileMlir(const std::string& mlir, const meshvk::codegen::TargetDescription& target,
                        meshvk::codegen::CompiledKernels* out);

// One process on the first physical device.
class Device {
 public:
  explicit Device(bool validation);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const std::string& error() const { return error_; }  // "" when usable
  meshvk_device_set_t* set() const { return set_; }
  // The device's limits and features as a codegen target (lavapipe preset
  // tuning knobs kept).
  meshvk::codegen::TargetDescription target() const { return target_; }
  std::vector<std::string> TakeMessages();

 private:
  static void OnMessage(meshvk_message_severity_t severity, const char* message, void* self);
  meshvk_instance_t* instance_ = nullptr;
  meshvk_device_set_t* set_ = nullptr;
  meshvk::codegen::TargetDescription target_;
  std::string error_;
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

class Buffer {
 public:
  Buffer(Device& device, uint64_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  meshvk_buffer_t* get() const { return buffer_; }
  std::string Write(const void* data, uint64_t bytes);
  std::string Read(void* data, uint64_t bytes);

 private:
  meshvk_buffer_t* buffer_ = nullptr;
};

class Kernel {
 public:
  // From generated SPIR-V (entry point, bindings and workgroup count from
  // `compiled`).
  Kernel(Device& device, const meshvk::codegen::CompiledKernel& compiled);
  // From hand-written SPIR-V.
  Kernel(Device& device, const uint32_t* words, size_t word_count, uint32_t bindings, uint32_t push_constant_size);
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;
  const std::string& error() const { return error_; }
  uint32_t bindings() const { return bindings_; }

  // Records `repeat` dispatches (barriers between them come from hazard
  // tracking), submits, waits. `seconds` (optional) gets the wall time of the
  // submit + wait. `writes[i]` marks written bindings.
  std::string Run(const std::vector<Buffer*>& buffers, const std::vector<bool>& writes,
                  std::array<uint32_t, 3> workgroup_count, const void* push = nullptr, uint32_t push_size = 0,
                  int repeat = 1, double* seconds = nullptr);

 private:
  Device& device_;
  meshvk_executable_t* executable_ = nullptr;
  uint32_t bindings_ = 0;
  std::string error_;
};

// Consumes a status: "" for OK, else "CODE: message".
std::string StatusText(meshvk_status_t status);

// IEEE half <-> float (round to nearest even), for f16 references.
uint16_t FloatToHalf(float f);
float HalfToFloat(uint16_t h);

}  // namespace meshvk_codegen_test

#endif  // MESHVK_TESTS_CODEGEN_KERNEL_HARNESS_H_
