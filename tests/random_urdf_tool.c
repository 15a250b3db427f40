/* random_urdf_tool — writes the seeded random robot SEED as a URDF file, and the cdyngen
 * options it needs (--floating-base or nothing) into a second file. Used by the build to
 * generate code for random robots. */
#include <stdio.h>
#include <stdlib.h>
#include "random_robot.h"

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "random_urdf_tool: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int floating = 0, rc;
    char *urdf;
    if (argc != 4) {
        fprintf(stderr, "usage: random_urdf_tool SEED OUT.urdf OUT.args\n");
        return 2;
    }
    urdf = random_robot_urdf((unsigned)strtoul(argv[1], NULL, 10), &floating);
    if (!urdf)
        return 1;
    rc = write_text(argv[2], urdf) || write_text(argv[3], floating ? "--floating-base\n" : "\n");
    free(urdf);
    return rc ? 1 : 0;
}
