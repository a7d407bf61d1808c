// Tensor specs, .npy and .bin files (see tensor_io.h). The .npy reader is
// written for hostile files: every length is checked against the bytes that
// are actually there before it is used.
#include "tensor_io.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace meshvk_run {
namespace {

constexpr uint64_t kMaxElements = uint64_t(1) << 32;
constexpr char kNpyMagic[] = "\x93NUMPY";

bool ReadFile(const std::string& path, std::vector<uint8_t>* out, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) {
    out->insert(out->end(), chunk, chunk + n);
    if (out->size() > (uint64_t(16) << 30)) {
      std::fclose(f);
      *error = path + ": larger than 16 GiB";
      return false;
    }
  }
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) *error = path + ": read error";
  return !bad;
}

bool ParseType(const std::string& text, meshvk_element_type_t* out) {
  if (text == "f32") *out = MESHVK_ELEMENT_F32;
  else if (text == "f16") *out = MESHVK_ELEMENT_F16;
  else if (text == "i32") *out = MESHVK_ELEMENT_I32;
  else return false;
  return true;
}

bool ParseDim(const std::string& text, uint64_t* out) {
  if (text.empty() || text.size() > 12) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  *out = std::strtoull(text.c_str(), nullptr, 10);
  return *out > 0;
}

std::string ShapeString(const std::vector<uint64_t>& shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

void Store(HostTensor* t, uint64_t i, double value) {
  uint8_t* p = t->data.data() + i * ElementBytes(t->type);
  if (t->type == MESHVK_ELEMENT_F32) {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
  } else if (t->type == MESHVK_ELEMENT_F16) {
    uint16_t h = FloatToHalf(static_cast<float>(value));
    std::memcpy(p, &h, 2);
  } else {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
  }
}

// Parses the numbers of a spec; `count` values expected, or one to splat.
bool ParseValues(const std::string& text, HostTensor* t, std::string* error) {
  std::vector<double> values;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t' || text[i] == '\n')) ++i;
    if (i >= text.size()) break;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t' && text[j] != '\n') ++j;
    std::string token = text.substr(i, j - i);
    errno = 0;
    char* end = nullptr;
    double value;
    if (t->type == MESHVK_ELEMENT_I32) {
      long long v = std::strtoll(token.c_str(), &end, 10);
      if (*end != '\0' || errno == ERANGE || v < std::numeric_limits<int32_t>::min() ||
          v > std::numeric_limits<int32_t>::max()) {
        *error = "value " + std::to_string(values.size()) + " '" + token + "' is not an i32";
        return false;
      }
      value = static_cast<double>(v);
    } else {
      value = std::strtod(token.c_str(), &end);
      if (*end != '\0' || end == token.c_str()) {
        *error = "value " + std::to_string(values.size()) + " '" + token + "' is not a number";
        return false;
      }
    }
    values.push_back(value);
    i = j;
  }
  uint64_t count = t->element_count();
  if (values.size() != count && values.size() != 1) {
    *error = std::to_string(values.size()) + " values for " + TypeString(t->shape, t->type) + ", expected " +
             std::to_string(count) + " (or one to fill the tensor)";
    return false;
  }
  t->data.assign(count * ElementBytes(t->type), 0);
  for (uint64_t k = 0; k < count; ++k) Store(t, k, values.size() == 1 ? values[0] : values[k]);
  return true;
}

// Finds `'key':` in a .npy header dict and returns the position after it.
size_t FindKey(const std::string& header, const std::string& key) {
  for (const char* quote : {"'", "\""}) {
    std::string pattern = quote + key + quote;
    size_t at = header.find(pattern);
    if (at == std::string::npos) continue;
    at += pattern.size();
    while (at < header.size() && header[at] == ' ') ++at;
    if (at < header.size() && header[at] == ':') return at + 1;
  }
  return std::string::npos;
}

}  // namespace

uint64_t HostTensor::element_count() const {
  uint64_t n = 1;
  for (uint64_t d : shape) n *= d;
  return n;
}

