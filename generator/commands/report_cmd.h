/* report_cmd.h — `cdyngen report ROBOT.urdf [options] -o FILE.html`: how the generator
 * understood the robot, as one self-contained HTML page (report_html.h). */
#ifndef CDYNGEN_REPORT_CMD_H
#define CDYNGEN_REPORT_CMD_H

/* argv[0] is "report". Exit codes: 0, 1 bad input (the URDF, a frame, the file in the
 * way), 2 bad usage. */
int report_main(int argc, char **argv);

#endif
