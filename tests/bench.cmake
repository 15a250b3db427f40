# The benchmark (tests/bench/): generated code against the generic runtime on the same
# robots, both compiled -O3 -march=native -DNDEBUG, timed in one program. Not in the
# default build or CI:
#   cmake --build BUILD --target bench        then  BUILD/tests/bench --help
#   cmake --build BUILD --target bench_run    runs it, the Markdown table in BUILD/tests/bench.md
#   tests/bench/callgrind.sh BUILD/tests/bench     instructions per call, under valgrind
# The biggest robots' generated code is large (talos_full_v2: ~60k lines of straight-line C;
# the emitter's output size varies): building it all at -O3 takes about a minute on 2 cores.

set(BENCH_SRC ${CDYN_HARNESS})        # the harness, shared with `cdyngen bench`
set(BENCH_OUT ${CMAKE_CURRENT_BINARY_DIR}/bench_files)   # not bench/: that is the program
# Valgrind (3.19) cannot run AVX-512 code: for callgrind counts on such a machine, configure
# a separate build folder with -DCDYN_BENCH_MARCH=x86-64-v3 (AVX2).
set(CDYN_BENCH_MARCH native CACHE STRING "-march= of the benchmark's code")
set(BENCH_COPTS -O3 -march=${CDYN_BENCH_MARCH} -DNDEBUG)
# Both sides build as the generated CMakeLists.txt builds them for a user: C99 with the
# compiler's extensions (-std=gnu99), where gcc contracts a*b + c into fused multiply-adds.
# The project's own -std=c99 turns that off in gcc (not in clang): configure with
# -DCDYN_BENCH_GNU_EXTENSIONS=OFF to measure that way.
option(CDYN_BENCH_GNU_EXTENSIONS "benchmark with -std=gnu99, as users build" ON)
string(REPLACE ";" " " BENCH_FLAGS_TEXT "${BENCH_COPTS}")
if(CDYN_BENCH_GNU_EXTENSIONS)
  string(APPEND BENCH_FLAGS_TEXT " -std=gnu99")
else()
  string(APPEND BENCH_FLAGS_TEXT " -std=c99")
endif()

# name|urdf|cdyngen options|Jacobian frame (default: an end frame on the deepest body).
# Entries with constraints time the constrained solvers only: seed 001's Table I cases
# (arm H3, H6; quadruped F3x2, F3x4; humanoid F6x2, F6x2 + H6x2), the reference's, and
# talos with six 3d fingertips beside its feet (the paper's Atlas with hands).
set(R ${CMAKE_SOURCE_DIR}/robots)
set(BENCH_ROBOTS
    "arm7|${R}/arm7.urdf|"
    "quadruped12|${R}/quadruped12.urdf|--floating-base"
    "humanoid|${R}/humanoid.urdf|--floating-base"
    "arm7_H3|${R}/arm7.urdf|--contact tool:3d"
    "arm7_H6|${R}/arm7.urdf|--contact tool:6d"
    "quadruped12_F3x2|${R}/quadruped12.urdf|--floating-base --contact lf_foot:3d --contact rf_foot:3d"
    "quadruped12_F3x4|${R}/quadruped12.urdf|--floating-base --contact lf_foot:3d --contact rf_foot:3d --contact lh_foot:3d --contact rh_foot:3d"
    "humanoid_F6x2|${R}/humanoid.urdf|--floating-base --contact left_sole:6d --contact right_sole:6d"
    "humanoid_F6x2_H6x2|${R}/humanoid.urdf|--floating-base --contact left_sole:6d --contact right_sole:6d --contact left_hand:6d --contact right_hand:6d"
    # frictional contacts: the contact step's rows (contact_problem, admm, pgs, contact_step)
    # beside the solvers that hold the same contacts bilaterally
    "quadruped12_C4|${R}/quadruped12.urdf|--floating-base --contact lf_foot:friction --contact rf_foot:friction --contact lh_foot:friction --contact rh_foot:friction"
    "humanoid_C2|${R}/humanoid.urdf|--floating-base --contact left_sole:friction --contact right_sole:friction")
