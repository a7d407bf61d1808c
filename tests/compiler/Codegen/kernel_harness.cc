#include "kernel_harness.h"

#include <chrono>
#include <cmath>
#include <cstring>

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "meshvk/Codegen/Passes.h"
#include "meshvk/Codegen/RuntimeDevice.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

namespace meshvk_codegen_test {

std::string StatusText(meshvk_status_t status) {
  if (status == MESHVK_OK) return "";
  std::string text =
      std::string(meshvk_status_code_name(meshvk_status_code(status))) + ": " + meshvk_status_message(status);
  meshvk_status_free(status);
  return text;
}

std::string CompileMlir(const std::string& mlir, const meshvk::codegen::TargetDescription& target,
                        meshvk::codegen::CompiledKernels* out) {
  mlir::DialectRegistry registry;
  meshvk::registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& d) {
    llvm::raw_string_ostream os(diagnostics);
    os << d.getLocation() << ": " << d << "\n";
    for (mlir::Diagnostic& note : d.getNotes()) os << "  note: " << note << "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(mlir, &context);
  if (!module) return "parse error: " + diagnostics;
  mlir::FailureOr<meshvk::codegen::CompiledKernels> compiled = meshvk::codegen::compileKernels(*module, target);
  if (mlir::failed(compiled)) return diagnostics.empty() ? "compile failed" : diagnostics;
  *out = std::move(*compiled);
  return "";
}

Device::Device(bool validation) {
  meshvk_instance_create_info_t info = MESHVK_INSTANCE_CREATE_INFO_INIT;
  if (validation) info.flags = MESHVK_INSTANCE_VALIDATION_BIT | MESHVK_INSTANCE_SYNC_VALIDATION_BIT;
  info.message_callback = &Device::OnMessage;
  info.message_user_data = this;
  info.application_name = "meshvk codegen tests";
  error_ = StatusText(meshvk_instance_create(&info, &instance_));
  if (!error_.empty()) return;
  if (meshvk_instance_physical_device_count(instance_) == 0) {
    error_ = "no Vulkan physical device";
    return;
  }
  meshvk_physical_device_info_t pd = MESHVK_PHYSICAL_DEVICE_INFO_INIT;
  error_ = StatusText(meshvk_instance_physical_device_info(instance_, 0, &pd));
  if (!error_.empty()) return;
  meshvk_device_set_create_info_t set_info = MESHVK_DEVICE_SET_CREATE_INFO_INIT;
  set_info.topology = MESHVK_TOPOLOGY_LOGICAL;
  set_info.process_count = 1;
  error_ = StatusText(meshvk_device_set_create(instance_, &set_info, &set_));
  if (!error_.empty()) return;
  // The same mapping as mesh-vk-compile --target-device=auto and mesh-vk-run.
  target_ = meshvk::codegen::targetForDevice(pd);
}

Device::~Device() {
  if (set_) meshvk_device_set_release(set_);
  if (instance_) meshvk_instance_release(instance_);
}

void Device::OnMessage(meshvk_message_severity_t severity, const char* message, void* self) {
  if (severity == MESHVK_MESSAGE_INFO) return;
  auto* device = static_cast<Device*>(self);
  std::lock_guard<std::mutex> lock(device->mutex_);
  device->messages_.push_back(message);
}

std::vector<std::string> Device::TakeMessages() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> taken;
  taken.swap(messages_);
  return taken;
}

Buffer::Buffer(Device& device, uint64_t bytes) {
  // Zero-sized buffers are invalid in Vulkan; round tiny ones up.
  (void)StatusText(meshvk_buffer_create(device.set(), 0, bytes < 4 ? 4 : bytes, &buffer_));
}

Buffer::~Buffer() {
  if (buffer_) meshvk_buffer_release(buffer_);
}

std::string Buffer::Write(const void* data, uint64_t bytes) {
  if (!buffer_) return "buffer was not created";
  return StatusText(meshvk_buffer_write(buffer_, 0, data, bytes));
}

