# `cdyngen report`: the HTML page of every sample robot (and of the reference robots when
# ../shared/reference is there), with and without its constraints; what exactly is checked
# is at the top of tests/scripts/report_check.cmake.
#  report_pages:   the pages' content against `cdyngen --summary`, hostile names escaped,
#                  nothing fetched from the network, and the command's errors.
#  report_browser: each page in headless chromium: a PNG screenshot kept in
#                  build/tests/report_browser/NAME.png, the tree's drawn nodes counted by the
#                  page's script and read back from the DOM, no console message. Skipped where
#                  chromium is missing (apt-get install chromium), and in the sanitized build
#                  (its report_pages runs the same C code).
find_program(REPORT_CHROMIUM NAMES chromium chromium-browser google-chrome)
set(report_chromium ${REPORT_CHROMIUM})
if(CDYN_SANITIZE)
  set(report_chromium "")
endif()
foreach(mode pages browser)
  add_test(NAME report_${mode} COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
    -DSRC=${CMAKE_SOURCE_DIR} -DSHARED=${CDYN_SHARED_DIR} -DCHROMIUM=${report_chromium}
    -DWORK=${CMAKE_CURRENT_BINARY_DIR}/report_${mode} -DMODE=${mode}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/report_check.cmake)
endforeach()
set_tests_properties(report_pages report_browser PROPERTIES TIMEOUT 120)
