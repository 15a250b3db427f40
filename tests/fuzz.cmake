# Two libFuzzer targets, built with clang's fuzzer, ASan and UBSan beside the normal build;
# CTest runs each and fails on any finding; both are skipped where clang or its fuzzer
# runtime is missing.
# - fuzz_urdf (tests/fuzz/fuzz_urdf.c): parse -> tree -> validate -> render, seeded with
#   tests/urdf/ and robots/, for FUZZ_SECONDS (60 by default).
# - fuzz_generated (tests/fuzz/fuzz_generated.c): the committed generated code of arm7,
#   quadruped12 and fourbar, with one copy of the runtime, fed raw bytes as q, v, tau and
#   solver settings, for FUZZ_GENERATED_SECONDS (30 by default).
set(FUZZ_SECONDS 60 CACHE STRING "seconds the fuzz_urdf test runs the fuzzer")
set(FUZZ_GENERATED_SECONDS 30 CACHE STRING "seconds the fuzz_generated test runs the fuzzer")
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

  # each generated folder's copy of the runtime is the project's runtime/ (the golden
  # tests compare them), so -I runtime comes first and runtime/ is linked once
  set(gen ${CMAKE_SOURCE_DIR}/generated)
  set(robots arm7 quadruped12 fourbar)
  set(gen_includes -I${CMAKE_SOURCE_DIR}/runtime)
  set(gen_sources "")
  foreach(r ${robots})
    list(APPEND gen_includes -I${gen}/${r})
    list(APPEND gen_sources ${gen}/${r}/${r}.c ${gen}/${r}/${r}_model.c)
  endforeach()
  set(gen_fuzzer ${CMAKE_CURRENT_BINARY_DIR}/fuzz_generated)
  add_custom_command(OUTPUT ${gen_fuzzer}
    COMMAND ${FUZZ_CLANG} -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=undefined ${gen_includes}
            ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_generated.c ${gen_sources}
            ${CDYN_RUNTIME_SOURCES} -lm -o ${gen_fuzzer}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_generated.c ${gen_sources} cdyn_runtime
    COMMENT "Building the generated-code fuzzer (clang, ASan, UBSan)" VERBATIM)
  add_custom_target(fuzz_generated_build ALL DEPENDS ${gen_fuzzer})
  add_test(NAME fuzz_generated COMMAND sh -c
    "mkdir -p corpus_generated && ${gen_fuzzer} -max_total_time=${FUZZ_GENERATED_SECONDS} -max_len=1024 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 corpus_generated"
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
else()
  foreach(t fuzz_urdf fuzz_generated)
    add_test(NAME ${t} COMMAND ${CMAKE_COMMAND} -E echo
      "SKIP: clang with -fsanitize=fuzzer not available")
  endforeach()
endif()
