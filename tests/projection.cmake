# The projection onto the constraint manifold (seed 003): the generated R_project_position
# and R_project_velocity on the sample humanoid with both soles in 6d contact beside the
# generic cdyn_project_*, and the generic ones on redundant, frictional and random sets.
cdyn_generated_library(humanoid_feet ${CMAKE_SOURCE_DIR}/robots/humanoid.urdf ""
  --floating-base --contact left_sole:6d --contact right_sole:6d)
cdyn_add_check_test(test_projection test_projection.c)
target_link_libraries(test_projection PRIVATE gen_humanoid_feet)
