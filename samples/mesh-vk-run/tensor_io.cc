// Tensor specs, .npy and .bin files (see tensor_io.h). The .npy reader is
// written for hostile files: every length is checked against the bytes that
// are actually there before it is used.
#include "tensor_io.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "npy_header.h"

namespace meshvk_run {
namespace {

// Opens `path` for reading and says what it is: only a regular file has a
// size to check before reading; anything else (a pipe, /dev/zero) is read
// with a bound instead.
FILE* OpenInput(const std::string& path, bool* out_regular, uint64_t* out_size, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  struct stat st{};
  if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
    *error = path + ": cannot read: " + std::strerror(S_ISDIR(st.st_mode) ? EISDIR : errno);
    std::fclose(f);
    return nullptr;
  }
  *out_regular = S_ISREG(st.st_mode);
  *out_size = static_cast<uint64_t>(st.st_size);
  return f;
}

// Reads up to `limit` bytes from the current position, growing the buffer
// only as data arrives (a lying size never reserves memory).
bool ReadUpTo(FILE* f, const std::string& path, uint64_t limit, std::vector<uint8_t>* out, std::string* error) {
  uint8_t chunk[1 << 16];
  while (out->size() < limit) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(sizeof(chunk), limit - out->size()));
    size_t n = std::fread(chunk, 1, want, f);
    out->insert(out->end(), chunk, chunk + n);
    if (n < want) break;
  }
  if (std::ferror(f)) {
    *error = path + ": read error: " + std::strerror(errno);
    return false;
  }
  return true;
}

// Finds the `want` bytes of array data (the rest of the file) of `f`, which
// is positioned after `already` bytes. The size check comes first for a
// regular file (a sparse multi-GiB file is refused without reading it), whose
// data is then only located (read later, tensor_source.h); anything else (a
// pipe, /dev/zero) cannot be read twice and is read now, at most want + 1 bytes.
bool LocateData(FILE* f, const std::string& path, bool regular, uint64_t file_size, uint64_t already, uint64_t want,
                const std::string& needs, TensorSource* out, std::string* error) {
  auto mismatch = [&](uint64_t have, bool more) {
    // `more`: not a regular file, read stopped one byte past the expected size.
    *error = more ? path + ": more than " + std::to_string(want) + needs + std::to_string(want)
                  : path + ": " + std::to_string(have) + needs + std::to_string(want) +
                        (have < want ? " (truncated)" : " (trailing bytes)");
    return false;
  };
  out->path = out->name = path;
  out->data_bytes = want;
  if (regular) {
    if (file_size - std::min(file_size, already) != want)
      return mismatch(file_size - std::min(file_size, already), false);
    out->kind = TensorSource::Kind::kFile;
    out->offset = already;
    return true;
  }
  out->kind = TensorSource::Kind::kBytes;
  out->bytes.clear();
  if (!ReadUpTo(f, path, want + 1, &out->bytes, error)) return false;
  if (out->bytes.size() != want) return mismatch(out->bytes.size(), out->bytes.size() > want);
  return true;
}

