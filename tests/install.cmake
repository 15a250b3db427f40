# cdyngen installed like a tool (what is checked is at the top of
# tests/scripts/install_check.cmake):
#  install_prefix: `cmake --install` into a fresh prefix, then PREFIX/bin/cdyngen run alone.
#  install_deb:    `cpack -G DEB` into a temporary folder, the package's control and contents
#                  read with dpkg-deb, its binary unpacked and run; skipped (77) where cpack
#                  or dpkg-deb is missing.
# Both read the build folder's install rules: one at a time (RESOURCE_LOCK). Not in the
# sanitized build: its time goes to the generator and runtime.
if(CDYN_SANITIZE)
  return()
endif()
find_program(CDYN_DPKG_DEB dpkg-deb)
if(NOT CDYN_DPKG_DEB)
  set(CDYN_DPKG_DEB dpkg-deb)         # named when the test skips
endif()
set(cdyn_install_args -DBUILD=${CMAKE_BINARY_DIR} -DSRC=${CMAKE_SOURCE_DIR}
    -DCDYNGEN=$<TARGET_FILE:cdyngen> -DVERSION=${PROJECT_VERSION})
add_test(NAME install_prefix COMMAND ${CMAKE_COMMAND} ${cdyn_install_args} -DMODE=prefix
  -DWORK=${CMAKE_CURRENT_BINARY_DIR}/install_prefix
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/install_check.cmake)
# A CMake script cannot exit 77 (before CMake 3.29): sh checks the tools first.
add_test(NAME install_deb COMMAND sh -c
  "for t in \"$1\" \"$2\"; do command -v \"$t\" > /dev/null || { echo \"SKIP: $t not found\"; exit 77; }; done; shift 2; exec \"$@\""
  sh ${CMAKE_CPACK_COMMAND} ${CDYN_DPKG_DEB}
  ${CMAKE_COMMAND} ${cdyn_install_args} -DMODE=deb -DCPACK=${CMAKE_CPACK_COMMAND}
  -DDPKG_DEB=${CDYN_DPKG_DEB} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/install_deb
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/install_check.cmake)
# cpack builds the build folder's `all` first (its preinstall step): seconds on a built tree,
# longer when the tests run on a stale one.
set_tests_properties(install_prefix install_deb PROPERTIES RESOURCE_LOCK cdyn_install_rules)
set_tests_properties(install_prefix PROPERTIES TIMEOUT 300)
set_tests_properties(install_deb PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
