/* bench_cmd.c — `cdyngen bench`: generate into a temporary folder, write the harness
 * (harness/) beside it, compile both with the user's compiler, run, remove. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/text.h"
#include "commands/bench_cmd.h"
#include "commands/bench_files.h"
#include "commands/cli.h"
#include "commands/elf_symbols.h"
#include "commands/program_build.h"
#include "render/embedded.h"
#include "symbolic/expr.h"
#include "pipeline.h"
#include "render/render.h"


/* The harness's algorithms (harness/bench.h, in its order), which robots have
 * them and the generated function whose machine code is their code size (with its static
 * helpers: those named after it, and those starting with `helpers` when given). */
enum { ALWAYS, CONSTRAINED, CONTACTS_ONLY, FRICTION };
static const struct {
    const char *name, *function;
    int needs;
    const char *helpers;
} algorithms[] = {
    { "fk", "fk", ALWAYS, NULL },
    { "jacobian", "frame_jacobian", ALWAYS, NULL },
    { "rnea", "rnea", ALWAYS, NULL },
    { "nle", "nle", ALWAYS, NULL },
    { "gravity", "gravity", ALWAYS, NULL },
    { "crba", "crba", ALWAYS, NULL },
    { "crba_tree", "crba_tree", ALWAYS, NULL },
    { "ltl", "ltl", ALWAYS, NULL },
    { "minv", "minv", ALWAYS, NULL },
    { "aba", "aba", ALWAYS, NULL },
    /* R__rnea_derivative_terms (the straight-line part) is rnea_derivatives', not rnea's;
     * aba_fd is nv + 1 calls of R_aba: no code of its own */
    { "rnea_derivatives", "rnea_derivatives", ALWAYS, "rnea_derivative" },
    { "aba_derivatives", "aba_derivatives", ALWAYS, NULL },
    { "aba_fd", "(aba)", ALWAYS, NULL },
    { "prox_ltl", "prox_ltl", CONSTRAINED, NULL },
    { "prox_ltls", "prox_ltls", CONSTRAINED, NULL },
    { "constrained_aba", "constrained_aba", CONTACTS_ONLY, NULL },
    { "prox_pv", "prox_pv", CONTACTS_ONLY, NULL },
    { "delassus", "delassus", CONSTRAINED, NULL },
    { "delassus_factorised", "delassus_factorised", CONSTRAINED, NULL },
    { "delassus_articulated", "delassus_articulated", CONTACTS_ONLY, NULL },
    { "impulse", "impulse", CONSTRAINED, NULL },
    /* timed after prox_ltl (three iterations); its code is the derivatives' own */
    { "prox_ltl_derivatives", "prox_ltl_derivatives", CONTACTS_ONLY, "constrained_derivative" },
    /* seed 003's projection: one Gauss-Newton step, the velocity's projection */
    { "project_position", "project_position", CONSTRAINED, NULL },
    { "project_velocity", "project_velocity", CONSTRAINED, NULL },
    /* the contact step's (a frictional contact, --contact FRAME:friction); the solvers'
     * code is the runtime's: no function of the robot is theirs */
    { "contact_problem", "contact_problem", FRICTION, NULL },
    { "admm", "(runtime)", FRICTION, NULL },
    { "pgs", "(runtime)", FRICTION, NULL },
    { "contact_step", "contact_step", FRICTION, NULL },
};
#define NALGORITHMS ((int)(sizeof algorithms / sizeof algorithms[0]))

/* The harness files copied as they are, and the ones filled with the robot's prefix. */
static const char *const harness_files[] = { "bench.c",         "bench.h",         "bench_loops.h",
                                             "bench_measure.c", "bench_measure.h", "bench_report.c",
                                             "bench_report.h",  "generated_api.h" };

typedef struct {
    robot_options robot;
    const char *cc, *cflags, *algorithms, *csv, *json, *svg;
    const char *frame; /* --frame: the Jacobian's frame (default: an end frame) */
    long batches;
    int asked[NALGORITHMS]; /* from --algorithms; all available ones without it */
} bench_options;

