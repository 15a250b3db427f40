# The command line: rejections, joint order in --summary, usage errors.
# A run's time limit (cli_hostile), a watchdog: the slowest run, the 1,024-DoF forest refused,
# took 13 s on a slow Xeon. The sanitized build's generator (-O0, ASan and UBSan) took 176 s
# on it there: 13x, not the 4x of smaller inputs.
set(cli_time_limit 60)
if(CDYN_SANITIZE)
  set(cli_time_limit 900)
endif()
foreach(mode reject order usage prefix output constraints hostile bench)
  add_test(NAME cli_${mode} COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
    -DTIME_LIMIT=${cli_time_limit}
    -DTESTS=${CMAKE_CURRENT_SOURCE_DIR} -DSHARED=${CDYN_SHARED_DIR}
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/cli_${mode} -DMODE=${mode}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cli_check.cmake)
endforeach()
