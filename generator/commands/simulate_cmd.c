/* simulate_cmd.c — `cdyngen simulate`: generate into a temporary folder, write the
 * simulation program (harness/simulate.c.in) beside it, compile both with the user's
 * compiler, run, put the files in place, remove the folder. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/bench_files.h"
#include "commands/cli.h"
#include "commands/program_build.h"
#include "commands/simulate_cmd.h"
#include "commands/simulate_files.h"
#include "commands/simulate_output.h"
#include "render/embedded.h"
#include "util/text.h"
#include "pipeline.h"

/* The trace keeps every step: about 1 KB per step for the quadruped, so this bounds the
 * program's memory to a few hundred MB. */
#define SIM_MAX_STEPS 200000

enum { OUT_CSV, OUT_SVG, OUT_HTML };
static const char *const out_names[SIMULATE_MAX_OUTPUTS] = { "sim.csv", "sim.svg", "sim.html" };

typedef struct {
    robot_options robot;
    const char *cc, *cflags, *q;
    const char *duration, *dt, *ground, *drop, *kp, *kd, *friction, *stiffness, *damping;
    const char *controller, *solver, *model;
    const char *out[SIMULATE_MAX_OUTPUTS]; /* --csv, --svg, --html */
    int project;
} simulate_options;

static const char usage_text[] =
    "usage: cdyngen simulate ROBOT.urdf [generation options] [--duration S] [--dt DT]\n"
    "               [--ground HEIGHT] [--drop H] [--controller pd|none] [--kp KP] [--kd KD]\n"
    "               [--friction MU] [--solver admm|pgs] [--model rigid|soft] [--stiffness K]\n"
    "               [--damping D] [--project] [--q \"q0 q1 ...\"] [--cc CC] [--cflags \"FLAGS\"]\n"
    "               [--csv FILE] [--svg FILE] [--html FILE]\n"
    "\n"
    "Generates the robot's code into a temporary folder, compiles it with a simulation\n"
    "program, and runs the robot's contact step (R_contact_step) from its neutral pose (or\n"
    "--q), a floating base dropped onto the ground, every step recorded; prints a summary\n"
    "(real-time factor, non-converged steps, penetration, final base height). The robot needs\n"
    "a frictional contact (--contact FRAME:friction) or --joint-limits. The files are written\n"
    "whole or not at all; the folder is removed afterwards, also on errors and Ctrl-C.\n"
    "\n"
    "  --duration S         simulated time, s (default 2)\n"
    "  --dt DT              time step, s (default 0.001)\n"
    "  --ground HEIGHT      the ground plane's height z, m (default 0)\n"
    "  --drop H             a floating base starts with its lowest contact H above the\n"
    "                       ground, m (default 0.05)\n"
    "  --controller pd|none pd (default): the joints held at the starting pose,\n"
    "                       tau = kp (q0 - q) - kd v; none: limp\n"
    "  --kp KP, --kd KD     the gains, N m/rad and N m s/rad (default: kp = 0.6 m g with m the\n"
    "                       robot's mass, kd = 0.004 kp)\n"
    "  --friction MU        every contact's friction coefficient (default 0.8)\n"
    "  --solver admm|pgs    the contact solver (default admm)\n"
    "  --model rigid|soft   rigid contacts (default) or spring-dampers\n"
    "  --stiffness K, --damping D   the soft contacts' N/m and N s/m (runtime defaults)\n"
    "  --project            project q and v onto the bilateral constraints after each step\n"
    "  --q \"q0 q1 ...\"      the starting configuration, nq numbers (default: neutral)\n"
    "  --cc CC              the C compiler (default: cc)\n"
    "  --cflags \"FLAGS\"     its flags (default: -O3 -march=native); always preceded by\n"
    "                       -std=gnu99 -DNDEBUG\n"
    "  --csv FILE           every step: t, q, v, contacts, energy, solver (docs/simulate.md)\n"
    "  --svg FILE           plots of the run\n"
    "  --html FILE          an animation of the run, one self-contained page\n"
    "\n"
    "Generation options:\n" CLI_ROBOT_OPTIONS_HELP;

