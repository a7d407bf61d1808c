# Sourced by scripts/test.sh (and by hand: `source scripts/sanitizer-env.sh`
# before `ctest --test-dir build-asan`): the sanitizer runtime options of the
# sanitizer suite. Leaks inside the Khronos validation layer and the Vulkan
# driver are suppressed (scripts/lsan.supp), meshvk's own are not; a
# preloaded dlclose() keeps those modules loaded so their leaks can be named
# (tests/sanitizers/keep_modules_loaded.c).
_meshvk_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_meshvk_asan_dir=${MESHVK_ASAN_BUILD_DIR:-build-asan}
case $_meshvk_asan_dir in /*) ;; *) _meshvk_asan_dir=$_meshvk_root/$_meshvk_asan_dir ;; esac
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0:strict_string_checks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$_meshvk_root/scripts/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ -f "$_meshvk_asan_dir/sanitizers/libmeshvk_keep_modules_loaded.so" ]; then
  export LD_PRELOAD=$_meshvk_asan_dir/sanitizers/libmeshvk_keep_modules_loaded.so${LD_PRELOAD:+:$LD_PRELOAD}
fi
unset _meshvk_root _meshvk_asan_dir
