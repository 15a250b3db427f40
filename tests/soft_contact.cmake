# The contact step's soft model (spring-damper, seed 000) on the box and the ball of
# generated_contact.cmake (whose gen_contact_box and gen_contact_ball it links): rest at
# m g / k, a bounce that never pulls, a stiff k that stays bounded, k -> infinity tending to
# the rigid step, creep below the cone's edge; generated and generic side by side.
cdyn_add_check_test(test_soft_contact test_soft_contact.c)
target_link_libraries(test_soft_contact PRIVATE gen_contact_box gen_contact_ball)
