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
file(STRINGS ${CMAKE_SOURCE_DIR}/generated/manifest.txt manifest REGEX "^[^#]")
foreach(line ${manifest})
  separate_arguments(args UNIX_COMMAND "${line}")
  list(GET args 0 name)
  set(dir ${CMAKE_SOURCE_DIR}/generated/${name})
  foreach(cc ${CDYN_GCC} ${CDYN_CLANG})
    get_filename_component(ccname ${cc} NAME)
    foreach(scalar double float)
      set(def "")
      if(scalar STREQUAL "float")
        set(def -DCDYN_FLOAT)
      endif()
      add_test(NAME compile_${name}_${ccname}_${scalar}
        COMMAND sh -c "for f in ${dir}/*.c; do ${cc} -std=c99 -Wall -Wextra -Wpedantic -Werror ${def} -I${dir} -c \"$f\" -o /dev/null || exit 1; done")
    endforeach()
  endforeach()
endforeach()

# The README's worked example, as a user's project that add_subdirectory()s the output.
add_test(NAME worked_example COMMAND sh -c
  "${CMAKE_COMMAND} -S ${CMAKE_CURRENT_SOURCE_DIR}/example -B ${CMAKE_CURRENT_BINARY_DIR}/example -DROBOT_DIR=${CMAKE_SOURCE_DIR}/generated/arm7 > /dev/null && ${CMAKE_COMMAND} --build ${CMAKE_CURRENT_BINARY_DIR}/example > /dev/null && ${CMAKE_CURRENT_BINARY_DIR}/example/example")