static int parse_values(int argc, char **argv, int *i, simulate_options *o)
{
    const char **values[19] = { &o->cc,       &o->cflags,     &o->q,          &o->duration,
                                &o->dt,       &o->ground,     &o->drop,       &o->kp,
                                &o->kd,       &o->friction,   &o->stiffness,  &o->damping,
                                &o->controller, &o->solver,   &o->model,      &o->out[OUT_CSV],
                                &o->out[OUT_SVG], &o->out[OUT_HTML], NULL };
    static const char *const names[18] = { "--cc",       "--cflags",  "--q",       "--duration",
                                           "--dt",       "--ground",  "--drop",    "--kp",
                                           "--kd",       "--friction", "--stiffness", "--damping",
                                           "--controller", "--solver", "--model",  "--csv",
                                           "--svg",      "--html" };
    int k, rc = 0;
    for (k = 0; k < 18 && rc == 0; k++)
        rc = cli_value_option(argc, argv, i, names[k], values[k]);
    return rc;
}

/* text as a finite number: 0, or -1. */
static int real_of(const char *text, double *x)
{
    char *end;
    *x = strtod(text, &end);
    return *text && *end == '\0' && isfinite(*x) ? 0 : -1;
}

/* An option's number within [lo, hi] (strictly above lo when open_lo): 0, or EXIT_USAGE. */
static int check_real(const char *name, const char *text, double lo, int open_lo, double hi)
{
    char msg[256];
    double x;
    if (!text)
        return 0;
    if (real_of(text, &x) == 0 && (open_lo ? x > lo : x >= lo) && x <= hi)
        return 0;
    if (hi < HUGE_VAL)
        snprintf(msg, sizeof msg, "%s \"%.64s\": expected a number %s %g up to %g", name, text,
                 open_lo ? "above" : "from", lo, hi);
    else
        snprintf(msg, sizeof msg, "%s \"%.64s\": expected a number %s %g", name, text,
                 open_lo ? "above" : "from", lo);
    return cli_usage_error("%s", msg);
}

static int check_choice(const char *name, const char *text, const char *a, const char *b)
{
    char msg[256];
    if (!text || strcmp(text, a) == 0 || strcmp(text, b) == 0)
        return 0;
    snprintf(msg, sizeof msg, "%s \"%.64s\": expected %s or %s", name, text, a, b);
    return cli_usage_error("%s", msg);
}

/* The numbers and words of the options, and the steps they make. */
static int check_values(const simulate_options *o)
{
    double duration, dt;
    int rc = check_real("--duration", o->duration, 0, 1, 1e6);
    rc = rc ? rc : check_real("--dt", o->dt, 0, 1, 1e3);
    rc = rc ? rc : check_real("--ground", o->ground, -1e6, 0, 1e6);
    rc = rc ? rc : check_real("--drop", o->drop, 0, 0, 1e6);
    rc = rc ? rc : check_real("--kp", o->kp, 0, 0, HUGE_VAL);
    rc = rc ? rc : check_real("--kd", o->kd, 0, 0, HUGE_VAL);
    rc = rc ? rc : check_real("--friction", o->friction, 0, 0, HUGE_VAL);
    rc = rc ? rc : check_real("--stiffness", o->stiffness, 0, 1, HUGE_VAL);
    rc = rc ? rc : check_real("--damping", o->damping, 0, 0, HUGE_VAL);
    rc = rc ? rc : check_choice("--controller", o->controller, "pd", "none");
    rc = rc ? rc : check_choice("--solver", o->solver, "admm", "pgs");
    rc = rc ? rc : check_choice("--model", o->model, "rigid", "soft");
    if (rc)
        return rc;
    real_of(o->duration, &duration);
    real_of(o->dt, &dt);
    if (duration / dt > SIM_MAX_STEPS)
        return cli_usage_error("--duration / --dt: more than %s steps (the trace keeps them all)",
                               "200000");
    if (dt > duration)
        return cli_usage_error("%s", "--dt: longer than --duration");
    return 0;
}

/* The soft model's parameters only with it. */
static int check_features(const simulate_options *o)
{
    const int soft = o->model && strcmp(o->model, "soft") == 0;
    if ((o->stiffness || o->damping) && !soft)
        return cli_usage_error("%s", "--stiffness and --damping are the soft model's (--model soft)");
    return 0;
}

