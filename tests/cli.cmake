# The command line: rejections, joint order in --summary, usage errors.
foreach(mode reject order usage prefix output constraints)
  add_test(NAME cli_${mode} COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
    -DTESTS=${CMAKE_CURRENT_SOURCE_DIR} -DSHARED=${CDYN_SHARED_DIR}
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/cli_${mode} -DMODE=${mode}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cli_check.cmake)
endforeach()
