// The .npy header (see npy_header.h). numpy reads the dict with
// ast.literal_eval and then checks it (numpy/lib/format.py,
// _read_array_header): exactly the keys descr/fortran_order/shape, a bool, a
// tuple of ints. This parser accepts the subset of Python literal syntax that
// numpy.save writes (and hand-written equivalents) and refuses everything else
// rather than guess: anything it accepts, numpy reads the same way.
#include "npy_header.h"

#include <cstring>

#include "tensor_io.h"

namespace meshvk_run {
namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsDelimiter(char c) { return IsSpace(c) || c == ',' || c == ')' || c == '}' || c == ':'; }

// A recursive-descent reader for {'key': value, ...} with string, True/False
// and tuple-of-ints values. Python's implicit string concatenation, escapes,
// prefixes (b'', r''), underscores or leading zeros in ints, parenthesised
// ints, nested tuples and comments are all refused.
class DictReader {
 public:
  explicit DictReader(const std::string& text) : s_(text) {}

  struct Value {
    enum Kind { kString, kBool, kTuple } kind = kString;
    std::string text;             // kString
    bool flag = false;            // kBool
    std::vector<uint64_t> items;  // kTuple
  };

  // Reads the whole dict into `keys`/`values` (in order, duplicates kept so
  // the caller can refuse them).
  bool Read(std::vector<std::string>* keys, std::vector<Value>* values, std::string* error) {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;  // literal_eval strips these
    if (!Eat('{')) return Fail("header is not a dict literal (expected '{')", error);
    for (;;) {
      SkipSpace();
      if (Eat('}')) break;
      std::string key;
      if (!ReadString(&key, "a key", error)) return false;
      SkipSpace();
      if (!Eat(':')) return Fail("header: expected ':' after key '" + key + "'", error);
      SkipSpace();
      Value value;
      if (!ReadValue(key, &value, error)) return false;
      keys->push_back(key);
      values->push_back(std::move(value));
      SkipSpace();
      if (Eat(',')) continue;
      SkipSpace();
      if (Eat('}')) break;
      return Fail("header: expected ',' or '}' after the value of '" + key + "'", error);
    }
    SkipSpace();
    if (i_ != s_.size()) return Fail("header: unexpected text after the dict", error);
    return true;
  }

 private:
  static bool Fail(const std::string& why, std::string* error) {
    *error = why;
    return false;
  }
  void SkipSpace() {
    while (i_ < s_.size() && IsSpace(s_[i_])) ++i_;
  }
  bool Eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  bool ReadString(std::string* out, const char* what, std::string* error) {
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"'))
      return Fail(std::string("header: expected ") + what + " as a quoted string", error);
    char quote = s_[i_++];
    size_t start = i_;
    while (i_ < s_.size() && s_[i_] != quote) {
      if (s_[i_] == '\\' || s_[i_] == '\n')
        return Fail("header: escapes and line breaks in strings are not supported", error);
      ++i_;
    }
    if (i_ >= s_.size()) return Fail("header: unterminated string", error);
    *out = s_.substr(start, i_ - start);
    ++i_;
    // 'a' 'b' is one string in Python (implicit concatenation): refuse it.
    size_t j = i_;
    while (j < s_.size() && IsSpace(s_[j])) ++j;
    if (j < s_.size() && (s_[j] == '\'' || s_[j] == '"'))
      return Fail("header: adjacent strings (Python would join them) are not supported", error);
    return true;
  }

  std::string Token() {
    size_t start = i_;
    while (i_ < s_.size() && !IsDelimiter(s_[i_]) && s_[i_] != '(') ++i_;
    return s_.substr(start, i_ - start);
  }

  bool ReadValue(const std::string& key, Value* out, std::string* error) {
    if (i_ < s_.size() && (s_[i_] == '\'' || s_[i_] == '"')) {
      out->kind = Value::kString;
      return ReadString(&out->text, "a value", error);
    }
    if (Eat('(')) return ReadTuple(key, out, error);
    std::string word = Token();
    if (word == "True" || word == "False") {
      out->kind = Value::kBool;
      out->flag = word == "True";
      return true;
    }
    return Fail("header '" + key + "' has an unsupported value '" + word + "'", error);
  }

  // After '('. A one-element tuple needs its trailing comma: (4) is an int.
  bool ReadTuple(const std::string& key, Value* out, std::string* error) {
    out->kind = Value::kTuple;
    bool trailing_comma = false;
    for (;;) {
      SkipSpace();
      if (i_ >= s_.size()) return Fail("header '" + key + "' is not terminated", error);
      if (Eat(')')) break;
      std::string token = Token();
      uint64_t value = 0;
      if (!ParseInt(token, &value))
        return Fail("header '" + key + "' entry '" + token + "' is not a positive integer", error);
      out->items.push_back(value);
      SkipSpace();
      trailing_comma = Eat(',');
      if (trailing_comma) continue;
      SkipSpace();
      if (Eat(')')) break;
      return Fail("header '" + key + "' is not a tuple of integers", error);
    }
    if (out->items.size() == 1 && !trailing_comma)
      return Fail("header '" + key + "' is '(" + std::to_string(out->items[0]) + ")', an int, not a tuple", error);
    return true;
  }

  // Decimal digits only, no leading zeros (Python refuses 04), at most 2^63.
  static bool ParseInt(const std::string& token, uint64_t* out) {
    if (token.empty() || token.size() > 19) return false;
    if (token.size() > 1 && token[0] == '0') return false;
    uint64_t v = 0;
    for (char c : token) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    *out = v;
    return true;
  }

  const std::string& s_;
  size_t i_ = 0;
};

}  // namespace

