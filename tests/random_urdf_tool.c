/* random_urdf_tool — writes the seeded random robot SEED as a URDF file, and the cdyngen
 * options it needs into a second file: --floating-base or nothing, a random constraint set
 * for about two seeds in three, frictional contacts for about half the seeds and
 * --joint-limits for about two in five (tests/support/random_robot.h says what the robots
 * roam, tests/support/random_robot_args.h what the options do). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/random_robot.h"
#include "support/random_robot_args.h"
#include "model/tree.h"
#include "pipeline.h"
#include "parse/urdf.h"

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
    unsigned seed;
    char *urdf, args[4096] = "", err[512];
    urdf_model u;
    kin_tree t;
    tree_options topt;
    memset(&topt, 0, sizeof topt); /* every option off but the floating base */
    if (argc != 4) {
        fprintf(stderr, "usage: random_urdf_tool SEED OUT.urdf OUT.args\n");
        return 2;
    }
    seed = (unsigned)strtoul(argv[1], NULL, 10);
    urdf = random_robot_urdf(seed, &floating);
    if (!urdf || write_text(argv[2], urdf) != 0)
        return 1;
    free(urdf);
    topt.floating_base = floating;
    if (floating)
        strcpy(args, "--floating-base");
    if (urdf_parse_file(argv[2], &u, err, sizeof err) == 0) {
        if (pipeline_tree(&u, &topt, &t, err, sizeof err) == 0) {
            random_robot_options(&t, seed, floating, args, sizeof args);
            tree_free(&t);
        }
        urdf_free(&u);
    }
    strcat(args, "\n");
    rc = write_text(argv[3], args);
    return rc ? 1 : 0;
}
