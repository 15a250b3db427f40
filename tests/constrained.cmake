# The generic constrained dynamics: against frame Jacobians, finite differences, dense
# J M^-1 J^T solves and physics (impacts, a simulated four-bar), on the sample robots and
# seeded random robots with random contact and loop sets.
cdyn_add_check_test(test_generic_constrained test_generic_constrained.c
  test_generic_constrained_kinematics.c)

cdyn_add_check_test(test_generic_solvers test_generic_solvers.c test_generic_solvers_workspace.c)