bool NpyHeaderLength(const uint8_t* bytes, size_t size, uint64_t* out_length, std::string* error) {
  if (size < 10 || std::memcmp(bytes, kNpyMagic, 6) != 0) {
    *error = "not a .npy file (missing the \\x93NUMPY magic)";
    return false;
  }
  uint8_t major = bytes[6], minor = bytes[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    *error = "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
             " (expected 1.0, 2.0 or 3.0)";
    return false;
  }
  uint64_t prefix = 10, dict = bytes[8] | (uint64_t(bytes[9]) << 8);
  if (major != 1) {
    if (size < 12) {
      *error = "truncated .npy header";
      return false;
    }
    prefix = 12;
    dict |= (uint64_t(bytes[10]) << 16) | (uint64_t(bytes[11]) << 24);
  }
  if (dict > kMaxNpyHeaderBytes) {
    *error = "header of " + std::to_string(dict) + " bytes is longer than numpy's limit of " +
             std::to_string(kMaxNpyHeaderBytes);
    return false;
  }
  *out_length = prefix + dict;
  return true;
}

bool ParseNpyHeader(const uint8_t* bytes, size_t size, NpyHeader* out, std::string* error) {
  uint64_t length = 0;
  if (!NpyHeaderLength(bytes, size, &length, error)) return false;
  if (length > size) {
    *error = "truncated .npy header";
    return false;
  }
  uint64_t prefix = bytes[6] == 1 ? 10 : 12;
  std::string text(reinterpret_cast<const char*>(bytes + prefix), length - prefix);
  std::vector<std::string> keys;
  std::vector<DictReader::Value> values;
  if (!DictReader(text).Read(&keys, &values, error)) return false;

  const DictReader::Value* descr = nullptr;
  const DictReader::Value* fortran = nullptr;
  const DictReader::Value* shape = nullptr;
  for (size_t k = 0; k < keys.size(); ++k) {
    const DictReader::Value** slot = keys[k] == "descr"           ? &descr
                                     : keys[k] == "fortran_order" ? &fortran
                                     : keys[k] == "shape"         ? &shape
                                                                  : nullptr;
    if (!slot) {
      *error = "header has an unexpected key '" + keys[k] + "' (numpy allows only descr, fortran_order, shape)";
      return false;
    }
    if (*slot) {
      *error = "header key '" + keys[k] + "' appears twice (numpy would silently keep the last)";
      return false;
    }
    *slot = &values[k];
  }
  for (auto [value, name] : {std::pair{descr, "descr"}, {fortran, "fortran_order"}, {shape, "shape"}}) {
    if (!value) {
      *error = std::string("header has no '") + name + "'";
      return false;
    }
  }
  if (descr->kind != DictReader::Value::kString) {
    *error = "header 'descr' is not a string";
    return false;
  }
  if (descr->text == "<f4")
    out->type = MESHVK_ELEMENT_F32;
  else if (descr->text == "<f2")
    out->type = MESHVK_ELEMENT_F16;
  else if (descr->text == "<f8")
    out->type = MESHVK_ELEMENT_F64;
  else if (descr->text == "<i4" || descr->text == "<i8" || descr->text == "|b1")
    out->type = MESHVK_ELEMENT_I32;
  else {
    *error = "unsupported dtype '" + descr->text + "' (expected <f4, <f2, <f8, <i4, <i8 or |b1)";
    return false;
  }
  if (fortran->kind != DictReader::Value::kBool) {
    *error = "header 'fortran_order' is not True/False";
    return false;
  }
  if (fortran->flag) {
    *error = "Fortran-order arrays are not supported (save C order)";
    return false;
  }
  if (shape->kind != DictReader::Value::kTuple) {
    *error = "header 'shape' is not a tuple";
    return false;
  }
  if (shape->items.size() > kMaxTensorRank) {
    *error =
        "shape has rank " + std::to_string(shape->items.size()) + " (at most " + std::to_string(kMaxTensorRank) + ")";
    return false;
  }
  uint64_t count = 1;
  for (uint64_t extent : shape->items) {
    if (extent == 0) {
      *error = "shape has a zero dimension (empty tensors are not supported)";
      return false;
    }
    if (__builtin_mul_overflow(count, extent, &count) || count > kMaxTensorElements) {
      *error = "shape has more than 2^32 elements";
      return false;
    }
  }
  out->shape = shape->items;
  out->data_offset = length;
  out->stored = descr->text == "<i8" ? StoredAs::kInt64 : descr->text == "|b1" ? StoredAs::kBool : StoredAs::kType;
  out->data_bytes = count * StoredBytes(out->stored, ElementBytes(out->type));
  return true;
}

std::vector<uint8_t> MakeNpyHeader(const std::vector<uint64_t>& shape, meshvk_element_type_t type) {
  return MakeNpyHeader(shape, type == MESHVK_ELEMENT_F32   ? "<f4"
                              : type == MESHVK_ELEMENT_F16 ? "<f2"
                              : type == MESHVK_ELEMENT_F64 ? "<f8"
                                                           : "<i4");
}

std::vector<uint8_t> MakeNpyHeader(const std::vector<uint64_t>& shape, const char* descr) {
  std::string dims = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    dims += std::to_string(shape[i]) + (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  dims += ")";
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + dims + ", }";
  // Pad so that the data starts on a 64-byte boundary (the format's rule).
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  std::vector<uint8_t> header = {0x93,
                                 'N',
                                 'U',
                                 'M',
                                 'P',
                                 'Y',
                                 1,
                                 0,
                                 static_cast<uint8_t>(dict.size() & 0xff),
                                 static_cast<uint8_t>(dict.size() >> 8)};
  header.insert(header.end(), dict.begin(), dict.end());
  return header;
}

}  // namespace meshvk_run
