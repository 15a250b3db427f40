/* fw_contact_host.c — the host side of the contact-step firmware run (fw_contact.h's
 * scenario), compiled with the generic runtime and the robot's model table (FW_MODEL,
 * FW_CONSTRAINTS: the manifest's set, made frictional here, as --contact FRAME:friction
 * makes it):
 *
 *   fw_contact_host trace                   the scenario in this build's scalar, one line
 *                                           per step (z, lowest phi, normal impulses, |v|)
 *   fw_contact_host compare OUTPUT SUMMARY  reads the target's output (contact_harness.c.in)
 *                                           and checks it against the scenario run here in
 *                                           double, solved to abs_tol 1e-12
 *
 * The checks. Scales: m g dt = 0.081 N s for the 8.25 kg robot; the base stands at
 * z = 0.404 m, where float's spacing (ulp) is 3.0e-8 m. The double run lands at step 100 at
 * 1 m/s, stops in one step (inelastic, sticking feet, legs straight under the hips) and
 * stands at z = 0.404 m exactly, still to 1e-14. In float the step's geometry is rounded: a
 * foot's phi is a multiple of ~ulp(z), and the step corrects it at once (the normal row's
 * bound b = -phi/dt), so at rest float leaves a jitter of one ulp in z, ulp/dt = 3e-5 m/s in
 * v, and m ulp/dt = 3.0e-3 of m g dt in the normal impulses (measured: z 1.6e-8 from the
 * double run's, phi -1.5e-8, v 1.5e-5, impulses 3.0e-3). The bounds allow ~3 such ulps:
 *  - every target step returns FWC_ITER once a foot is in the problem, 0 before, and no
 *    error; every value is finite;
 *  - standing: the base height at the end within Z_TOL = 1e-5 m of the double run's. Each
 *    step's z += v dt rounds by up to ulp/2 = 1.5e-8 m, FWC_STEPS = 300 of them 4.5e-6 m at
 *    worst; a wrong step shows far more (the feet's 5 cm drop, a leg's sag under PD);
 *  - no foot ever below the ground by more than SINK_TOL = 1e-6 m (~30 ulps: phi sums the
 *    legs' kinematics, ~10 roundings of 0.4 m lengths, 1e-7 relative);
 *  - at rest (the last step) the normal impulses sum to m g dt within NSUM_TOL = 1e-2
 *    relative: three ulps of phi corrected in one step, 3 x 3.0e-3;
 *  - still: max |v| at the end below V_TOL = 1e-4 m/s (three ulps of z per step).
 * ADMM runs a fixed FWC_ITER = 20 iterations (abs_tol = rel_tol = 0): the same work every
 * step, a fixed worst case for a control loop. In float its residuals stall at rounding,
 * ~1e-6 of the impulses, which the default abs_tol 1e-5 only sometimes meets (and 100
 * iterations when not); this run in float on the host (the generic runtime) gives the
 * same impact impulse to 7 digits from 10 iterations on (5 fall 1e-3 short), hence 20.
 * It prints the instructions per call of NAME_contact_step, NAME_contact_problem and
 * NAME_contact_solve (ADMM) over the steps with a foot in the problem: their mean and the
 * largest. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "cdyn_contact.h"
#include FW_MODEL_HEADER
#include "fw_contact.h"

#define MAXQ 64
#define NFEET 4

#define Z_TOL 1e-5
#define SINK_TOL 1e-6
#define NSUM_TOL 1e-2
#define V_TOL 1e-4

typedef struct {
    const cdyn_model *m;
    cdyn_constraint set[NFEET];
    cdyn_data d;
    cdyn_constraint_data cd;
    cdyn_contact_problem p;
    void *work, *cwork, *pwork;
    cdyn_real q[MAXQ], v[MAXQ], target[MAXQ];
    double mass;
} sim;

static void *checked_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "fw_contact_host: out of memory\n");
        exit(2);
    }
    return p;
}

static void sim_open(sim *s)
{
    const cdyn_model *m = &FW_MODEL;
    int dims[NFEET], friction[NFEET], nc = 0, k;
    size_t bytes;
    cdyn_contact_layout layout;
    cdyn_real R[9], pos[3];
    memset(s, 0, sizeof *s);
    s->m = m;
    if (m->nq > MAXQ) {
        fprintf(stderr, "fw_contact_host: nq %d over %d\n", m->nq, MAXQ);
        exit(2);
    }
    for (k = 0; k < NFEET; k++) {
        s->set[k] = FW_CONSTRAINTS[k];
        s->set[k].friction = 1; /* --contact FRAME:friction */
        dims[k] = s->set[k].dim;
        friction[k] = 1;
        nc += dims[k];
    }
    for (k = 0; k < m->nbodies; k++)
        s->mass += m->bodies[k].mass;
    layout.n = NFEET;
    layout.dims = dims;
    layout.friction = friction;
    layout.nlimits = 0;
    layout.limits = NULL;
    layout.nv = m->nv;
    bytes = cdyn_data_size(m);
    s->work = checked_malloc(bytes);
    if (cdyn_data_init(&s->d, m, s->work, bytes) != CDYN_OK)
        exit(2);
    bytes = cdyn_constraint_data_size(m, s->set, NFEET);
    s->cwork = checked_malloc(bytes);
    if (cdyn_constraint_data_init(&s->cd, m, s->set, NFEET, s->cwork, bytes) != CDYN_OK)
        exit(2);
    bytes = CDYN_CONTACT_PROBLEM_BYTES(NFEET, nc, 0, m->nv);
    s->pwork = checked_malloc(bytes);
    if (cdyn_contact_problem_init(&s->p, &layout, s->pwork, bytes) != CDYN_OK)
        exit(2);
    /* neutral, the feet FWC_DROP above the ground (the first foot's height: the pose is
     * symmetric) */
    cdyn_neutral(m, s->q);
    memcpy(s->target, s->q, sizeof s->q);
    cdyn_fk(m, &s->d, s->q);
    cdyn_frame_placement(m, &s->d, s->set[0].frame_a, R, pos);
    s->q[2] = -pos[2] + (cdyn_real)FWC_DROP;
}

