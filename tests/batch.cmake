# The --batch forms (NAME_batch.h, issue 44) against the single-state functions, lane by lane
# (tests/test_batch.c says what is compared and why the tolerances), and their builds
# warning-free. Each test generates its robots at test time; this file is also the script
# the tests run (cmake -DMODE=single|lanes|compile ... -P batch.cmake).
#
#   batch_single     (fixture of the batch_lanes_* tests) every robot generated without
#                    --batch, its NAME.c compiled once by the tests' compiler at -O0 with
#                    -ffp-contract=off: the reference every batch build is compared with.
#   batch_lanes_*    one build each (compiler, scalar, W, flags) of NAME_batch.c and
#                    test_batch.c for a list of robots, linked with batch_single's NAME.c and
#                    run; NAME.c and NAME.h generated with --batch must be those generated
#                    without, but for the options in their first comment. "exact" builds use
#                    -ffp-contract=off and require every value bit for bit; the others let the
#                    compiler contract into fma (gcc -O2, clang's default), against the
#                    uncontracted reference: 1e-12 (double) or 1e-5 (float) relative (minv,
#                    aba and aba_derivatives: the lane's 16 eps cond1(M) if larger). Every
#                    form, rnea_derivatives and aba_derivatives included (their NaN lanes,
#                    NULL outputs).
#   batch_lanes_con_* the same for robots with a constraint set (humanoid on two 6d soles;
#                    fourbar's 3d loop; quadruped12 on two friction and two 3d feet; solo12's
#                    F3x4 when ../shared is present): also NAME_batch_constraint_capture and
#                    NAME_batch_prox_ltl and NAME_batch_prox_ltls (every set; with tolerances
#                    the latter's lanes are checked converged, not fixed-count: see
#                    test_batch.c), and for the contacts-only sets (all but fourbar:
#                    --contacts-only, which test_batch.c holds against NAME_HAS_CONSTRAINED_ABA)
#                    NAME_batch_constrained_aba and NAME_batch_prox_pv, against the single-state
#                    ones (gcc W = 8 exact, clang native, plain). The humanoid's proxPV set-up
#                    is emitted in parts over d->carry, so its vector builds run those
#                    (--pv-parts: the script checks NAME_batch.c has them).
#                    batch_single builds their folders' cdyn_*.c into runtime.a (NAME.c's
#                    contact step calls the runtime's contact solver).
#   batch_compile_*  NAME_batch.c of arm7 on a 6d tool contact (contacts only: proxLTL,
#                    constrainedABA and proxPV, which must be in its header, besides every
#                    unconstrained form), of random robot 25 (a free-flyer without a revolute
#                    joint) and of fourbar with its loop (proxLTL), -std=c99 -Wall -Wextra
#                    -Wpedantic -Wdouble-promotion -Werror at -O1, under -march=x86-64
#                    (baseline SSE2) and x86-64-v3 (AVX2), each with the width native gives it
#                    and the next target's (AVX on SSE2, AVX-512 on AVX2), and with
#                    CDYN_BATCH_PLAIN; native's W checked against
#                    the compiler's own macros. -march=native is built (-Werror too) by the
#                    batch_lanes_* tests. batch_compile_arm_neon: arm-none-eabi-gcc for a
#                    Cortex-A9 with NEON, native (2 doubles, 4 floats).
# A compiler that is missing skips its tests ("SKIP: "); so does a robot of ../shared that is
# absent (left out of the lists at configure time).

