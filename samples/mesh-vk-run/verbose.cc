// -v/--verbose (see verbose.h).
#include "verbose.h"

#include <cstdarg>
#include <cstdio>

namespace meshvk_run {
namespace {
int g_verbosity = 0;  // set once by main before any work; read-only afterwards
}  // namespace

void SetVerbosity(int level) { g_verbosity = level; }
int Verbosity() { return g_verbosity; }

void Verbose(int level, const char* format, ...) {
  if (g_verbosity < level) return;
  std::fputs("mesh-vk-run: ", stderr);
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fputc('\n', stderr);
}

}  // namespace meshvk_run
