# The template engine: golden output, error messages, and (with GNU ld) every allocation
# failing in turn through -Wl,--wrap.
cdyn_add_check_test(test_template test_template.c)
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_link_options(test_template PRIVATE -Wl,--wrap=malloc -Wl,--wrap=calloc
    -Wl,--wrap=realloc)
  target_compile_definitions(test_template PRIVATE TPL_TEST_WRAP_ALLOC)
endif()