# ------------------------------------------------------------------ the script (cmake -P) ----
if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.13)
  foreach(v BFLAGS ROBOTS FROBOTS BUILDS)
    string(REPLACE "|" ";" ${v} "${${v}}")
    string(REPLACE "^" "|" ${v} "${${v}}")   # fields of a list entry
  endforeach()
  if(NOT CC OR NOT EXISTS "${CC}")
    message("SKIP: no compiler ${CCNAME} here")
    return()
  endif()
  set(warn -std=c99 -Wall -Wextra -Wpedantic -Werror)
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  set(failed "")
  set(broken 0)
  string(TIMESTAMP t0 "%s")

  # run(what COMMAND...): run it unless this robot already broke; on failure print its output,
  # note it in `failed` and set `broken`
  macro(run what)
    if(NOT broken)
      execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        string(REPLACE ";" " " cmd "${ARGN}")
        message("FAIL: ${what} (${rc}):\n${cmd}\n${out}${err}")
        list(APPEND failed "${what}")
        set(broken 1)
      endif()
    endif()
  endmacro()

  # generate(ENTRY DIR_PARENT OPTIONS...): robot "name^urdf^cdyngen options^test options";
  # "random:SEED" as the urdf is random_urdf_tool's robot SEED (written into URDF_DIR), with
  # --floating-base when its options say so (its constraint sets are left out: the constrained
  # robots are the named ones of batch_con). Sets name, upper, dir, topts, gopts.
  macro(generate entry parent)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 name)
    list(GET parts 1 urdf)
    list(GET parts 2 gopts)
    list(GET parts 3 topts)
    string(TOUPPER ${name} upper)
    separate_arguments(gopts UNIX_COMMAND "${gopts}")
    separate_arguments(topts UNIX_COMMAND "${topts}")
    if(urdf MATCHES "^random:([0-9]+)$")
      set(urdf ${URDF_DIR}/${name}.urdf)
      if(NOT EXISTS ${urdf})
        run("random_urdf_tool ${CMAKE_MATCH_1}" ${RANDOM_TOOL} ${CMAKE_MATCH_1} ${urdf}
            ${URDF_DIR}/${name}.args)
      endif()
      file(READ ${URDF_DIR}/${name}.args rargs)
      if(rargs MATCHES "--floating-base")
        list(APPEND gopts --floating-base)
      endif()
    endif()
    set(dir ${parent}/${name})
    run("cdyngen ${name} ${ARGN}" ${CDYNGEN} ${urdf} -o ${dir} --name ${name} --force ${gopts}
        ${ARGN})
  endmacro()

  # the widest vector the target has, in bytes, from the compiler's own macros (the rule of
  # --batch native: 64 with AVX-512F, 32 with AVX, else 16)
  macro(vector_bytes out)
    execute_process(COMMAND ${CC} ${BFLAGS} -dM -E -x c /dev/null OUTPUT_VARIABLE macros)
    set(${out} 16)
    if(macros MATCHES "#define __AVX512F__ ")
      set(${out} 64)
    elseif(macros MATCHES "#define __AVX__ ")
      set(${out} 32)
    endif()
  endmacro()

  # the file without the options of its first comment (the one line --batch changes)
  macro(read_plain file out)
    file(READ ${file} ${out})
    string(REGEX REPLACE "\\(options: [^)]*\\)" "(options)" ${out} "${${out}}")
  endmacro()

  if(MODE STREQUAL "single")
    set(URDF_DIR ${WORK})
    run("rng.c" ${CC} ${warn} -O1 -c ${TESTS}/support/rng.c -o ${WORK}/rng.o)
    foreach(scalar double float)
      set(list ${ROBOTS})
      set(sopt "")
      if(scalar STREQUAL "float")
        set(list ${FROBOTS})
        set(sopt --scalar float)
      endif()
      foreach(entry ${list})
        set(broken 0)
        generate("${entry}" ${WORK}/${scalar} ${sopt})
        run("${name}.c (${scalar})" ${CC} ${warn} -O0 -ffp-contract=off -c ${dir}/${name}.c
            -o ${dir}/single.o)
        if("${gopts}" MATCHES "--contact|--loop")
          # a constraint set's NAME.c calls the runtime's contact solver (the contact step):
          # the folder's cdyn_*.c into an archive, the same flags (not under test: no -Werror)
          file(GLOB rt ${dir}/cdyn_*.c)
          set(objs "")
          foreach(src ${rt})
            get_filename_component(base ${src} NAME_WE)
            run("${name}: ${base}.c" ${CC} -std=c99 -O0 -ffp-contract=off -c ${src}
                -o ${dir}/${base}.o)
            list(APPEND objs ${dir}/${base}.o)
          endforeach()
          run("${name}: runtime.a" ${AR} rcs ${dir}/runtime.a ${objs})
        endif()
      endforeach()
    endforeach()

  elseif(MODE STREQUAL "lanes")
    set(URDF_DIR ${SINGLE})
    set(sopt "")
    if(SCALAR STREQUAL "float")
      set(sopt --scalar float)
    endif()
    set(exact "")
    if(EXACT)
      set(exact -DBATCH_EXACT)
    endif()
    if(W STREQUAL "native")
      vector_bytes(bytes)
      if(SCALAR STREQUAL "float")
        math(EXPR ew "${bytes} / 4")
      else()
        math(EXPR ew "${bytes} / 8")
      endif()
      set(expect --expect-w ${ew})
    else()
      set(expect --expect-w ${W})
    endif()
    foreach(entry ${ROBOTS})
      string(TIMESTAMP r0 "%s")
      set(broken 0)
      generate("${entry}" ${WORK} --batch ${W} ${sopt})
      set(single ${SINGLE}/${SCALAR}/${name})
      if("${topts}" MATCHES "--pv-parts")
        # the entry is here for its proxPV set-up emitted in parts over d->carry (this file's
        # option, not test_batch's): the coverage must not go unnoticed if it is emitted whole
        list(REMOVE_ITEM topts --pv-parts)
        if(NOT broken)
          file(STRINGS ${dir}/${name}_batch.c parts REGEX "_batch__pv_setup_part1\\(")
          if(NOT parts)
            message("FAIL: ${name}: its proxPV set-up is no longer emitted in parts")
            list(APPEND failed "${name}: no pv_setup parts")
          endif()
        endif()
      endif()
      if(NOT broken AND NOT EXISTS ${single}/single.o)
        message("FAIL: ${name}: no single-state build in ${single} (batch_single failed?)")
        list(APPEND failed "${name} (no single-state build)")
        set(broken 1)
      endif()
      if(NOT broken)
        foreach(f ${name}.c ${name}.h)
          read_plain(${dir}/${f} with)
          read_plain(${single}/${f} without)
          if(NOT with STREQUAL without)
            message("FAIL: ${name}: ${f} generated with --batch ${W} differs from the one without")
            list(APPEND failed "${name}: ${f} changed by --batch")
          endif()
        endforeach()
      endif()
      run("${name}_batch.c" ${CC} ${warn} ${BFLAGS} -c ${dir}/${name}_batch.c -o ${dir}/batch.o)
      run("test_batch.c for ${name}" ${CC} ${warn} ${BFLAGS} ${exact} -DBATCH_ROBOT=${name}
          -DBATCH_UPPER=${upper} "-DBATCH_HEADER=\"${name}_batch.h\"" -I${dir} -I${TESTS}
          -c ${TESTS}/test_batch.c -o ${dir}/test.o)
      set(runtime "")
      if(EXISTS ${single}/runtime.a)
        set(runtime ${single}/runtime.a)
      endif()
      run("link ${name}" ${CC} ${dir}/test.o ${dir}/batch.o ${single}/single.o ${SINGLE}/rng.o
          ${runtime} -lm -o ${dir}/test_batch)
      if(broken)
        continue()
      endif()
      string(TIMESTAMP r1 "%s")
      execute_process(COMMAND ${dir}/test_batch ${expect} ${topts}
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      string(TIMESTAMP r2 "%s")
      math(EXPR tb "${r1} - ${r0}")
      math(EXPR tr "${r2} - ${r1}")
      message("${out}${err}(${name}: generated and built in ${tb} s, ran in ${tr} s)")
      if(NOT rc EQUAL 0)
        list(APPEND failed "${name}")
      endif()
    endforeach()

  elseif(MODE STREQUAL "compile")
    set(URDF_DIR ${WORK})
    foreach(entry ${ROBOTS})
      foreach(build ${BUILDS})         # scalar:W
        string(REPLACE ":" ";" build "${build}")
        list(GET build 0 scalar)
        list(GET build 1 w)
        set(broken 0)
        generate("${entry}" ${WORK}/${scalar}_${w} --batch ${w} --scalar ${scalar})
        run("${name}_batch.c (${scalar}, --batch ${w}, ${BFLAGS})" ${CC} ${warn} -Wdouble-promotion
            ${BFLAGS} -I${dir} -c ${dir}/${name}_batch.c -o ${dir}/batch.o)
        if(NOT broken AND "${topts}" MATCHES "--contacts-only")
          # the forms this entry is here for: not compiled if no longer generated
          file(READ ${dir}/${name}_batch.h h)
          if(NOT h MATCHES "int ${name}_batch_constrained_aba\\(" OR
             NOT h MATCHES "int ${name}_batch_prox_pv\\(")
            message("FAIL: ${name}: no ${name}_batch_constrained_aba or _prox_pv in ${name}_batch.h")
            list(APPEND failed "${name}: no batch constrainedABA or proxPV")
          endif()
        endif()
        if(w STREQUAL "native")
          # native's W fills the target's widest vector, as the compiler's macros say
          vector_bytes(bytes)
          file(WRITE ${dir}/w.c "#include \"${name}_batch.h\"\n"
            "typedef char native_width[${upper}_BATCH_W * sizeof(cdyn_real) == ${bytes} ? 1 : -1];\n")
          run("${name} ${scalar} --batch native: W * sizeof(cdyn_real) should be ${bytes}" ${CC}
              ${warn} ${BFLAGS} -I${dir} -c ${dir}/w.c -o ${dir}/w.o)
        endif()
      endforeach()
    endforeach()
  endif()

  string(TIMESTAMP t1 "%s")
  math(EXPR t "${t1} - ${t0}")
  if(failed)
    string(REPLACE ";" "\n  " failed "${failed}")
    message(FATAL_ERROR "batch ${MODE}: failed:\n  ${failed}\n(${t} s)")
  endif()
  message("batch ${MODE}: passed (${t} s)")
  return()
endif()

# ---------------------------------------------------------------------------- the tests ----
find_program(CDYN_GCC gcc)
find_program(CDYN_CLANG clang)
find_program(CDYN_ARM_CC arm-none-eabi-gcc)
set(batch_script ${CMAKE_CURRENT_SOURCE_DIR}/batch.cmake)
set(batch_work ${CMAKE_CURRENT_BINARY_DIR}/batch)

# A robot whose M is singular at one configuration: a point mass (no rotational inertia)
# sliding along a massless arm that turns; at slide = -0.5 the mass sits on the turning axis
# and M = diag(2 (0.5 + slide)^2, 2) loses its first pivot. Every other configuration is fine,
# so the generator keeps the forward dynamics.
file(WRITE ${batch_work}/batch_singular.urdf.tmp [=[<?xml version="1.0"?>
<robot name="batch_singular">
  <link name="base"/>
  <link name="arm"/>
  <link name="slider">
    <inertial><origin xyz="0.5 0 0"/><mass value="2"/>
      <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
  </link>
  <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <joint name="slide" type="prismatic"><parent link="arm"/><child link="slider"/>
    <axis xyz="1 0 0"/><limit effort="1" velocity="1" lower="-1" upper="1"/></joint>
</robot>
]=])
configure_file(${batch_work}/batch_singular.urdf.tmp ${batch_work}/batch_singular.urdf COPYONLY)

# name^urdf^cdyngen options^test_batch options ("random:SEED": random_urdf_tool's robot)
set(R ${CMAKE_SOURCE_DIR}/robots)
set(batch_small
  "arm7^${R}/arm7.urdf^^--angles"      # its angles also past cdyn_sincos_n's switch to libm
  "quadruped12^${R}/quadruped12.urdf^--floating-base^"
  "random25^random:25^^"    # free-flyer, planar, continuous and prismatic; no revolute joint
  "batch_singular^${batch_work}/batch_singular.urdf^^--singular 0.3,-0.5"
  # M singular everywhere: no minv or aba, single or batch
  "fingers^${CMAKE_CURRENT_SOURCE_DIR}/urdf/massless_fingers.urdf^--massless-links ignore^")
set(batch_all ${batch_small}
  "random11^random:11^^"    # a floating joint mid-tree, continuous, prismatic, skewed axes
  "humanoid^${R}/humanoid.urdf^--floating-base^"
  "random46^random:46^^"    # planar, continuous, prismatic
  "random18^random:18^^")   # free-flyer, 13 joints of the three kinds
set(ref ${CDYN_SHARED_DIR}/reference/urdf)
if(EXISTS ${ref}/iiwa.urdf AND EXISTS ${ref}/talos_full_v2.urdf)
  list(APPEND batch_small "iiwa^${ref}/iiwa.urdf^^--angles")
  list(APPEND batch_all "iiwa^${ref}/iiwa.urdf^^--angles" "solo12^${ref}/solo12.urdf^--floating-base^"
       "talos_full_v2^${ref}/talos_full_v2.urdf^--floating-base^")
else()
  message(STATUS "cdyngen: ${CDYN_SHARED_DIR}/reference absent: the batch tests leave out its robots")
endif()
# constraint sets (--contact, --loop): the batch proxLTL besides every form above, and for
# contacts only (--contacts-only) the batch constrainedABA and proxPV
set(batch_con
  "humanoid_c2^${R}/humanoid.urdf^--floating-base --contact left_sole:6d --contact right_sole:6d^--constrained --contacts-only --pv-parts"
  "fourbar^${R}/fourbar.urdf^--loop coupler_tip:rocker_tip:3d^--constrained"   # a loop, 1 DoF
  "quadruped12_c4^${R}/quadruped12.urdf^--floating-base --contact lf_foot:friction --contact rf_foot:friction --contact lh_foot:3d --contact rh_foot:3d^--constrained --contacts-only")
if(EXISTS ${ref}/solo12.urdf)
  # the reference's contact case F3x4
  list(APPEND batch_con "solo12_f3x4^${ref}/solo12.urdf^--floating-base --contact FL_FOOT:3d --contact FR_FOOT:3d --contact HL_FOOT:3d --contact HR_FOOT:3d^--constrained --contacts-only")
else()
  message(STATUS "cdyngen: ${ref}/solo12.urdf absent: the batch proxLTL tests leave out solo12")
endif()
string(REPLACE ";" "|" batch_small "${batch_small}")
string(REPLACE ";" "|" batch_all "${batch_all}")
string(REPLACE ";" "|" batch_con "${batch_con}")

add_test(NAME batch_single COMMAND ${CMAKE_COMMAND} -DMODE=single -DCC=${CMAKE_C_COMPILER}
  "-DROBOTS=${batch_all}|${batch_con}" "-DFROBOTS=${batch_small}" -DAR=${CMAKE_AR}
  -DCDYNGEN=$<TARGET_FILE:cdyngen>
  -DRANDOM_TOOL=$<TARGET_FILE:random_urdf_tool> -DTESTS=${CMAKE_CURRENT_SOURCE_DIR}
  -DWORK=${batch_work}/single -P ${batch_script})
set_tests_properties(batch_single PROPERTIES FIXTURES_SETUP batch_single TIMEOUT 600)

# batch_lanes(NAME CC SCALAR W EXACT ROBOTS FLAGS): FLAGS |-separated
function(batch_lanes name cc scalar w exact robots flags)
  get_filename_component(ccname "${cc}" NAME)
  add_test(NAME batch_lanes_${name} COMMAND ${CMAKE_COMMAND} -DMODE=lanes -DCC=${cc}
    -DCCNAME=${ccname} -DSCALAR=${scalar} -DW=${w} -DEXACT=${exact} "-DROBOTS=${${robots}}"
    "-DBFLAGS=${flags}" -DCDYNGEN=$<TARGET_FILE:cdyngen> -DTESTS=${CMAKE_CURRENT_SOURCE_DIR}
    -DSINGLE=${batch_work}/single -DWORK=${batch_work}/lanes_${name} -P ${batch_script})
  set_tests_properties(batch_lanes_${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: "
    FIXTURES_REQUIRED batch_single TIMEOUT 600)
endfunction()

# bit for bit, on every robot: no contraction on either side (the build that proves the
# bodies are the same operations)
batch_lanes(gcc_double_w8_exact "${CDYN_GCC}" double 8 1 batch_all "-O1|-march=native|-ffp-contract=off")
# clang contracts a * b + c into fma by default (where the target has it): every robot against
# the uncontracted reference
batch_lanes(clang_double_native "${CDYN_CLANG}" double native 0 batch_all "-O1|-march=native")
batch_lanes(clang_float_w8_exact "${CDYN_CLANG}" float 8 1 batch_small "-O1|-march=native|-ffp-contract=off")
# gcc at -O2, the level that may contract (it leaves the vector code alone: bit for bit here)
batch_lanes(gcc_double_w4 "${CDYN_GCC}" double 4 0 batch_small "-O2|-march=native")
batch_lanes(gcc_float_w16 "${CDYN_GCC}" float 16 0 batch_small "-O2|-march=native")
# native on the baseline x86-64 (SSE2): W = 2 in double
batch_lanes(gcc_double_native_x86-64 "${CDYN_GCC}" double native 1 batch_small
  "-O1|-march=x86-64|-ffp-contract=off")
# the plain C99 fallback
batch_lanes(gcc_double_w8_plain "${CDYN_GCC}" double 8 1 batch_small
  "-O1|-DCDYN_BATCH_PLAIN|-ffp-contract=off")
# the constraint sets' proxLTL: bit for bit, contracted, and the plain form (each lane its own
# iteration count there)
batch_lanes(con_gcc_double_w8_exact "${CDYN_GCC}" double 8 1 batch_con "-O1|-march=native|-ffp-contract=off")
batch_lanes(con_clang_double_native "${CDYN_CLANG}" double native 0 batch_con "-O1|-march=native")
batch_lanes(con_gcc_double_w8_plain "${CDYN_GCC}" double 8 1 batch_con
  "-O1|-DCDYN_BATCH_PLAIN|-ffp-contract=off")

# batch_compile(NAME CC FLAGS BUILDS): BUILDS scalar:W|...
# arm7 on a 6d tool contact: every form of arm7 without one, and the contacts-only solvers
# (proxLTL, constrainedABA and proxPV; arm7 alone would add only compile time)
set(batch_compile_robots "arm7_tool^${R}/arm7.urdf^--contact tool:6d^--contacts-only"
  "random25^random:25^^"
  "fourbar^${R}/fourbar.urdf^--loop coupler_tip:rocker_tip:3d^")   # a loop: proxLTL
string(REPLACE ";" "|" batch_compile_robots "${batch_compile_robots}")
function(batch_compile name cc flags builds)
  get_filename_component(ccname "${cc}" NAME)
  add_test(NAME batch_compile_${name} COMMAND ${CMAKE_COMMAND} -DMODE=compile -DCC=${cc}
    -DCCNAME=${ccname} "-DROBOTS=${batch_compile_robots}" "-DBFLAGS=${flags}" "-DBUILDS=${builds}"
    -DCDYNGEN=$<TARGET_FILE:cdyngen> -DRANDOM_TOOL=$<TARGET_FILE:random_urdf_tool>
    -DTESTS=${CMAKE_CURRENT_SOURCE_DIR} -DWORK=${batch_work}/compile_${name} -P ${batch_script})
  set_tests_properties(batch_compile_${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP: "
    TIMEOUT 600)
endfunction()
foreach(ccname gcc clang)
  string(TOUPPER ${ccname} up)
  set(cc "${CDYN_${up}}")
  # each target with its native width and the next wider target's (AVX on SSE2, AVX-512 on AVX2)
  batch_compile(${ccname}_x86-64 "${cc}" "-O1|-march=x86-64"
    "double:native|float:native|double:4|float:8")
  batch_compile(${ccname}_x86-64-v3 "${cc}" "-O1|-march=x86-64-v3"
    "double:native|float:native|double:8|float:16")
  batch_compile(${ccname}_plain "${cc}" "-O1|-DCDYN_BATCH_PLAIN"
    "double:native|double:8|float:16")
endforeach()
# NEON: a Cortex-A9 (16-byte vectors: native is 2 doubles or 4 floats), compile only
batch_compile(arm_neon "${CDYN_ARM_CC}" "-O1|-mcpu=cortex-a9|-mfpu=neon|-mfloat-abi=hard"
  "double:native|float:native")
