/* registry.h — the generated robots a test program is linked with: the NULL-terminated
 * generated_robots[] that cdyn_registry (tests/generated.cmake) writes. */
#ifndef CDYN_TESTS_REGISTRY_H
#define CDYN_TESTS_REGISTRY_H

#include "generated_api.h"

/* The program's robots, NULL-terminated (registry_*.c, written by CMake). */
extern const generated_api *const generated_robots[];

/* How many robots `robots` lists before its NULL. */
int registry_count(const generated_api *const *robots);

#endif
