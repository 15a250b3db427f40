# generator/'s floor plan holds: each stage folder includes only the folders above it in
# pipeline.h's order (and itself), so the arrows between stages point one way.
add_test(NAME generator_layering COMMAND ${CMAKE_COMMAND}
  -DGENERATOR=${CMAKE_SOURCE_DIR}/generator
  -P ${CMAKE_CURRENT_SOURCE_DIR}/scripts/layering_check.cmake)
