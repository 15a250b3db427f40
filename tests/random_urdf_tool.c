/* random_urdf_tool — writes the seeded random robot SEED as a URDF file, and the cdyngen
 * options it needs into a second file: --floating-base or nothing, and for about two seeds
 * in three a random constraint set (tests/support/random_robot.h says what the robots roam; this
 * tool adds 1 to 3 contacts and loops, 3d and 6d, on frames of moving bodies, merged links
 * included, loops across branches and along one branch). Only frames whose names are
 * plain words ([A-Za-z0-9_.-]) are chosen, so the options survive the shell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/random_robot.h"
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

static unsigned next(unsigned *s) /* xorshift32 */
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static int plain_name(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

/* Appends " --contact F:3d" / " --loop A:B:6d" options for frames of `t` to `out`. */
static void constraint_options(const kin_tree *t, unsigned seed, char *out, size_t n)
{
    int usable[512], nu = 0, f, k, count;
    unsigned s = seed * 2654435761u + 12345u;
    for (f = 0; f < t->nframes && nu < 512; f++)
        if (t->frames[f].body >= 0 && plain_name(t->frames[f].name))
            usable[nu++] = f;
    next(&s);
    if (nu == 0 || next(&s) % 3 == 0)
        return;
    count = 1 + (int)(next(&s) % 3);
    for (k = 0; k < count; k++) {
        int a = usable[next(&s) % (unsigned)nu], b = usable[next(&s) % (unsigned)nu];
        const char *dim = next(&s) % 2 ? "3d" : "6d";
        size_t len = strlen(out);
        if (next(&s) % 3 == 0 && t->frames[a].body != t->frames[b].body)
            snprintf(out + len, n - len, " --loop %s:%s:%s", t->frames[a].name, t->frames[b].name,
                     dim);
        else
            snprintf(out + len, n - len, " --contact %s:%s", t->frames[a].name, dim);
    }
}

int main(int argc, char **argv)
{
    int floating = 0, rc;
    unsigned seed;
    char *urdf, args[4096] = "", err[512];
    urdf_model u;
    kin_tree t;
    tree_options topt;
    if (argc != 4) {
        fprintf(stderr, "usage: random_urdf_tool SEED OUT.urdf OUT.args\n");
        return 2;
    }
    seed = (unsigned)strtoul(argv[1], NULL, 10);
    urdf = random_robot_urdf(seed, &floating);
    if (!urdf || write_text(argv[2], urdf) != 0)
        return 1;
    free(urdf);
    if (floating)
        strcpy(args, "--floating-base");
    topt.floating_base = floating;
    if (urdf_parse_file(argv[2], &u, err, sizeof err) == 0) {
        if (pipeline_tree(&u, &topt, &t, err, sizeof err) == 0) {
            constraint_options(&t, seed, args, sizeof args);
            tree_free(&t);
        }
        urdf_free(&u);
    }
    strcat(args, "\n");
    rc = write_text(argv[3], args);
    return rc ? 1 : 0;
}