static const char usage_text[] =
    "usage: cdyngen bench ROBOT.urdf [generation options] [--cc CC] [--cflags \"FLAGS\"]\n"
    "               [--algorithms LIST] [--batches N] [--frame FRAME] [--csv FILE]\n"
    "               [--json FILE] [--svg FILE]\n"
    "\n"
    "Generates the robot's code into a temporary folder, compiles it, the generic runtime\n"
    "and the benchmark harness with your compiler, and times every algorithm, generated\n"
    "against generic, on random states (median of alternating batches). The folder is\n"
    "removed afterwards, also on errors and Ctrl-C.\n"
    "\n"
    "  --cc CC              the C compiler (default: cc)\n"
    "  --cflags \"FLAGS\"     its flags, split at spaces (default: -O3 -march=native); always\n"
    "                       preceded by -std=gnu99 -DNDEBUG\n"
    "  --algorithms LIST    comma-separated, e.g. rnea,aba,prox_ltl (default: all the robot\n"
    "                       has; the constrained solvers and project_position,\n"
    "                       project_velocity need --contact or --loop,\n"
    "                       prox_ltl_derivatives contacts only; the contact step's\n"
    "                       contact_problem, admm, pgs and contact_step a\n"
    "                       --contact FRAME:friction)\n"
    "  --batches N          batches per algorithm and side (default 40, of 1000 calls)\n"
    "  --frame FRAME        the link frame whose Jacobian is timed (default: an end frame\n"
    "                       on the deepest body)\n"
    "  --batch W            (a generation option, below) also times R_batch_fk, rnea, nle,\n"
    "                       gravity, crba, crba_tree, minv, aba, rnea_derivatives,\n"
    "                       aba_derivatives\n"
    "                       (and prox_ltl, prox_ltls with a constraint set; constrained_aba,\n"
    "                       prox_pv, prox_ltl_derivatives with contacts only) per state\n"
    "                       against the single-state forms, W random states a call\n"
    "  --csv, --json FILE   the rows for scripts (fields: docs/benchmarks.md)\n"
    "  --svg FILE           the rows as a bar chart\n"
    "\n"
    "Generation options:\n" CLI_ROBOT_OPTIONS_HELP;

static int algorithm_index(const char *name, size_t len)
{
    int k;
    for (k = 0; k < NALGORITHMS; k++)
        if (strlen(algorithms[k].name) == len && strncmp(algorithms[k].name, name, len) == 0)
            return k;
    return -1;
}

/* --algorithms: every name known; 0, or EXIT_USAGE (reported). */
static int parse_algorithms(const char *list, bench_options *o)
{
    const char *p = list;
    memset(o->asked, 0, sizeof o->asked);
    do {
        size_t len = strcspn(p, ",");
        int k = algorithm_index(p, len);
        if (k < 0) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), p);
            return cli_usage_error("--algorithms: unknown algorithm \"%s\" (see "
                                   "'cdyngen bench --help')",
                                   name);
        }
        o->asked[k] = 1;
        p += len;
    } while (*p++ == ',');
    return 0;
}

static int positive_long(const char *s, long *out)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || x <= 0 || x > 1000000)
        return -1;
    *out = x;
    return 0;
}

static int parse_bench_args(int argc, char **argv, bench_options *o)
{
    const char *batches = NULL;
    int i, rc, k;
    memset(o, 0, sizeof *o);
    o->cc = "cc";
    o->cflags = "-O3 -march=native";
    o->batches = 40;
    for (i = 1; i < argc; i++) {
        const char **values[8] = { &o->cc,   &o->cflags, &o->algorithms, &o->csv,
                                   &o->json, &o->svg,    &batches,       &o->frame };
        static const char *const names[8] = { "--cc",   "--cflags", "--algorithms", "--csv",
                                              "--json", "--svg",    "--batches",    "--frame" };
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            exit(0);
        }
        for (k = 0, rc = 0; k < 8 && rc == 0; k++)
            rc = cli_value_option(argc, argv, &i, names[k], values[k]);
        if (rc == 0)
            rc = cli_robot_option(argc, argv, &i, &o->robot);
        if (rc > 1)
            return rc;
        if (rc == 1)
            continue;
        if ((rc = cli_positional(&o->robot, argv[i], "bench: ")) != 0)
            return rc;
    }
    if (!o->robot.urdf)
        return cli_usage_error("%s", "bench: no URDF file given");
    if (batches && positive_long(batches, &o->batches) != 0)
        return cli_usage_error("--batches \"%s\": expected a whole number from 1", batches);
    if (o->algorithms && (rc = parse_algorithms(o->algorithms, o)) != 0)
        return rc;
    if (!*o->cc)
        return cli_usage_error("%s", "--cc: empty compiler name");
    if (o->robot.batch && o->robot.size)
        return cli_usage_error("%s", "bench: --batch and --size exclude each other (the --size "
                                     "form has no batch forms)");
    return cli_check_prefix(&o->robot);
}

