/* check_main.h — how the suites' main functions run their Check suite. */
#ifndef CDYN_TESTS_CHECK_MAIN_H
#define CDYN_TESTS_CHECK_MAIN_H

#include <check.h>

/* Runs s with CK_NORMAL output and returns how many of its tests failed. fork: CK_FORK_GETENV
 * (Check's default: CK_FORK in the environment decides) or CK_NOFORK, for a suite whose last
 * test reads counts the others left. */
int check_run(Suite *s, enum fork_status fork);

#endif
