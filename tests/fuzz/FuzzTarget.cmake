# Defines the fuzz_artifact_loader target (clang only): the verifier, the
# schedule, the SPIR-V check (and the status object it reports with) and the
# builder helpers they use, compiled with the fuzzer and ASan. Needs
# MESHVK_SOURCE_DIR. Used from both the main build (when it is clang) and the
# standalone sub-build.
find_program(MESHVK_FUZZ_FLATC flatc REQUIRED)
find_package(SPIRV-Tools REQUIRED CONFIG)
find_package(SPIRV-Headers REQUIRED CONFIG)
set(_fuzz_gen ${CMAKE_CURRENT_BINARY_DIR}/fuzz_gen/meshvk/artifact)
add_custom_command(
  OUTPUT ${_fuzz_gen}/mvk_generated.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_fuzz_gen}
  COMMAND ${MESHVK_FUZZ_FLATC} --cpp --scoped-enums -o ${_fuzz_gen} ${MESHVK_SOURCE_DIR}/runtime/artifact/mvk.fbs
  DEPENDS ${MESHVK_SOURCE_DIR}/runtime/artifact/mvk.fbs
  VERBATIM)
# meshvk/version.h (the public headers include it), from the project's version.
file(STRINGS ${MESHVK_SOURCE_DIR}/CMakeLists.txt _meshvk_project REGEX "^project\\(meshvk VERSION")
string(REGEX MATCH "([0-9]+)\\.([0-9]+)\\.([0-9]+)" _meshvk_version "${_meshvk_project}")
set(PROJECT_VERSION_MAJOR ${CMAKE_MATCH_1})
set(PROJECT_VERSION_MINOR ${CMAKE_MATCH_2})
set(PROJECT_VERSION_PATCH ${CMAKE_MATCH_3})
configure_file(${MESHVK_SOURCE_DIR}/runtime/include/meshvk/version.h.in ${CMAKE_CURRENT_BINARY_DIR}/fuzz_gen/meshvk/version.h
               @ONLY)
add_executable(fuzz_artifact_loader
  ${MESHVK_SOURCE_DIR}/tests/fuzz/fuzz_artifact_loader.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/module/artifact_verifier.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/module/artifact_verifier_structure.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/module/artifact_verifier_commands.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/module/artifact_verifier_variants.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/module/schedule.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/spirv_check.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/spirv_check_interface.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/spirv_names.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/base/status.cc
  ${MESHVK_SOURCE_DIR}/runtime/src/base/structure.cc
  ${MESHVK_SOURCE_DIR}/runtime/artifact/src/builder.cc
  ${MESHVK_SOURCE_DIR}/runtime/artifact/src/integrity.cc
  ${_fuzz_gen}/mvk_generated.h)
target_include_directories(fuzz_artifact_loader PRIVATE
  ${CMAKE_CURRENT_BINARY_DIR}/fuzz_gen
  ${MESHVK_SOURCE_DIR}/runtime/src/module
  ${MESHVK_SOURCE_DIR}/runtime/src/base
  ${MESHVK_SOURCE_DIR}/runtime/include
  ${MESHVK_SOURCE_DIR}/runtime/artifact/include)
target_compile_options(fuzz_artifact_loader PRIVATE -g -O1 -fsanitize=fuzzer,address,undefined
                       -fno-sanitize-recover=undefined)
target_link_options(fuzz_artifact_loader PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_libraries(fuzz_artifact_loader PRIVATE SPIRV-Tools-static SPIRV-Headers::SPIRV-Headers)

# mesh-vk-run's parsers (.npy, .bin, inline specs): no Vulkan, no FlatBuffers.
add_executable(fuzz_tensor_io
  ${MESHVK_SOURCE_DIR}/tests/fuzz/fuzz_tensor_io.cc
  ${MESHVK_SOURCE_DIR}/samples/mesh-vk-run/tensor_io.cc
  ${MESHVK_SOURCE_DIR}/samples/mesh-vk-run/tensor_source.cc
  ${MESHVK_SOURCE_DIR}/samples/mesh-vk-run/npz.cc
  ${MESHVK_SOURCE_DIR}/samples/mesh-vk-run/npy_header.cc)
target_include_directories(fuzz_tensor_io PRIVATE
  ${CMAKE_CURRENT_BINARY_DIR}/fuzz_gen
  ${MESHVK_SOURCE_DIR}/samples/mesh-vk-run
  ${MESHVK_SOURCE_DIR}/runtime/include)
target_compile_options(fuzz_tensor_io PRIVATE -g -O1 -fsanitize=fuzzer,address,undefined
                       -fno-sanitize-recover=undefined)
target_link_options(fuzz_tensor_io PRIVATE -fsanitize=fuzzer,address,undefined)
