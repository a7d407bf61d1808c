# python.install: installs the meshvk_python component into WORK_DIR and
# imports the package from there with a clean PYTHONPATH.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --component meshvk_python --prefix ${WORK_DIR}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install --component meshvk_python failed (${rc})")
endif()
file(GLOB_RECURSE init ${WORK_DIR}/*.py)
list(FILTER init INCLUDE REGEX "/meshvk/__init__\\.py$")
if(NOT init)
  message(FATAL_ERROR "no meshvk/__init__.py under ${WORK_DIR}")
endif()
get_filename_component(package ${init} DIRECTORY)
get_filename_component(site ${package} DIRECTORY)
set(script "import numpy as np, meshvk
assert meshvk.__file__.startswith('${site}'), meshvk.__file__
print('devices:', [d['name'] for d in meshvk.devices()])
import importlib.util
if importlib.util.find_spec('meshvk._compiler'):
    main = meshvk.Runtime(devices=2).load(meshvk.compile('${SAMPLE}'))['main']
    a = np.arange(6, dtype=np.float32).reshape(2, 3); b = np.ones((3, 2), np.float32)
    np.testing.assert_allclose(main(a, b), a @ b)
    print('ran seed_matmul from', meshvk.__file__)
")
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${site} ${PYTHON} -c "${script}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "importing the installed package from ${site} failed (${rc})")
endif()
