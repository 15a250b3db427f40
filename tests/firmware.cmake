# Every robot of generated/manifest.txt cross-compiled as firmware, checked (symbols, stack)
# and run under QEMU, its results compared on the host with the double generic runtime
# (tests/firmware/, issue 17):
#   firmware_NAME_m4f  Cortex-M4F (MPS2 AN386), the robot generated with --scalar float
#   firmware_NAME_m7   Cortex-M7 with a double FPU (MPS2 AN500), generated/NAME as it is
# They skip (77) where arm-none-eabi-gcc or qemu-system-arm is missing. Not in the sanitized
# build: its time goes to the generator and runtime.
if(CDYN_SANITIZE)
  return()
endif()
find_program(CDYN_ARM_CC arm-none-eabi-gcc)
find_program(CDYN_QEMU_ARM qemu-system-arm)
if(NOT CDYN_ARM_CC)
  set(CDYN_ARM_CC arm-none-eabi-gcc)   # run_target.sh names it when it skips
endif()
if(NOT CDYN_QEMU_ARM)
  set(CDYN_QEMU_ARM qemu-system-arm)
endif()
# Worst-case stack of any generated function's call path, in bytes (docs/firmware.md):
# the deepest measured is the humanoid's prox_ltl_derivatives, 5.3 KB in float and 10.8 KB
# in double (-Os; its derivative terms in parts, what one part leaves to the next in
# d->carry); without the derivatives 3.7 KB and 7.7 KB (humanoid prox_ltls). 20 KB while
# the terms were whole (frames of 8.4 and 17.4 KB).
set(CDYN_FIRMWARE_STACK_BUDGET 12288)

set(fw_dir ${CMAKE_CURRENT_SOURCE_DIR}/firmware)
file(STRINGS ${CMAKE_SOURCE_DIR}/generated/manifest.txt fw_manifest REGEX "^[^#]")
foreach(line ${fw_manifest})
  separate_arguments(args UNIX_COMMAND "${line}")
  list(POP_FRONT args name urdf)
  string(REGEX MATCHALL "--(contact|loop)" ncon "${args}")
  list(LENGTH ncon ncon)
  # The host side, with the robot's double model table from generated/.
  add_executable(fw_host_${name} ${fw_dir}/fw_host.c
    ${CMAKE_SOURCE_DIR}/generated/${name}/${name}_model.c)
  target_include_directories(fw_host_${name} PRIVATE ${CMAKE_SOURCE_DIR}/generated/${name})
  target_link_libraries(fw_host_${name} PRIVATE cdyn_runtime m)
  target_compile_definitions(fw_host_${name} PRIVATE FW_MODEL_HEADER="${name}_model.h"
    FW_MODEL=${name}_model FW_CONSTRAINTS=${name}_constraints FW_NCONSTRAINTS=${ncon})
  set(work ${CMAKE_CURRENT_BINARY_DIR}/firmware/${name})
  string(REPLACE ";" " " opts "${args}")
  set(run "${fw_dir}/run_target.sh")
  set(tail "$<TARGET_FILE:fw_host_${name}> ${CDYN_ARM_CC} ${CDYN_QEMU_ARM} ${CDYN_FIRMWARE_STACK_BUDGET}")
  add_test(NAME firmware_${name}_m4f COMMAND sh -c
    "$<TARGET_FILE:cdyngen> ${CMAKE_SOURCE_DIR}/${urdf} ${opts} --name ${name} --scalar float -o ${work}/float --force > /dev/null && ${run} m4f ${work}/float ${name} ${work}/m4f ${tail}")
  add_test(NAME firmware_${name}_m7 COMMAND sh -c
    "${run} m7 ${CMAKE_SOURCE_DIR}/generated/${name} ${name} ${work}/m7 ${tail}")
  set_tests_properties(firmware_${name}_m4f firmware_${name}_m7 PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()

# The contact step on the M4F in float (tests/firmware/run_contact.sh): the sample quadruped
# with a frictional contact at each foot, generated with --scalar float, dropped 5 cm under PD
# control for 300 steps (fw_contact.h) under QEMU, checked against the same scenario run by
# the double generic runtime (fw_contact_host, over the double model table generated here at
# build time: generated/ has no frictional set), then its symbols and stack.
set(fwc_opts --floating-base --contact lf_foot:friction --contact rf_foot:friction
    --contact lh_foot:friction --contact rh_foot:friction --name quadruped12)
set(fwc_work ${CMAKE_CURRENT_BINARY_DIR}/firmware/contact/quadruped12)
set(fwc_urdf ${CMAKE_SOURCE_DIR}/robots/quadruped12.urdf)
add_custom_command(OUTPUT ${fwc_work}/double/quadruped12_model.c
  COMMAND cdyngen ${fwc_urdf} ${fwc_opts} -o ${fwc_work}/double --force > /dev/null
  DEPENDS cdyngen ${fwc_urdf} COMMENT "Generating the double quadruped12 with frictional contacts")
add_executable(fw_contact_host ${fw_dir}/fw_contact_host.c ${fwc_work}/double/quadruped12_model.c)
target_include_directories(fw_contact_host PRIVATE ${fwc_work}/double ${fw_dir})
target_link_libraries(fw_contact_host PRIVATE cdyn_runtime m)
target_compile_definitions(fw_contact_host PRIVATE FW_MODEL_HEADER="quadruped12_model.h"
  FW_MODEL=quadruped12_model FW_CONSTRAINTS=quadruped12_constraints)
string(REPLACE ";" " " fwc_opts "${fwc_opts}")
add_test(NAME firmware_quadruped12_contact_m4f COMMAND sh -c
  "$<TARGET_FILE:cdyngen> ${fwc_urdf} ${fwc_opts} --scalar float -o ${fwc_work}/float --force > /dev/null && ${fw_dir}/run_contact.sh ${fwc_work}/float quadruped12 ${fwc_work}/m4f $<TARGET_FILE:fw_contact_host> ${CDYN_ARM_CC} ${CDYN_QEMU_ARM} ${CDYN_FIRMWARE_STACK_BUDGET}")
set_tests_properties(firmware_quadruped12_contact_m4f PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# The checks themselves refuse what they are for: heap, stdio, double helpers in float,
# recursion, a variable-length array, a path over the budget (tests/firmware/bad_firmware.c).
add_test(NAME firmware_checks_fail COMMAND ${fw_dir}/checks_fail.sh ${CDYN_ARM_CC}
  ${CMAKE_CURRENT_BINARY_DIR}/firmware/checks_fail)
set_tests_properties(firmware_checks_fail PROPERTIES SKIP_RETURN_CODE 77)

# docs/firmware.md's firmware table from the last firmware runs (not a test: run `ctest -R
# firmware_` first): cmake --build build --target firmware_table, writes
# build/tests/firmware/table.md.
add_custom_target(firmware_table
  COMMAND ${fw_dir}/firmware_table.sh ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/firmware
          ${CDYN_ARM_CC} > ${CMAKE_CURRENT_BINARY_DIR}/firmware/table.md
  COMMENT "Firmware table: build/tests/firmware/table.md" VERBATIM)
