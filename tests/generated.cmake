# Code generated at build time for the reference robots (from ../shared) and for seeded
# random robots, each wrapped in a generated_api adapter so one test loops over them all.

# cdyn_generated_library(NAME URDF ARGS_FILE_OR_EMPTY [DEPENDS...]) -> target gen_NAME
function(cdyn_generated_library name urdf args_file)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/gen/${name})
  set(outputs ${dir}/${name}.h ${dir}/${name}.c ${dir}/${name}_model.h ${dir}/${name}_model.c)
  if(args_file)
    set(cmd sh -c "$<TARGET_FILE:cdyngen> ${urdf} -o ${dir} --name ${name} $(cat ${args_file})")
  else()
    set(cmd $<TARGET_FILE:cdyngen> ${urdf} -o ${dir} --name ${name} ${ARGN})
  endif()
  add_custom_command(OUTPUT ${outputs} COMMAND ${cmd}
    DEPENDS cdyngen ${urdf} ${args_file} COMMENT "cdyngen ${name}" VERBATIM)
  set(NAME ${name})
  string(TOUPPER ${name} NAME_UPPER)
  configure_file(${CDYN_HARNESS}/generated_adapter.c.in ${dir}/${name}_adapter.c @ONLY)
  add_library(gen_${name} STATIC ${dir}/${name}.c ${dir}/${name}_model.c ${dir}/${name}_adapter.c)
  # the project's runtime headers, not the copies in the output folder
  target_include_directories(gen_${name} PRIVATE ${CMAKE_SOURCE_DIR}/runtime
    ${CMAKE_CURRENT_SOURCE_DIR} ${CDYN_HARNESS})
  target_include_directories(gen_${name} PUBLIC ${dir})
  target_link_libraries(gen_${name} PUBLIC cdyn_runtime)
  # Correctness, not speed, is tested here: unoptimised builds of straight-line code are
  # ten times quicker to compile (talos: 5 s at -O0, 74 s at -O2). bench/ times -O3 builds.
  # Every robot's code must also build without a warning (-Wall -Wextra -Wpedantic).
  target_compile_options(gen_${name} PRIVATE -O0 -Werror)
endfunction()

# cdyn_registry(FILE NAMES...) writes a C table of the adapters.
function(cdyn_registry file)
  set(text "/* Written by CMake. */\n#include \"generated_api.h\"\n")
  foreach(n ${ARGN})
    string(APPEND text "extern const generated_api ${n}_api;\n")
  endforeach()
  string(APPEND text "const generated_api *const generated_robots[] = {\n")
  foreach(n ${ARGN})
    string(APPEND text "    &${n}_api,\n")
  endforeach()
  string(APPEND text "    0\n};\n")
  file(WRITE ${file}.tmp "${text}")
  configure_file(${file}.tmp ${file} COPYONLY)
endfunction()

# ---- reference robots ----
set(CDYN_REF_ROBOTS "iiwa:iiwa.urdf:" "ur5:ur5_robot.urdf:" "double_pendulum:double_pendulum.urdf:"
    "solo12:solo12.urdf:--floating-base" "hyq:hyq_no_sensors.urdf:--floating-base"
    "talos_full_v2:talos_full_v2.urdf:--floating-base")
set(ref_names "")
set(ref_libs "")
if(EXISTS ${CDYN_SHARED_DIR}/reference/urdf)
  foreach(entry ${CDYN_REF_ROBOTS})
    cdyn_robot_entry(${entry} n file extra)
    cdyn_generated_library(${n} ${CDYN_SHARED_DIR}/reference/urdf/${file} "" ${extra})
    list(APPEND ref_names ${n})
    list(APPEND ref_libs gen_${n})
  endforeach()
else()
  message(STATUS "cdyngen: ${CDYN_SHARED_DIR}/reference absent: reference tests will skip")
endif()
cdyn_registry(${CMAKE_CURRENT_BINARY_DIR}/registry_reference.c ${ref_names})
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_generated_reference.c)
  cdyn_add_check_test(test_generated_reference test_generated_reference.c
    ${CMAKE_CURRENT_BINARY_DIR}/registry_reference.c)
  target_link_libraries(test_generated_reference PRIVATE ${ref_libs})
  set_tests_properties(test_generated_reference PROPERTIES SKIP_RETURN_CODE 77)
endif()

# ---- reference contact cases: ROBOT__CASE, the sets of ../shared/reference/README.md ----
set(CDYN_REF_CONTACT_CASES
  "iiwa H6 iiwa.urdf --contact lbr_iiwa_link_7:6d"
  "iiwa H3 iiwa.urdf --contact lbr_iiwa_link_7:3d"
  "solo12 F3x2 solo12.urdf --floating-base --contact FL_FOOT:3d --contact FR_FOOT:3d"
  "solo12 F3x4 solo12.urdf --floating-base --contact FL_FOOT:3d --contact FR_FOOT:3d --contact HL_FOOT:3d --contact HR_FOOT:3d"
  "talos_full_v2 F6x2 talos_full_v2.urdf --floating-base --contact left_sole_link:6d --contact right_sole_link:6d"
  "talos_full_v2 F6x2_redundant talos_full_v2.urdf --floating-base --contact left_sole_link:6d --contact left_sole_link:6d --contact right_sole_link:6d"
  "talos_full_v2 F6x2_H6x2 talos_full_v2.urdf --floating-base --contact left_sole_link:6d --contact right_sole_link:6d --contact gripper_left_base_link:6d --contact gripper_right_base_link:6d")
