# The suites again with ASan and UBSan: the project configured with CDYN_SANITIZE in a build
# folder of its own (build/sanitized), built and tested; any finding fails. Sized for CI
# (about 5 minutes on 2 cores): the generator's and the runtime's tests in full, the sample
# robots' generated code, 12 random robots; the reference robots (talos alone compiles for
# minutes under ASan) and the big random forests are left to the normal build.
option(CDYN_TEST_SANITIZERS "run the sanitizers test" ON)
if(CDYN_TEST_SANITIZERS AND NOT CDYN_SANITIZE)
  set(sub ${CMAKE_BINARY_DIR}/sanitized)
  add_test(NAME sanitizers COMMAND sh -c
    "${CMAKE_COMMAND} -S ${CMAKE_SOURCE_DIR} -B ${sub} -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_BUILD_TYPE=Debug -DCDYN_SANITIZE=ON -DCDYN_SHARED_DIR=${sub}/no-shared -DCDYN_RANDOM_SEEDS=12 -DCDYN_RANDOM_BIG_SEEDS= > ${sub}.configure.log 2>&1 || { tail -30 ${sub}.configure.log; exit 1; }; ${CMAKE_COMMAND} --build ${sub} -j2 > ${sub}.build.log 2>&1 || { tail -60 ${sub}.build.log; exit 1; }; ctest --test-dir ${sub} -j2 --output-on-failure")
  set_tests_properties(sanitizers PROPERTIES TIMEOUT 1500)
endif()