# the robots Pinocchio's published timings are for (../shared/reference/README.md). Their
# Jacobian is timed here for the first contact frame of the reference files (Pinocchio's
# table does not name its frame): for iiwa and solo12 that is the deepest frame anyway; for
# talos it is a sole (6 leg joints), not the deepest gripper frame (10 revolute joints).
if(EXISTS ${CDYN_SHARED_DIR}/reference/urdf)
  list(APPEND BENCH_ROBOTS
    "iiwa|${CDYN_SHARED_DIR}/reference/urdf/iiwa.urdf||lbr_iiwa_link_7"
    "solo12|${CDYN_SHARED_DIR}/reference/urdf/solo12.urdf|--floating-base|FL_FOOT"
    "talos_full_v2|${CDYN_SHARED_DIR}/reference/urdf/talos_full_v2.urdf|--floating-base|left_sole_link"
    "iiwa_H3|${CDYN_SHARED_DIR}/reference/urdf/iiwa.urdf|--contact lbr_iiwa_link_7:3d|lbr_iiwa_link_7"
    "iiwa_H6|${CDYN_SHARED_DIR}/reference/urdf/iiwa.urdf|--contact lbr_iiwa_link_7:6d|lbr_iiwa_link_7"
    "solo12_F3x2|${CDYN_SHARED_DIR}/reference/urdf/solo12.urdf|--floating-base --contact FL_FOOT:3d --contact FR_FOOT:3d|FL_FOOT"
    "solo12_F3x4|${CDYN_SHARED_DIR}/reference/urdf/solo12.urdf|--floating-base --contact FL_FOOT:3d --contact FR_FOOT:3d --contact HL_FOOT:3d --contact HR_FOOT:3d|FL_FOOT"
    "talos_F6x2|${CDYN_SHARED_DIR}/reference/urdf/talos_full_v2.urdf|--floating-base --contact left_sole_link:6d --contact right_sole_link:6d|left_sole_link"
    "talos_F6x2_H6x2|${CDYN_SHARED_DIR}/reference/urdf/talos_full_v2.urdf|--floating-base --contact left_sole_link:6d --contact right_sole_link:6d --contact gripper_left_base_link:6d --contact gripper_right_base_link:6d|left_sole_link"
    # the largest robot we have with two 6d feet and 3d fingertips, as seed 001's Atlas with hands
    "solo12_C4|${CDYN_SHARED_DIR}/reference/urdf/solo12.urdf|--floating-base --contact FL_FOOT:friction --contact FR_FOOT:friction --contact HL_FOOT:friction --contact HR_FOOT:friction|FL_FOOT"
    "talos_C2|${CDYN_SHARED_DIR}/reference/urdf/talos_full_v2.urdf|--floating-base --contact left_sole_link:friction --contact right_sole_link:friction|left_sole_link"
    "talos_F6x2_T3x6|${CDYN_SHARED_DIR}/reference/urdf/talos_full_v2.urdf|--floating-base --contact left_sole_link:6d --contact right_sole_link:6d --contact gripper_left_fingertip_1_link:3d --contact gripper_left_fingertip_2_link:3d --contact gripper_left_fingertip_3_link:3d --contact gripper_right_fingertip_1_link:3d --contact gripper_right_fingertip_2_link:3d --contact gripper_right_fingertip_3_link:3d|left_sole_link")
endif()

