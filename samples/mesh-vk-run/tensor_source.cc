// Reading a tensor's data from where it was found (see tensor_source.h).
// Every source is read through the same list of pieces: (offset in the dense
// tensor, bytes, offset in the output), sorted by the dense offset, so a
// stream (a deflated member) is walked once in order.
#include "tensor_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "npz.h"
#include "tensor_io.h"

namespace meshvk_run {
namespace {

struct Piece {
  uint64_t at, bytes, out;
};

// One piece per row of each run (rows of different runs may interleave in
// the dense tensor: columns of two shards), in dense order.
bool Pieces(const std::vector<meshvk_host_run_t>* runs, uint64_t data_bytes, std::vector<Piece>* out,
            std::string* error) {
  out->clear();
  if (!runs) {
    out->push_back({0, data_bytes, 0});
    return true;
  }
  uint64_t packed = 0;
  for (const meshvk_host_run_t& run : *runs) {
    for (uint64_t r = 0; r < run.rows; ++r) {
      const uint64_t at = run.offset + r * run.pitch;
      if (at > data_bytes || data_bytes - at < run.row_bytes) {
        *error = "run [" + std::to_string(at) + ", " + std::to_string(at + run.row_bytes) + ") lies outside the " +
                 std::to_string(data_bytes) + " data bytes";
        return false;
      }
      out->push_back({at, run.row_bytes, packed});
      packed += run.row_bytes;
    }
  }
  std::sort(out->begin(), out->end(), [](const Piece& a, const Piece& b) { return a.at < b.at; });
  return true;
}

void StoreValue(meshvk_element_type_t type, uint8_t* p, double value) {
  if (type == MESHVK_ELEMENT_F32) {
    float f = static_cast<float>(value);
    std::memcpy(p, &f, 4);
  } else if (type == MESHVK_ELEMENT_F16) {
    uint16_t h = FloatToHalf(static_cast<float>(value));
    std::memcpy(p, &h, 2);
  } else if (type == MESHVK_ELEMENT_F64) {
    std::memcpy(p, &value, 8);
  } else {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
  }
}

// "[0, 5]": the index of element `flat` of `shape`.
std::string IndexText(uint64_t flat, const std::vector<uint64_t>& shape) {
  std::vector<uint64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d) text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

// The dense i32 element of packed element `k` (runs in order, rows in
// order, as Pieces packs them).
uint64_t DenseElement(const std::vector<meshvk_host_run_t>& runs, uint64_t k) {
  for (const meshvk_host_run_t& run : runs) {
    const uint64_t per_row = run.row_bytes / 4;
    if (k < run.rows * per_row) return (run.offset + (k / per_row) * run.pitch) / 4 + k % per_row;
    k -= run.rows * per_row;
  }
  return k;
}

// A float source of another width (an f32 file for an f16 tensor, an f64 one
// for an f32 tensor): each value converted; a finite f64 beyond f32's range
// is refused (it would become inf).
bool ConvertFloats(const TensorSource& source, const std::vector<meshvk_host_run_t>* runs, const HostTensor& bytes,
                   HostTensor* out, std::string* error) {
  const bool wide = source.stored == StoredAs::kFloat64;
  const uint64_t count = bytes.data.size() / (wide ? 8 : 4);
  out->data.assign(count * (wide ? 4 : 2), 0);
  for (uint64_t k = 0; k < count; ++k) {
    if (!wide) {
      float f;
      std::memcpy(&f, bytes.data.data() + k * 4, 4);
      const uint16_t h = FloatToHalf(f);
      std::memcpy(out->data.data() + k * 2, &h, 2);
      continue;
    }
    double d;
    std::memcpy(&d, bytes.data.data() + k * 8, 8);
    if (std::isfinite(d) && std::fabs(d) > FLT_MAX) {
      *error = source.name + ": f64 element " + IndexText(runs ? DenseElement(*runs, k) : k, out->shape) + " is " +
               std::to_string(d) + ", beyond the f32 range the program computes it in (the device has no f64)";
      out->data.clear();
      return false;
    }
    const float f = static_cast<float>(d);
    std::memcpy(out->data.data() + k * 4, &f, 4);
  }
  return true;
}

// An int64, bool or other-width float source: the same pieces at its element
// size (runs are in the program's bytes: ElementBytes(out->type) an element)
// into a buffer of the stored bytes, then each value converted. The program
// computes ONNX int64 and bool tensors as i32, so an int64 value that does
// not fit is refused, never wrapped.
bool ReadConverted(const TensorSource& source, const std::vector<meshvk_host_run_t>* runs, HostTensor* out,
                   uint64_t* bytes_read, std::string* error) {
  const uint64_t elem = ElementBytes(out->type);
  const uint64_t size = StoredBytes(source.stored, static_cast<uint32_t>(elem));
  TensorSource stored = source;
  stored.stored = StoredAs::kType;
  std::vector<meshvk_host_run_t> stored_runs;
  if (runs)
    for (const meshvk_host_run_t& run : *runs)
      stored_runs.push_back({run.offset / elem * size, run.row_bytes / elem * size, run.rows, run.pitch / elem * size});
  HostTensor bytes;
  bytes.type = source.stored == StoredAs::kFloat32   ? MESHVK_ELEMENT_F32
               : source.stored == StoredAs::kFloat64 ? MESHVK_ELEMENT_F64
                                                     : MESHVK_ELEMENT_I32;
  if (!ReadTensorSource(stored, runs ? &stored_runs : nullptr, &bytes, bytes_read, error)) return false;
  if (source.stored == StoredAs::kFloat32 || source.stored == StoredAs::kFloat64)
    return ConvertFloats(source, runs, bytes, out, error);
  const uint64_t count = bytes.data.size() / size;
  out->data.assign(count * 4, 0);
  for (uint64_t k = 0; k < count; ++k) {
    int64_t v = bytes.data[k] != 0;  // kBool
    if (source.stored == StoredAs::kInt64) std::memcpy(&v, bytes.data.data() + k * 8, 8);
    if (v < INT32_MIN || v > INT32_MAX) {
      *error = source.name + ": int64 element " + IndexText(runs ? DenseElement(*runs, k) : k, out->shape) + " is " +
               std::to_string(v) + ", outside the int32 range the program computes it in ([-2147483648, 2147483647])";
      out->data.clear();
      return false;
    }
    const int32_t narrow = static_cast<int32_t>(v);
    std::memcpy(out->data.data() + k * 4, &narrow, 4);
  }
  return true;
}

}  // namespace

uint32_t StoredBytes(StoredAs stored, uint32_t type_bytes) {
  switch (stored) {
    case StoredAs::kInt64:
    case StoredAs::kFloat64:
      return 8;
    case StoredAs::kBool:
      return 1;
    case StoredAs::kFloat32:
      return 4;
    case StoredAs::kType:
      break;
  }
  return type_bytes;
}

const char* StoredName(StoredAs stored) {
  switch (stored) {
    case StoredAs::kInt64:
      return "i64";
    case StoredAs::kBool:
      return "b8";
    case StoredAs::kFloat32:
      return "f32";
    case StoredAs::kFloat64:
      return "f64";
    case StoredAs::kType:
      break;
  }
  return "";
}

uint64_t RunBytes(const std::vector<meshvk_host_run_t>& runs) {
  uint64_t bytes = 0;
  for (const meshvk_host_run_t& run : runs) bytes += run.rows * run.row_bytes;
  return bytes;
}

bool ReadTensorSource(const TensorSource& source, const std::vector<meshvk_host_run_t>* runs, HostTensor* out,
                      uint64_t* bytes_read, std::string* error) {
  if (source.stored != StoredAs::kType) return ReadConverted(source, runs, out, bytes_read, error);
  std::vector<Piece> pieces;
  if (!Pieces(runs, source.data_bytes, &pieces, error)) {
    *error = source.name + ": " + *error;
    return false;
  }
  out->data.assign(runs ? RunBytes(*runs) : source.data_bytes, 0);
  uint8_t* dest = out->data.data();
  uint64_t read = 0;
  switch (source.kind) {
    case TensorSource::Kind::kValues: {
      const uint32_t elem = ElementBytes(out->type);
      for (const Piece& piece : pieces)
        for (uint64_t b = 0; b < piece.bytes; b += elem) {
          const uint64_t i = (piece.at + b) / elem;
          StoreValue(out->type, dest + piece.out + b, source.values.size() == 1 ? source.values[0] : source.values[i]);
        }
      break;
    }
    case TensorSource::Kind::kBytes:
      for (const Piece& piece : pieces) std::memcpy(dest + piece.out, source.bytes.data() + piece.at, piece.bytes);
      break;
    case TensorSource::Kind::kFile:
      // A member read whole passes through the stream (its CRC is checked);
      // otherwise each piece is read where it lies.
      if (!(source.member && !runs)) {
        const int fd = open(source.path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
          *error = source.path + ": cannot open: " + std::strerror(errno);
          return false;
        }
        for (const Piece& piece : pieces) {
          uint64_t done = 0;
          while (done < piece.bytes) {
            ssize_t n =
                pread(fd, dest + piece.out + done, static_cast<size_t>(std::min<uint64_t>(piece.bytes - done, 1 << 30)),
                      static_cast<off_t>(source.offset + piece.at + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
              close(fd);
              *error = source.name + ": reading bytes [" + std::to_string(piece.at) + ", " +
                       std::to_string(piece.at + piece.bytes) + ") of the data failed" +
                       (n < 0 ? std::string(": ") + std::strerror(errno) : " (the file shrank)");
              return false;
            }
            done += static_cast<uint64_t>(n);
          }
          read += piece.bytes;
        }
        close(fd);
        break;
      }
      [[fallthrough]];
    case TensorSource::Kind::kDeflated: {
      // The member's bytes in order: keep those of the pieces, drop the rest.
      size_t next = 0;
      auto sink = [&](uint64_t position, const uint8_t* bytes, size_t n) {
        if (position + n <= source.header_bytes) return;
        const uint64_t skip = position < source.header_bytes ? source.header_bytes - position : 0;
        const uint64_t begin = position + skip - source.header_bytes, end = position + n - source.header_bytes;
        bytes += skip;
        while (next < pieces.size() && pieces[next].at + pieces[next].bytes <= begin) ++next;
        for (size_t k = next; k < pieces.size() && pieces[k].at < end; ++k) {
          const uint64_t from = std::max(begin, pieces[k].at), to = std::min(end, pieces[k].at + pieces[k].bytes);
          if (from >= to) continue;
          std::memcpy(dest + pieces[k].out + (from - pieces[k].at), bytes + (from - begin), to - from);
          read += to - from;
        }
      };
      if (!StreamNpzMember(source, UINT64_MAX, sink, error)) return false;
      break;
    }
  }
  if (bytes_read) *bytes_read += read;
  return true;
}

}  // namespace meshvk_run