set(con_names "")
set(con_libs "")
if(EXISTS ${CDYN_SHARED_DIR}/reference/urdf)
  foreach(line ${CDYN_REF_CONTACT_CASES})
    separate_arguments(args UNIX_COMMAND "${line}")
    list(POP_FRONT args robot case file)
    set(n ${robot}__${case})
    cdyn_generated_library(${n} ${CDYN_SHARED_DIR}/reference/urdf/${file} "" ${args})
    list(APPEND con_names ${n})
    list(APPEND con_libs gen_${n})
  endforeach()
endif()
cdyn_registry(${CMAKE_CURRENT_BINARY_DIR}/registry_contact.c ${con_names})
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_generated_constrained.c)
  cdyn_add_check_test(test_generated_constrained test_generated_constrained.c
    ${CMAKE_CURRENT_BINARY_DIR}/registry_contact.c)
  target_link_libraries(test_generated_constrained PRIVATE ${con_libs})
  set_tests_properties(test_generated_constrained PROPERTIES SKIP_RETURN_CODE 77)
endif()

# ---- the sample four-bar with its loop, simulated for a second beside the generic runtime ----
cdyn_generated_library(fourbar_loop ${CMAKE_SOURCE_DIR}/robots/fourbar.urdf ""
  --loop coupler_tip:rocker_tip:3d)
cdyn_add_check_test(test_fourbar_simulation test_fourbar_simulation.c)
target_link_libraries(test_fourbar_simulation PRIVATE gen_fourbar_loop)

# ---- random robots ----
set(CDYN_RANDOM_SEEDS 50 CACHE STRING "how many seeded random robots get generated code")
# and the big seeds (support/random_robot.h): deep forests whose LTDL takes the in-place form
set(CDYN_RANDOM_BIG_SEEDS 1000 1001 1002 CACHE STRING "seeds of the big random robots")
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/support/random_robot.h)
  add_executable(random_urdf_tool random_urdf_tool.c)
  target_link_libraries(random_urdf_tool PRIVATE cdyn_random_robot cdyngen_core m)
  set(rnd_names "")
  set(rnd_libs "")
  math(EXPR last "${CDYN_RANDOM_SEEDS} - 1")
  set(rnd_seeds "")
  foreach(seed RANGE ${last})
    list(APPEND rnd_seeds ${seed})
  endforeach()
  foreach(seed ${rnd_seeds} ${CDYN_RANDOM_BIG_SEEDS})
    set(n random${seed})
    set(base ${CMAKE_CURRENT_BINARY_DIR}/random/${n})
    add_custom_command(OUTPUT ${base}.urdf ${base}.args
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/random
      COMMAND random_urdf_tool ${seed} ${base}.urdf ${base}.args
      DEPENDS random_urdf_tool COMMENT "random robot ${seed}")
    cdyn_generated_library(${n} ${base}.urdf ${base}.args)
    list(APPEND rnd_names ${n})
    list(APPEND rnd_libs gen_${n})
  endforeach()
  # and the accepted files of the real-URDF corpus (tests/urdf): noise, warnings, notes,
  # small angles, odd names, held to the same checks (ok_joint_types is a parser test)
  set(CDYN_CORPUS_ROBOTS "ok_inertia_noise:" "warn_triangle:" "warn_massless_inertia:"
      "note_world_sensor:" "ok_small_angles:--floating-base"
      "ok_odd_names:" "ok_axis_scale:" "warn_mimic_unknown:"
      "massless_fingers:--massless-links:ignore")
  foreach(entry ${CDYN_CORPUS_ROBOTS})
    string(REPLACE ":" ";" parts "${entry}")
    list(POP_FRONT parts file)
    cdyn_generated_library(corpus_${file} ${CMAKE_CURRENT_SOURCE_DIR}/urdf/${file}.urdf "" ${parts})
    list(APPEND rnd_names corpus_${file})
    list(APPEND rnd_libs gen_corpus_${file})
  endforeach()
  cdyn_registry(${CMAKE_CURRENT_BINARY_DIR}/registry_random.c ${rnd_names})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_generated_random.c)
    cdyn_add_check_test(test_generated_random test_generated_random.c
      ${CMAKE_CURRENT_BINARY_DIR}/registry_random.c)
    target_link_libraries(test_generated_random PRIVATE ${rnd_libs})
  endif()
endif()
