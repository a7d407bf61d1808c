// .npz reading (see npz.h). Sizes and offsets come from the central
// directory (numpy writes zip64 local headers whose sizes may be 0xffffffff);
// the local header is read only for its name and extra lengths, to find the
// data. Only the directory and the members' first bytes are read here.
#include "npz.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "tensor_io.h"

#ifdef MESHVK_RUN_HAS_ZLIB
#include <zlib.h>
#endif

namespace meshvk_run {
namespace {

// Archives larger than this are refused before they are read: 2^32 f32
// elements (the tensor limit) plus headers.
constexpr uint64_t kMaxArchiveBytes = (uint64_t(1) << 34) + (uint64_t(1) << 20);
// A central directory larger than this is not numpy's (a few entries).
constexpr uint64_t kMaxDirectoryBytes = uint64_t(1) << 26;
constexpr uint32_t kEndOfDirectory = 0x06054b50, kDirectoryEntry = 0x02014b50, kLocalHeader = 0x04034b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr size_t kChunk = 1 << 16;

uint16_t U16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint32_t U32(const uint8_t* p) { return U16(p) | static_cast<uint32_t>(U16(p + 2)) << 16; }
uint64_t U64(const uint8_t* p) { return U32(p) | static_cast<uint64_t>(U32(p + 4)) << 32; }

// CRC-32 (zip's polynomial), continued over pieces, so stored members are
// checked without zlib.
uint32_t Crc32(uint32_t crc, const uint8_t* data, size_t size) {
  static const auto* table = [] {
    static uint32_t t[256];
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc ^= 0xffffffffu;
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// Reads exactly `size` bytes at `offset`.
bool ReadAt(int fd, uint64_t offset, uint8_t* out, uint64_t size) {
  while (size > 0) {
    ssize_t n = pread(fd, out, static_cast<size_t>(std::min<uint64_t>(size, 1 << 30)), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n, offset += static_cast<uint64_t>(n), size -= static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

bool NpzHasDeflate() {
#ifdef MESHVK_RUN_HAS_ZLIB
  return true;
#else
  return false;
#endif
}

bool StreamNpzMember(const TensorSource& member, uint64_t limit,
                     const std::function<void(uint64_t, const uint8_t*, size_t)>& sink, std::string* error) {
  const bool whole = limit >= member.member_bytes;
  limit = std::min(limit, member.member_bytes);
  const uint64_t start =
      member.kind == TensorSource::Kind::kDeflated ? member.offset : member.offset - member.header_bytes;
  auto fail = [&](const std::string& why) {
    *error = member.name + ": " + why;
    return false;
  };
  Fd file;
  file.fd = open(member.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) return fail(std::string("cannot open: ") + std::strerror(errno));
  std::vector<uint8_t> out(kChunk);
  uint32_t crc = 0;
  uint64_t produced = 0;
  if (member.kind != TensorSource::Kind::kDeflated) {  // stored: the bytes as they are
    while (produced < limit) {
      size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, limit - produced));
      if (!ReadAt(file.fd, start + produced, out.data(), n))
        return fail("truncated (data runs past the end of the file)");
      crc = Crc32(crc, out.data(), n);
      sink(produced, out.data(), n);
      produced += n;
    }
  } else {
#ifdef MESHVK_RUN_HAS_ZLIB
    z_stream s{};
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) return fail("zlib could not start");  // raw deflate, as zip stores it
    std::unique_ptr<z_stream, int (*)(z_stream*)> end(&s, inflateEnd);
    std::vector<uint8_t> in(kChunk);
    uint64_t consumed = 0;
    int rc = Z_OK;
    while (produced < limit && rc != Z_STREAM_END) {
      if (s.avail_in == 0 && consumed < member.packed_bytes) {
        size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, member.packed_bytes - consumed));
        if (!ReadAt(file.fd, start + consumed, in.data(), n))
          return fail("truncated (data runs past the end of the file)");
        s.next_in = in.data();
        s.avail_in = static_cast<uInt>(n);
        consumed += n;
      }
      // Never past the declared size (+1 to see a member that is longer).
      uint64_t room = std::min<uint64_t>(kChunk, (whole ? member.member_bytes + 1 : limit) - produced);
      s.next_out = out.data();
      s.avail_out = static_cast<uInt>(room);
      rc = inflate(&s, Z_NO_FLUSH);
      if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR) return fail("corrupt deflate data");
      size_t n = static_cast<size_t>(room - s.avail_out);
      if (produced + n > member.member_bytes) return fail("deflate data does not match the declared size");
      if (rc == Z_BUF_ERROR && n == 0 && s.avail_in == 0 && consumed >= member.packed_bytes) break;
      crc = Crc32(crc, out.data(), n);
      sink(produced, out.data(), std::min<uint64_t>(n, limit - produced));
      produced += n;
    }
#else
    return fail("deflated (numpy.savez_compressed) but this build has no zlib; save it with numpy.savez");
#endif
  }
  if (!whole) return produced >= limit || fail("deflate data does not match the declared size");
  if (produced != member.member_bytes) return fail("deflate data does not match the declared size");
  if (crc != member.crc) return fail("CRC mismatch (corrupt data)");
  return true;
}

namespace {

// Where the central directory is (from the end-of-central-directory record,
// or its zip64 form) and how many members it lists.
struct CentralDirectory {
  uint64_t count = 0, offset = 0, bytes = 0;
};

// One central-directory entry as the archive states it (zip64 sizes applied).
struct DirectoryEntry {
  std::string name;  // the member's file name ("x.npy")
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t packed = 0, unpacked = 0, local = 0;
};

// Finds the central directory of the `size`-byte archive open on `fd`. On
// failure the reason (without the path) in *why.
bool FindCentralDirectory(int fd, uint64_t size, CentralDirectory* out, std::string* why) {
  auto fail = [&](const std::string& what) {
    *why = what;
    return false;
  };
  uint8_t first[4] = {};
  if (size < 22 || !ReadAt(fd, 0, first, 4) || U32(first) != kLocalHeader) {
    if (size >= 22 && U32(first) == kEndOfDirectory) return fail("empty .npz archive (no arrays)");
    return fail("not a .npz file (no zip header)");
  }
  // The end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB.
  const uint64_t tail_start = size - std::min<uint64_t>(size, 22 + 65535 + 20);
  std::vector<uint8_t> tail(size - tail_start);
  if (!ReadAt(fd, tail_start, tail.data(), tail.size()))
    return fail("cannot read: " + std::string(std::strerror(errno)));
  size_t eocd = std::string::npos;
  for (size_t at = tail.size() - 22 + 1; at-- > 0 && tail.size() - at <= 22 + 65535;) {
    if (U32(&tail[at]) == kEndOfDirectory && at + 22 + U16(&tail[at + 20]) == tail.size()) {
      eocd = at;
      break;
    }
  }
  if (eocd == std::string::npos) return fail("truncated or corrupt .npz (no end of central directory)");
  out->count = U16(&tail[eocd + 10]);
  out->bytes = U32(&tail[eocd + 12]);
  out->offset = U32(&tail[eocd + 16]);
  if (U16(&tail[eocd + 4]) != 0 || U16(&tail[eocd + 6]) != 0) return fail("multi-disk zip archives are not supported");
  if ((out->count == 0xffff || out->offset == 0xffffffffu || out->bytes == 0xffffffffu) && eocd >= 20 &&
      U32(&tail[eocd - 20]) == kZip64Locator) {
    uint64_t record = U64(&tail[eocd - 20 + 8]);
    uint8_t zip64[56];
    if (record > size - std::min<uint64_t>(size, 56) || !ReadAt(fd, record, zip64, 56) ||
        U32(zip64) != kZip64EndOfDirectory)
      return fail("corrupt zip64 end of central directory");
    out->count = U64(&zip64[32]);
    out->bytes = U64(&zip64[40]);
    out->offset = U64(&zip64[48]);
  }
  if (out->count == 0) return fail("empty .npz archive (no arrays)");
  if (out->offset > size || out->bytes > size - out->offset || out->bytes > kMaxDirectoryBytes)
    return fail("member 0: corrupt central directory");
  return true;
}

// Parses the entry of member `index` at dir[*at] and moves *at past it. On
// failure the reason (without the path) in *why.
bool ReadDirectoryEntry(const std::vector<uint8_t>& dir, uint64_t index, uint64_t* at, DirectoryEntry* out,
                        std::string* why) {
  std::string entry = "member " + std::to_string(index);
  auto fail = [&](const std::string& what) {
    *why = entry + ": " + what;
    return false;
  };
  const uint64_t dsize = dir.size(), a = *at;
  if (a > dsize || dsize - a < 46 || U32(&dir[a]) != kDirectoryEntry) return fail("corrupt central directory");
  out->flags = U16(&dir[a + 8]);
  out->method = U16(&dir[a + 10]);
  out->crc = U32(&dir[a + 16]);
  out->packed = U32(&dir[a + 20]);
  out->unpacked = U32(&dir[a + 24]);
  const uint16_t name_len = U16(&dir[a + 28]), extra_len = U16(&dir[a + 30]), comment_len = U16(&dir[a + 32]);
  out->local = U32(&dir[a + 42]);
  if (dsize - a - 46 < uint64_t(name_len) + extra_len + comment_len) return fail("corrupt central directory");
  out->name.assign(reinterpret_cast<const char*>(&dir[a + 46]), name_len);
  entry = "member '" + out->name + "'";
  // zip64 extra field: the 0xffffffff fields, in this order.
  const uint64_t extra_end = a + 46 + name_len + extra_len;
  for (uint64_t e = a + 46 + name_len; e + 4 <= extra_end;) {
    uint16_t id = U16(&dir[e]), len = U16(&dir[e + 2]);
    uint64_t field = e + 4, field_end = field + len;
    if (field_end > extra_end) return fail("corrupt extra field");
    if (id == 0x0001) {
      for (uint64_t* v : {&out->unpacked, &out->packed, &out->local}) {
        if (*v != 0xffffffffu) continue;
        if (field + 8 > field_end) return fail("corrupt zip64 field");
        *v = U64(&dir[field]);
        field += 8;
      }
    }
    e = field_end;
  }
  *at = a + 46 + uint64_t(name_len) + extra_len + comment_len;
  return true;
}

// The member `e` describes, checked against the `size`-byte archive `path`
// open on `fd`: where its data is and its .npy header. On failure the whole
// one-line error in *error.
bool ReadMember(const std::string& path, int fd, uint64_t size, const DirectoryEntry& e, NpzEntry* member,
                std::string* error) {
  const std::string entry = "member '" + e.name + "'";
  auto fail = [&](const std::string& what) {
    *error = path + ": " + entry + ": " + what;
    return false;
  };
  if (e.flags & 1) return fail("encrypted members are not supported");
  if (e.method != 0 && e.method != 8)
    return fail("compression method " + std::to_string(e.method) + " (expected stored or deflate)");
  if (e.name.size() < 5 || e.name.compare(e.name.size() - 4, 4, ".npy") != 0) return fail("not a .npy member");
  uint8_t header[30];
  if (e.local > size || size - e.local < 30 || !ReadAt(fd, e.local, header, 30) || U32(header) != kLocalHeader)
    return fail("corrupt local header");
  const uint64_t data = e.local + 30 + U16(&header[26]) + U16(&header[28]);
  if (data > size || size - data < e.packed) return fail("truncated (data runs past the end of the file)");
  if (e.unpacked > kMaxArchiveBytes || (e.method == 0 && e.packed != e.unpacked)) return fail("corrupt sizes");
  member->name = e.name.substr(0, e.name.size() - 4);
  TensorSource& source = member->source;
  source.kind = e.method == 0 ? TensorSource::Kind::kFile : TensorSource::Kind::kDeflated;
  source.path = path;
  source.name = path + ": " + entry;
  source.member = true;
  source.member_bytes = e.unpacked;
  source.packed_bytes = e.packed;
  source.crc = e.crc;
  source.offset = data;  // stored: moved to the array data below
  // The member's .npy header, from its first bytes (inflated if need be).
  std::vector<uint8_t> head;
  if (!StreamNpzMember(
          source, kMaxNpyHeaderBytes + kNpyPrefixBytes,
          [&](uint64_t, const uint8_t* bytes, size_t n) { head.insert(head.end(), bytes, bytes + n); }, error))
    return false;
  uint64_t header_length = 0;
  std::string why;
  if (!NpyHeaderLength(head.data(), head.size(), &header_length, &why) ||
      !ParseNpyHeader(head.data(), head.size(), &member->header, &why)) {
    *error = path + ":" + member->name + ": " + why;
    return false;
  }
  const NpyHeader& npy = member->header;
  if (npy.data_offset > e.unpacked || e.unpacked - npy.data_offset != npy.data_bytes) {
    *error = path + ":" + member->name + ": " +
             std::to_string(e.unpacked - std::min<uint64_t>(npy.data_offset, e.unpacked)) + " data bytes, shape " +
             TypeString(npy.shape, npy.type) + " needs " + std::to_string(npy.data_bytes);
    return false;
  }
  source.header_bytes = npy.data_offset;
  source.data_bytes = npy.data_bytes;
  source.stored = npy.stored;
  if (e.method == 0) source.offset = data + npy.data_offset;
  return true;
}

}  // namespace

bool OpenNpz(const std::string& path, std::vector<NpzEntry>* out, std::string* error) {
  out->clear();
  auto fail = [&](const std::string& what) {
    *error = path + ": " + what;
    out->clear();
    return false;
  };
  Fd file;
  file.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) return fail(std::string("cannot open: ") + std::strerror(errno));
  struct stat st{};
  if (fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) return fail("cannot read: not a regular file");
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > kMaxArchiveBytes) return fail("cannot read: larger than 16 GiB");
  CentralDirectory directory;
  std::string why;
  if (!FindCentralDirectory(file.fd, size, &directory, &why)) return fail(why);
  std::vector<uint8_t> dir(directory.bytes);
  if (!ReadAt(file.fd, directory.offset, dir.data(), dir.size())) return fail("member 0: corrupt central directory");
  uint64_t at = 0;
  for (uint64_t i = 0; i < directory.count; ++i) {
    DirectoryEntry entry;
    if (!ReadDirectoryEntry(dir, i, &at, &entry, &why)) return fail(why);
    NpzEntry member;
    if (!ReadMember(path, file.fd, size, entry, &member, error)) {
      out->clear();
      return false;
    }
    for (const NpzEntry& other : *out)
      if (other.name == member.name) return fail("member '" + entry.name + "': the name appears twice");
    out->push_back(std::move(member));
  }
  return true;
}

}  // namespace meshvk_run
