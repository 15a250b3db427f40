/* bench_files.h — the benchmark harness's per-robot files (harness/): its timed
 * loops and generated_api adapter with the robot's prefix filled in, and the table of
 * emitted operation counts. Shared by `cdyngen bench` and the project's own benchmark
 * (tests/bench.cmake, through tests/bench/bench_ops.c). */
#ifndef CDYNGEN_BENCH_FILES_H
#define CDYNGEN_BENCH_FILES_H

#include <stddef.h>
#include "model/tree.h"

/* text with every @NAME@ replaced by name and @NAME_UPPER@ by its upper case (as CMake's
 * configure_file does); malloc'd, NULL when out of memory. */
char *bench_fill(const char *text, const char *name);

/* The frame whose Jacobian is timed: frame_wanted (-1 if t has no such frame) or else an end
 * frame on the deepest body (render_counted_jacobian_frame). */
int bench_timed_frame(const kin_tree *t, const char *frame_wanted);

/* C text defining `const bench_ops NAME_bench_ops`: the emitted op counts of t (as
 * `cdyngen --summary` prints them; none when !counted, for code generated with --size,
 * which emits nothing) and the frame whose Jacobian is timed (bench_timed_frame).
 * malloc'd; NULL with err set on a bad frame. */
char *bench_ops_text(const kin_tree *t, const char *name, const char *urdf,
                     const char *frame_wanted, int counted, char *err, size_t errlen);

#endif
