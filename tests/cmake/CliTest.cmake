# meshvk_cli_test(<test name> TOOL <target> RC <exit code> ARGS <args...>
#                 [WORKDIR <dir>] [STDOUT <regex>] [STDERR <regex>] [NO_FILE <path>]
#                 [SAME_FILE <a> <b>] [TIMEOUT <s>] [LABELS <l...>] [STDIN <file>]
#                 [FIXTURES_REQUIRED <f...>])
# One command-line test of a meshvk tool, checked by run_cli.cmake. Shared by
# the runtime, runner and e2e areas.
set(MESHVK_RUN_CLI_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/run_cli.cmake)
function(meshvk_cli_test name)
  cmake_parse_arguments(PARSE_ARGV 1 t "" "TOOL;RC;WORKDIR;STDOUT;STDERR;NO_FILE;TIMEOUT;STDIN"
                        "ARGS;SAME_FILE;LABELS;FIXTURES_REQUIRED")
  string(REPLACE ";" "\\;" args "${t_ARGS}")
  set(defs -DTOOL=$<TARGET_FILE:${t_TOOL}> -DRC=${t_RC} "-DARGS=${args}")
  foreach(key WORKDIR STDOUT STDERR NO_FILE STDIN)
    if(DEFINED t_${key})
      list(APPEND defs "-D${key}=${t_${key}}")
    endif()
  endforeach()
  if(t_SAME_FILE)
    string(REPLACE ";" "\\;" same "${t_SAME_FILE}")
    list(APPEND defs "-DSAME_FILE=${same}")
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${MESHVK_RUN_CLI_SCRIPT})
  if(NOT t_TIMEOUT)
    set(t_TIMEOUT 60)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${t_TIMEOUT})
  if(t_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${t_LABELS}")
  endif()
  if(t_FIXTURES_REQUIRED)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${t_FIXTURES_REQUIRED}")
  endif()
endfunction()
