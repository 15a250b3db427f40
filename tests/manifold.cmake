# The configuration manifold's difference and derivatives (runtime/cdyn_manifold.c), in
# double and in float. As for test_cone_float (cone.cmake), the float program compiles the
# runtime files it calls with -DCDYN_FLOAT: their objects define every symbol the test
# takes from them, so the linker never pulls the double library's copies. It runs on
# hand-written models only (the random robots' tables come from the double generator).
cdyn_add_check_test(test_manifold test_manifold.c)
cdyn_add_check_test(test_manifold_float test_manifold.c
  ${CMAKE_SOURCE_DIR}/runtime/cdyn_manifold.c ${CMAKE_SOURCE_DIR}/runtime/cdyn_kinematics.c
  ${CMAKE_SOURCE_DIR}/runtime/cdyn_spatial.c)
target_compile_definitions(test_manifold_float PRIVATE CDYN_FLOAT)
