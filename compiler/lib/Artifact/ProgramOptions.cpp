// The text forms of the compile options that mesh-vk-compile, mesh-vk-run and
// the Python module share (see meshvk/Artifact/CompileProgram.h): each parser
// fills its value or says in one line what it expected.
#include "meshvk/Artifact/CompileProgram.h"
#include "meshvk/Import/OnnxImport.h"

#include <cerrno>
#include <cstdlib>
#include <set>
#include <sstream>

namespace meshvk {

bool parseGridShape(const std::string &text, std::vector<int64_t> *shape, std::string *error) {
  auto bad = [&] {
    *error = "'" + text +
             "' is not a grid shape (expected extents 1..1024 joined by 'x', e.g. 4 or 2x2)";
    return false;
  };
  shape->clear();
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, 'x')) {
    char *end = nullptr;
    errno = 0;
    long long v = part.empty() ? 0 : std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || errno || v < 1 || v > 1024)
      return bad();
    shape->push_back(v);
  }
  if (shape->empty() || text.back() == 'x')
    return bad();
  return true;
}

bool parseOnnxInputShape(const std::string &text,
                         std::pair<std::string, std::vector<int64_t>> *nameAndShape,
                         std::string *error) {
  size_t eq = text.find('=');
  std::string ignored;
  if (eq == std::string::npos || eq == 0 ||
      !parseGridShape(text.substr(eq + 1), &nameAndShape->second, &ignored)) {
    *error = "expected NAME=AxBx... (e.g. x=1x3x224x224)";
    return false;
  }
  nameAndShape->first = text.substr(0, eq);
  return true;
}

bool parseOnnxInputShapes(const std::vector<std::string> &specs, ProgramOptions *options,
                          std::string *error) {
  for (const std::string &spec : specs) {
    std::pair<std::string, std::vector<int64_t>> nameAndShape;
    if (!parseOnnxInputShape(spec, &nameAndShape, error)) {
      *error = "--input-shape=" + spec + ": " + *error;
      return false;
    }
    options->onnxInputShapes.push_back(std::move(nameAndShape));
  }
  return true;
}

bool onnxShardTakesGrid(const std::string &policy) {
  OnnxImportOptions parsed;
  std::string ignored;
  if (!parseOnnxShardPolicy(policy, &parsed, &ignored))
    return true;
  return parsed.shard != OnnxShardPolicy::None && parsed.shard != OnnxShardPolicy::Spec;
}

bool parseGridSizes(const std::string &text, std::vector<int64_t> *sizes, std::string *error) {
  sizes->clear();
  auto bad = [&](const std::string &why) {
    sizes->clear();
    *error = "'" + text + "' is not a list of process counts (" + why +
             "; expected counts 1..1024 and ranges A-B joined by commas, e.g. 1,2,4,8 or 1-4,8)";
    return false;
  };
  auto number = [](const std::string &part, int64_t *value) {
    char *end = nullptr;
    errno = 0;
    long long v =
        part.empty() || part[0] == '-' || part[0] == '+' ? 0 : std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || !end || *end != '\0' || errno || v < 1 || v > 1024)
      return false;
    *value = v;
    return true;
  };
  if (text.empty() || text.back() == ',')
    return bad("an empty entry");
  std::set<int64_t> seen;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    size_t dash = part.find('-', 1);
    int64_t first = 0, last = 0;
    if (part.empty())
      return bad("an empty entry");
    if (dash == std::string::npos) {
      if (!number(part, &first))
        return bad("'" + part + "' is not a count 1..1024");
      last = first;
    } else if (!number(part.substr(0, dash), &first) || !number(part.substr(dash + 1), &last)) {
      return bad("'" + part + "' is not a range of counts 1..1024");
    } else if (last < first) {
      return bad("the range '" + part + "' runs backwards");
    }
    for (int64_t c = first; c <= last; ++c) {
      if (!seen.insert(c).second)
        return bad(std::to_string(c) + " is given twice");
      sizes->push_back(c);
    }
  }
  return true;
}

bool parsePrecision(const std::string &text, bool *storeInF16, std::string *error) {
  if (text != "f32" && text != "f16") {
    *error = "'" + text + "' is not a precision (expected f32 or f16)";
    return false;
  }
  *storeInF16 = text == "f16";
  return true;
}

bool parseVulkanVersion(const std::string &text, uint32_t *version, std::string *error) {
  if (text == "1.1")
    *version = 101;
  else if (text == "1.2")
    *version = 102;
  else if (text == "1.3")
    *version = 103;
  else {
    *error = "'" + text + "' is not a supported Vulkan version (expected 1.1, 1.2 or 1.3)";
    return false;
  }
  return true;
}

} // namespace meshvk