# The generic runtime built like the generated code; the project's cdyn_runtime keeps its
# own flags, and the benchmark never links it.
if(NOT CDYN_RUNTIME_SOURCES)
  file(GLOB CDYN_RUNTIME_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/*.c)
endif()
add_library(bench_runtime STATIC EXCLUDE_FROM_ALL ${CDYN_RUNTIME_SOURCES})
target_include_directories(bench_runtime PUBLIC ${CMAKE_SOURCE_DIR}/runtime)
target_compile_options(bench_runtime PRIVATE ${BENCH_COPTS})
set_target_properties(bench_runtime PROPERTIES C_EXTENSIONS ${CDYN_BENCH_GNU_EXTENSIONS})
target_link_libraries(bench_runtime PUBLIC m)

# Build-time helper: the emitted op counts of a robot as a C table.
add_executable(bench_ops EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_ops.c)
target_include_directories(bench_ops PRIVATE ${BENCH_SRC} ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(bench_ops PRIVATE cdyngen_core)

# bench_robot(NAME URDF FRAME [cdyngen options]) -> library bench_gen_NAME: the generated
# code, its model table, the generated_api adapter, the timed loops and the op counts.
function(bench_robot name urdf frame)
  set(frame_option "")
  if(frame)
    set(frame_option --frame ${frame})
  endif()
  set(gen ${BENCH_OUT}/gen/${name})        # cdyngen owns this folder
  set(own ${BENCH_OUT}/${name})            # the benchmark's files for this robot
  add_custom_command(OUTPUT ${gen}/${name}.h ${gen}/${name}.c ${gen}/${name}_model.h
                            ${gen}/${name}_model.c
    COMMAND cdyngen ${urdf} -o ${gen} --name ${name} ${ARGN}
    DEPENDS cdyngen ${urdf} COMMENT "cdyngen ${name} (benchmark)" VERBATIM)
  add_custom_command(OUTPUT ${own}/${name}_ops.c
    COMMAND ${CMAKE_COMMAND} -E make_directory ${own}
    COMMAND bench_ops ${urdf} ${own}/${name}_ops.c ${name} ${ARGN} ${frame_option}
    DEPENDS bench_ops ${urdf} COMMENT "op counts of ${name}" VERBATIM)
  set(NAME ${name})
  string(TOUPPER ${name} NAME_UPPER)
  configure_file(${BENCH_SRC}/generated_adapter.c.in ${own}/${name}_api.c @ONLY)
  configure_file(${BENCH_SRC}/bench_adapter.c.in ${own}/${name}_loops.c @ONLY)
  add_library(bench_gen_${name} STATIC EXCLUDE_FROM_ALL ${gen}/${name}.c ${gen}/${name}_model.c
    ${own}/${name}_api.c ${own}/${name}_loops.c ${own}/${name}_ops.c)
  target_include_directories(bench_gen_${name} PRIVATE ${CMAKE_SOURCE_DIR}/runtime
    ${CMAKE_CURRENT_SOURCE_DIR} ${BENCH_SRC} ${gen})
  # no debug information: it only slows the -O3 build of straight-line code
  target_compile_options(bench_gen_${name} PRIVATE ${BENCH_COPTS} -g0)
  set_target_properties(bench_gen_${name} PROPERTIES C_EXTENSIONS ${CDYN_BENCH_GNU_EXTENSIONS})
endfunction()

set(bench_names "")
set(bench_registry "/* Written by CMake (tests/bench.cmake). */\n#include \"bench.h\"\n")
set(bench_entries "")
foreach(entry ${BENCH_ROBOTS})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 n)
  list(GET parts 1 urdf)
  list(LENGTH parts len)
  set(option "")
  set(frame "")
  if(len GREATER 2)
    list(GET parts 2 option)
  endif()
  if(len GREATER 3)
    list(GET parts 3 frame)
  endif()
  separate_arguments(option UNIX_COMMAND "${option}")
  bench_robot(${n} ${urdf} "${frame}" ${option})
  list(APPEND bench_names ${n})
  get_filename_component(urdf_file ${urdf} NAME)
  string(APPEND bench_registry "extern const generated_api ${n}_api;\n"
    "extern const bench_loop ${n}_bench_loops[BENCH_NALGOS];\n"
    "extern const bench_ops ${n}_bench_ops;\n")
  string(APPEND bench_entries "    {&${n}_api, ${n}_bench_loops, &${n}_bench_ops, \"${urdf_file}\", NULL, NULL},\n")
