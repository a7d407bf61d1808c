// .npz reading (see npz.h). Sizes and offsets come from the central
// directory (numpy writes zip64 local headers whose sizes may be 0xffffffff);
// the local header is read only for its name and extra lengths, to find the data.
#include "npz.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#ifdef MESHVK_RUN_HAS_ZLIB
#include <zlib.h>
#endif

namespace meshvk_run {
namespace {

// Archives larger than this are refused before they are read: 2^32 f32
// elements (the tensor limit) plus headers.
constexpr uint64_t kMaxArchiveBytes = (uint64_t(1) << 34) + (uint64_t(1) << 20);
constexpr uint32_t kEndOfDirectory = 0x06054b50, kDirectoryEntry = 0x02014b50, kLocalHeader = 0x04034b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50, kZip64Locator = 0x07064b50;

uint16_t U16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint32_t U32(const uint8_t* p) { return U16(p) | static_cast<uint32_t>(U16(p + 2)) << 16; }
uint64_t U64(const uint8_t* p) { return U32(p) | static_cast<uint64_t>(U32(p + 4)) << 32; }

// CRC-32 (zip's polynomial), so stored members are checked without zlib.
uint32_t Crc32(const uint8_t* data, size_t size) {
  static uint32_t table[256];
  static bool ready = false;
  if (!ready) {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = true;
  }
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

bool Inflate(const uint8_t* in, uint64_t in_size, uint64_t out_size, std::vector<uint8_t>* out, std::string* why) {
#ifdef MESHVK_RUN_HAS_ZLIB
  out->assign(out_size, 0);
  z_stream s{};
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK) {  // raw deflate, as zip stores it
    *why = "zlib could not start";
    return false;
  }
  s.next_in = const_cast<uint8_t*>(in);
  s.avail_in = static_cast<uInt>(in_size);
  s.next_out = out->data();
  s.avail_out = static_cast<uInt>(out_size);
  int rc = inflate(&s, Z_FINISH);
  uint64_t produced = s.total_out;
  inflateEnd(&s);
  if (rc != Z_STREAM_END || produced != out_size) {
    *why = rc == Z_DATA_ERROR                ? "corrupt deflate data"
           : rc == Z_BUF_ERROR || rc == Z_OK ? "deflate data does not match the declared size"
                                             : "inflate failed";
    return false;
  }
  return true;
#else
  (void)in, (void)in_size, (void)out_size, (void)out;
  *why = "deflated (numpy.savez_compressed) but this build has no zlib; save it with numpy.savez";
  return false;
#endif
}

}  // namespace

bool NpzHasDeflate() {
#ifdef MESHVK_RUN_HAS_ZLIB
  return true;
#else
  return false;
#endif
}

bool ReadNpz(const std::string& path, std::vector<NpzMember>* out, std::string* error) {
  out->clear();
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::streamoff end = file.tellg();
  if (end < 0 || static_cast<uint64_t>(end) > kMaxArchiveBytes) {
    *error = path + ": cannot read: " + (end < 0 ? std::string("not a regular file") : "larger than 16 GiB");
    return false;
  }
  std::vector<uint8_t> zip(static_cast<size_t>(end));
  file.seekg(0);
  if (!file.read(reinterpret_cast<char*>(zip.data()), end)) {
    *error = path + ": cannot read: " + std::strerror(errno);
    return false;
  }
  auto fail = [&](const std::string& what) {
    *error = path + ": " + what;
    out->clear();
    return false;
  };
  // The end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB.
  const size_t size = zip.size();
  if (size < 22 || U32(zip.data()) != kLocalHeader) {
    if (size >= 22 && U32(zip.data()) == kEndOfDirectory) return fail("empty .npz archive (no arrays)");
    return fail("not a .npz file (no zip header)");
  }
  size_t eocd = std::string::npos;
  for (size_t at = size - 22 + 1; at-- > 0 && size - at <= 22 + 65535;) {
    if (U32(&zip[at]) == kEndOfDirectory && at + 22 + U16(&zip[at + 20]) == size) {
      eocd = at;
      break;
    }
  }
  if (eocd == std::string::npos) return fail("truncated or corrupt .npz (no end of central directory)");
  uint64_t count = U16(&zip[eocd + 10]);
  uint64_t directory = U32(&zip[eocd + 16]);
  if (U16(&zip[eocd + 4]) != 0 || U16(&zip[eocd + 6]) != 0) return fail("multi-disk zip archives are not supported");
  if ((count == 0xffff || directory == 0xffffffffu) && eocd >= 20 && U32(&zip[eocd - 20]) == kZip64Locator) {
    uint64_t record = U64(&zip[eocd - 20 + 8]);
    if (record > size - 56 || U32(&zip[record]) != kZip64EndOfDirectory)
      return fail("corrupt zip64 end of central directory");
    count = U64(&zip[record + 32]);
    directory = U64(&zip[record + 48]);
  }
  if (count == 0) return fail("empty .npz archive (no arrays)");
  uint64_t at = directory;
  for (uint64_t i = 0; i < count; ++i) {
    std::string entry = "member " + std::to_string(i);
    if (at > size || size - at < 46 || U32(&zip[at]) != kDirectoryEntry)
      return fail(entry + ": corrupt central directory");
    uint16_t flags = U16(&zip[at + 8]), method = U16(&zip[at + 10]);
    uint32_t crc = U32(&zip[at + 16]);
    uint64_t packed = U32(&zip[at + 20]), unpacked = U32(&zip[at + 24]);
    uint16_t name_len = U16(&zip[at + 28]), extra_len = U16(&zip[at + 30]), comment_len = U16(&zip[at + 32]);
    uint64_t local = U32(&zip[at + 42]);
    if (size - at - 46 < uint64_t(name_len) + extra_len + comment_len)
      return fail(entry + ": corrupt central directory");
    std::string name(reinterpret_cast<const char*>(&zip[at + 46]), name_len);
    entry = "member '" + name + "'";
    // zip64 extra field: the 0xffffffff fields, in this order.
    for (uint64_t e = at + 46 + name_len; e + 4 <= at + 46 + name_len + extra_len;) {
      uint16_t id = U16(&zip[e]), len = U16(&zip[e + 2]);
      uint64_t field = e + 4, field_end = field + len;
      if (field_end > at + 46 + name_len + extra_len) return fail(entry + ": corrupt extra field");
      if (id == 0x0001) {
        for (uint64_t* v : {&unpacked, &packed, &local}) {
          if (*v != 0xffffffffu) continue;
          if (field + 8 > field_end) return fail(entry + ": corrupt zip64 field");
          *v = U64(&zip[field]);
          field += 8;
        }
      }
      e = field_end;
    }
    if (flags & 1) return fail(entry + ": encrypted members are not supported");
    if (method != 0 && method != 8)
      return fail(entry + ": compression method " + std::to_string(method) + " (expected stored or deflate)");
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".npy") != 0) return fail(entry + ": not a .npy member");
    if (local > size || size - local < 30 || U32(&zip[local]) != kLocalHeader)
      return fail(entry + ": corrupt local header");
    uint64_t data = local + 30 + U16(&zip[local + 26]) + U16(&zip[local + 28]);
    if (data > size || size - data < packed) return fail(entry + ": truncated (data runs past the end of the file)");
    if (unpacked > kMaxArchiveBytes || (method == 0 && packed != unpacked)) return fail(entry + ": corrupt sizes");
    if (method == 8 && (packed > 0xffffffffu || unpacked > 0xffffffffu))
      return fail(entry + ": deflated member larger than 4 GiB (save it with numpy.savez)");
    NpzMember member;
    member.name = name.substr(0, name.size() - 4);
    if (method == 0) {
      member.bytes.assign(zip.begin() + data, zip.begin() + data + packed);
    } else if (std::string why; !Inflate(&zip[data], packed, unpacked, &member.bytes, &why)) {
      return fail(entry + ": " + why);
    }
    if (Crc32(member.bytes.data(), member.bytes.size()) != crc) return fail(entry + ": CRC mismatch (corrupt data)");
    for (const NpzMember& other : *out)
      if (other.name == member.name) return fail(entry + ": the name appears twice");
    out->push_back(std::move(member));
    at += 46 + uint64_t(name_len) + extra_len + comment_len;
  }
  return true;
}

}  // namespace meshvk_run