static int has_friction(const kin_tree *t)
{
    int k;
    for (k = 0; k < t->nconstraints; k++)
        if (t->constraints[k].friction)
            return 1;
    return 0;
}

static int available(const kin_tree *t, int k)
{
    if (algorithms[k].needs == FRICTION)
        return has_friction(t);
    return algorithms[k].needs == ALWAYS ||
           (t->nconstraints > 0 && (algorithms[k].needs == CONSTRAINED || tree_contacts_only(t)));
}

/* Every asked algorithm exists for this robot, or all available ones when none was asked:
 * 0, or EXIT_USAGE naming the first missing one. */
static int choose_algorithms(bench_options *o, const kin_tree *t)
{
    int k;
    for (k = 0; k < NALGORITHMS; k++) {
        if (!o->algorithms)
            o->asked[k] = available(t, k);
        else if (o->asked[k] && !available(t, k) && algorithms[k].needs == FRICTION)
            return cli_usage_error("--algorithms: %s needs a frictional contact "
                                   "(--contact FRAME:friction)",
                                   algorithms[k].name);
        else if (o->asked[k] && !available(t, k))
            return cli_usage_error(t->nconstraints == 0
                                       ? "--algorithms: %s needs constraints (--contact or --loop)"
                                       : "--algorithms: %s is generated for contacts only, not "
                                         "for a set with a loop",
                                   algorithms[k].name);
    }
    return 0;
}

/* ---- the build folder ---- */

/* The harness beside the generated folder: its files, the robot's loops, adapter and op
 * counts. 0, or -1 reported. */
static int write_harness(const bench_options *o, const kin_tree *t, const char *dir)
{
    const char *name = o->robot.name;
    char file[256], path[64], err[512];
    char *text;
    size_t k;
    int rc = 0;
    for (k = 0; k < sizeof harness_files / sizeof harness_files[0] && rc == 0; k++) {
        snprintf(path, sizeof path, "harness/%s", harness_files[k]);
        rc = program_write_text(dir, harness_files[k], embedded_text(path));
    }
    snprintf(file, sizeof file, "%s_api.c", name);
    text = bench_fill(embedded_text("harness/generated_adapter.c.in"), name);
    rc = rc ? rc : program_write_text(dir, file, text);
    free(text);
    snprintf(file, sizeof file, "%s_loops.c", name);
    text = bench_fill(embedded_text("harness/bench_adapter.c.in"), name);
    rc = rc ? rc : program_write_text(dir, file, text);
    free(text);
    if (o->robot.batch) {
        snprintf(file, sizeof file, "%s_batch_loops.c", name);
        text = bench_fill(embedded_text("harness/bench_batch_adapter.c.in"), name);
        rc = rc ? rc : program_write_text(dir, file, text);
        free(text);
    }
    snprintf(file, sizeof file, "%s_ops.c", name);
    text = bench_ops_text(t, name, text_base_name(o->robot.urdf), o->frame, !o->robot.size, err,
                          sizeof err);
    if (!text)
        diag_report("%s", err);
    else if (rc == 0 && (rc = program_write_text(dir, file, text)) != 0)
        diag_report("cannot write into %s", dir);
    free(text);
    return text ? rc : -1;
}

/* ---- code size: the generated function and its static helpers named after it ---- */

typedef struct {
    const char *name;   /* the robot's prefix */
    char jacobian[160]; /* the timed frame's LOCAL Jacobian function ("" if none) */
    long bytes[NALGORITHMS];
} code_sizes;

/* R_aba is aba's; R__minv_chunk_3 is minv's (the longest algorithm name or helpers prefix
 * that fits, so R__prox_ltls_iterate is prox_ltls's, not prox_ltl's, and
 * R__rnea_derivative_terms rnea_derivatives', not rnea's). R_frame_jacobian's is its
 * dispatcher and the one per-frame function the bench times (R__jacobian_local_K), not the
 * other frames'. */
