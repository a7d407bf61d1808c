# Dynamic grid (issue #12, `shard.grid @g(shape = ?)`): ONE .mvk compiled once
# with a plan per process count, run on 1..4 logical devices and on the
# emulated device group of 4, results against numpy (make_data.py); and the
# command line's refusals. Included from tests/e2e/CMakeLists.txt (uses its
# cli_test, _work, _uneven and MESHVK_TEST_VALIDATION_DIR).
set(_dyn ${CMAKE_CURRENT_SOURCE_DIR}/dynamic_grid)
set(_dyn_data ${_work}/dyngrid_data)

# Fixtures: the numpy oracle's files, and the one artifact (default counts 1-8).
add_test(NAME e2e.dyngrid.data COMMAND /usr/bin/python3 ${_dyn}/make_data.py ${_dyn_data})
set_tests_properties(e2e.dyngrid.data PROPERTIES FIXTURES_SETUP dyngrid_data)
cli_test(dyngrid_compile TOOL mesh-vk-compile RC 0 ARGS ${_dyn}/rows_matmul_sum.mlir -o dyngrid.mvk --print-plan
         STDOUT "dynamic grid: plans for 1, 2, 3, 4, 5, 6, 7, 8 processes.*plan for 3 processes: grid 3,")
set_tests_properties(e2e.cli.dyngrid_compile PROPERTIES FIXTURES_SETUP dyngrid_mvk)

set(_dyn_io --input=@${_dyn_data}/x.npy --input=@${_dyn_data}/w.npy
            --expected_output=@${_dyn_data}/y.npy --expected_output=@${_dyn_data}/s.npy)
