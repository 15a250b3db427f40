# `cdyngen simulate` (after generated_contact.cmake, whose contact_quadruped library the page
# check uses). What each test checks is at the top of its script or program.
#  simulate_run:    the sample quadruped dropped under PD control, its program compiled once
#                   (-O3 -march=native, about a minute on two cores): stands at its standing
#                   height, energy never up after touchdown, the files written, the CSV's last
#                   row the printed summary (tests/scripts/simulate_check.cmake, MODE=run).
#  simulate_soft:   the same on spring-damper feet (--model soft, seed 000): each foot pushes
#                   k times its penetration, together the weight (MODE=soft).
#  simulate_errors: bad input exits 1 or 2 before anything is compiled, no file written or
#                   changed (MODE=errors).
#  simulate_page:   the run's page against its CSV: each frame's q the CSV row's, its points
#                   FK(q) by the generated code to 1e-12 m (tests/simulate/page_frames.c).
#  simulate_browser: the run's page in headless chromium (tests/scripts/sim_page_check.cmake);
#                   skipped without chromium and in the sanitized build.
set(sim_work ${CMAKE_CURRENT_BINARY_DIR}/simulate)
# The sanitized build tests the generator's side (options, files, clean-up); its program is
# compiled at -O1, a quarter of the -O3 compile, the speed being the normal build's business.
set(sim_cflags "")
if(CDYN_SANITIZE)
  set(sim_cflags "-O1")
endif()
foreach(mode run errors soft)
  add_test(NAME simulate_${mode} COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
    -DSRC=${CMAKE_SOURCE_DIR} -DWORK=${sim_work}_${mode} -DMODE=${mode} -DWRITERS=1
    -DCFLAGS=${sim_cflags} -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/simulate_check.cmake)
endforeach()
set_tests_properties(simulate_run PROPERTIES TIMEOUT 900 FIXTURES_SETUP simulate_files)
set_tests_properties(simulate_errors PROPERTIES TIMEOUT 120)
set_tests_properties(simulate_soft PROPERTIES TIMEOUT 900)

add_executable(simulate_page_frames simulate/page_frames.c)
target_link_libraries(simulate_page_frames PRIVATE gen_contact_quadruped m)
add_test(NAME simulate_page COMMAND simulate_page_frames ${sim_work}_run/quadruped.html
  ${sim_work}_run/quadruped.csv)
set_tests_properties(simulate_page PROPERTIES FIXTURES_REQUIRED simulate_files)
find_program(SIM_CHROMIUM NAMES chromium chromium-browser google-chrome)
set(sim_chromium ${SIM_CHROMIUM})
if(CDYN_SANITIZE)
  set(sim_chromium "")
endif()
add_test(NAME simulate_browser COMMAND ${CMAKE_COMMAND} -DCHROMIUM=${sim_chromium}
  -DPAGE=${sim_work}_run/quadruped.html -DWORK=${sim_work}_browser
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/sim_page_check.cmake)
set_tests_properties(simulate_browser PROPERTIES FIXTURES_REQUIRED simulate_files
  TIMEOUT 120 SKIP_REGULAR_EXPRESSION "SKIP:")