std::string Buffer::Read(void* data, uint64_t bytes) {
  if (!buffer_) return "buffer was not created";
  return StatusText(meshvk_buffer_read(buffer_, 0, data, bytes));
}

Kernel::Kernel(Device& device, const meshvk::codegen::CompiledKernel& compiled)
    : device_(device), bindings_(static_cast<uint32_t>(compiled.bindings.size())) {
  meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
  info.spirv = compiled.spirv.data();
  info.spirv_size = compiled.spirv.size() * 4;
  info.entry_point = compiled.entryPoint.c_str();
  info.binding_count = bindings_;
  info.push_constant_size = compiled.pushConstantSize;
  for (int i = 0; i < 3; ++i) info.workgroup_size[i] = compiled.workgroupSize[i];
  error_ = StatusText(meshvk_executable_create(device.set(), &info, &executable_));
}

Kernel::Kernel(Device& device, const uint32_t* words, size_t word_count, uint32_t bindings, uint32_t push_constant_size)
    : device_(device), bindings_(bindings) {
  meshvk_executable_create_info_t info = MESHVK_EXECUTABLE_CREATE_INFO_INIT;
  info.spirv = words;
  info.spirv_size = word_count * 4;
  info.entry_point = "main";
  info.binding_count = bindings;
  info.push_constant_size = push_constant_size;
  error_ = StatusText(meshvk_executable_create(device.set(), &info, &executable_));
}

Kernel::~Kernel() {
  if (executable_) meshvk_executable_release(executable_);
}

std::string Kernel::Run(const std::vector<Buffer*>& buffers, const std::vector<bool>& writes,
                        std::array<uint32_t, 3> workgroup_count, const void* push, uint32_t push_size, int repeat,
                        double* seconds) {
  if (!error_.empty()) return error_;
  std::vector<meshvk_binding_t> bindings(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    bindings[i] = {};
    bindings[i].buffer = buffers[i]->get();
    bindings[i].writes = i < writes.size() && writes[i] ? 1u : 0u;
  }
  meshvk_command_buffer_t* cb = nullptr;
  std::string err = StatusText(meshvk_command_buffer_create(device_.set(), 0, &cb));
  if (!err.empty()) return err;
  meshvk_dispatch_info_t dispatch = MESHVK_DISPATCH_INFO_INIT;
  dispatch.executable = executable_;
  dispatch.bindings = bindings.data();
  dispatch.binding_count = static_cast<uint32_t>(bindings.size());
  dispatch.push_constants = push;
  dispatch.push_constant_size = push_size;
  for (int i = 0; i < 3; ++i) dispatch.workgroup_count[i] = workgroup_count[i];
  for (int r = 0; r < repeat && err.empty(); ++r) err = StatusText(meshvk_command_buffer_dispatch(cb, &dispatch));
  if (err.empty()) err = StatusText(meshvk_command_buffer_end(cb));
  meshvk_semaphore_t* done = nullptr;
  if (err.empty()) err = StatusText(meshvk_semaphore_create(device_.set(), 0, 0, &done));
  if (err.empty()) {
    meshvk_semaphore_value_t signal = {done, 1};
    meshvk_submit_info_t submit = MESHVK_SUBMIT_INFO_INIT;
    submit.command_buffer = cb;
    submit.signals = &signal;
    submit.signal_count = 1;
    auto start = std::chrono::steady_clock::now();
    err = StatusText(meshvk_queue_submit(device_.set(), &submit));
    if (err.empty()) err = StatusText(meshvk_semaphore_wait(done, 1, 600ull * 1000000000ull));
    auto end = std::chrono::steady_clock::now();
    if (seconds) *seconds = std::chrono::duration<double>(end - start).count();
  }
  if (done) meshvk_semaphore_release(done);
  meshvk_command_buffer_release(cb);
  return err;
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return static_cast<uint16_t>(half);
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24.
    float f = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -f : f;
  } else if (exp == 31) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | (exp + 127 - 15) << 23 | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

}  // namespace meshvk_codegen_test
