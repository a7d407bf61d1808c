// The host reduction of rank collectives (rank_collectives.h): one step of a
// reduction per element, f16 combined in float and rounded back per step.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "rank_collectives.h"

namespace meshvk::module {
namespace {

// One step of `reduction` (mvk.fbs Reduction). Float max/min: Max/Min
// propagate NaN as arith.maximumf/minimumf do on the devices (and -0 < +0),
// MaxNum/MinNum return the other operand of a NaN as arith.maxnumf/minnumf.
template <typename T>
T CombineOne(mvk::Reduction reduction, T a, T b) {
  switch (reduction) {
    case mvk::Reduction::Sum:
      return a + b;
    case mvk::Reduction::Product:
      return a * b;
    case mvk::Reduction::Max:
    case mvk::Reduction::Min: {
      const bool max = reduction == mvk::Reduction::Max;
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
        if (a == b) return std::signbit(a) == max ? b : a;  // +0 is the max of +-0, -0 the min
      }
      return max ? std::max(a, b) : std::min(a, b);
    }
    case mvk::Reduction::MaxNum:
      if constexpr (std::is_floating_point_v<T>) return std::fmax(a, b);
      return std::max(a, b);
    case mvk::Reduction::MinNum:
      if constexpr (std::is_floating_point_v<T>) return std::fmin(a, b);
      return std::min(a, b);
    default:
      return a;
  }
}

template <typename T>
void Combine(mvk::Reduction reduction, const T* from, T* into, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) into[i] = CombineOne(reduction, into[i], from[i]);
}

template <typename T>
void CombineTwo(mvk::Reduction reduction, const T* a, const T* b, T* into, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) into[i] = CombineOne(reduction, a[i], b[i]);
}

// IEEE half <-> float (round to nearest even, subnormals, inf and NaN kept):
// f16 reductions combine in float and round each result back to half, as
// the devices' f16 reduction kernel does per step.
float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) {
    const float f = std::ldexp(static_cast<float>(mant), -24);  // zero or subnormal
    return sign ? -f : f;
  }
  const uint32_t bits = exp == 31 ? sign | 0x7f800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof x);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return sign | 0x7c00u | (mant ? 0x200u : 0u);  // inf, NaN
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return sign | 0x7c00u;  // overflow: inf
  uint32_t half = 0, rem = 0, mid = 0;
  if (e <= 0) {  // subnormal half (or zero)
    if (e < -10) return sign;
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    half = mant >> shift;
    rem = mant & ((1u << shift) - 1);
    mid = 1u << (shift - 1);
  } else {
    half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    rem = mant & 0x1fffu;
    mid = 0x1000u;
  }
  if (rem > mid || (rem == mid && (half & 1))) ++half;  // a carry into the exponent is the right rounding
  return static_cast<uint16_t>(sign | half);
}

void CombineHalf(mvk::Reduction reduction, const uint16_t* from, uint16_t* into, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    float a = HalfToFloat(into[i]);
    const float b = HalfToFloat(from[i]);
    Combine(reduction, &b, &a, 1);
    into[i] = FloatToHalf(a);
  }
}

}  // namespace

void ReduceInto(mvk::ElementType type, mvk::Reduction reduction, const uint8_t* from, uint8_t* into, uint64_t count) {
  if (type == mvk::ElementType::F16)
    CombineHalf(reduction, reinterpret_cast<const uint16_t*>(from), reinterpret_cast<uint16_t*>(into), count);
  else if (type == mvk::ElementType::I32)
    Combine(reduction, reinterpret_cast<const int32_t*>(from), reinterpret_cast<int32_t*>(into), count);
  else if (type == mvk::ElementType::F64)
    Combine(reduction, reinterpret_cast<const double*>(from), reinterpret_cast<double*>(into), count);
  else
    Combine(reduction, reinterpret_cast<const float*>(from), reinterpret_cast<float*>(into), count);
}

void ReduceTwo(mvk::ElementType type, mvk::Reduction reduction, const uint8_t* a, const uint8_t* b, uint8_t* into,
               uint64_t count) {
  if (type == mvk::ElementType::I32) {
    CombineTwo(reduction, reinterpret_cast<const int32_t*>(a), reinterpret_cast<const int32_t*>(b),
               reinterpret_cast<int32_t*>(into), count);
  } else if (type == mvk::ElementType::F32) {
    CombineTwo(reduction, reinterpret_cast<const float*>(a), reinterpret_cast<const float*>(b),
               reinterpret_cast<float*>(into), count);
  } else if (type == mvk::ElementType::F64) {
    CombineTwo(reduction, reinterpret_cast<const double*>(a), reinterpret_cast<const double*>(b),
               reinterpret_cast<double*>(into), count);
  } else {                                                              // f16: rounded per step, as ReduceInto does
    if (into == b) return ReduceInto(type, reduction, a, into, count);  // the reductions commute
    if (into != a) std::memmove(into, a, count * 2);
    ReduceInto(type, reduction, b, into, count);
  }
}

}  // namespace meshvk::module

extern "C" void meshvk_transport_reduce(uint32_t element_type, uint32_t reduction, const void* from, void* into,
                                        uint64_t count) {
  namespace mvk = meshvk::mvk;
  if (element_type > static_cast<uint32_t>(mvk::ElementType::F64) || reduction < 1 ||
      reduction > static_cast<uint32_t>(mvk::Reduction::MAX))
    return;
  meshvk::module::ReduceInto(static_cast<mvk::ElementType>(element_type), static_cast<mvk::Reduction>(reduction),
                             static_cast<const uint8_t*>(from), static_cast<uint8_t*>(into), count);
}
