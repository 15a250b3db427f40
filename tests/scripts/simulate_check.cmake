# `cdyngen simulate` as a user meets it (tests/simulate.cmake).
#  MODE=run:    the sample quadruped (four frictional feet) dropped 5 cm under PD control for
#               2 s at 1 ms, the program compiled once: exit 0; the CSV (and the SVG and
#               HTML when this cdyngen has the writers) written; the CSV has 2001 rows;
#               its last row matches the printed summary (simulated time, final base height,
#               non-converged steps, max penetration); the base ends within 1e-6 m of its
#               standing height, 0.404 m (the legs straight below the hips: the weight goes
#               down the legs, no joint torque deflects them; measured 3e-13 m off); after
#               touchdown the energy (kinetic, gravity's, the PD springs') never grows by more
#               than 1e-9 J in a step (measured: 1.4e-14 J, the rounding of a 32 J sum; the
#               PD damping and the impact take joules out); no temporary folder left.
#  MODE=soft:   the same run on spring-damper feet (--model soft): each foot's normal force
#               is k times its penetration at the end, together the weight (comments below).
#  MODE=errors: bad input, each before anything is compiled, exits with its code and leaves
#               the output files as they were (absent, or an existing one unchanged): no
#               frictional contact (2, naming --contact FRAME:friction), a negative
#               duration (2), a zero dt (2), a word in --q (2), a NaN in --q (1), a wrong
#               --q count (1), an unwritable --csv path (1); and a compiler that does not
#               run (3, after the robot is generated in $TMPDIR); --help exits 0.
# cmake -DCDYNGEN=... -DSRC=<source dir> -DWORK=<dir> -DMODE=run|errors|soft [-DWRITERS=0|1]
#       [-DCFLAGS=<the program's flags, default cdyngen's>] -P simulate_check.cmake
set(quadruped ${SRC}/robots/quadruped12.urdf --floating-base --contact lf_foot:friction
  --contact rf_foot:friction --contact lh_foot:friction --contact rh_foot:friction)
set(tmp ${WORK}/tmp) # TMPDIR: must be empty after every run

