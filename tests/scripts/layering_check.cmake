# cmake -DGENERATOR=DIR -P layering_check.cmake
#
# Fails on any #include "folder/..." in generator/ that points up or sideways: the stage
# folders in pipeline.h's order, then pipeline itself, then the commands on top. A file may
# include headers of its own folder and of any folder before it in this list; main.c
# (the entry point) may include anything.
set(order util parse model check symbolic emit render write pipeline commands)
string(REPLACE ";" " " order_text "${order}")

file(GLOB_RECURSE sources RELATIVE ${GENERATOR} ${GENERATOR}/*.c ${GENERATOR}/*.h)
set(violations "")
set(checked 0)
foreach(src ${sources})
  if(src STREQUAL "main.c")
    continue()
  endif()
  string(REGEX MATCH "^[^/.]+" from ${src})
  list(FIND order ${from} from_rank)
  if(from_rank LESS 0)
    string(APPEND violations "  ${src}: in no stage folder (${order_text})\n")
    continue()
  endif()
  file(STRINGS ${GENERATOR}/${src} includes REGEX "^#include \"")
  foreach(line ${includes})
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
    string(REGEX MATCH "^[^/.]+" to ${header})
    list(FIND order ${to} to_rank)
    if(to_rank LESS 0)
      continue()          # a runtime header (cdyn.h) or a generated one, not a stage
    endif()
    math(EXPR checked "${checked} + 1")
    if(to_rank GREATER from_rank)
      string(APPEND violations "  ${src} includes ${header}: ${to} comes after ${from}\n")
    endif()
  endforeach()
endforeach()
if(checked LESS 50)
  message(FATAL_ERROR "only ${checked} stage includes found under ${GENERATOR}: wrong folder?")
endif()
if(violations)
  message(FATAL_ERROR "includes against the stage order (${order_text}):\n${violations}")
endif()
message(STATUS "${checked} includes between stage folders, all pointing down the pipeline")
