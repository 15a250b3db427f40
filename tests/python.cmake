# python_module: the module `cdyngen --python` writes, imported by a python3 with numpy
# (what is checked is at the top of tests/python/check_module.py); skipped, saying so,
# where no python3 has numpy (apt-get install python3-numpy).
find_package(Python3 COMPONENTS Interpreter QUIET)
set(cdyn_pythons ${Python3_EXECUTABLE} /usr/bin/python3 python3)
string(REPLACE ";" "|" cdyn_pythons "${cdyn_pythons}")
add_test(NAME python_module COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
  -DSRC=${CMAKE_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/python_module
  -DCC=${CMAKE_C_COMPILER} "-DPYTHONS=${cdyn_pythons}"
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/python_check.cmake)
# A watchdog, not a speed check: it compiles a module per robot (the humanoid's with --batch),
# and a slower 2-vCPU Intel Xeon VM, beside the sanitizers test, ran past 600 s mid-checks.
set_tests_properties(python_module PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 1500)
