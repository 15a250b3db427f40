# The emitter: scalar expressions, and the code emitted for small trees (op counts,
# folding, compiling the rendered files with gcc and clang in double and float).
cdyn_add_check_test(test_expr test_expr.c)
cdyn_add_check_test(test_lanes test_lanes.c) # the batch forms' retyped bodies
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_emit.c)
  cdyn_add_check_test(test_emit test_emit.c)
endif()
