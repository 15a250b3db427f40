/* simulate_cmd.h — `cdyngen simulate ROBOT.urdf [options]`: the robot's contact step run
 * from its neutral pose (a floating base dropped onto the ground) by a program built with the
 * user's compiler in a temporary folder (program_build.h), its trace written as CSV, SVG
 * plots and an HTML animation (harness/simulate.c.in, harness/sim_trace.h). */
#ifndef CDYNGEN_SIMULATE_CMD_H
#define CDYNGEN_SIMULATE_CMD_H

/* argv[0] is "simulate". Exit codes: 0, 1 bad input (the URDF, --q), 2 bad usage, 3 the
 * compiler or the simulation failed (reported). */
int simulate_main(int argc, char **argv);

#endif