static void add_function(const char *symbol, unsigned long bytes, void *ctx)
{
    code_sizes *c = ctx;
    const size_t n = strlen(c->name);
    const char *rest = symbol + n + 1;
    size_t best_len;
    int k, best = -1, helper;
    if (strncmp(symbol, c->name, n) != 0 || symbol[n] != '_')
        return;
    if (strcmp(symbol, c->jacobian) == 0)
        rest = "frame_jacobian"; /* the other frames' functions match no algorithm */
    helper = *rest == '_';
    rest += helper;
    for (k = 0, best_len = 0; k < NALGORITHMS; k++) {
        const char *named[2] = { algorithms[k].function, helper ? algorithms[k].helpers : NULL };
        int j;
        for (j = 0; j < 2 && named[j]; j++) {
            const size_t len = strlen(named[j]);
            if (strncmp(rest, named[j], len) == 0 &&
                (rest[len] == '\0' || (helper && rest[len] == '_')) && len > best_len) {
                best = k;
                best_len = len;
            }
        }
    }
    if (best >= 0)
        c->bytes[best] += (long)bytes;
}

static void measure_code(const char *object, const char *name, int jacobian_index,
                         long bytes[NALGORITHMS])
{
    code_sizes c;
    int k;
    memset(&c, 0, sizeof c);
    c.name = name;
    if (jacobian_index >= 0)
        snprintf(c.jacobian, sizeof c.jacobian, "%s__jacobian_local_%d", name, jacobian_index);
    if (elf_each_function(object, add_function, &c) != 0)
        for (k = 0; k < NALGORITHMS; k++)
            c.bytes[k] = -1; /* not an ELF64 object: unknown */
    for (k = 0; k < NALGORITHMS; k++)
        bytes[k] = c.bytes[k] > 0 ? c.bytes[k] : -1;
}

/* The harness's registry: this one robot, its code sizes and the flags it was built with. */
static int write_registry(const bench_options *o, const char *dir, const long *bytes)
{
    const char *n = o->robot.name;
    char flags[2048], *flags_c, *urdf_c, *text = NULL;
    ebuf b = { 0, 0, 0, 0 };
    int k, rc;
    snprintf(flags, sizeof flags, "-std=gnu99 -DNDEBUG %s", o->cflags);
    flags_c = render_string_text(flags);
    snprintf(flags, sizeof flags, "%s%s", text_base_name(o->robot.urdf),
             o->robot.size ? ", generated with --size" : ""); /* the robot's heading */
    urdf_c = render_string_text(flags);
    if (flags_c && urdf_c) {
        ebuf_printf(&b,
                    "/* cdyngen bench: the one robot timed. */\n#include \"bench.h\"\n"
                    "extern const generated_api %s_api;\n"
                    "extern const bench_loop %s_bench_loops[BENCH_NALGOS];\n"
                    "extern const bench_ops %s_bench_ops;\n",
                    n, n, n);
        if (o->robot.batch)
            ebuf_printf(&b, "extern const bench_batch %s_bench_batch;\n", n);
        ebuf_printf(&b, "static const long code_bytes[BENCH_NALGOS] = {");
        for (k = 0; k < NALGORITHMS; k++)
            ebuf_printf(&b, "%s%ld", k ? ", " : "", bytes[k]);
        ebuf_printf(&b,
                    "};\nconst bench_robot bench_robots[] = {\n"
                    "    {&%s_api, %s_bench_loops, &%s_bench_ops, \"%s\", code_bytes, ",
                    n, n, n, urdf_c);
        if (o->robot.batch)
            ebuf_printf(&b, "&%s_bench_batch},\n", n);
        else
            ebuf_printf(&b, "0},\n");
        ebuf_printf(&b, "    {0, 0, 0, 0, 0, 0}\n};\nconst char bench_flags[] = \"%s\";\n",
                    flags_c);
        text = b.oom ? NULL : ebuf_take(&b);
    }
    rc = program_write_text(dir, "registry.c", text);
    ebuf_free(&b);
    free(text);
    free(flags_c);
    free(urdf_c);
    return rc;
}

/* ---- compile, link, run ---- */

