# The suites again with ASan and UBSan: the project configured with CDYN_SANITIZE in a build
# folder of its own (build/sanitized), built and tested; any finding fails. Sized for CI
# (on a slow 2-vCPU Xeon about 30 minutes: 17 to build, 15 to test): the generator's and the
# runtime's tests in full, the sample robots' generated code, 12 random robots (seeds 0..11:
# frictional contacts and joint limits among them, which test_random_robots holds the options
# to); the contact step and the cone solvers run under both sanitizers through test_cone
# (random problems, ADMM and PGS),
# test_contact (the scenes, generated and generic) and test_generated_random (the random
# robots' steps, generated and generic), which must be in the sanitized build. The reference
# robots (talos alone compiles for minutes under ASan) and the big random forests are left to
# the normal build; the contact step's fuzzer is tests/fuzz.cmake's fuzz_contact.
option(CDYN_TEST_SANITIZERS "run the sanitizers test" ON)
if(CDYN_TEST_SANITIZERS AND NOT CDYN_SANITIZE)
  set(sub ${CMAKE_BINARY_DIR}/sanitized)
  # Left to the normal build: the tests whose work is not our sanitized code but a compiler's,
  # Python's, Chromium's or CMake's (the generated folders compiled warning-free, the Python
  # modules, the pages in a browser, the install and package checks, the source layout).
  # The sanitized generator still writes those folders, --python's module among them, in the
  # tests kept (generated_is_current regenerates generated/, size_api_*, batch_lanes_*).
  set(unsanitized "^(python_module|report_browser|sim_page_browser|simulate_browser|cxx_headers|cmake_package|install_prefix|install_deb|generator_layering|(batch_)?compile_.*)$")
  add_test(NAME sanitizers COMMAND sh -c
    "${CMAKE_COMMAND} -S ${CMAKE_SOURCE_DIR} -B ${sub} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_BUILD_TYPE=Debug -DCDYN_SANITIZE=ON -DCDYN_SHARED_DIR=${sub}/no-shared -DCDYN_RANDOM_SEEDS=12 -DCDYN_RANDOM_BIG_SEEDS= > ${sub}.configure.log 2>&1 || { tail -30 ${sub}.configure.log; exit 1; }; ${CMAKE_COMMAND} --build ${sub} -j2 > ${sub}.build.log 2>&1 || { tail -60 ${sub}.build.log; exit 1; }; for t in test_cone test_contact test_generated_random; do ctest --test-dir ${sub} -N -R ^$t$ | grep -q 'Total Tests: 1' || { echo \"sanitizers: $t missing from the sanitized build\"; exit 1; }; done; ctest --test-dir ${sub} -j2 --output-on-failure -E '${unsanitized}'")
  # COST: started first, beside the other tests, not left to run alone at the end
  set_tests_properties(sanitizers PROPERTIES TIMEOUT 3000 COST 100000)
endif()
