# Runs embed-render under VK_LAYER_MESHVK_host_access and checks its report
# (one line per draw submission; see runtime/layer/host_access/host_access.cc).
#   EXPECT=none:     every frame's draw waits on the compute on the device and
#                    the host neither waits, polls nor maps in between.
#   EXPECT=readback: at least one frame has the host in between (the negative
#                    control: --round-trip reads the field back to the host).
# Parameters: EMBED_RENDER, LAYER_DIR, REPORT, FRAMES, EXPECT, ARGS (;-list).
file(REMOVE ${REPORT})
set(ENV{VK_LAYER_PATH} "${LAYER_DIR}")
set(ENV{VK_INSTANCE_LAYERS} "VK_LAYER_MESHVK_host_access")
set(ENV{MESHVK_HOST_ACCESS_REPORT} "${REPORT}")
execute_process(COMMAND ${EMBED_RENDER} --frames=${FRAMES} ${ARGS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "embed-render exited with ${rc}")
endif()
if(NOT EXISTS ${REPORT})
  message(FATAL_ERROR "no report from VK_LAYER_MESHVK_host_access (is the layer on VK_LAYER_PATH?)")
endif()
file(STRINGS ${REPORT} lines)
list(LENGTH lines draws)
if(NOT draws EQUAL FRAMES)
  message(FATAL_ERROR "expected ${FRAMES} draw submissions, the layer saw ${draws}")
endif()
set(with_host 0)
foreach(line IN LISTS lines)
  message(STATUS "${line}")
  if(NOT line MATCHES "compute_submits=[1-9]")
    message(FATAL_ERROR "a draw without a compute submission before it: ${line}")
  endif()
  if(NOT line MATCHES "host_syncs=0 maps=0 device_wait=1$")
    math(EXPR with_host "${with_host} + 1")
  endif()
endforeach()
if(EXPECT STREQUAL "none" AND with_host GREATER 0)
  message(FATAL_ERROR "${with_host} of ${draws} frames went through the host between compute and draw")
elseif(EXPECT STREQUAL "readback" AND with_host EQUAL 0)
  message(FATAL_ERROR "the round trip was not detected: no frame had the host between compute and draw")
endif()
message(STATUS "${with_host} of ${draws} frames had the host between compute and draw (expected: ${EXPECT})")