/* The robot's own code first (the longest compile), then the runtime, then the harness. */
static void plan_compiles(const bench_options *o, program_build *b)
{
    static const char *const suffixes[5] = { ".c", "_model.c", "_api.c", "_loops.c", "_ops.c" };
    char file[256];
    int k;
    for (k = 0; k < 5; k++) {
        snprintf(file, sizeof file, "%s%s", o->robot.name, suffixes[k]);
        program_add_compile(b, k < 2 ? b->gen : b->dir, file);
    }
    if (o->robot.batch) { /* --batch: the batch forms and their loops */
        snprintf(file, sizeof file, "%s_batch.c", o->robot.name);
        program_add_compile(b, b->gen, file);
        snprintf(file, sizeof file, "%s_batch_loops.c", o->robot.name);
        program_add_compile(b, b->dir, file);
    }
    program_add_runtime(b);
    program_add_compile(b, b->dir, "bench.c");
    program_add_compile(b, b->dir, "bench_measure.c");
    program_add_compile(b, b->dir, "bench_report.c");
}

/* Everything compiled, the registry with the code sizes, linked into dir/bench. */
static int compile_and_link(const bench_options *o, const kin_tree *t, program_build *b)
{
    const int robot_object = 0; /* plan_compiles puts NAME.c first */
    const int frame = bench_timed_frame(t, o->frame);
    long bytes[NALGORITHMS];
    int rc, k;
    plan_compiles(o, b);
    if ((rc = program_compile(b, "bench")) != 0)
        return rc;
    measure_code(b->obj[robot_object], o->robot.name,
                 frame >= 0 ? render_jacobian_index(t, frame) : -1, bytes);
    for (k = 0; o->robot.size && k < NALGORITHMS; k++)
        bytes[k] = -1; /* --size: the code that runs is the shared runtime's */
    if (write_registry(o, b->dir, bytes) != 0) {
        diag_report("cannot write into %s", b->dir);
        return EXIT_BUILD;
    }
    program_add_compile(b, b->dir, "registry.c");
    if ((rc = program_run_last(b, "compiling")) != 0)
        return rc;
    program_add_link(b, "bench");
    return program_run_last(b, "linking");
}

/* The harness, with the terminal: its table is the command's output. */
static int run_harness(const bench_options *o, program_build *b)
{
    char batches[32], list[1024] = "";
    char *argv[16];
    int n = 0, k, rc;
    for (k = 0; k < NALGORITHMS; k++)
        if (o->asked[k])
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? "," : "",
                     algorithms[k].name);
    snprintf(batches, sizeof batches, "%ld", o->batches);
    argv[n++] = b->exe;
    argv[n++] = "--algorithms";
    argv[n++] = list;
    argv[n++] = "--batches";
    argv[n++] = batches;
    if (o->csv)
        argv[n++] = "--csv", argv[n++] = (char *)o->csv;
    if (o->json)
        argv[n++] = "--json", argv[n++] = (char *)o->json;
    if (o->svg)
        argv[n++] = "--svg", argv[n++] = (char *)o->svg;
    argv[n] = NULL;
    rc = bench_run_attached(argv);
    if (rc != 0 && rc != -2)
        diag_report("the benchmark program failed (exit %d)", rc);
    return rc == 0 ? 0 : EXIT_BUILD;
}

int bench_main(int argc, char **argv)
{
    bench_options o;
    kin_tree t;
    program_build *b;
    int rc = parse_bench_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    if ((rc = pipeline_load(&o.robot, &t)) != 0)
        return rc;
    if (t.m_singular) {
        /* the harness times ABA, LTL and M^-1 beside the generic runtime: they need M^-1 */
        diag_report("bench: %s: M is singular, and the benchmark times the forward dynamics "
                    "too; give the massless links an <inertial>",
                    o.robot.urdf);
        tree_free(&t);
        return EXIT_INPUT;
    }
    b = malloc(sizeof *b);
    rc = b ? choose_algorithms(&o, &t) : EXIT_INPUT;
    if (rc == 0 && b)
        rc = program_init(b, o.cc, o.cflags);
    else if (b)
        b->dir[0] = '\0';
    rc = rc ? rc : program_folder(b);
    if (rc == 0)
        rc = pipeline_write(&o.robot, &t, b->gen, 0);
    if (rc == 0 && write_harness(&o, &t, b->dir) != 0)
        rc = EXIT_BUILD;
    rc = rc ? rc : program_check_compiler(b);
    rc = rc ? rc : compile_and_link(&o, &t, b);
    rc = rc ? rc : run_harness(&o, b);
    if (b)
        program_finish(b);
    free(b);
    tree_free(&t);
    return rc;
}