static int parse_simulate_args(int argc, char **argv, simulate_options *o)
{
    int i, rc;
    memset(o, 0, sizeof *o);
    o->cc = "cc";
    o->cflags = "-O3 -march=native";
    o->duration = "2";
    o->dt = "0.001";
    o->ground = "0";
    o->drop = "0.05";
    o->friction = "0.8";
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_text, stdout);
            exit(0);
        }
        if (strcmp(argv[i], "--project") == 0) {
            o->project = 1;
            continue;
        }
        rc = parse_values(argc, argv, &i, o);
        if (rc == 0)
            rc = cli_robot_option(argc, argv, &i, &o->robot);
        if (rc > 1)
            return rc;
        if (rc == 1)
            continue;
        if ((rc = cli_positional(&o->robot, argv[i], "simulate: ")) != 0)
            return rc;
    }
    if (!o->robot.urdf)
        return cli_usage_error("%s", "simulate: no URDF file given");
    if ((rc = check_values(o)) != 0 || (rc = check_features(o)) != 0)
        return rc;
    if (!*o->cc)
        return cli_usage_error("%s", "--cc: empty compiler name");
    return cli_check_prefix(&o->robot);
}

/* --q: nq finite numbers (split at spaces or commas). Text that is no number is bad usage
 * (2); a NaN, an infinity or the wrong count is bad input for this robot (1). */
static int check_q(const char *text, int nq)
{
    char buf[8192], *p;
    int n = 0;
    snprintf(buf, sizeof buf, "%s", text);
    for (p = strtok(buf, " ,\t"); p; p = strtok(NULL, " ,\t"), n++) {
        char *end;
        const double x = strtod(p, &end);
        if (*end != '\0')
            return cli_usage_error("--q: \"%s\" is not a number", p);
        if (!isfinite(x)) {
            diag_report("--q: coordinate %d is %s: every coordinate must be finite", n, p);
            return EXIT_INPUT;
        }
    }
    if (n != nq) {
        diag_report("--q: %d numbers for a robot with nq = %d", n, nq);
        return EXIT_INPUT;
    }
    return 0;
}

/* The robot can be simulated: a frictional contact or a limited joint makes its step. */
static int check_robot(const simulate_options *o, const kin_tree *t)
{
    if (t->m_singular) {
        diag_report("simulate: %s: M is singular, and the contact step needs M^-1; give the "
                    "massless links an <inertial>",
                    o->robot.urdf);
        return EXIT_INPUT;
    }
    if (simulate_contacts(t) == 0 && !(t->joint_limits && tree_limited_joints(t, NULL) > 0))
        return cli_usage_error("%s", "simulate: the robot has no frictional contact "
                                     "(--contact FRAME:friction) and no joint limits "
                                     "(--joint-limits): nothing would stop it falling");
    if (o->q)
        return check_q(o->q, t->nq);
    return 0;
}

/* The program's files beside the generated folder. 0, or EXIT_BUILD reported. */
static int write_program(const simulate_options *o, const kin_tree *t, const char *dir)
{
    static const char *const copied[4] = { "sim_trace.h", "sim_csv.c", "sim_svg.c", "sim_html.c" };
    char path[64];
    char *text;
    int k, rc = 0;
    for (k = 0; k < 4 && rc == 0; k++) {
        snprintf(path, sizeof path, "harness/%s", copied[k]);
        rc = program_write_text(dir, copied[k], embedded_text(path));
    }
    text = bench_fill(embedded_text("harness/simulate.c.in"), o->robot.name);
    rc = rc ? rc : program_write_text(dir, "simulate.c", text);
    free(text);
    text = simulate_robot_header(t, text_base_name(o->robot.urdf), o->out[OUT_SVG] != NULL,
                                 o->out[OUT_HTML] != NULL);
    rc = rc ? rc : program_write_text(dir, "sim_robot.h", text);
    free(text);
    if (rc != 0)
        diag_report("cannot write into %s", dir);
    return rc ? EXIT_BUILD : 0;
}

/* The robot's code, the runtime, the program and the writers asked for, linked. */
static int build_program(const simulate_options *o, program_build *b)
{
    char file[256];
    int rc;
    snprintf(file, sizeof file, "%s.c", o->robot.name); /* the longest compile first */
    program_add_compile(b, b->gen, file);
    snprintf(file, sizeof file, "%s_model.c", o->robot.name);
    program_add_compile(b, b->gen, file);
    program_add_runtime(b);
    program_add_compile(b, b->dir, "simulate.c");
    program_add_compile(b, b->dir, "sim_csv.c");
    if (o->out[OUT_SVG])
        program_add_compile(b, b->dir, "sim_svg.c");
    if (o->out[OUT_HTML])
        program_add_compile(b, b->dir, "sim_html.c");
    if ((rc = program_compile(b, "simulate")) != 0)
        return rc;
    program_add_link(b, "simulate");
    return program_run_last(b, "linking");
}

