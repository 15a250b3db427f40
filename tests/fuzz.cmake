# A libFuzzer run over parse -> tree -> validate -> render (tests/fuzz/fuzz_urdf.c), built
# with clang's fuzzer, ASan and UBSan beside the normal build, seeded with tests/urdf/ and
# robots/. CTest runs it for FUZZ_SECONDS (60 by default) and fails on any finding; it is
# skipped where clang or its fuzzer runtime is missing.
set(FUZZ_SECONDS 60 CACHE STRING "seconds the fuzz_urdf test runs the fuzzer")
find_program(FUZZ_CLANG NAMES clang clang-14 clang-15 clang-16)
set(fuzz_ok FALSE)
if(FUZZ_CLANG AND NOT CDYN_SANITIZE)     # a sanitized build is fuzzed by its parent build
  set(probe ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe.c)
  file(WRITE ${probe} "#include <stddef.h>\n#include <stdint.h>\n"
    "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
  execute_process(COMMAND ${FUZZ_CLANG} -fsanitize=fuzzer,address,undefined ${probe}
    -o ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    set(fuzz_ok TRUE)
  endif()
endif()

if(fuzz_ok)
  # the generator library's and the runtime's own sources (absolute paths; the embedded
  # templates file is generated in the build tree, hence the dependency on cdyngen_core)
  get_target_property(generator_sources cdyngen_core SOURCES)
  get_target_property(runtime_sources cdyn_runtime SOURCES)
  set(sources "")
  foreach(src ${generator_sources} ${runtime_sources})
    if(src MATCHES "\\.c$")
      list(APPEND sources ${src})
    endif()
  endforeach()
  set(fuzzer ${CMAKE_CURRENT_BINARY_DIR}/fuzz_urdf)
  set(includes -I${CMAKE_SOURCE_DIR}/generator -I${CMAKE_SOURCE_DIR}/runtime)
  foreach(dir ${LIBXML2_INCLUDE_DIRS})
    list(APPEND includes -I${dir})
  endforeach()
  add_custom_command(OUTPUT ${fuzzer}
    COMMAND ${FUZZ_CLANG} -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=undefined -DCDYNGEN_VERSION="${PROJECT_VERSION}" ${includes}
            ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_urdf.c ${sources} ${LIBXML2_LIBRARIES} -lm
            -o ${fuzzer}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_urdf.c cdyngen_core cdyn_runtime
    COMMENT "Building the URDF fuzzer (clang, ASan, UBSan)" VERBATIM)
  add_custom_target(fuzz_urdf_build ALL DEPENDS ${fuzzer})
  add_test(NAME fuzz_urdf COMMAND sh -c
    "mkdir -p corpus && ${fuzzer} -max_total_time=${FUZZ_SECONDS} -max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 corpus ${CMAKE_CURRENT_SOURCE_DIR}/urdf ${CMAKE_SOURCE_DIR}/robots"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
else()
  add_test(NAME fuzz_urdf COMMAND ${CMAKE_COMMAND} -E echo
    "SKIP: clang with -fsanitize=fuzzer not available")
endif()