foreach(n 1 2 3 4)
  cli_test(dyngrid_run_${n} TOOL mesh-vk-run RC 0 ARGS dyngrid.mvk --devices=${n} --validation ${_dyn_io}
           STDOUT "result 0: ok.*result 1: ok" FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
  if(TARGET meshvk_emulated_device_group_layer AND MESHVK_LAYER_MANIFEST_DIR)
    # --print-plan: the run must say it used the device group (the layer).
    cli_test(dyngrid_group_n4_run_${n} TOOL mesh-vk-run RC 0 ARGS dyngrid.mvk --devices=${n} --print-plan ${_dyn_io}
             STDOUT "plan for ${n} processes.*, device group.*result 0: ok.*result 1: ok"
             FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
    set_tests_properties(e2e.cli.dyngrid_group_n4_run_${n} PROPERTIES
      ENVIRONMENT "VK_LAYER_PATH=${MESHVK_TEST_VALIDATION_DIR}:${MESHVK_LAYER_MANIFEST_DIR};VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation:VK_LAYER_MESHVK_emulated_device_group;MESHVK_EMULATED_DEVICE_COUNT=4;MESHVK_EMULATED_EXECUTION_ORDER=shuffle;MESHVK_EMULATED_SHUFFLE_SEED=3;MESHVK_EMULATED_RACE_CHECK=1")
  endif()
endforeach()
if(TARGET meshvk_emulated_device_group_layer AND MESHVK_LAYER_MANIFEST_DIR)
  # --devices=group:G sizes it to the group's device count (4, the layer's).
  cli_test(dyngrid_group_sizes_run TOOL mesh-vk-run RC 0 ARGS dyngrid.mvk --devices=group:0 --print-plan ${_dyn_io}
           STDOUT "running the plan for 4 processes \\(--devices=group:0 \\(4 devices\\)\\).*result 0: ok.*result 1: ok"
           FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
  set_tests_properties(e2e.cli.dyngrid_group_sizes_run PROPERTIES
    ENVIRONMENT "VK_LAYER_PATH=${MESHVK_TEST_VALIDATION_DIR}:${MESHVK_LAYER_MANIFEST_DIR};VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation:VK_LAYER_MESHVK_emulated_device_group;MESHVK_EMULATED_DEVICE_COUNT=4")
endif()
cli_test(dyngrid_group_missing TOOL mesh-vk-run RC 2 ARGS dyngrid.mvk --devices=group:7 ${_dyn_io}
         STDERR "--devices=group:7: this machine has [0-9]+ device groups? \\([0-9., ]+\\); mesh-vk-run --list-devices shows them"
         FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
# --dump-kernels: each plan's kernels in DIR/pN. By hand: 1 process runs the
# matmul and the column sum (2 kernels); 3 processes (rows 3, 3, 2) run both
# for 3 and for 2 rows, plus the all_reduce's sum (5 kernels).
set(_dyn_dump ${_work}/dyngrid_kernels)
add_test(NAME e2e.cli.dyngrid_dump_clean COMMAND ${CMAKE_COMMAND} -E rm -rf ${_dyn_dump})
set_tests_properties(e2e.cli.dyngrid_dump_clean PROPERTIES FIXTURES_SETUP dyngrid_dump_clean)
cli_test(dyngrid_dump_kernels TOOL mesh-vk-compile RC 0
         ARGS ${_dyn}/rows_matmul_sum.mlir -o dyngrid_dump.mvk --grid-sizes=1,3 --dump-kernels=${_dyn_dump}
         FIXTURES_REQUIRED dyngrid_dump_clean)
set_tests_properties(e2e.cli.dyngrid_dump_kernels PROPERTIES FIXTURES_SETUP dyngrid_dump)
foreach(count "1;2" "3;5")
  list(GET count 0 processes)
  list(GET count 1 kernels)
  add_test(NAME e2e.cli.dyngrid_dump_kernels_p${processes}
           COMMAND ${CMAKE_COMMAND} -DDIR=${_dyn_dump}/p${processes} -DCOUNT=${kernels}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/check_kernel_dump.cmake)
  set_tests_properties(e2e.cli.dyngrid_dump_kernels_p${processes} PROPERTIES FIXTURES_REQUIRED dyngrid_dump)
endforeach()
if(MESHVK_TWO_LAVAPIPES)
  # A device list sizes it too: one process per listed device.
  cli_test(dyngrid_device_list TOOL mesh-vk-run RC 0 ARGS dyngrid.mvk --devices=0,1 --validation ${_dyn_io}
           STDOUT "result 0: ok.*result 1: ok" FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
  set_tests_properties(e2e.cli.dyngrid_device_list PROPERTIES ENVIRONMENT "${MESHVK_TWO_LAVAPIPES}")
endif()
cli_test(dyngrid_print_plan TOOL mesh-vk-run RC 0 ARGS dyngrid.mvk --devices=3 --print-plan ${_dyn_io}
         STDOUT "dynamic grid: running the plan for 3 processes \\(--devices=3\\) of dyngrid.mvk, which holds plans for 1, 2, 3, 4, 5, 6, 7 and 8 processes.*result 1: ok"
         FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
cli_test(dyngrid_count_missing TOOL mesh-vk-run RC 2 ARGS dyngrid.mvk --devices=9 ${_dyn_io}
         STDERR "--devices=9: dyngrid.mvk has no plan for 9 processes \\(it holds plans for 1, 2, 3, 4, 5, 6, 7 and 8 processes"
         FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)
cli_test(dyngrid_no_count TOOL mesh-vk-run RC 2 ARGS dyngrid.mvk ${_dyn_io}
         STDERR "dyngrid.mvk: a dynamic grid with plans for 1, 2, 3, 4, 5, 6, 7 and 8 processes: choose one with --devices=N"
         FIXTURES_REQUIRED dyngrid_data dyngrid_mvk)

# Counts chosen on the command line: 10 rows on 11 and 12 processes give the
# last ones empty shards, which run; a 2 x ? grid takes even counts only, so 5
# is left out with a warning; none left is the error (one line with each
# count's reason), no file.
cli_test(dyngrid_counts_past_the_rows TOOL mesh-vk-compile RC 0
         ARGS ${_uneven}/dynamic_grid.mlir -o dyn_8_to_12.mvk --grid-sizes=8-12 --print-plan
         STDOUT "dynamic grid: plans for 8, 9, 10, 11, 12 processes")
cli_test(dyngrid_some_counts_refused TOOL mesh-vk-compile RC 0
         ARGS ${_dyn}/two_axes.mlir -o dyn_4_to_6.mvk --grid-sizes=4-6 --print-plan
         STDOUT "dynamic grid: plans for 4, 6 processes"
         STDERR "two_axes.mlir:4:1: warning: grid @g \\(shape 2x\\?\\): no plan for 5 processes, left out: .*cannot take 5 processes")
cli_test(dyngrid_all_counts_refused TOOL mesh-vk-compile RC 2
         ARGS ${_dyn}/two_axes.mlir -o dyn_none.mvk --grid-sizes=3,5
         STDERR "two_axes.mlir:4:1: error: grid @g \\(shape 2x\\?\\) compiles for none of the process counts 3, 5; for 3: .*cannot take 3 processes.*; for 5: .*cannot take 5 processes"
         NO_FILE ${_work}/dyn_none.mvk)
foreach(bad "1,,2;an empty entry" "4-2;runs backwards" "0;'0' is not a count" "2,1-3;2 is given twice"
            "x;'x' is not a count" "1-2000;not a range")
  list(GET bad 0 value)
  list(GET bad 1 why)
  string(MAKE_C_IDENTIFIER "${value}" id)
  cli_test(dyngrid_bad_sizes_${id} TOOL mesh-vk-compile RC 2
           ARGS ${_uneven}/dynamic_grid.mlir -o dyn_bad.mvk --grid-sizes=${value}
           STDERR "mesh-vk-compile: --grid-sizes: '.*' is not a list of process counts \\(.*${why}" NO_FILE ${_work}/dyn_bad.mvk)
endforeach()
cli_test(dyngrid_sizes_and_shape TOOL mesh-vk-compile RC 2
         ARGS ${_uneven}/dynamic_grid.mlir -o dyn_bad.mvk --grid-sizes=2 --grid-shape=2
         STDERR "--grid-sizes and --grid-shape: give one" NO_FILE ${_work}/dyn_bad.mvk)
cli_test(dyngrid_sizes_on_static_grid TOOL mesh-vk-compile RC 2
         ARGS ${_samples}/matmul_rows.mlir -o dyn_bad.mvk --grid-sizes=2
         STDERR "--grid-sizes\\) apply to a program whose used shard.grid has a '\\?' axis" NO_FILE ${_work}/dyn_bad.mvk)

# Under mpirun without --devices: one process per rank (a 1-D grid spans the
# ranks when its size is the rank count).
find_package(MPI COMPONENTS CXX)
find_program(MESHVK_MPIRUN NAMES mpirun)
if(MPI_CXX_FOUND AND MESHVK_MPIRUN)
  add_test(NAME e2e.dyngrid.mpi_np2
           COMMAND ${CMAKE_COMMAND} -E env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                   timeout 120 ${MESHVK_MPIRUN} --oversubscribe -np 2 $<TARGET_FILE:mesh-vk-run> dyngrid.mvk
                   --print-plan ${_dyn_io}
           WORKING_DIRECTORY ${_work})
  set_tests_properties(e2e.dyngrid.mpi_np2 PROPERTIES TIMEOUT 150 LABELS mpi
    FIXTURES_REQUIRED "dyngrid_data;dyngrid_mvk"
    PASS_REGULAR_EXPRESSION "running the plan for 2 processes \\(2 MPI ranks\\).*result 0: ok.*result 1: ok"
    FAIL_REGULAR_EXPRESSION "differs|error|mesh-vk-run: ")
endif()
# Counts and ranges together.
cli_test(dyngrid_sizes_list_and_range TOOL mesh-vk-compile RC 0
         ARGS ${_uneven}/dynamic_grid.mlir -o dyn_1_2_4.mvk --grid-sizes=1-2,4 --print-plan
         STDOUT "dynamic grid: plans for 1, 2, 4 processes")
# A .mlir run without a count: refused at once with what to pass (no plan is
# compiled for every count just to be thrown away).
cli_test(dyngrid_mlir_without_count TOOL mesh-vk-run RC 2 ARGS ${_dyn}/rows_matmul_sum.mlir ${_dyn_io}
         STDERR "rows_matmul_sum.mlir:7:1: error: grid @g has a dynamic shape \\(\\?\\): pass the process count \\(mesh-vk-run --devices=N\\)"
         FIXTURES_REQUIRED dyngrid_data)
