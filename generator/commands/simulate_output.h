/* simulate_output.h — the files of `cdyngen simulate` put in place whole or not at all: the
 * program writes them into its temporary folder; each is copied to a temporary name beside
 * its target, and only when every copy is complete are they renamed over the targets. */
#ifndef CDYNGEN_SIMULATE_OUTPUT_H
#define CDYNGEN_SIMULATE_OUTPUT_H

#define SIMULATE_MAX_OUTPUTS 3

typedef struct {
    const char *target; /* where the user asked for it */
    char *temp;         /* the copy beside it, until renamed (malloc'd) */
} simulate_output;

/* The target's folder takes a new file (one is created there and removed): 0, or -1 with the
 * reason reported. Run before the long compile, so a typo costs nothing. */
int simulate_output_check(const char *target);

/* Copies each sources[k] beside its target, then renames all of them into place: 0, or -1
 * with the reason reported and no target created or changed. */
int simulate_output_place(const char *const *sources, const char *const *targets, int n);

#endif