static void sim_close(sim *s)
{
    free(s->work);
    free(s->cwork);
    free(s->pwork);
}

/* One step of the scenario: PD on the joints (the base's 6 DoFs free). */
static int sim_step(sim *s, const cdyn_contact_settings *set)
{
    cdyn_real tau[MAXQ];
    int j;
    for (j = 0; j < 6; j++)
        tau[j] = 0;
    for (j = 6; j < s->m->nv; j++)
        tau[j] = (cdyn_real)FWC_KP * (s->target[j + 1] - s->q[j + 1]) - (cdyn_real)FWC_KD * s->v[j];
    return cdyn_contact_step(s->m, &s->d, &s->cd, &s->p, set, s->q, s->v, tau, s->q, s->v);
}

static double lowest_phi(const cdyn_contact_problem *p)
{
    double low = INFINITY;
    int k;
    for (k = 0; k < NFEET; k++)
        low = fmin(low, p->phi[k]);
    return low;
}

static double normal_sum(const cdyn_contact_problem *p)
{
    double sum = 0;
    int k;
    for (k = 0; k < NFEET; k++)
        sum += p->lambda[p->set_row[k] + 2];
    return sum;
}

static double vmax(const cdyn_real *v, int n)
{
    double a = 0;
    int k;
    for (k = 0; k < n; k++)
        a = fmax(a, fabs(v[k]));
    return a;
}

static cdyn_contact_settings settings_of(int fixed_iterations)
{
    cdyn_contact_settings s = CDYN_CONTACT_SETTINGS_DEFAULT;
    s.dt = (cdyn_real)FWC_DT;
    s.friction = (cdyn_real)FWC_MU;
    s.solver = CDYN_CONTACT_ADMM;
    if (fixed_iterations > 0) {
        s.cone.max_iter = fixed_iterations;
        s.cone.abs_tol = 0;
        s.cone.rel_tol = 0;
    } else {
        s.cone.max_iter = 2000;
        s.cone.abs_tol = (cdyn_real)1e-12;
    }
    return s;
}

