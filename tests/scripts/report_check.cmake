# `cdyngen report` as a user meets it (tests/report.cmake).
# The pages: every robot of generated/manifest.txt with the options it is generated with
# (floating bases, contacts, the four-bar's loop) and again without its constraints, the
# reference robots when SHARED/reference is there (talos with its soles in contact, solo12
# with its four feet), and a robot whose names are built to break out of HTML.
#  MODE=pages:   each page: exit 0; the output marker on the first line; every joint of
#                --summary in the joint table and in the diagram, every frame in the frame
#                table; the nonzeros of M, of its factor, of the KKT factor and of proxLTLs'
#                factor and every op count equal to --summary's; one diagram node per body
#                and the world, one ground mark per contact, one dashed edge per loop; one
#                inline script, no external resource, no http(s) URL (but an SVG xmlns).
#                The hostile names come out escaped, control characters as visible escapes.
#                Errors: bad usage exits 2, an unknown frame 1 (no page written), a file
#                cdyngen did not write at -o is refused (exit 1, untouched) unless --force.
#  MODE=browser: each page in headless CHROMIUM with the network cut off: exit 0, a PNG
#                screenshot (WORK/NAME.png), the script's count of drawn tree nodes in the
#                DOM equal to the bodies + 1 with no script error recorded, no console
#                message (an uncaught error, console.log/error). A failed load is not logged
#                by chromium: MODE=pages is what keeps URLs out. Without CHROMIUM: SKIP.
# cmake -DCDYNGEN=... -DSRC=<source dir> -DSHARED=<shared dir> -DWORK=<dir> -DMODE=...
#       [-DCHROMIUM=...] -P report_check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run out_rc out_text)
  execute_process(COMMAND ${CDYNGEN} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${o}${e}" PARENT_SCOPE)
endfunction()

function(expect_in text what where)
  string(FIND "${text}" "${what}" at)
  if(at LESS 0)
    message(FATAL_ERROR "${where}: expected \"${what}\"")
  endif()
endfunction()

function(count_of text what out)
  string(REGEX MATCHALL "${what}" all "${text}")
  list(LENGTH all n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# A robot whose names try to close the markup, run script, forge a line or reorder text.
set(hostile ${WORK}/hostile_names.urdf)
file(WRITE ${hostile} [==[<?xml version="1.0" encoding="UTF-8"?>
<robot name="&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&apos;">
  <link name="base&#10;cdyngen: fake line&#13;"/>
  <link name="arm&lt;b/onmouseover=alert(2)&gt;">
    <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <link name="tip&#133;&#x202E;evil&#9;&#127;"/>
  <joint name="j&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;x()&lt;/script&gt;" type="revolute">
    <parent link="base&#10;cdyngen: fake line&#13;"/>
    <child link="arm&lt;b/onmouseover=alert(2)&gt;"/>
    <axis xyz="0 0.6 0.8"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="fixed &quot;tip&quot;" type="fixed">
    <parent link="arm&lt;b/onmouseover=alert(2)&gt;"/>
    <child link="tip&#133;&#x202E;evil&#9;&#127;"/>
    <origin xyz="0 0 0.1"/>
  </joint>
</robot>
]==])

# The cases, "name|urdf|options" with options separated by spaces.
file(STRINGS ${SRC}/generated/manifest.txt manifest REGEX "^[^#]")
set(cases "")
foreach(line ${manifest})
  separate_arguments(args UNIX_COMMAND "${line}")
  list(GET args 0 name)
  list(GET args 1 urdf)
  list(SUBLIST args 2 -1 options)
  set(free "")
  set(skip 0)
  foreach(a ${options})
    if(skip)
      set(skip 0)
    elseif(a STREQUAL "--contact" OR a STREQUAL "--loop")
      set(skip 1)
    else()
      list(APPEND free ${a})
    endif()
  endforeach()
  string(REPLACE ";" " " options "${options}")
  string(REPLACE ";" " " free "${free}")
  list(APPEND cases "${name}|${SRC}/${urdf}|${options}"
                    "${name}_unconstrained|${SRC}/${urdf}|${free}")
endforeach()
set(R ${SHARED}/reference/urdf)
if(EXISTS ${R})
  list(APPEND cases "iiwa|${R}/iiwa.urdf|" "ur5|${R}/ur5_robot.urdf|"
    "double_pendulum|${R}/double_pendulum.urdf|" "hyq|${R}/hyq_no_sensors.urdf|--floating-base"
    "solo12|${R}/solo12.urdf|--floating-base --contact FL_FOOT:3d --contact FR_FOOT:3d \
--contact HL_FOOT:3d --contact HR_FOOT:3d"
    "talos|${R}/talos_full_v2.urdf|--floating-base --contact left_sole_link:6d \
--contact right_sole_link:6d")
else()
  message(STATUS "${R} absent: the reference robots are not reported")
endif()
list(APPEND cases "hostile_names|${hostile}|--contact arm<b/onmouseover=alert(2)>:6d")

# page(case): the page written for a case into WORK/NAME.html; NAME, PAGE (its text),
# SUMMARY (--summary with the same options) and OPTIONS set in the caller.
macro(page entry)
  string(REGEX MATCH "^([^|]*)[|]([^|]*)[|](.*)$" m "${entry}")
  set(NAME ${CMAKE_MATCH_1})
  set(urdf ${CMAKE_MATCH_2})
  set(OPTIONS "${CMAKE_MATCH_3}")
  separate_arguments(OPTIONS UNIX_COMMAND "${OPTIONS}")
  run(rc SUMMARY ${urdf} ${OPTIONS} --summary)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NAME}: --summary: exit ${rc}: ${SUMMARY}")
  endif()
  run(rc text report ${urdf} ${OPTIONS} -o ${WORK}/${NAME}.html)
  # notes (what the tree ignores, e.g. inertia on a link fixed to the world) are all it may say
  string(REGEX REPLACE "cdyngen: [^\n]*: note: [^\n]*\n?" "" text "${text}")
  if(NOT rc EQUAL 0 OR NOT text STREQUAL "")
    message(FATAL_ERROR "${NAME}: cdyngen report: exit ${rc}: ${text}")
  endif()
  file(READ ${WORK}/${NAME}.html PAGE)
  string(REGEX MATCH "bodies ([0-9]+)" m "${SUMMARY}")
  math(EXPR NODES "${CMAKE_MATCH_1} + 1")
endmacro()

# The joint and frame names, counts and op counts of --summary, found in the page.
function(check_against_summary name page summary)
  string(REGEX MATCHALL "\n +[0-9]+  [^ ]+" rows "${summary}")
  foreach(r ${rows})
    string(REGEX REPLACE "\n +[0-9]+  " "" joint "${r}")
    expect_in("${page}" "<td class=\"name\">${joint}</td>" "${name}: joint table")
    expect_in("${page}" ">${joint}</text>" "${name}: tree diagram")
  endforeach()
  string(REGEX MATCHALL "\n  [^ \n]+ +on [^\n]+" rows "${summary}")
  foreach(r ${rows})
    string(REGEX REPLACE "\n  ([^ ]+) +on .*" "\\1" frame "${r}")
    expect_in("${page}" "<td class=\"name\">${frame}</td>" "${name}: frame table")
  endforeach()
  string(REGEX MATCH "nonzeros: M ([0-9]+) of [0-9]+, LTL factor ([0-9]+) of" m "${summary}")
  set(want "M|${CMAKE_MATCH_1}" "L|${CMAKE_MATCH_2}")
  if(summary MATCHES "\\(constraints first\\) nonzeros: ([0-9]+)")
    list(APPEND want "KKT|${CMAKE_MATCH_1}")
    string(REGEX MATCH "\\(proxLTLs\\) nonzeros: ([0-9]+)" m "${summary}")
    list(APPEND want "Maug|${CMAKE_MATCH_1}")
  elseif(page MATCHES "data-matrix=\"KKT\"")
    message(FATAL_ERROR "${name}: a KKT pattern without constraints")
  endif()
  foreach(w ${want})
    string(REPLACE "|" ";" w "${w}")
    list(GET w 0 id)
    list(GET w 1 nnz)
    expect_in("${page}" "data-matrix=\"${id}\">${nnz}</span>" "${name}: nonzeros of ${id}")
  endforeach()
  string(REGEX MATCHALL "\n  [a-z_]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+" rows "${summary}")
  list(LENGTH rows n)
  if(n LESS 10)
    message(FATAL_ERROR "${name}: expected op counts in --summary: ${summary}")
  endif()
  foreach(r ${rows})
    set(num "</td><td class=\"num\">")
    string(REGEX REPLACE "\n  ([a-z_]+) +([0-9]+) +([0-9]+) +([0-9]+) +([0-9]+) +([0-9]+)"
      "<td class=\"name\">\\1${num}\\2${num}\\3${num}\\4${num}\\5${num}\\6</td>" cells "${r}")
    expect_in("${page}" "${cells}" "${name}: op counts")
  endforeach()
endfunction()

# The diagram's nodes and constraint marks; nothing from the network; the marker first.
function(check_structure name page nodes options)
  count_of("${page}" "<g class=\"node " n)
  if(NOT n EQUAL nodes)
    message(FATAL_ERROR "${name}: ${n} tree nodes, expected ${nodes} (bodies and the world)")
  endif()
  expect_in("${page}" "data-nodes=\"${nodes}\"" "${name}: the tree's node count")
  count_of("${options}" "--contact" contacts)
  count_of("${options}" "--loop" loops)
  count_of("${page}" "<g class=\"contact\">" n)
  count_of("${page}" "<g class=\"loop\">" m)
  if(NOT n EQUAL contacts OR NOT m EQUAL loops)
    message(FATAL_ERROR "${name}: ${n} contact and ${m} loop marks, expected ${contacts} and ${loops}")
  endif()
  string(REPLACE "xmlns=\"http://www.w3.org/2000/svg\"" "" rest "${page}")
  count_of("${page}" "<script" scripts)
  if(rest MATCHES "https?://" OR NOT scripts EQUAL 1 OR NOT page MATCHES "<script>"
     OR page MATCHES "<(link|img|iframe|object|embed|audio|video|source)[ >]|@import|url\\([^#]")
    message(FATAL_ERROR "${name}: the page is not self-contained (a URL or an external resource)")
  endif()
  file(STRINGS ${WORK}/${name}.html first LIMIT_COUNT 1)
  if(NOT first MATCHES "^<!-- @generated by cdyngen")
    message(FATAL_ERROR "${name}: the marker is not on the first line: ${first}")
  endif()
endfunction()

# Every name escaped: no markup of its own, control characters as \n \r \t \xNN \uNNNN.
function(check_hostile page)
  foreach(bad "<script>alert" "<b/onmouseover" "</svg><script>" "fake line\r" "base\ncdyngen")
    string(FIND "${page}" "${bad}" at)
    if(at GREATER -1)
      message(FATAL_ERROR "hostile_names: \"${bad}\" reached the page unescaped")
    endif()
  endforeach()
  foreach(good "<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&#39;</h1>"
               ">arm&lt;b/onmouseover=alert(2)&gt;</td>"
               ">j&lt;/text&gt;&lt;/svg&gt;&lt;script&gt;x()&lt;/script&gt;</text>"
               ">base\\ncdyngen: fake line\\r</td>" ">tip\\u0085\\u202eevil\\t\\x7f</td>")
    expect_in("${page}" "${good}" "hostile_names: escaped names")
  endforeach()
  # no control character but the template's own newlines, no raw U+0085 or U+202E
  string(ASCII 1 2 3 4 5 6 7 8 9 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 127 controls)
  string(ASCII 194 133 nel)
  string(ASCII 226 128 174 rlo)
  string(FIND "${page}" "${nel}" at_nel)
  string(FIND "${page}" "${rlo}" at_rlo)
  if(page MATCHES "[${controls}]" OR at_nel GREATER -1 OR at_rlo GREATER -1)
    message(FATAL_ERROR "hostile_names: a raw control character in the page")
  endif()
endfunction()

# The command's own errors: usage 2, an unknown frame 1, a foreign file refused.
function(check_errors)
  set(arm ${SRC}/robots/arm7.urdf)
  foreach(args "report" "report;${arm}" "report;${arm};-o" "report;${arm};-o;${WORK}/x.html;--bogus"
               "report;${arm};-o;${WORK}/x.txt" "report;${arm};-o;${WORK}/dir/"
               "report;${arm};-o;${WORK}/x.html;--scalar;half" "report;${arm};-o;${WORK}/x.html;--contact;tool")
    run(rc text ${args})
    if(NOT rc EQUAL 2 OR NOT text MATCHES "^cdyngen: ")
      message(FATAL_ERROR "'cdyngen ${args}': exit ${rc}, expected 2: ${text}")
    endif()
  endforeach()
  run(rc text report ${arm} -o ${WORK}/x.html --contact no_such_link:3d)
  if(NOT rc EQUAL 1 OR NOT text MATCHES "no link named \"no_such_link\"" OR EXISTS ${WORK}/x.html)
    message(FATAL_ERROR "unknown frame: exit ${rc}, expected 1 and no page: ${text}")
  endif()
  run(rc text report --help)
  if(NOT rc EQUAL 0 OR NOT text MATCHES "usage: cdyngen report")
    message(FATAL_ERROR "report --help: exit ${rc}: ${text}")
  endif()
  set(mine ${WORK}/project/page.html)
  file(WRITE ${mine} "<p>my own page</p>\n")
  run(rc text report ${arm} -o ${mine})
  file(READ ${mine} kept)
  if(NOT rc EQUAL 1 OR NOT text MATCHES "page.html: exists and was not written by cdyngen"
     OR NOT kept STREQUAL "<p>my own page</p>\n")
    message(FATAL_ERROR "a foreign page.html: exit ${rc}, expected 1 and the file untouched: ${text}")
  endif()
  file(GLOB left RELATIVE ${WORK}/project ${WORK}/project/* ${WORK}/project/.*)
  if(NOT left STREQUAL "page.html")
    message(FATAL_ERROR "a foreign page.html: the folder changed: ${left}")
  endif()
  foreach(force "--force" "")
    run(rc text report ${arm} -o ${mine} ${force})
    file(STRINGS ${mine} first LIMIT_COUNT 1)
    if(NOT rc EQUAL 0 OR NOT first MATCHES "@generated by cdyngen")
      message(FATAL_ERROR "report -o page.html ${force}: exit ${rc}: ${text}")
    endif()
  endforeach()
endfunction()

if(MODE STREQUAL "pages")
  foreach(entry ${cases})
    page("${entry}")
    check_structure(${NAME} "${PAGE}" ${NODES} "${OPTIONS}")
    if(NAME STREQUAL "hostile_names")
      check_hostile("${PAGE}")
    else()
      check_against_summary(${NAME} "${PAGE}" "${SUMMARY}")
    endif()
  endforeach()
  check_errors()
  list(LENGTH cases n)
  message(STATUS "${n} report pages checked against --summary; errors exit 2 and 1; foreign files kept")
elseif(MODE STREQUAL "browser")
  if(NOT CHROMIUM)
    message(STATUS "SKIP: no chromium (apt-get install chromium), or a sanitized build")
    return()
  endif()
  # root needs --no-sandbox; every host name resolves to nothing, so whatever a page tried
  # to fetch would not arrive
  execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(sandbox "")
  if(uid STREQUAL "0")
    set(sandbox --no-sandbox)
  endif()
  foreach(entry ${cases})
    page("${entry}")
    execute_process(COMMAND ${CHROMIUM} --headless ${sandbox} --disable-gpu
        --user-data-dir=${WORK}/profile --no-first-run --disable-extensions
        --disable-background-networking --disable-component-update --disable-sync
        "--host-resolver-rules=MAP * ~NOTFOUND" --enable-logging=stderr --v=0
        --window-size=1400,2000 --screenshot=${WORK}/${NAME}.png --dump-dom
        file://${WORK}/${NAME}.html
      WORKING_DIRECTORY ${WORK} TIMEOUT 60 RESULT_VARIABLE rc OUTPUT_VARIABLE dom
      ERROR_VARIABLE log)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${NAME}: chromium exit ${rc}: ${log}")
    endif()
    string(REGEX MATCHALL "[^\n]*:CONSOLE[^\n]*" console "${log}")
    if(console)
      message(FATAL_ERROR "${NAME}: console messages: ${console}")
    endif()
    if(NOT dom MATCHES "id=\"tree-check\"[^>]* data-drawn=\"([0-9]+)\" data-errors=\"0\"")
      message(FATAL_ERROR "${NAME}: the page's script did not report a drawn tree: ${dom}")
    endif()
    if(NOT CMAKE_MATCH_1 EQUAL NODES)
      message(FATAL_ERROR "${NAME}: ${CMAKE_MATCH_1} tree nodes drawn, expected ${NODES}")
    endif()
    file(SIZE ${WORK}/${NAME}.png bytes)
    if(bytes LESS 10000)
      message(FATAL_ERROR "${NAME}: the screenshot is ${bytes} bytes")
    endif()
  endforeach()
  list(LENGTH cases n)
  message(STATUS "${n} report pages drawn by ${CHROMIUM}, screenshots in ${WORK}")
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
