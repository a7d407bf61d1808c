// SPIR-V checks for the artifact loader. The validator catches malformed
// modules; the entry-point scan catches a well-formed module that does not
// match what the artifact says about it (name, stage, workgroup size), which
// the validator cannot know.
#include "spirv_check.h"

#include <spirv-tools/libspirv.h>

#include <cstring>
#include <sstream>

namespace meshvk::module {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kExecutionModeLocalSize = 17;

// Reads a SPIR-V literal string starting at words[0], at most `max_words`.
std::string ReadString(const uint32_t* words, size_t max_words) {
  std::string out;
  for (size_t i = 0; i < max_words; ++i) {
    char bytes[4];
    std::memcpy(bytes, &words[i], 4);
    for (char c : bytes) {
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

bool FindComputeEntryPoint(const uint32_t* words, size_t word_count, const std::string& name,
                           uint32_t* out_id) {
  for (size_t i = 5; i < word_count;) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > word_count) return false;
    if (opcode == kOpEntryPoint && count >= 4 && words[i + 1] == kExecutionModelGLCompute &&
        ReadString(&words[i + 3], count - 3) == name) {
      *out_id = words[i + 2];
      return true;
    }
    i += count;
  }
  return false;
}

std::string CheckSpirv(const uint32_t* words, size_t word_count, const std::string& entry_point,
                       const uint32_t workgroup_size[3]) {
  if (word_count < 5 || words[0] != kMagic) return "not a SPIR-V module (bad magic number)";

  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_1);
  spv_const_binary_t binary{words, word_count};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvValidate(context, &binary, &diagnostic);
  std::string error;
  if (result != SPV_SUCCESS) {
    std::ostringstream os;
    os << "SPIR-V validation failed";
    if (diagnostic && diagnostic->error) {
      std::string text = diagnostic->error;
      // One line: the validator's first line carries the reason.
      size_t nl = text.find('\n');
      if (nl != std::string::npos) text.resize(nl);
      os << ": " << text;
    }
    error = os.str();
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (!error.empty()) return error;

  // The validator accepted the module, so the instruction stream is well formed.
  uint32_t entry_id = 0;
  if (!FindComputeEntryPoint(words, word_count, entry_point, &entry_id)) {
    return "no GLCompute entry point named '" + entry_point + "'";
  }
  // Execution modes follow all entry points (SPIR-V's logical layout).
  for (size_t i = 5; i < word_count;) {
    uint32_t count = words[i] >> 16, opcode = words[i] & 0xffff;
    if (count == 0 || i + count > word_count) break;
    if (opcode == kOpExecutionMode && count >= 6 && words[i + 1] == entry_id &&
        words[i + 2] == kExecutionModeLocalSize) {
      for (int d = 0; d < 3; ++d) {
        if (words[i + 3 + d] != workgroup_size[d]) {
          std::ostringstream os;
          os << "entry point '" << entry_point << "' has LocalSize " << words[i + 3] << "x"
             << words[i + 4] << "x" << words[i + 5] << " but the artifact says "
             << workgroup_size[0] << "x" << workgroup_size[1] << "x" << workgroup_size[2];
          return os.str();
        }
      }
    }
    i += count;
  }
  return "";
}

}  // namespace meshvk::module
