# The page of `cdyngen simulate` (harness/sim_html.c) in a headless browser:
#  - chromium loads PAGE with the network cut off (every host name resolves to nothing) and
#    exits 0; any console message (an uncaught error, console.log/error/warn) fails;
#  - the DOM it dumps after the page's script ran: <body> has data-ok="1" (the first frame
#    drawn without error), data-frames (the frames parsed) equal to EXPECT_FRAMES when
#    given, data-points and data-drawn (the links drawn in the first frame) above 0;
#  - a PNG screenshot is kept in WORK (NAME.png, NAME the page's file name without .html).
# Without CHROMIUM (none found, or the sanitized build) it prints "SKIP: ..." and exits 0,
# which the test's SKIP_REGULAR_EXPRESSION turns into a skip.
# cmake -DCHROMIUM=<path or empty> -DPAGE=<file.html> -DWORK=<dir> [-DEXPECT_FRAMES=n]
#       -P sim_page_check.cmake
if(NOT CHROMIUM)
  message(STATUS "SKIP: no chromium (apt-get install chromium), or a sanitized build")
  return()
endif()
if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "no page at ${PAGE}")
endif()
get_filename_component(name "${PAGE}" NAME_WE)
get_filename_component(page "${PAGE}" ABSOLUTE)
set(shot ${WORK}/${name}.png)
file(MAKE_DIRECTORY ${WORK})
file(REMOVE_RECURSE ${WORK}/profile)
file(REMOVE ${shot})

# root needs --no-sandbox; the virtual time budget lets the page's script finish before the
# DOM is dumped and the screenshot taken
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
set(sandbox "")
if(uid STREQUAL "0")
  set(sandbox --no-sandbox)
endif()
execute_process(COMMAND ${CHROMIUM} --headless ${sandbox} --disable-gpu
    --user-data-dir=${WORK}/profile --no-first-run --disable-extensions
    --disable-background-networking --disable-component-update --disable-sync
    "--host-resolver-rules=MAP * ~NOTFOUND" --enable-logging=stderr --v=0
    --virtual-time-budget=3000 --window-size=1280,1100 --screenshot=${shot} --dump-dom
    file://${page}
  WORKING_DIRECTORY ${WORK} TIMEOUT 90 RESULT_VARIABLE rc OUTPUT_VARIABLE dom
  ERROR_VARIABLE log)
file(REMOVE_RECURSE ${WORK}/profile)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${name}: chromium exit ${rc}: ${log}")
endif()
string(REGEX MATCHALL "[^\n]*:CONSOLE[^\n]*" console "${log}")
if(console)
  message(FATAL_ERROR "${name}: console messages: ${console}")
endif()

# <body ...>'s attributes, each read wherever the browser put it in the tag
string(REGEX MATCH "<body[^>]*>" body "${dom}")
if(NOT body)
  message(FATAL_ERROR "${name}: no <body> in the dumped DOM: ${dom}")
endif()
foreach(attribute ok frames points drawn)
  if(body MATCHES " data-${attribute}=\"([^\"]*)\"")
    set(${attribute} "${CMAKE_MATCH_1}")
  else()
    set(${attribute} "")
  endif()
endforeach()
if(NOT ok STREQUAL "1")
  string(REGEX MATCH " data-error=\"[^\"]*\"" error "${body}")
  message(FATAL_ERROR "${name}: the page's script did not draw (data-ok=\"${ok}\"${error})")
endif()
if(NOT frames MATCHES "^[0-9]+$" OR NOT points MATCHES "^[0-9]+$" OR NOT drawn MATCHES "^[0-9]+$")
  message(FATAL_ERROR "${name}: data-frames \"${frames}\", data-points \"${points}\", "
    "data-drawn \"${drawn}\" are not counts: ${body}")
endif()
if(DEFINED EXPECT_FRAMES AND NOT EXPECT_FRAMES STREQUAL "" AND NOT frames EQUAL EXPECT_FRAMES)
  message(FATAL_ERROR "${name}: ${frames} frames parsed, expected ${EXPECT_FRAMES}")
endif()
if(NOT points GREATER 0 OR NOT drawn GREATER 0)
  message(FATAL_ERROR "${name}: ${points} points, ${drawn} links drawn in the first frame")
endif()
if(NOT EXISTS ${shot})
  message(FATAL_ERROR "${name}: no screenshot")
endif()
file(SIZE ${shot} bytes)
if(bytes LESS 10000)
  message(FATAL_ERROR "${name}: the screenshot is ${bytes} bytes")
endif()
message(STATUS "${name}: ${frames} frames of ${points} points, ${drawn} links drawn in the "
  "first, no console message; screenshot ${shot}")