function(simulate out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${tmp} ${CDYNGEN} simulate ${ARGN}
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${o}${e}" PARENT_SCOPE)
  file(GLOB left ${tmp}/*)
  if(left)
    message(FATAL_ERROR "cdyngen simulate ${ARGN}: left ${left}")
  endif()
endfunction()

# |a - b| <= tol, numbers as CMake cannot compare them (floats): through math(EXPR)? No:
# CMake's math is integer, so the comparison is done in nanometres and nanojoules.
function(nano x out)
  # x in [-1e6, 1e6] as an integer count of 1e-9 units (rounded towards zero)
  if(NOT x MATCHES "^(-?)([0-9]*)\\.?([0-9]*)(e([-+]?[0-9]+))?$")
    message(FATAL_ERROR "not a number: ${x}")
  endif()
  set(sign "${CMAKE_MATCH_1}")
  set(int "${CMAKE_MATCH_2}")
  set(frac "${CMAKE_MATCH_3}000000000000000000000000")
  set(ex 0)
  if(CMAKE_MATCH_5)
    set(ex ${CMAKE_MATCH_5})
  endif()
  string(REGEX REPLACE "^\\+" "" ex "${ex}")
  # digits shifted by the exponent, then nine decimals kept
  set(digits "${int}${frac}")
  string(LENGTH "${int}" point)
  math(EXPR point "${point} + ${ex} + 9")
  if(point LESS_EQUAL 0)
    set(${out} 0 PARENT_SCOPE)
    return()
  endif()
  string(SUBSTRING "${digits}" 0 ${point} n)
  string(REGEX REPLACE "^0+" "" n "${n}")
  if(n STREQUAL "")
    set(n 0)
  endif()
  set(${out} "${sign}${n}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${tmp})

if(MODE STREQUAL "run")
  set(files --csv quadruped.csv)
  if(CFLAGS)
    list(APPEND files --cflags "${CFLAGS}")
  endif()
  if(WRITERS)
    list(APPEND files --svg quadruped.svg --html quadruped.html)
  endif()
  simulate(rc out ${quadruped} ${files})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cdyngen simulate: exit ${rc}: ${out}")
  endif()
  message(STATUS "${out}")
  foreach(line "simulated 2 s of quadruped12 \\(rigid contacts\\): 2000 steps of 0.001 s"
               "real-time factor: [0-9]+" "non-converged steps: ([0-9]+) of 2000"
               "max penetration: ([-0-9.e+]+) m" "final base height: ([-0-9.e+]+) m"
               "wrote quadruped.csv")
    if(NOT out MATCHES "${line}")
      message(FATAL_ERROR "the summary has no '${line}': ${out}")
    endif()
  endforeach()
  string(REGEX MATCH "non-converged steps: ([0-9]+)" m "${out}")
  set(printed_nc ${CMAKE_MATCH_1})
  string(REGEX MATCH "max penetration: ([-0-9.e+]+)" m "${out}")
  set(printed_pen ${CMAKE_MATCH_1})
  string(REGEX MATCH "final base height: ([-0-9.e+]+)" m "${out}")
  set(printed_z ${CMAKE_MATCH_1})

  file(STRINGS ${WORK}/quadruped.csv lines)
  list(LENGTH lines n)
  if(NOT n EQUAL 2002)
    message(FATAL_ERROR "quadruped.csv: ${n} lines, expected a header and 2001 rows")
  endif()
  list(GET lines 0 header)
  string(REPLACE "," ";" header "${header}")
  list(FIND header "q_base_z" iz)
  list(FIND header "energy" ie)
  list(FIND header "converged" ic)
  list(GET header 2 first_q)
  if(iz LESS 0 OR ie LESS 0 OR ic LESS 0 OR NOT first_q STREQUAL "q_base_x")
    message(FATAL_ERROR "quadruped.csv header: ${header}")
  endif()
  set(pen_columns "")
  set(state_columns "")
  set(i 0)
  foreach(h ${header})
    if(h MATCHES "_penetration$")
      list(APPEND pen_columns ${i})
    elseif(h MATCHES "_state$")
      list(APPEND state_columns ${i})
    endif()
    math(EXPR i "${i} + 1")
  endforeach()

  # the last row against the summary
  list(GET lines 2001 last)
  string(REPLACE "," ";" last "${last}")
  list(GET last 0 k)
  list(GET last 1 t)
  list(GET last ${iz} z)
  nano(${t} t_n)
  nano(${z} z_n)
  nano(${printed_z} pz_n)
  math(EXPR dz "${z_n} - ${pz_n}")
  if(NOT k EQUAL 2000 OR NOT t_n EQUAL 2000000000 OR dz GREATER 1 OR dz LESS -1)
    message(FATAL_ERROR "the last row (k ${k}, t ${t}, base z ${z}) is not the summary's "
      "(2000, 2 s, ${printed_z} m)")
  endif()
  # the standing height: 0.404 m, within 1e-6 m (1000 nm)
  math(EXPR off "${z_n} - 404000000")
  if(off GREATER 1000 OR off LESS -1000)
    message(FATAL_ERROR "the base ends at ${z} m, not within 1e-6 m of 0.404 m")
  endif()

  # every row: non-converged steps and the deepest penetration as printed; the energy after
  # touchdown (the first row with a contact not separated) never up by more than 1e-9 J
  set(nc 0)
  set(pen_max 0)
  set(touched 0)
  set(previous "")
  set(worst 0)
  foreach(row IN LISTS lines)
    if(row MATCHES "^k,")
      continue()
    endif()
    string(REPLACE "," ";" cells "${row}")
    list(GET cells ${ic} converged)
    if(converged EQUAL 0)
      math(EXPR nc "${nc} + 1")
    endif()
    foreach(j ${pen_columns})
      list(GET cells ${j} p)
      nano(${p} p_n)
      if(p_n GREATER pen_max)
        set(pen_max ${p_n})
      endif()
    endforeach()
    foreach(j ${state_columns})
      list(GET cells ${j} s)
      if(NOT s EQUAL 0)
        set(touched 1)
      endif()
    endforeach()
    list(GET cells ${ie} e)
    nano(${e} e_n)
    if(touched AND NOT previous STREQUAL "")
      math(EXPR up "${e_n} - ${previous}")
      if(up GREATER worst)
        set(worst ${up})
      endif()
    endif()
    if(touched)
      set(previous ${e_n})
    endif()
  endforeach()
  nano(${printed_pen} ppen_n)
  if(NOT nc EQUAL printed_nc OR NOT pen_max EQUAL ppen_n OR NOT touched)
    message(FATAL_ERROR "the CSV: ${nc} non-converged rows, penetration ${pen_max} nm, "
      "touched ${touched}; the summary: ${printed_nc}, ${printed_pen} m")
  endif()
  if(worst GREATER 1)
    message(FATAL_ERROR "the energy grew by ${worst} nJ in a step after touchdown")
  endif()
  if(WRITERS)
    file(READ ${WORK}/quadruped.svg svg LIMIT 4096)
    file(READ ${WORK}/quadruped.html html LIMIT 200000)
    if(NOT svg MATCHES "<svg" OR NOT html MATCHES "id=\"sim-data\"")
      message(FATAL_ERROR "quadruped.svg or quadruped.html: not the plots or the page")
    endif()
  endif()
  message(STATUS "the quadruped stands at ${z} m, energy never up after touchdown, files written")
elseif(MODE STREQUAL "errors")
  set(arm ${SRC}/robots/arm7.urdf)
  file(WRITE ${WORK}/mine.csv "my own file\n")
  # expect(code pattern args...): the exit code, the message, no new file, mine.csv kept
  function(expect code pattern)
    simulate(rc out ${ARGN})
    if(NOT rc EQUAL code OR NOT out MATCHES "${pattern}")
      message(FATAL_ERROR "cdyngen simulate ${ARGN}: exit ${rc}, expected ${code} and '${pattern}': ${out}")
    endif()
    file(READ ${WORK}/mine.csv kept)
    file(GLOB made ${WORK}/new* ${WORK}/mine.csv.*)
    if(made OR NOT kept STREQUAL "my own file\n")
      message(FATAL_ERROR "cdyngen simulate ${ARGN}: files written or changed: ${made}")
    endif()
  endfunction()
  set(out --csv new.csv --svg new.svg)
  expect(2 "cdyngen: simulate: the robot has no frictional contact \\(--contact FRAME:friction\\)"
    ${arm} ${out})
  expect(2 "cdyngen: simulate: the robot has no frictional contact" ${arm} --contact tool:3d --csv mine.csv)
  expect(2 "cdyngen: --duration \"-1\": expected a number above 0" ${quadruped} --duration -1 ${out})
  expect(2 "cdyngen: --dt \"0\": expected a number above 0" ${quadruped} --dt 0 --csv mine.csv)
  expect(2 "cdyngen: --dt \"x\": expected a number" ${quadruped} --dt x --csv mine.csv)
  expect(2 "cdyngen: --q: \"zero\" is not a number" ${quadruped} --q "0 zero" --csv mine.csv)
  set(q18 "0 0 0.4 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0")
  expect(1 "cdyngen: --q: coordinate 3 is nan: every coordinate must be finite" ${quadruped}
    --q "0 0 0.4 nan 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0" --csv mine.csv)
  expect(1 "cdyngen: --q: 18 numbers for a robot with nq = 19" ${quadruped} --q "${q18}" ${out})
  expect(1 "cdyngen: cannot write ${WORK}/no/such/folder/new.csv" ${quadruped}
    --csv ${WORK}/no/such/folder/new.csv)
  expect(2 "cdyngen: --controller \"pid\": expected pd or none" ${quadruped} --controller pid ${out})
  # a failure after the robot is generated (the compiler does not run): exit 3, the same
  expect(3 "cdyngen: the compiler \"no-such-cc\" does not run" ${quadruped} --cc no-such-cc
    --csv mine.csv --svg new.svg)
  expect(2 "cdyngen: simulate: unknown option \"--bogus\"" ${quadruped} --bogus ${out})
  simulate(rc text --help)
  if(NOT rc EQUAL 0 OR NOT text MATCHES "usage: cdyngen simulate")
    message(FATAL_ERROR "simulate --help: exit ${rc}: ${text}")
  endif()
  execute_process(COMMAND ${CDYNGEN} --help OUTPUT_VARIABLE text)
  if(NOT text MATCHES "cdyngen simulate ROBOT.urdf")
    message(FATAL_ERROR "cdyngen --help does not list simulate")
  endif()
  message(STATUS "bad input: exit codes and messages as documented, no file written or changed")
elseif(MODE STREQUAL "soft")
  # the same quadruped on spring-damper feet (seed 000: k 2e4 N/m, d 800 N s/m, over-damped
  # on a quarter of its 8.252 kg), 1 s: at the end the feet carry the weight (their normal
  # forces sum to m g within 1e-4: measured 2e-6, what remains of the settling) and each
  # foot's penetration is its normal force over k within 1e-5 relative (measured 8e-7: the
  # damper's share d v_n / k of a foot still creeping at ~1e-3 m/s, the regularised
  # friction's creep F / (d + k dt)); the summary names the soft model
  set(files --model soft --stiffness 20000 --damping 800 --duration 1 --csv soft.csv)
  if(CFLAGS)
    list(APPEND files --cflags "${CFLAGS}")
  endif()
  simulate(rc out ${quadruped} ${files})
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\\(soft contacts\\)")
    message(FATAL_ERROR "cdyngen simulate --model soft: exit ${rc}: ${out}")
  endif()
  file(STRINGS ${WORK}/soft.csv lines)
  list(GET lines 0 header)
  list(GET lines -1 last)
  string(REPLACE "," ";" header "${header}")
  string(REPLACE "," ";" last "${last}")
  set(sum 0)
  foreach(foot lf_foot rf_foot lh_foot rh_foot)
    list(FIND header "${foot}_normal_force" in)
    list(FIND header "${foot}_penetration" ip)
    if(in LESS 0 OR ip LESS 0)
      message(FATAL_ERROR "soft.csv: no ${foot} columns: ${header}")
    endif()
    list(GET last ${in} fn)
    list(GET last ${ip} pen)
    nano(${fn} fn_n)   # nN
    nano(${pen} pen_n) # nm
    math(EXPR spring "20000 * ${pen_n}")  # k phi, nN
    math(EXPR gap "${spring} - ${fn_n}")
    math(EXPR allowed "${fn_n} / 100000") # 1e-5 relative
    if(gap LESS 0)
      math(EXPR gap "-${gap}")
    endif()
    if(gap GREATER allowed)
      message(FATAL_ERROR "${foot}: normal force ${fn} N, k * penetration ${pen} m off by ${gap} nN")
    endif()
    math(EXPR sum "${sum} + ${fn_n}")
  endforeach()
  math(EXPR gap "${sum} - 80952120000") # m g = 8.252 * 9.81 N
  if(gap LESS 0)
    math(EXPR gap "-${gap}")
  endif()
  if(gap GREATER 8095212) # 1e-4 of m g
    message(FATAL_ERROR "the soft feet carry ${sum} nN, m g = 80952120000 nN")
  endif()
  message(STATUS "soft feet: each pushes k times its penetration, together the weight")
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
