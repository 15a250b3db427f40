# The contact step (frictional contacts, ADMM and PGS, restitution) on scenes whose outcome
# physics fixes: a box on four corners, a dropped ball, the sample quadruped dropped under
# PD control; generated and generic side by side (after generated.cmake, whose
# cdyn_generated_library it uses).
cdyn_generated_library(contact_box ${CMAKE_CURRENT_SOURCE_DIR}/contact/box.urdf ""
  --floating-base --contact c_fl:friction --contact c_fr:friction --contact c_hl:friction
  --contact c_hr:friction)
cdyn_generated_library(contact_ball ${CMAKE_CURRENT_SOURCE_DIR}/contact/ball.urdf ""
  --floating-base --contact ball:friction)
cdyn_generated_library(contact_quadruped ${CMAKE_SOURCE_DIR}/robots/quadruped12.urdf ""
  --floating-base --contact lf_foot:friction --contact rf_foot:friction
  --contact lh_foot:friction --contact rh_foot:friction)
cdyn_add_check_test(test_contact test_contact.c)
target_link_libraries(test_contact PRIVATE gen_contact_box gen_contact_ball gen_contact_quadruped)
# the sample arm with its joints' limits (no constraint set: the limits-only step), and with
# its tool clamped by a bilateral 3d contact as well (both kinds of rows in one problem)
cdyn_generated_library(contact_arm ${CMAKE_SOURCE_DIR}/robots/arm7.urdf "" --joint-limits)
cdyn_generated_library(contact_arm_clamped ${CMAKE_SOURCE_DIR}/robots/arm7.urdf ""
  --joint-limits --contact tool:3d)
target_link_libraries(test_contact PRIVATE gen_contact_arm gen_contact_arm_clamped)
