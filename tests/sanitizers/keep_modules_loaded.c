/* Preloaded (LD_PRELOAD) by the sanitizer suite only: a dlclose() that never
 * unloads. The Vulkan loader unloads the driver and the layers when an
 * instance is destroyed; LeakSanitizer then reports their leaks against an
 * "<unknown module>" that no suppression can name. Kept loaded, their frames
 * resolve to libvulkan_lvp.so / libVkLayer_khronos_validation.so, which
 * scripts/lsan.supp suppresses, while meshvk's own leaks are still reported.
 * Built without sanitizers: every process of the suite (ctest, cmake, bash)
 * loads it. */
int dlclose(void* handle) {
  (void)handle;
  return 0;
}
