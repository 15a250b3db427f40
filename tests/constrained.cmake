# The generic constrained dynamics: against frame Jacobians, finite differences, dense
# J M^-1 J^T solves and physics (impacts, a simulated four-bar), on the sample robots and
# seeded random robots with random contact and loop sets.
cdyn_add_check_test(test_generic_constrained test_generic_constrained.c
  ${CDYN_SUPPORT_RANDOM_ROBOT} ${CDYN_SUPPORT_DENSE})

cdyn_add_check_test(test_generic_solvers test_generic_solvers.c
  ${CDYN_SUPPORT_RANDOM_ROBOT} ${CDYN_SUPPORT_DENSE})
