# The command line: rejections, joint order in --summary, usage errors.
# A run's time limit (cli_hostile): ASan and UBSan make the generator about 4x slower.
set(cli_time_limit 60)
if(CDYN_SANITIZE)
  set(cli_time_limit 300)
endif()
foreach(mode reject order usage prefix output constraints hostile bench)
  add_test(NAME cli_${mode} COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
    -DTIME_LIMIT=${cli_time_limit}
    -DTESTS=${CMAKE_CURRENT_SOURCE_DIR} -DSHARED=${CDYN_SHARED_DIR}
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/cli_${mode} -DMODE=${mode}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cli_check.cmake)
endforeach()
