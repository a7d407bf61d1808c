# cmake -DTESTDATA=/usr/share/libonnx-testdata/data -DOUT=DIR -P onnx_seeds.cmake
# The libFuzzer seed corpus of fuzz_onnx_import: every model.onnx of
# libonnx-testdata, as OUT/<suite>_<test>.onnx (libFuzzer reads folders).
file(GLOB_RECURSE _models ${TESTDATA}/model.onnx)
file(MAKE_DIRECTORY ${OUT})
set(_n 0)
foreach(_model IN LISTS _models)
  get_filename_component(_test ${_model} DIRECTORY)
  get_filename_component(_suite ${_test} DIRECTORY)
  get_filename_component(_test ${_test} NAME)
  get_filename_component(_suite ${_suite} NAME)
  file(COPY_FILE ${_model} ${OUT}/${_suite}_${_test}.onnx ONLY_IF_DIFFERENT)
  math(EXPR _n "${_n} + 1")
endforeach()
if(_n EQUAL 0)
  message(FATAL_ERROR "no model.onnx under ${TESTDATA}")
endif()
message(STATUS "${_n} seed models in ${OUT}")
