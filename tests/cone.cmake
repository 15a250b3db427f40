# The contact problem's cones and solvers (runtime/cdyn_cone.c), in double and in float.
# cdyn_runtime is built in double, so the float program compiles cdyn_cone.c itself with
# -DCDYN_FLOAT: its object defines every cdyn_cone_* symbol, and the linker never pulls the
# library's double cdyn_cone.o (an archive member is taken only for an undefined symbol).
cdyn_add_check_test(test_cone test_cone.c)
cdyn_add_check_test(test_cone_float test_cone.c ${CMAKE_SOURCE_DIR}/runtime/cdyn_cone.c)
target_compile_definitions(test_cone_float PRIVATE CDYN_FLOAT)