/* The program with the terminal (its summary is the command's output); its files in dir. */
static int run_program(const simulate_options *o, program_build *b, char out[][BENCH_PATH_LEN + 16])
{
    char *argv[20];
    int n = 0, k, rc;
    argv[n++] = b->exe;
    argv[n++] = (char *)o->duration;
    argv[n++] = (char *)o->dt;
    argv[n++] = (char *)o->ground;
    argv[n++] = (char *)o->drop;
    argv[n++] = (char *)(o->controller ? o->controller : "pd");
    argv[n++] = (char *)(o->kp ? o->kp : "");
    argv[n++] = (char *)(o->kd ? o->kd : "");
    argv[n++] = (char *)o->friction;
    argv[n++] = (char *)(o->solver ? o->solver : "admm");
    argv[n++] = (char *)(o->model ? o->model : "rigid");
    argv[n++] = (char *)(o->stiffness ? o->stiffness : "");
    argv[n++] = (char *)(o->damping ? o->damping : "");
    argv[n++] = o->project ? "1" : "0";
    argv[n++] = (char *)(o->q ? o->q : "");
    for (k = 0; k < SIMULATE_MAX_OUTPUTS; k++) {
        out[k][0] = '\0';
        if (o->out[k])
            snprintf(out[k], BENCH_PATH_LEN + 16, "%s/%s", b->dir, out_names[k]);
        argv[n++] = out[k];
    }
    argv[n] = NULL;
    fflush(stdout);
    rc = bench_run_attached(argv);
    if (rc != 0 && rc != -2 && rc != EXIT_BUILD)
        diag_report("the simulation program failed (exit %d)", rc);
    return rc == 0 ? 0 : EXIT_BUILD;
}

/* The files in place, all or none, and named. */
static int place_outputs(const simulate_options *o, char out[][BENCH_PATH_LEN + 16])
{
    const char *sources[SIMULATE_MAX_OUTPUTS], *targets[SIMULATE_MAX_OUTPUTS];
    int k, n = 0;
    for (k = 0; k < SIMULATE_MAX_OUTPUTS; k++)
        if (o->out[k]) {
            sources[n] = out[k];
            targets[n++] = o->out[k];
        }
    if (simulate_output_place(sources, targets, n) != 0)
        return EXIT_INPUT;
    for (k = 0; k < n; k++)
        printf("%s %s", k ? "," : "wrote", targets[k]);
    if (n == 0)
        printf("wrote no file (--csv, --svg, --html)");
    printf("\n");
    return 0;
}

/* The output paths take a file, before anything long runs. */
static int check_outputs(const simulate_options *o)
{
    int k;
    for (k = 0; k < SIMULATE_MAX_OUTPUTS; k++)
        if (o->out[k] && simulate_output_check(o->out[k]) != 0)
            return EXIT_INPUT;
    return 0;
}

int simulate_main(int argc, char **argv)
{
    simulate_options o;
    kin_tree t;
    program_build *b;
    char out[SIMULATE_MAX_OUTPUTS][BENCH_PATH_LEN + 16];
    int rc = parse_simulate_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    if ((rc = pipeline_load(&o.robot, &t)) != 0)
        return rc;
    rc = check_robot(&o, &t);
    rc = rc ? rc : check_outputs(&o);
    b = malloc(sizeof *b);
    if (!b)
        rc = rc ? rc : EXIT_INPUT;
    else if (rc == 0)
        rc = program_init(b, o.cc, o.cflags);
    else
        b->dir[0] = '\0';
    rc = rc ? rc : program_folder(b);
    rc = rc ? rc : pipeline_write(&o.robot, &t, b->gen, 0);
    rc = rc ? rc : write_program(&o, &t, b->dir);
    rc = rc ? rc : program_check_compiler(b);
    rc = rc ? rc : build_program(&o, b);
    rc = rc ? rc : run_program(&o, b, out);
    rc = rc ? rc : place_outputs(&o, out);
    if (b)
        program_finish(b);
    free(b);
    tree_free(&t);
    return rc;
}