double HostTensor::At(uint64_t i) const {
  const uint8_t* p = data.data() + i * ElementBytes(type);
  if (type == MESHVK_ELEMENT_F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (type == MESHVK_ELEMENT_F16) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return HalfToFloat(h);
  }
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

uint32_t ElementBytes(meshvk_element_type_t type) { return type == MESHVK_ELEMENT_F16 ? 2 : 4; }

const char* ElementName(meshvk_element_type_t type) {
  switch (type) {
    case MESHVK_ELEMENT_F32: return "f32";
    case MESHVK_ELEMENT_F16: return "f16";
    case MESHVK_ELEMENT_I32: return "i32";
  }
  return "?";
}

std::string TypeString(const std::vector<uint64_t>& shape, meshvk_element_type_t type) {
  std::string s;
  for (uint64_t d : shape) s += std::to_string(d) + "x";
  return s + ElementName(type);
}

uint16_t FloatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));  // inf / nan
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00);  // overflow -> inf
  if (e <= 0) {                                               // subnormal or zero
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent: correct
  return static_cast<uint16_t>(half);
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do { ++e; mant <<= 1; } while (!(mant & 0x400));
      x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000 | (mant << 13);
  } else {
    x = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

bool ParseTensorSpec(const std::string& spec, HostTensor* out, std::string* error) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos) {
    *error = "expected SHAPExTYPE=VALUES, =@file.npy or =@file.bin (e.g. 2x3xf32=@a.npy), got '" + spec + "'";
    return false;
  }
  std::string type = spec.substr(0, eq), value = spec.substr(eq + 1);
  *out = HostTensor{};
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= type.size(); ++i) {
    if (i == type.size() || type[i] == 'x') {
      parts.push_back(type.substr(start, i - start));
      start = i + 1;
    }
  }
  if (!ParseType(parts.back(), &out->type)) {
    *error = "malformed type '" + type + "': element type '" + parts.back() + "' (expected f32, f16 or i32)";
    return false;
  }
  uint64_t count = 1;
  for (size_t d = 0; d + 1 < parts.size(); ++d) {
    uint64_t extent = 0;
    if (!ParseDim(parts[d], &extent)) {
      *error = "malformed shape '" + type + "': dimension " + std::to_string(d) + " is '" + parts[d] +
               "' (expected a positive integer)";
      return false;
    }
    count *= extent;
    if (count > kMaxElements) {
      *error = "shape '" + type + "' has more than 2^32 elements";
      return false;
    }
    out->shape.push_back(extent);
  }
  if (value.empty() || value[0] != '@') return ParseValues(value, out, error);

  std::string path = value.substr(1);
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0) {
    HostTensor file;
    if (!ReadNpy(path, &file, error)) return false;
    if (file.shape != out->shape || file.type != out->type) {
      *error = path + " holds " + TypeString(file.shape, file.type) + " but the spec says " +
               TypeString(out->shape, out->type);
      return false;
    }
    *out = std::move(file);
    return true;
  }
  std::vector<uint8_t> bytes;
  if (!ReadFile(path, &bytes, error)) return false;
  uint64_t want = count * ElementBytes(out->type);
  if (bytes.size() != want) {
    *error = path + ": " + std::to_string(bytes.size()) + " bytes, " + TypeString(out->shape, out->type) +
             " needs " + std::to_string(want);
    return false;
  }
  out->data = std::move(bytes);
  return true;
}

bool ReadNpy(const std::string& path, HostTensor* out, std::string* error) {
  std::vector<uint8_t> bytes;
  if (!ReadFile(path, &bytes, error)) return false;
  auto fail = [&](const std::string& why) {
    *error = path + ": " + why;
    return false;
  };
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kNpyMagic, 6) != 0)
    return fail("not a .npy file (missing the \\x93NUMPY magic)");
  uint8_t major = bytes[6];
  size_t header_start, header_len;
  if (major == 1) {
    header_start = 10;
    header_len = bytes[8] | (bytes[9] << 8);
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return fail("truncated .npy header");
    header_start = 12;
    header_len = bytes[8] | (bytes[9] << 8) | (size_t(bytes[10]) << 16) | (size_t(bytes[11]) << 24);
  } else {
    return fail("unsupported .npy format version " + std::to_string(major) + " (expected 1, 2 or 3)");
  }
  if (header_len > bytes.size() - header_start) return fail("truncated .npy header");
  std::string header(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);

  size_t at = FindKey(header, "descr");
  if (at == std::string::npos) return fail("header has no 'descr'");
  while (at < header.size() && header[at] == ' ') ++at;
  if (at >= header.size() || (header[at] != '\'' && header[at] != '"')) return fail("header 'descr' is not a string");
  size_t end = header.find(header[at], at + 1);
  if (end == std::string::npos) return fail("header 'descr' is not terminated");
  std::string descr = header.substr(at + 1, end - at - 1);
  if (descr == "<f4") out->type = MESHVK_ELEMENT_F32;
  else if (descr == "<f2") out->type = MESHVK_ELEMENT_F16;
  else if (descr == "<i4") out->type = MESHVK_ELEMENT_I32;
  else return fail("unsupported dtype '" + descr + "' (expected <f4, <f2 or <i4)");

  at = FindKey(header, "fortran_order");
  if (at == std::string::npos) return fail("header has no 'fortran_order'");
  while (at < header.size() && header[at] == ' ') ++at;
  if (header.compare(at, 4, "True") == 0) return fail("Fortran-order arrays are not supported (save C order)");
  if (header.compare(at, 5, "False") != 0) return fail("header 'fortran_order' is not True/False");

  at = FindKey(header, "shape");
  if (at == std::string::npos) return fail("header has no 'shape'");
  while (at < header.size() && header[at] == ' ') ++at;
  if (at >= header.size() || header[at] != '(') return fail("header 'shape' is not a tuple");
  end = header.find(')', at);
  if (end == std::string::npos) return fail("header 'shape' is not terminated");
  out->shape.clear();
  uint64_t count = 1;
  std::string dims = header.substr(at + 1, end - at - 1);
  size_t i = 0;
  while (i < dims.size()) {
    while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) ++i;
    if (i >= dims.size()) break;
    size_t j = i;
    while (j < dims.size() && dims[j] != ',' && dims[j] != ' ') ++j;
    uint64_t extent = 0;
    std::string token = dims.substr(i, j - i);
    if (token == "0") return fail("shape has a zero dimension (empty tensors are not supported)");
    if (!ParseDim(token, &extent)) return fail("header 'shape' entry '" + token + "' is not a positive integer");
    count *= extent;
    if (count > kMaxElements) return fail("shape has more than 2^32 elements");
    out->shape.push_back(extent);
    i = j;
  }
  if (out->shape.size() > MESHVK_MAX_RANK) return fail("rank > 8");
  size_t data_start = header_start + header_len;
  uint64_t want = count * ElementBytes(out->type);
  if (bytes.size() - data_start != want)
    return fail(std::to_string(bytes.size() - data_start) + " data bytes, shape " + ShapeString(out->shape) +
                " of " + ElementName(out->type) + " needs " + std::to_string(want) +
                (bytes.size() - data_start < want ? " (truncated)" : " (trailing bytes)"));
  out->data.assign(bytes.begin() + data_start, bytes.end());
  return true;
}

