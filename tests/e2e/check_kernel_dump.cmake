# Checks what `mesh-vk-compile --dump-kernels=DIR` left in DIR:
#   cmake -DDIR=<dir> -DCOUNT=<distinct kernels> -P check_kernel_dump.cmake
# Exactly COUNT kernels, each as <kernel>.spv (a SPIR-V binary: the magic
# number first) and <kernel>.spvasm (disassembly with a GLCompute entry point).
file(GLOB binaries "${DIR}/*.spv")
file(GLOB listings "${DIR}/*.spvasm")
list(LENGTH binaries nb)
list(LENGTH listings nl)
if(NOT nb EQUAL COUNT OR NOT nl EQUAL COUNT)
  message(FATAL_ERROR "expected ${COUNT} .spv and ${COUNT} .spvasm in ${DIR}, found ${nb} and ${nl}: ${binaries} ${listings}")
endif()
foreach(spv ${binaries})
  string(REGEX REPLACE "\\.spv$" ".spvasm" listing "${spv}")
  if(NOT EXISTS "${listing}")
    message(FATAL_ERROR "${spv} has no disassembly ${listing}")
  endif()
  # 0x07230203, little-endian.
  file(READ "${spv}" magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "03022307")
    message(FATAL_ERROR "${spv} does not start with the SPIR-V magic number (got ${magic})")
  endif()
  file(READ "${listing}" text)
  if(NOT text MATCHES "OpEntryPoint GLCompute %main \"main\"")
    message(FATAL_ERROR "${listing} has no 'OpEntryPoint GLCompute %main \"main\"':\n${text}")
  endif()
endforeach()