endforeach()
string(APPEND bench_registry "const bench_robot bench_robots[] = {\n${bench_entries}    {0, 0, 0, 0}\n};\n")
file(WRITE ${BENCH_OUT}/registry.c.tmp "${bench_registry}")
configure_file(${BENCH_OUT}/registry.c.tmp ${BENCH_OUT}/registry.c COPYONLY)

add_executable(bench EXCLUDE_FROM_ALL ${BENCH_SRC}/bench.c ${BENCH_SRC}/bench_measure.c
  ${BENCH_SRC}/bench_report.c ${BENCH_OUT}/registry.c)
target_include_directories(bench PRIVATE ${BENCH_SRC} ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(bench PRIVATE ${BENCH_COPTS})
set_target_properties(bench PROPERTIES C_EXTENSIONS ${CDYN_BENCH_GNU_EXTENSIONS})
target_compile_definitions(bench PRIVATE BENCH_FLAGS="${BENCH_FLAGS_TEXT}")
foreach(n ${bench_names})
  target_link_libraries(bench PRIVATE bench_gen_${n})
endforeach()
target_link_libraries(bench PRIVATE bench_runtime m)

add_custom_target(bench_run
  COMMAND bench --markdown ${CMAKE_CURRENT_BINARY_DIR}/bench.md
  DEPENDS bench USES_TERMINAL
  COMMENT "Benchmark: generated code vs the generic runtime (a minute or two)")

# The contact step's rows through `cdyngen bench` (a test: about 20 s, -O1): the sample
# quadruped on four frictional feet, the rows in the CSV, JSON and SVG, both sides agreeing.
add_test(NAME bench_contact_rows COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bench/contact_rows.sh
  $<TARGET_FILE:cdyngen> ${CMAKE_CURRENT_BINARY_DIR}/bench_contact_rows)
set_tests_properties(bench_contact_rows PROPERTIES TIMEOUT 300)

# The derivatives' rows through `cdyngen bench` (a test: about 20 s, -O1): the sample arm with
# a 3d tool contact, rnea_derivatives, aba_derivatives, aba_fd and prox_ltl_derivatives in the
# CSV and JSON, both sides agreeing.
add_test(NAME bench_derivative_rows COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bench/derivative_rows.sh
  $<TARGET_FILE:cdyngen> ${CMAKE_CURRENT_BINARY_DIR}/bench_derivative_rows)
set_tests_properties(bench_derivative_rows PROPERTIES TIMEOUT 300)

# The batch forms' rows through `cdyngen bench --batch 4` (a test: about 10 s, -O1): the sample
# arm's R_batch_* per state beside its single-state forms in the text, CSV and JSON, each lane
# equal to the single form to rounding; --batch with --size refused.
add_test(NAME bench_batch_rows COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bench/batch_rows.sh
  $<TARGET_FILE:cdyngen> ${CMAKE_CURRENT_BINARY_DIR}/bench_batch_rows)
set_tests_properties(bench_batch_rows PROPERTIES TIMEOUT 300)

# Optional: the contact step's solution against Pinocchio's on the same problem (C++, built
# against ../shared/peers/pinocchio's build; skipped when that or ../shared is absent).
# Configure with -DCDYN_PINOCCHIO_PEER=DIR, DIR where that build.sh built its harness.
set(CDYN_PINOCCHIO_PEER "" CACHE PATH "Pinocchio peer build folder (../shared/peers/pinocchio/build.sh)")
if(CDYN_PINOCCHIO_PEER)
  add_test(NAME bench_contact_peer_check COMMAND ${CMAKE_COMMAND} -E env CDYN_SHARED=${CDYN_SHARED_DIR}
    sh ${CMAKE_CURRENT_SOURCE_DIR}/bench/contact_peer_check.sh $<TARGET_FILE:cdyngen> ${CDYN_PINOCCHIO_PEER})
  set_tests_properties(bench_contact_peer_check PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200)
endif()
