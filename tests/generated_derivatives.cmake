# The generated derivatives (NAME_rnea_derivatives, NAME_aba_derivatives, NAME_difference,
# NAME_integrate_derivatives, NAME_difference_derivatives, and NAME_prox_ltl_derivatives once
# the adapter carries it) of the robots generated.cmake already builds, not generated again:
# the six reference robots and their contact cases (against Pinocchio's derivatives*.txt and
# the generic runtime) and the random robots and corpus files (against the generic runtime).
# After generated.cmake (the fragments are included in name order): its ref_*, con_* and
# rnd_* lists name the robots and their gen_* libraries.

# cdyn_named_registry(FILE ARRAY NAMES...): cdyn_registry's table under the name ARRAY, so one
# program can hold several (cdyn_registry's are all generated_robots[]).
function(cdyn_named_registry file array)
  set(text "/* Written by CMake (generated_derivatives.cmake). */\n#include \"generated_api.h\"\n")
  foreach(n ${ARGN})
    string(APPEND text "extern const generated_api ${n}_api;\n")
  endforeach()
  string(APPEND text "const generated_api *const ${array}[] = {\n")
  foreach(n ${ARGN})
    string(APPEND text "    &${n}_api,\n")
  endforeach()
  string(APPEND text "    0\n};\n")
  file(WRITE ${file}.tmp "${text}")
  configure_file(${file}.tmp ${file} COPYONLY)
endfunction()

set(deriv_registry ${CMAKE_CURRENT_BINARY_DIR}/registry_derivatives)
cdyn_named_registry(${deriv_registry}_reference.c deriv_reference_robots ${ref_names})
cdyn_named_registry(${deriv_registry}_contact.c deriv_contact_robots ${con_names})
cdyn_named_registry(${deriv_registry}_random.c deriv_random_robots ${rnd_names})
cdyn_add_check_test(test_generated_derivatives test_generated_derivatives.c
  ${deriv_registry}_reference.c ${deriv_registry}_contact.c ${deriv_registry}_random.c)
target_link_libraries(test_generated_derivatives PRIVATE ${ref_libs} ${con_libs} ${rnd_libs})
set_tests_properties(test_generated_derivatives PROPERTIES SKIP_RETURN_CODE 77)
