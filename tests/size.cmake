# --size (issue 15): NAME.c calls the generic runtime behind the same NAME.h. Each size-form
# robot beside the full (straight-line) form of the same robot and set, compared function by
# function by test_generated_size: quadruped12 on a free-flyer with four 3d feet, arm7 with
# its 6d tool, and the four-bar's 3d loop (whose full form generated.cmake builds).
set(size_q12_opts "--floating-base --contact lf_foot:3d --contact rf_foot:3d --contact lh_foot:3d --contact rh_foot:3d")
separate_arguments(size_q12_args UNIX_COMMAND "${size_q12_opts}")
cdyn_generated_library(size_q12_full ${CMAKE_SOURCE_DIR}/robots/quadruped12.urdf "" ${size_q12_args})
cdyn_generated_library(size_q12 ${CMAKE_SOURCE_DIR}/robots/quadruped12.urdf "" ${size_q12_args} --size)
cdyn_generated_library(size_arm7_full ${CMAKE_SOURCE_DIR}/robots/arm7.urdf "" --contact tool:6d)
cdyn_generated_library(size_arm7 ${CMAKE_SOURCE_DIR}/robots/arm7.urdf "" --contact tool:6d --size)
cdyn_generated_library(size_fourbar ${CMAKE_SOURCE_DIR}/robots/fourbar.urdf ""
  --loop coupler_tip:rocker_tip:3d --size)
cdyn_add_check_test(test_generated_size test_generated_size.c)
target_link_libraries(test_generated_size PRIVATE gen_size_q12_full gen_size_q12 gen_size_arm7_full
  gen_size_arm7 gen_fourbar_loop gen_size_fourbar)

# The size form's files build without a warning, as generated/ does (golden.cmake): in double
# and float (the folder alone makes it float), with gcc and clang, and NAME.h as C++11 with each
# C++ compiler at hand. Generated at test time: nothing is emitted, so it is quick. The same
# header API as the full form: every #define, frame id and prototype line of NAME.h alike
# (with --massless-links ignore, no forward dynamics in either).
find_program(CDYN_GXX g++)
find_program(CDYN_CLANGXX clang++)
set(size_api_grep "grep -E '^#define|^    [A-Z0-9_]+_FRAME_|^(int|void) '")
foreach(entry "q12|robots/quadruped12.urdf|${size_q12_opts}"
              "fourbar|robots/fourbar.urdf|--loop coupler_tip:rocker_tip:3d"
              "fingers|tests/urdf/massless_fingers.urdf|--massless-links ignore")
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 short)
  list(GET parts 1 urdf)
  list(GET parts 2 opts)
  set(gen "$<TARGET_FILE:cdyngen> ${CMAKE_SOURCE_DIR}/${urdf} ${opts} --name size_${short}")
  set(base ${CMAKE_CURRENT_BINARY_DIR}/size_compile/${short})
  add_test(NAME size_api_${short} COMMAND sh -c "${gen} -o ${base}_full --force > /dev/null 2>&1 && ${gen} --size -o ${base}_size --force > /dev/null 2>&1 || exit 1; ${size_api_grep} ${base}_full/size_${short}.h > ${base}_full.api; ${size_api_grep} ${base}_size/size_${short}.h > ${base}_size.api; test $(wc -l < ${base}_full.api) -gt 15 && diff ${base}_full.api ${base}_size.api")
  foreach(cc ${CDYN_GCC} ${CDYN_CLANG})
    get_filename_component(ccname ${cc} NAME)
    foreach(scalar double float)
      set(dir ${base}_${ccname}_${scalar})
      set(cxx "true")
      foreach(cxxc ${CDYN_GXX} ${CDYN_CLANGXX})
        string(APPEND cxx " && ${cxxc} -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c++ -I${dir} ${dir}/size_${short}.h")
      endforeach()
      add_test(NAME compile_size_${short}_${ccname}_${scalar}
        COMMAND sh -c "${gen} --size --scalar ${scalar} -o ${dir} --force > /dev/null 2>&1 || exit 1; for f in ${dir}/*.c; do ${cc} -std=c99 -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -I${dir} -c \"$f\" -o /dev/null || exit 1; done; ${cxx}")
    endforeach()
  endforeach()
endforeach()

# The README's --size figures (not a test; a few minutes: the full humanoid is compiled for
# the host and the M4F): cmake --build build --target size_option_table writes
# build/tests/size_option_table.md.
if(TARGET fw_host_humanoid)
  add_custom_target(size_option_table
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/firmware/size_option_table.sh ${CMAKE_SOURCE_DIR}
            $<TARGET_FILE:cdyngen> $<TARGET_FILE:fw_host_humanoid>
            ${CMAKE_CURRENT_BINARY_DIR}/size_option ${CMAKE_C_COMPILER} ${CDYN_ARM_CC}
            ${CDYN_QEMU_ARM} > ${CMAKE_CURRENT_BINARY_DIR}/size_option_table.md
    DEPENDS cdyngen fw_host_humanoid
    COMMENT "The --size table: build/tests/size_option_table.md" VERBATIM)
endif()
