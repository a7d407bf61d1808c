// numpy.testing.assert_allclose-style comparison for --expected-output (see compare.h).
#include "compare.h"

#include <cmath>
#include <cstdio>

namespace meshvk_run {

bool TensorsClose(const HostTensor& actual, const HostTensor& expected, const Tolerance& tol, std::string* report) {
  if (actual.shape != expected.shape || actual.type != expected.type) {
    *report = "result is " + TypeString(actual.shape, actual.type) + ", expected " +
              TypeString(expected.shape, expected.type);
    return false;
  }
  uint64_t count = actual.element_count(), bad = 0, first = 0;
  for (uint64_t i = 0; i < count; ++i) {
    double a = actual.At(i), e = expected.At(i);
    bool close = std::isnan(e) || std::isnan(a)   ? std::isnan(e) && std::isnan(a)
                 : std::isinf(e) || std::isinf(a) ? a == e  // inf == inf of the same sign
                                                  : std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
    if (!close) {
      if (bad == 0) first = i;
      ++bad;
    }
  }
  if (bad == 0) return true;
  char line[256];
  std::snprintf(line, sizeof(line),
                "%llu of %llu elements differ; first at flat index %llu: got %.9g, expected %.9g (atol %g, rtol %g)",
                static_cast<unsigned long long>(bad), static_cast<unsigned long long>(count),
                static_cast<unsigned long long>(first), actual.At(first), expected.At(first), tol.atol, tol.rtol);
  *report = line;
  return false;
}

}  // namespace meshvk_run
