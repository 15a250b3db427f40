/* random_robot_args.h — the cdyngen options of the seeded random robots: what
 * random_urdf_tool writes beside each robot's URDF (tests/generated.cmake generates every
 * random robot with them), and what test_random_robots checks they roam. Header-only (static
 * functions of the tree the generator's own pipeline builds), so that both programs use the
 * same text without another library.
 *
 * A pure function of the seed and the tree, drawn from two xorshift32 streams:
 *  - the constraint set of about two seeds in three (the first stream, unchanged since it was
 *    written): 1 to 3 contacts and loops, 3d and 6d, on frames of moving bodies, merged links
 *    included, loops across branches and along one branch;
 *  - the contact step's parts (a second stream, so the sets above stay what they were): for
 *    about half the seeds 1 to 3 frictional contacts (--contact F:friction) on distinct
 *    frames of moving bodies, after the set's other constraints; for about two seeds in five
 *    --joint-limits, when the robot has a revolute or prismatic joint with a <limit>
 *    (random_robot_parts.c writes lower < upper for about every such joint).
 * Only frames whose names are plain words ([A-Za-z0-9_.-]) are chosen, so the options
 * survive the shell. */
#ifndef CDYN_TESTS_RANDOM_ROBOT_ARGS_H
#define CDYN_TESTS_RANDOM_ROBOT_ARGS_H

#include <stdio.h>
#include <string.h>
#include "model/constraints.h"
#include "model/tree.h"

#define RANDOM_ROBOT_MAX_FRICTION 3

static inline unsigned random_robot_args_next(unsigned *s) /* xorshift32 */
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static inline int random_robot_args_plain(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.' || *s == '-'))
            return 0;
    return 1;
}

/* The frames a constraint may take: plain names on moving bodies; returns their count. */
static inline int random_robot_args_usable(const kin_tree *t, int *usable, int max)
{
    int f, nu = 0;
    for (f = 0; f < t->nframes && nu < max; f++)
        if (t->frames[f].body >= 0 && random_robot_args_plain(t->frames[f].name))
            usable[nu++] = f;
    return nu;
}

/* Appends " --contact F:3d" / " --loop A:B:6d" options for frames of `t` to `out`. */
static inline void random_robot_constraint_options(const kin_tree *t, unsigned seed, char *out,
                                                   size_t n)
{
    int usable[512], nu, k, count;
    unsigned s = seed * 2654435761u + 12345u;
    nu = random_robot_args_usable(t, usable, 512);
    random_robot_args_next(&s);
    if (nu == 0 || random_robot_args_next(&s) % 3 == 0)
        return;
    count = 1 + (int)(random_robot_args_next(&s) % 3);
    for (k = 0; k < count; k++) {
        int a = usable[random_robot_args_next(&s) % (unsigned)nu];
        int b = usable[random_robot_args_next(&s) % (unsigned)nu];
        const char *dim = random_robot_args_next(&s) % 2 ? "3d" : "6d";
        size_t len = strlen(out);
        if (random_robot_args_next(&s) % 3 == 0 && t->frames[a].body != t->frames[b].body)
            snprintf(out + len, n - len, " --loop %s:%s:%s", t->frames[a].name, t->frames[b].name,
                     dim);
        else
            snprintf(out + len, n - len, " --contact %s:%s", t->frames[a].name, dim);
    }
}

/* Appends the contact step's options: " --contact F:friction" (distinct frames) and
 * " --joint-limits". Returns the frictional contacts added; *limits (may be NULL) is set
 * to 1 when --joint-limits was added. */
static inline int random_robot_step_options(const kin_tree *t, unsigned seed, char *out, size_t n,
                                            int *limits)
{
    int usable[512], nu, k, count, added = 0, chosen[RANDOM_ROBOT_MAX_FRICTION];
    unsigned s = seed * 2246822519u + 0x27d4eb2fu;
    if (!s)
        s = 1;
    nu = random_robot_args_usable(t, usable, 512);
    random_robot_args_next(&s);
    if (limits)
        *limits = 0;
    if (nu > 0 && random_robot_args_next(&s) % 2 == 0) {
        count = 1 + (int)(random_robot_args_next(&s) % RANDOM_ROBOT_MAX_FRICTION);
        for (k = 0; k < count; k++) {
            int f = usable[random_robot_args_next(&s) % (unsigned)nu], j, seen = 0;
            size_t len = strlen(out);
            for (j = 0; j < added; j++)
                seen |= chosen[j] == f;
            if (seen)
                continue; /* distinct frames: two cones on one point are one cone */
            chosen[added++] = f;
            snprintf(out + len, n - len, " --contact %s:friction", t->frames[f].name);
        }
    }
    if (random_robot_args_next(&s) % 5 < 2 && tree_limited_joints(t, NULL) > 0) {
        size_t len = strlen(out);
        snprintf(out + len, n - len, " --joint-limits");
        if (limits)
            *limits = 1;
    }
    return added;
}

/* Every option of the robot of `seed` (its tree built with its floating base or not). */
static inline void random_robot_options(const kin_tree *t, unsigned seed, int floating, char *out,
                                        size_t n)
{
    out[0] = '\0';
    if (floating)
        snprintf(out, n, "--floating-base");
    random_robot_constraint_options(t, seed, out, n);
    random_robot_step_options(t, seed, out, n, NULL);
}

#endif