bool ParseType(const std::string& text, meshvk_element_type_t* out) {
  if (text == "f32")
    *out = MESHVK_ELEMENT_F32;
  else if (text == "f16")
    *out = MESHVK_ELEMENT_F16;
  else if (text == "i32")
    *out = MESHVK_ELEMENT_I32;
  else if (text == "f64")
    *out = MESHVK_ELEMENT_F64;
  else
    return false;
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

// Parses the numbers of a spec; `count` values expected, or one to splat.
// Nothing the size of the tensor is allocated here (a splat is one value).
bool ParseValues(const std::string& text, const HostTensor* t, TensorSource* out, std::string* error) {
  std::vector<double>& values = out->values;
  values.clear();
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
  out->kind = TensorSource::Kind::kValues;
  out->name = "values";
  out->data_bytes = count * ElementBytes(t->type);
  return true;
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
  if (type == MESHVK_ELEMENT_F64) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

uint32_t ElementBytes(meshvk_element_type_t type) {
  return type == MESHVK_ELEMENT_F16 ? 2 : type == MESHVK_ELEMENT_F64 ? 8 : 4;
}

const char* ElementName(meshvk_element_type_t type) {
  switch (type) {
    case MESHVK_ELEMENT_F32:
      return "f32";
    case MESHVK_ELEMENT_F16:
      return "f16";
    case MESHVK_ELEMENT_I32:
      return "i32";
    case MESHVK_ELEMENT_F64:
      return "f64";
  }
  return "?";
}

std::string TypeString(const std::vector<uint64_t>& shape, meshvk_element_type_t type) {
  std::string s;
  for (uint64_t d : shape) s += std::to_string(d) + "x";
  return s + ElementName(type);
}

std::string TypeString(const HostTensor& tensor) {
  if (tensor.stored == StoredAs::kType) return TypeString(tensor.shape, tensor.type);
  std::string s;
  for (uint64_t d : tensor.shape) s += std::to_string(d) + "x";
  return s + StoredName(tensor.stored);
}

StoredAs StorageOf(meshvk_declared_type_t declared) {
  return declared == MESHVK_DECLARED_I64    ? StoredAs::kInt64
         : declared == MESHVK_DECLARED_BOOL ? StoredAs::kBool
         : declared == MESHVK_DECLARED_F32  ? StoredAs::kFloat32
         : declared == MESHVK_DECLARED_F64  ? StoredAs::kFloat64
                                            : StoredAs::kType;
}

const char* StoredDescr(StoredAs stored) {
  return stored == StoredAs::kInt64     ? "<i8"
         : stored == StoredAs::kBool    ? "|b1"
         : stored == StoredAs::kFloat32 ? "<f4"
                                        : "<f8";
}

std::vector<uint8_t> StoredBytesOf(const HostTensor& tensor) {
  if (tensor.stored == StoredAs::kFloat32 && tensor.type == MESHVK_ELEMENT_F16) {
    std::vector<uint8_t> out(tensor.data.size() * 2);
    for (uint64_t i = 0; i < tensor.data.size() / 2; ++i) {
      uint16_t h;
      std::memcpy(&h, tensor.data.data() + 2 * i, 2);
      const float f = HalfToFloat(h);
      std::memcpy(out.data() + 4 * i, &f, 4);
    }
    return out;
  }
  if (tensor.stored == StoredAs::kFloat64 && tensor.type == MESHVK_ELEMENT_F32) {
    std::vector<uint8_t> out(tensor.data.size() * 2);
    for (uint64_t i = 0; i < tensor.data.size() / 4; ++i) {
      float f;
      std::memcpy(&f, tensor.data.data() + 4 * i, 4);
      const double d = f;
      std::memcpy(out.data() + 8 * i, &d, 8);
    }
    return out;
  }
  if (tensor.stored == StoredAs::kType || tensor.type != MESHVK_ELEMENT_I32) return tensor.data;
  const uint64_t count = tensor.data.size() / 4;
  std::vector<uint8_t> out(count * StoredBytes(tensor.stored, 4));
  for (uint64_t i = 0; i < count; ++i) {
    int32_t value;
    std::memcpy(&value, tensor.data.data() + 4 * i, 4);
    if (tensor.stored == StoredAs::kInt64) {
      const int64_t wide = value;
      std::memcpy(out.data() + 8 * i, &wide, 8);  // little-endian host, as the .npy data
    } else {
      out[i] = value != 0;
    }
  }
  return out;
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
  if (e <= 0) {                                              // subnormal or zero
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
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
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

static bool ParseTensorTypeImpl(const std::string& spec, HostTensor* out, std::string* error) {
  size_t eq = spec.find('=');
  if (eq == std::string::npos) {
    *error = "expected SHAPExTYPE=VALUES, =@file.npy or =@file.bin (e.g. 2x3xf32=@a.npy), got '" + spec + "'";
    return false;
  }
  std::string type = spec.substr(0, eq);
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
    *error = "malformed type '" + type + "': element type '" + parts.back() + "' (expected f32, f16, f64 or i32)";
    return false;
  }
  if (parts.size() - 1 > kMaxTensorRank) {
    *error = "shape '" + type + "' has rank " + std::to_string(parts.size() - 1) + " (at most " +
             std::to_string(kMaxTensorRank) + ")";
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
    // Checked: 2^32 x 2^32 must not wrap to 0.
    if (__builtin_mul_overflow(count, extent, &count) || count > kMaxTensorElements) {
      *error = "shape '" + type + "' has more than 2^32 elements";
      return false;
    }
    out->shape.push_back(extent);
  }
  return true;
}

static bool LocateNpy(const std::string& path, HostTensor* out, std::string* error, const HostTensor* expected,
                      TensorSource* source);

// Finds a spec's data (values, or a file's data checked against the shape).
static bool LocateSpec(const std::string& spec, HostTensor* out, std::string* error, TensorSource* source) {
  if (!ParseTensorTypeImpl(spec, out, error)) return false;
  std::string value = spec.substr(spec.find('=') + 1);
  if (value.empty() || value[0] != '@') return ParseValues(value, out, source, error);

  std::string path = value.substr(1);
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0)
    return LocateNpy(path, out, error, out, source);
  bool regular = false;
  uint64_t file_size = 0;
  FILE* f = OpenInput(path, &regular, &file_size, error);
  if (!f) return false;
  bool ok = LocateData(f, path, regular, file_size, 0, out->element_count() * ElementBytes(out->type),
                       " bytes, " + TypeString(out->shape, out->type) + " needs ", source, error);
  std::fclose(f);
  return ok;
}

static bool LocateNpy(const std::string& path, HostTensor* out, std::string* error, const HostTensor* expected,
                      TensorSource* source) {
  bool regular = false;
  uint64_t file_size = 0;
  FILE* f = OpenInput(path, &regular, &file_size, error);
  if (!f) return false;
  auto fail = [&](const std::string& why, const std::string& whole = "") {
    *error = whole.empty() ? path + ": " + why : whole;
    std::fclose(f);
    return false;
  };
  // The prefix, then exactly the header it announces (<= 10000 bytes), then
  // the data: nothing is read or reserved past what the header justifies.
  std::vector<uint8_t> head;
  std::string why;
  if (!ReadUpTo(f, path, kNpyPrefixBytes, &head, error)) return std::fclose(f), false;
  uint64_t header_length = 0;
  if (!NpyHeaderLength(head.data(), head.size(), &header_length, &why)) return fail(why);
  if (header_length > head.size()) {
    std::vector<uint8_t> rest;
    if (!ReadUpTo(f, path, header_length - head.size(), &rest, error)) return std::fclose(f), false;
    head.insert(head.end(), rest.begin(), rest.end());
  }
  NpyHeader header;
  if (!ParseNpyHeader(head.data(), head.size(), &header, &why)) return fail(why);
  HostTensor t;
  t.shape = header.shape;
  t.type = header.type;
  t.stored = header.stored;
  if (expected && (header.shape != expected->shape || header.type != expected->type))
    return fail("",
                path + " holds " + TypeString(t) + " but the spec says " + TypeString(expected->shape, expected->type));
  if (!LocateData(f, path, regular, file_size, header.data_offset, header.data_bytes,
                  " data bytes, shape " + ShapeString(t.shape) + " of " +
                      (t.stored == StoredAs::kType ? ElementName(t.type) : StoredName(t.stored)) + " needs ",
                  source, error))
    return std::fclose(f), false;
  source->stored = header.stored;
  std::fclose(f);
  *out = std::move(t);
  return true;
}

std::string OneLine(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof(hex), "\\x%02x", c);
      out += hex;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// The public parsers: messages echo specs, paths and header text, which may
// hold control characters; they leave here as one printable line.
bool ParseTensorType(const std::string& spec, HostTensor* out, std::string* error) {
  bool ok = ParseTensorTypeImpl(spec, out, error);
  if (!ok) *error = OneLine(*error);
  return ok;
}

// Without `deferred` the data is read at once, whole.
bool ParseTensorSpec(const std::string& spec, HostTensor* out, std::string* error, TensorSource* deferred) {
  TensorSource source;
  bool ok = LocateSpec(spec, out, error, deferred ? deferred : &source) &&
            (deferred || ReadTensorSource(source, nullptr, out, nullptr, error));
  if (!ok) *error = OneLine(*error);
  return ok;
}

bool ReadNpy(const std::string& path, HostTensor* out, std::string* error, const HostTensor* expected,
             TensorSource* deferred) {
  TensorSource source;
  bool ok = LocateNpy(path, out, error, expected, deferred ? deferred : &source) &&
            (deferred || ReadTensorSource(source, nullptr, out, nullptr, error));
  if (!ok) *error = OneLine(*error);
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
    if (t.type == MESHVK_ELEMENT_I32)
      std::fprintf(out, "%lld", static_cast<long long>(v));
    else
      std::fprintf(out, "%.7g", v);
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
  std::fprintf(out, "%s=", TypeString(tensor).c_str());  // an int64 / bool result as the model declares it
  uint64_t index = 0;
  bool elided = false;
  PrintLevel(out, tensor, 0, &index, max_elements, &elided);
  if (elided)
    std::fprintf(out, " (%llu of %llu elements printed; see --print-max-element-count)",
                 static_cast<unsigned long long>(max_elements),
                 static_cast<unsigned long long>(tensor.element_count()));
  std::fputc('\n', out);
}

}  // namespace meshvk_run
