# The --python module: arm7 with its 6d tool contact in double and in float, and the
# four-bar with its loop, the two also with --size (NAME_data then holds the generic
# runtime's workspace, which the module's Data mirrors); for the contact step, the box of
# tests/contact/box.urdf on four frictional corners in double, float and --size, and arm7
# with --joint-limits alone; the batch forms' functions (--batch) on the floating-base
# quadruped (W = 8) and on arm7 in float (native W), with batch_prox_ltl, batch_constrained_aba
# and batch_prox_pv on the humanoid on its two 6d soles (W = 4), and with batch_prox_ltl on
# the four-bar's loop in float (native W); each generated with --python, built with
# BUILD_SHARED_LIBS, and checked by tests/python/check_module.py against the C driver
# tests/python/driver.c.
# The interpreter is the first of PYTHONS that imports numpy (the one CMake found, then
# Debian's /usr/bin/python3, then python3 on PATH); with none it prints "SKIP: ..." (the
# test's SKIP_REGULAR_EXPRESSION).
# cmake -DCDYNGEN=... -DSRC=<repo> -DWORK=<dir> -DCC=<c compiler> -DPYTHONS="a|b" -P python_check.cmake
string(REPLACE "|" ";" PYTHONS "${PYTHONS}")
set(python "")
foreach(candidate ${PYTHONS})
  execute_process(COMMAND ${candidate} -c "import numpy" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(python ${candidate})
    break()
  endif()
endforeach()
if(NOT python)
  message(STATUS "SKIP: no python3 with numpy among ${PYTHONS} (apt-get install python3-numpy)")
  return()
endif()
file(REMOVE_RECURSE ${WORK})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# The box: tests/contact/box.urdf on its four corners, frictional (check_module.py's box scenes).
set(box "--floating-base --contact c_fl:friction --contact c_fr:friction --contact c_hl:friction --contact c_hr:friction")
foreach(entry "arm7 robots/arm7.urdf --contact tool:6d" "arm7_f robots/arm7.urdf --scalar float --contact tool:6d"
              "fourbar robots/fourbar.urdf --loop coupler_tip:rocker_tip:3d"
              "arm7_s robots/arm7.urdf --size --contact tool:6d"
              "fourbar_s robots/fourbar.urdf --size --loop coupler_tip:rocker_tip:3d"
              "box tests/contact/box.urdf ${box}" "box_f tests/contact/box.urdf --scalar float ${box}"
              "box_s tests/contact/box.urdf --size ${box}" "arm7_l robots/arm7.urdf --joint-limits"
              "quadruped12_b robots/quadruped12.urdf --floating-base --batch 8"
              "arm7_bf robots/arm7.urdf --scalar float --batch native"
              "humanoid_b robots/humanoid.urdf --floating-base --contact left_sole:6d --contact right_sole:6d --batch 4"
              "fourbar_bf robots/fourbar.urdf --scalar float --loop coupler_tip:rocker_tip:3d --batch native")
  separate_arguments(options UNIX_COMMAND "${entry}")
  list(POP_FRONT options name urdf)
  set(dir ${WORK}/${name})
  run("cdyngen ${name}" ${CDYNGEN} ${SRC}/${urdf} -o ${dir} --name ${name} --python ${options})
  run("configuring ${name}" ${CMAKE_COMMAND} -S ${dir} -B ${dir}/build -DBUILD_SHARED_LIBS=ON
      -DCMAKE_C_COMPILER=${CC})
  run("building ${name}" ${CMAKE_COMMAND} --build ${dir}/build)
  string(TOUPPER ${name} upper)
  set(def "")
  if(entry MATCHES "--scalar float")
    set(def -DCDYN_FLOAT)
  endif()
  run("building the driver for ${name}" ${CC} -std=c99 ${def} -DROBOT=${name} "-DROBOT_H=\"${name}.h\""
      -DROBOT_UPPER=${upper} -I${dir} ${SRC}/tests/python/driver.c -o ${dir}/driver
      -L${dir}/build -l${name} -Wl,-rpath,${dir}/build -lm)
  run("check_module.py on ${name}" ${python} ${SRC}/tests/python/check_module.py ${dir} ${name}
      ${dir}/driver)
  message(STATUS "${run_output}")
endforeach()

# Names that would break out of a Python string: FRAME_NAMES must be the URDF's link names
# (UTF-8, quotes, a backslash, a newline, triple quotes). The module imports without its
# library, which it loads on first use.
file(WRITE ${WORK}/quotes.urdf [==[<?xml version="1.0" encoding="UTF-8"?>
<robot name="quotes">
  <link name="base\&quot;&quot;&quot;&#10;import os"/>
  <link name="arm'''\x41 {}%s">
    <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <joint name="j" type="revolute">
    <parent link="base\&quot;&quot;&quot;&#10;import os"/>
    <child link="arm'''\x41 {}%s"/>
    <axis xyz="0 0 1"/>
  </joint>
</robot>
]==])
foreach(urdf ${SRC}/tests/urdf/ok_odd_names.urdf ${WORK}/quotes.urdf)
  get_filename_component(stem ${urdf} NAME_WE)
  run("cdyngen ${stem}" ${CDYNGEN} ${urdf} -o ${WORK}/names_${stem} --name names --python)
  run("FRAME_NAMES of ${stem}" ${python} -c "import sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[1])
import names
links = [l.get('name') for l in ET.parse(sys.argv[2]).getroot().iter('link')]
assert sorted(names.FRAME_NAMES) == sorted(links), (names.FRAME_NAMES, links)
assert all(names.FRAME_NAMES[i] == n for n, i in names.FRAMES.items())
print(len(links), 'frame names as in the URDF')" ${WORK}/names_${stem} ${urdf})
  message(STATUS "${stem}: ${run_output}")
endforeach()