bool WriteNpy(const std::string& path, const HostTensor& tensor, std::string* error) {
  std::string shape = "(";
  for (size_t i = 0; i < tensor.shape.size(); ++i) shape += std::to_string(tensor.shape[i]) + (tensor.shape.size() == 1 ? "," : (i + 1 < tensor.shape.size() ? ", " : ""));
  shape += ")";
  const char* descr = tensor.type == MESHVK_ELEMENT_F32 ? "<f4" : tensor.type == MESHVK_ELEMENT_F16 ? "<f2" : "<i4";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts on a 64-byte boundary (the format's rule).
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::string tmp = path + ".tmp.XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  int fd = mkstemp(name.data());
  if (fd < 0) {
    *error = path + ": cannot create a temporary file next to it: " + std::strerror(errno);
    return false;
  }
  FILE* f = fdopen(fd, "wb");
  uint8_t prefix[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                        static_cast<uint8_t>(header.size() & 0xff), static_cast<uint8_t>(header.size() >> 8)};
  bool ok = f && std::fwrite(prefix, 1, 10, f) == 10 && std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
            std::fwrite(tensor.data.data(), 1, tensor.data.size(), f) == tensor.data.size();
  int saved = errno;
  if (f ? std::fclose(f) != 0 : (close(fd), true)) ok = false;
  if (ok && std::rename(name.data(), path.c_str()) != 0) {
    saved = errno;
    ok = false;
  }
  if (!ok) {
    std::remove(name.data());
    *error = path + ": write failed: " + std::strerror(saved ? saved : EIO);
  }
  return ok;
}

namespace {

// Prints up to `max` elements; at the first one past it, "..." and the
// closing brackets (like iree-run-module's --print_max_element_count).
void PrintLevel(FILE* out, const HostTensor& t, size_t dim, uint64_t* index, uint64_t max, bool* elided) {
  if (dim == t.shape.size()) {
    if (*index >= max) {
      std::fputs("...", out);
      *elided = true;
      return;
    }
    double v = t.At((*index)++);
    if (t.type == MESHVK_ELEMENT_I32) std::fprintf(out, "%lld", static_cast<long long>(v));
    else std::fprintf(out, "%.7g", v);
    return;
  }
  std::fputc('[', out);
  for (uint64_t i = 0; i < t.shape[dim] && !*elided; ++i) {
    if (i && dim + 1 == t.shape.size()) std::fputc(' ', out);
    PrintLevel(out, t, dim + 1, index, max, elided);
  }
  std::fputc(']', out);
}

}  // namespace

void PrintTensor(FILE* out, const HostTensor& tensor, uint64_t max_elements) {
  std::fprintf(out, "%s=", TypeString(tensor.shape, tensor.type).c_str());
  uint64_t index = 0;
  bool elided = false;
  PrintLevel(out, tensor, 0, &index, max_elements, &elided);
  if (elided)
    std::fprintf(out, " (%llu of %llu elements printed; see --print_max_element_count)",
                 static_cast<unsigned long long>(max_elements),
                 static_cast<unsigned long long>(tensor.element_count()));
  std::fputc('\n', out);
}

}  // namespace meshvk_run