static int trace(int fixed_iterations)
{
    sim s;
    const cdyn_contact_settings set = settings_of(fixed_iterations);
    double low = INFINITY;
    int k, it;
    sim_open(&s);
    printf("# mass %.4f kg, m g dt %.6g N s\n", s.mass, s.mass * 9.81 * FWC_DT);
    for (k = 0; k < FWC_STEPS; k++) {
        it = sim_step(&s, &set);
        low = fmin(low, lowest_phi(&s.p));
        printf("%d %d z %.9f phi %.3e low %.3e nsum/mgdt %.9f |v| %.3e\n", k, it, (double)s.q[2],
               lowest_phi(&s.p), low, normal_sum(&s.p) / (s.mass * 9.81 * FWC_DT),
               vmax(s.v, s.m->nv));
    }
    sim_close(&s);
    return 0;
}

/* ---- compare ---- */

typedef struct {
    const char *name;
    double ticks, max_ticks;
    int calls;
} timing;

static double bits_to_real(const char *tok)
{
    unsigned int b = (unsigned int)strtoul(tok, NULL, 16);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static int compare(const char *path, const char *summary)
{
    FILE *f = fopen(path, "r"), *out;
    char line[4096];
    sim s;
    const cdyn_contact_settings set = settings_of(0);
    timing t[3] = { { "contact_step", 0, 0, 0 }, { "contact_problem", 0, 0, 0 },
                    { "contact_solve", 0, 0, 0 } };
    double part[3] = { 0, 0, 0 }, per_tick = 0, low = INFINITY, z = NAN, nsum = NAN, vm = NAN, ref_low = INFINITY;
    double mgdt;
    long data_bytes = -1;
    int steps = 0, failed = 0, ended = 0, touched = -1, k;
    if (!f) {
        perror(path);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        char *tok = strtok(line, " \n"), *name;
        long status;
        double ticks, y[8];
        int n = 0;
        if (!tok)
            continue;
        if (!strcmp(tok, "end")) {
            ended = 1;
            continue;
        }
        name = tok;
        if (!(tok = strtok(NULL, " \n")))
            continue;
        status = strtol(tok, NULL, 10);
        if (!(tok = strtok(NULL, " \n")))
            continue;
        ticks = strtod(tok, NULL);
        while ((tok = strtok(NULL, " \n")) && n < 8)
            y[n++] = bits_to_real(tok);
        if (!strcmp(name, "calibrate")) {
            per_tick = (double)status / ticks;
        } else if (!strcmp(name, "data_bytes")) {
            data_bytes = status;
        } else if (!strcmp(name, "problem") || !strcmp(name, "solve")) {
            /* counted with the step's, when a foot is in the problem */
            if (status < 0 || (name[0] == 's' && status != FWC_ITER)) {
                fprintf(stderr, "fw_contact_host: step %d: %s returned %ld\n", steps, name, status);
                failed = 1;
            }
            part[name[0] == 'p' ? 1 : 2] = ticks;
        } else if (!strcmp(name, "step") && n == 4) {
            /* status: the step's iterations; y: z, lowest phi, normal sum, max |v| */
            if (status != 0 && status != FWC_ITER) {
                fprintf(stderr, "fw_contact_host: step %d returned %ld, not 0 or %d\n", steps,
                        status, FWC_ITER);
                failed = 1;
            }
            if (status != 0) {
                if (touched < 0)
                    touched = steps;
                part[0] = ticks;
                for (k = 0; k < 3; k++) {
                    t[k].ticks += part[k];
                    t[k].max_ticks = fmax(t[k].max_ticks, part[k]);
                    t[k].calls++;
                }
            } else if (touched >= 0) {
                fprintf(stderr, "fw_contact_host: step %d: no foot in the problem\n", steps);
                failed = 1;
            }
            for (k = 0; k < 4; k++)
                if (!isfinite(y[k])) {
                    fprintf(stderr, "fw_contact_host: step %d: not finite\n", steps);
                    failed = 1;
                }
            z = y[0];
            low = fmin(low, y[1]);
            nsum = y[2];
            vm = y[3];
            steps++;
        } else {
            fprintf(stderr, "fw_contact_host: unknown line \"%s\"\n", name);
            failed = 1;
        }
    }
    fclose(f);
    if (!ended || steps != FWC_STEPS || per_tick <= 0 || touched < 0) {
        fprintf(stderr, "fw_contact_host: the output stopped early (%d of %d steps%s%s)\n", steps,
                FWC_STEPS, per_tick <= 0 ? ", no calibration" : "",
                touched < 0 ? ", no contact" : "");
        failed = 1;
    }
    /* the double run */
    sim_open(&s);
    mgdt = s.mass * 9.81 * FWC_DT;
    for (k = 0; k < FWC_STEPS; k++) {
        const int it = sim_step(&s, &set);
        if (it < 0) {
            fprintf(stderr, "fw_contact_host: the double run's step %d returned %d\n", k, it);
            failed = 1;
        }
        ref_low = fmin(ref_low, lowest_phi(&s.p));
    }
    printf("contact step on the target (float, ADMM %d iterations) against the host (double):\n",
           FWC_ITER);
    printf("  first contact at step %d of %d\n", touched, FWC_STEPS);
    printf("  base height     %.6f m, double %.6f m: %.2e (bound %.0e)\n", z, (double)s.q[2],
           fabs(z - s.q[2]), Z_TOL);
    printf("  lowest foot     %.3e m, double %.3e m (bound -%.0e)\n", low, ref_low, SINK_TOL);
    printf("  normal impulses %.6g N s, m g dt %.6g: %.2e relative (bound %.0e), double %.2e\n",
           nsum, mgdt, fabs(nsum - mgdt) / mgdt, NSUM_TOL, fabs(normal_sum(&s.p) - mgdt) / mgdt);
    printf("  max |v| at the end %.2e (bound %.0e), double %.2e\n", vm, V_TOL, vmax(s.v, s.m->nv));
    if (!(fabs(z - s.q[2]) <= Z_TOL)) {
        fprintf(stderr, "fw_contact_host: base height %.6f, double %.6f\n", z, (double)s.q[2]);
        failed = 1;
    }
    if (!(low >= -SINK_TOL)) {
        fprintf(stderr, "fw_contact_host: a foot went %.3e below the ground\n", -low);
        failed = 1;
    }
    if (!(fabs(nsum - mgdt) <= NSUM_TOL * mgdt)) {
        fprintf(stderr, "fw_contact_host: normal impulses %.6g against m g dt %.6g\n", nsum, mgdt);
        failed = 1;
    }
    if (!(vm <= V_TOL)) {
        fprintf(stderr, "fw_contact_host: still moving at the end: %.2e\n", vm);
        failed = 1;
    }
    sim_close(&s);
    out = summary ? fopen(summary, "w") : NULL;
    printf("sizeof(data) on the target: %ld bytes\n", data_bytes);
    if (out)
        fprintf(out, "data_bytes %ld\n", data_bytes);
    printf("%-16s %6s %14s %14s\n", "function", "calls", "instructions", "largest");
    for (k = 0; k < 3; k++) {
        const double mean = t[k].calls ? t[k].ticks * per_tick / t[k].calls : 0;
        printf("%-16s %6d %14.0f %14.0f\n", t[k].name, t[k].calls, mean, t[k].max_ticks * per_tick);
        if (out)
            fprintf(out, "%s %.0f %.0f\n", t[k].name, mean, t[k].max_ticks * per_tick);
    }
    if (out)
        fclose(out);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "trace"))
        return trace(argc > 2 ? atoi(argv[2]) : 0);
    if (argc >= 3 && !strcmp(argv[1], "compare"))
        return compare(argv[2], argc > 3 ? argv[3] : NULL);
    fprintf(stderr, "usage: %s trace [ITERATIONS] | compare OUTPUT [SUMMARY]\n", argv[0]);
    return 2;
}
