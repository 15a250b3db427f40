/* bench_cmd.h — `cdyngen bench ROBOT.urdf [options]`: the robot's generated code against
 * the generic runtime, built with the user's compiler in a temporary folder and timed by
 * the project's benchmark harness (harness/). */
#ifndef CDYNGEN_BENCH_CMD_H
#define CDYNGEN_BENCH_CMD_H

/* argv[0] is "bench". Exit codes: 0, 1 bad input, 2 bad usage, 3 the compiler or the
 * benchmark failed (its first lines of output are shown). */
int bench_main(int argc, char **argv);

#endif
