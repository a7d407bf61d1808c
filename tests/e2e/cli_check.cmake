# Runs one command line of the chain (mesh-vk-compile or mesh-vk-run) and
# checks it: -DTOOL=<exe> -DARGS=<;-list> -DRC=<exit code> [-DSTDERR=<regex>]
# [-DSTDOUT=<regex>] [-DNO_FILE=<path>] -DWORKDIR=<dir>. An error exit (2 or 3)
# must print exactly one line on stderr; a crash shows up as a signal instead
# of an exit code and fails.
execute_process(COMMAND ${TOOL} ${ARGS}
                WORKING_DIRECTORY ${WORKDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(context "command: ${TOOL} ${ARGS}\nexit: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
if(NOT rc STREQUAL RC)
  message(FATAL_ERROR "expected exit code ${RC}\n${context}")
endif()
if(DEFINED STDOUT AND NOT out MATCHES "${STDOUT}")
  message(FATAL_ERROR "stdout does not match '${STDOUT}'\n${context}")
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}'\n${context}")
endif()
if(RC EQUAL 2 OR RC EQUAL 3)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1)
    message(FATAL_ERROR "an error must be one line on stderr (got ${lines})\n${context}")
  endif()
endif()
if(DEFINED NO_FILE)
  file(GLOB leftovers "${NO_FILE}*")
  if(leftovers)
    message(FATAL_ERROR "left behind: ${leftovers}\n${context}")
  endif()
endif()
