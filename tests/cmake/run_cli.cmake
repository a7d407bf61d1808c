# Runs one command line of a meshvk tool and checks what a user would see:
#   -DTOOL=<exe> -DARGS=<;-list> -DRC=<exit code> [-DWORKDIR=<dir>]
#   [-DSTDOUT=<regex>] [-DSTDERR=<regex>] [-DNO_FILE=<path>] [-DSAME_FILE=<a;b>]
#   [-DSTDIN=<file fed to the tool's stdin>]
# An error exit (2 or 3) must print exactly one line on stderr; a crash shows
# up as a signal instead of an exit code and fails. NO_FILE: nothing named
# <path>* may be left behind (no half-written output).
if(NOT DEFINED WORKDIR)
  set(WORKDIR .)
endif()
set(stdin_args)
if(DEFINED STDIN)
  set(stdin_args INPUT_FILE ${STDIN})
endif()
execute_process(COMMAND ${TOOL} ${ARGS}
                WORKING_DIRECTORY ${WORKDIR} ${stdin_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
get_filename_component(tool_name "${TOOL}" NAME)
set(context "command: ${tool_name} ${ARGS}\nexit: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
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
if(DEFINED SAME_FILE)
  list(GET SAME_FILE 0 first)
  list(GET SAME_FILE 1 second)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${first} ${second} RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${first} and ${second} differ\n${context}")
  endif()
endif()
