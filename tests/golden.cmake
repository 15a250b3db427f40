# generated/ holds what users get for every robot in robots/: regenerated and compared, and
# compiled warning-free by every compiler at hand, in double and in float.
add_test(NAME generated_is_current COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
  -DSRC=${CMAKE_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/golden -DMODE=check
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/golden_check.cmake)
add_custom_target(regenerate COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
  -DSRC=${CMAKE_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/golden -DMODE=update
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/golden_check.cmake DEPENDS cdyngen
  COMMENT "Regenerating generated/")

find_program(CDYN_CLANG clang)
find_program(CDYN_GCC gcc)
# Each robot also generated with --scalar float at test time: the folder alone makes it float
# (its cdyn_scalar.h), so neither build passes a -D.
file(STRINGS ${CMAKE_SOURCE_DIR}/generated/manifest.txt manifest REGEX "^[^#]")
foreach(line ${manifest})
  separate_arguments(args UNIX_COMMAND "${line}")
  list(POP_FRONT args name urdf)
  string(REPLACE ";" " " opts "${args}")
  set(fdir ${CMAKE_CURRENT_BINARY_DIR}/golden_float/${name})
  foreach(cc ${CDYN_GCC} ${CDYN_CLANG})
    get_filename_component(ccname ${cc} NAME)
    foreach(scalar double float)
      set(dir ${CMAKE_SOURCE_DIR}/generated/${name})
      set(pre "true")
      if(scalar STREQUAL "float")
        set(dir ${fdir}_${ccname})   # one folder per compiler: the tests may run in parallel
        set(pre "$<TARGET_FILE:cdyngen> ${CMAKE_SOURCE_DIR}/${urdf} ${opts} --name ${name} --scalar float -o ${dir} --force > /dev/null")
      endif()
      add_test(NAME compile_${name}_${ccname}_${scalar}
        COMMAND sh -c "${pre} && for f in ${dir}/*.c; do ${cc} -std=c99 -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -I${dir} -c \"$f\" -o /dev/null || exit 1; done")
    endforeach()
  endforeach()
endforeach()

# A float robot and a double runtime in one build must not compile: a double folder built
# with -DCDYN_FLOAT, and a float robot's header after a double robot's (whose cdyn_config.h
# wins the include guard). Each must fail with its own message.
set(fmix ${CMAKE_CURRENT_BINARY_DIR}/golden_float/mix_arm7)
add_test(NAME scalar_mix_refused COMMAND sh -c "
  $<TARGET_FILE:cdyngen> ${CMAKE_SOURCE_DIR}/robots/arm7.urdf --name arm7f --scalar float -o ${fmix} --force > /dev/null || exit 1
  if cc -std=c99 -DCDYN_FLOAT -I${CMAKE_SOURCE_DIR}/generated/arm7 -c ${CMAKE_SOURCE_DIR}/generated/arm7/arm7.c -o /dev/null 2> ${fmix}/err1; then echo 'double folder built with -DCDYN_FLOAT'; exit 1; fi
  grep -q 'generated this folder with --scalar double' ${fmix}/err1 || { cat ${fmix}/err1; exit 1; }
  printf '#include \"arm7.h\"\n#include \"arm7f.h\"\n' > ${fmix}/mix.c
  if cc -std=c99 -I${CMAKE_SOURCE_DIR}/generated/arm7 -I${fmix} -c ${fmix}/mix.c -o /dev/null 2> ${fmix}/err2; then echo 'float robot compiled against a double runtime'; exit 1; fi
  grep -q 'arm7f was generated with --scalar float' ${fmix}/err2 || { cat ${fmix}/err2; exit 1; }
  printf '#include \"arm7f.h\"\ntypedef char is_float[sizeof(cdyn_real) == 4 ? 1 : -1];\n' > ${fmix}/alone.c
  cc -std=c99 -Wall -Wextra -Werror -I${fmix} -c ${fmix}/alone.c -o /dev/null")

# The README's worked example, as a user's project that add_subdirectory()s the output.
add_test(NAME worked_example COMMAND sh -c
  "${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/example -B ${CMAKE_CURRENT_BINARY_DIR}/example -DROBOT_DIR=${CMAKE_SOURCE_DIR}/generated/arm7 > /dev/null && ${CMAKE_COMMAND} --build ${CMAKE_CURRENT_BINARY_DIR}/example > /dev/null && ${CMAKE_CURRENT_BINARY_DIR}/example/example")

# The README's contact example: the quadruped with frictional feet, generated at test time,
# dropped onto the ground in a loop of C (tests/example_contact).
add_test(NAME contact_example COMMAND sh -c
  "$<TARGET_FILE:cdyngen> ${CMAKE_SOURCE_DIR}/robots/quadruped12.urdf --floating-base --contact lf_foot:friction --contact rf_foot:friction --contact lh_foot:friction --contact rh_foot:friction -o ${CMAKE_CURRENT_BINARY_DIR}/example_contact_robot --force > /dev/null && ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/example_contact -B ${CMAKE_CURRENT_BINARY_DIR}/example_contact -DROBOT_DIR=${CMAKE_CURRENT_BINARY_DIR}/example_contact_robot > /dev/null && ${CMAKE_COMMAND} --build ${CMAKE_CURRENT_BINARY_DIR}/example_contact > /dev/null && ${CMAKE_CURRENT_BINARY_DIR}/example_contact/example_contact")
