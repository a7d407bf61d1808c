# cmake -DEXE=<mesh-vk-run> -DARGS=<a;b> -DEXPECTED_RC=<n> -DREGEX=<re> -P run_cli.cmake
# Runs the CLI and checks its exact exit code and that stdout+stderr match REGEX.
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL EXPECTED_RC)
  message(FATAL_ERROR "mesh-vk-run ${ARGS}: exit code ${rc}, expected ${EXPECTED_RC}\n${all}")
endif()
string(REPLACE "\n" " " flat "${all}")
if(NOT flat MATCHES "${REGEX}")
  message(FATAL_ERROR "mesh-vk-run ${ARGS}: output does not match '${REGEX}'\n${all}")
endif()
message(STATUS "ok: exit ${rc}")
