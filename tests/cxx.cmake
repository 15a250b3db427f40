# The generated code from C++ and as an installed CMake package (what is checked is at the
# top of tests/scripts/cxx_check.cmake). Skipped, saying so, without g++ or clang++.
#  cxx_headers:   every generated folder's headers as C++11-20, -Werror, with g++ and clang++;
#                 tests/cxx (C++) add_subdirectory()ing generated/arm7 built and run.
#  cmake_package: a fresh arm7 installed (static, and shared with its exported symbols
#                 checked by nm -D) and tests/cxx built against it with find_package(arm7).
find_program(CDYN_GXX g++)
find_program(CDYN_CLANGXX clang++)
set(cdyn_cxx ${CDYN_GXX} ${CDYN_CLANGXX})
string(REPLACE ";" "|" cdyn_cxx "${cdyn_cxx}")      # a list does not survive the command line
foreach(mode headers package)
  set(name cxx_${mode})
  if(mode STREQUAL "package")
    set(name cmake_package)
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DCDYNGEN=$<TARGET_FILE:cdyngen>
    -DSRC=${CMAKE_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/${name} -DMODE=${mode}
    "-DCXX=${cdyn_cxx}" -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/cxx_check.cmake)
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: " TIMEOUT 300)
endforeach()
