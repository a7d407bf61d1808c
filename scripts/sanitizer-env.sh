# Sourced by scripts/test.sh (and by hand: `source scripts/sanitizer-env.sh`
# before `ctest --test-dir build-asan`): the sanitizer runtime options of the
# sanitizer suite. Leaks inside the Khronos validation layer and the Vulkan
# driver are suppressed (scripts/lsan.supp), meshvk's own are not.
_meshvk_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_odr_violation=0:strict_string_checks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$_meshvk_root/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
unset _meshvk_root
