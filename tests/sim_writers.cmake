# `cdyngen simulate`'s plots and animation (harness/sim_svg.c, harness/sim_html.c), on a
# synthetic trace the tests know value by value; what is checked is at the top of
# tests/test_sim_writers.c and tests/scripts/sim_page_check.cmake.
#  test_sim_writers: the SVG parsed by libxml2 (panels, legends, the steps that did not
#                    converge, decimation), the page's JSON parsed and compared bit for bit,
#                    hostile names, failed writes.
#  sim_page_write,   the synthetic page (hostile names, a NaN) written by test_sim_writers
#  sim_page_browser: --page, then loaded in headless chromium: no console message, the
#                    page's own count of frames (121) and of drawn links read back from the
#                    DOM, a screenshot kept in build/tests/sim_page/. Skipped where chromium
#                    is missing, and in the sanitized build (as report_browser).
cdyn_add_check_test(test_sim_writers test_sim_writers.c
  ${CMAKE_SOURCE_DIR}/harness/sim_svg.c ${CMAKE_SOURCE_DIR}/harness/sim_html.c)
set_tests_properties(test_sim_writers PROPERTIES TIMEOUT 120)

find_program(SIM_PAGE_CHROMIUM NAMES chromium chromium-browser google-chrome)
set(sim_page_chromium ${SIM_PAGE_CHROMIUM})
if(CDYN_SANITIZE)
  set(sim_page_chromium "")
endif()
set(sim_page_dir ${CMAKE_CURRENT_BINARY_DIR}/sim_page)
file(MAKE_DIRECTORY ${sim_page_dir})
add_test(NAME sim_page_write COMMAND test_sim_writers --page ${sim_page_dir}/synthetic.html)
add_test(NAME sim_page_browser COMMAND ${CMAKE_COMMAND} -DCHROMIUM=${sim_page_chromium}
  -DPAGE=${sim_page_dir}/synthetic.html -DWORK=${sim_page_dir} -DEXPECT_FRAMES=121
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/sim_page_check.cmake)
set_tests_properties(sim_page_write PROPERTIES FIXTURES_SETUP sim_page)
set_tests_properties(sim_page_browser PROPERTIES FIXTURES_REQUIRED sim_page
  SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 120)
