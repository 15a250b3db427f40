# The analytical derivatives of the generic runtime (runtime/cdyn_derivatives.c): RNEA, ABA
# and the converged proxLTL constrained dynamics against Pinocchio 3.7's derivatives.txt and
# derivatives_<case>.txt (skipped, exit 77, when CDYN_SHARED_DIR has none of them), against
# central finite differences of the runtime's own functions on seeded random robots and the
# sample robots, against identities (M^-1, -M^-1 dtau, structural zeros) and bad input.
cdyn_add_check_test(test_generic_derivatives test_generic_derivatives.c)
set_tests_properties(test_generic_derivatives PROPERTIES SKIP_RETURN_CODE 77)
