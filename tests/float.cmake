# The sample robots generated with --scalar float (float by their own cdyn_scalar.h), and
# compared with the double generic runtime by test_float.
set(float_libs "")
set(float_defs "")
foreach(entry "arm7:arm7.urdf:" "quadruped12:quadruped12.urdf:--floating-base"
              "humanoid:humanoid.urdf:--floating-base")
  cdyn_robot_entry(${entry} robot file extra)
  set(NAME ${robot}_f)
  string(TOUPPER ${NAME} NAME_UPPER)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/gen_float/${NAME})
  add_custom_command(OUTPUT ${dir}/${NAME}.c ${dir}/${NAME}.h ${dir}/cdyn_scalar.h
    COMMAND cdyngen ${CMAKE_SOURCE_DIR}/robots/${file} -o ${dir} --name ${NAME} --scalar float ${extra}
    DEPENDS cdyngen ${CMAKE_SOURCE_DIR}/robots/${file} COMMENT "cdyngen ${NAME} (float)" VERBATIM)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/float_wrapper.c.in ${dir}/${NAME}_wrapper.c @ONLY)
  add_library(float_${robot} STATIC ${dir}/${NAME}.c ${dir}/${NAME}_wrapper.c)
  target_include_directories(float_${robot} PRIVATE ${dir} ${CMAKE_SOURCE_DIR}/runtime)
  # -O1, except in the sanitized build: there, with -g, gcc's variable tracking of the
  # humanoid's long functions took 9 minutes of a slow Xeon's build (-O0: 1 minute)
  if(NOT CDYN_SANITIZE)
    target_compile_options(float_${robot} PRIVATE -O1)
  endif()
  list(APPEND float_libs float_${robot})
endforeach()
cdyn_add_check_test(test_float test_float.c)
target_link_libraries(test_float PRIVATE ${float_libs})
