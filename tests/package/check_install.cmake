# cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DGENERATOR=... -P check_install.cmake
# Installs the build tree, builds the consumer against it, runs it.
set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${step} failed (exit ${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${step}: ok")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# Only the component an embedder installs: everything meshvk::runtime needs
# (including meshvk::artifact, which it links privately) must be in it.
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                        --component meshvk_runtime
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install --component meshvk_runtime failed (exit ${rc}):\n${out}\n${err}")
endif()
message(STATUS "install: ok")
if(EXISTS ${prefix}/lib/cmake/meshvk/meshvkConfig.cmake)
  set(config_dir ${prefix}/lib/cmake/meshvk)
else()
  file(GLOB_RECURSE configs ${prefix}/*/meshvkConfig.cmake)
  list(GET configs 0 config)
  get_filename_component(config_dir ${config} DIRECTORY)
endif()
# Only the installed headers may be visible: the source tree must not leak in.
file(GLOB_RECURSE leaked ${prefix}/*/runtime/src/*)
if(leaked)
  message(FATAL_ERROR "internal files installed: ${leaked}")
endif()
run("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${consumer_build} -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix} -Dmeshvk_DIR=${config_dir})
run("build consumer" ${CMAKE_COMMAND} --build ${consumer_build})
run("run consumer" ${consumer_build}/meshvk_consumer)
if(NOT last_output MATCHES "consumer: ok")
  message(FATAL_ERROR "consumer output lacks 'consumer: ok':\n${last_output}")
endif()
