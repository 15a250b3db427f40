# The generic runtime: against Pinocchio's reference vectors (skipped, exit 77, when
# CDYN_SHARED_DIR has none), and invariants on hand-written and seeded random robots.
cdyn_add_check_test(test_generic_reference test_generic_reference.c)
set_tests_properties(test_generic_reference PROPERTIES SKIP_RETURN_CODE 77)
cdyn_add_check_test(test_generic_invariants test_generic_invariants.c)
# cdyn_sincos_n, the generated code's sin and cos, against libm in double and in float.
cdyn_add_check_test(test_trig test_trig.c)
cdyn_add_check_test(test_trig_float test_trig.c)
target_compile_definitions(test_trig_float PRIVATE CDYN_FLOAT)
