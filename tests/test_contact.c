/* test_contact.c — the contact step (R_contact_step, cdyn_contact_step) on scenes whose
 * outcome physics fixes, each run by the generated code and, side by side from the same
 * state every step, by the generic runtime on the same model and set:
 *  - a 2 kg box on its four bottom corners (tests/contact/box.urdf), mu 0.4, dt 1e-3: at
 *    rest, pushed by 0.9 mu m g (sticks), pushed by 1.1 mu m g (slides, gaining 0.1 mu g dt
 *    per step);
 *  - a 1 kg ball (tests/contact/ball.urdf, radius 0.1) dropped from 0.5 m: e = 0 stops on
 *    the ground, e = 0.5 bounces to a quarter of the height;
 *  - the sample quadruped (robots/quadruped12.urdf) dropped 5 cm under PD control: it
 *    stands, then lifts a foot by its joint torques.
 * Every step's solution is checked against the conditions of Coulomb's law by this file's
 * own arithmetic (not cdyn_cone_conditions): lambda in the cone, the shifted velocity in
 * the dual cone (c_n >= 0), lambda . (c + s) = 0. Tolerances: the solvers run to abs_tol
 * 1e-14 (impulses ~1e-2 N s, velocities ~1e-2 m/s): the conditions to 1e-9 of the scales
 * m g dt and g dt; generated against generic 1e-10 relative (the same arithmetic, M^-1 by
 * the generated factor or by ABA). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "generated_api.h"
#include "support/check_main.h"
#include "support/contact_sim.h"

extern const generated_api contact_box_api, contact_ball_api, contact_quadruped_api;
extern const generated_api contact_arm_api, contact_arm_clamped_api;

/* Coulomb's law on each active frictional contact of p, by hand: lambda in the cone, c_n >= 0
 * (the De Saxce-shifted velocity in the dual cone), lambda . (c + s) = 0; the bilateral rows
 * held (c = 0). lam_scale and vel_scale: the scene's impulse and velocity scales. */
static void check_conditions(const cdyn_contact_problem *p, double lam_scale, double vel_scale)
{
    for (int k = 0; k < p->n; ++k) {
        const double *l = p->lambda + p->set_row[k], *c = p->c + p->set_row[k];
        if (p->cones[k].kind != CDYN_CONE_FRICTION) {
            for (int a = 0; a < p->cones[k].dim; ++a)
                ck_assert_msg(fabs(c[a]) <= 1e-9 * vel_scale, "bilateral row moves: %g", c[a]);
            continue;
        }
        if (!p->active[k]) {
            ck_assert(l[0] == 0 && l[1] == 0 && l[2] == 0);
            continue;
        }
        const double mu = p->cones[k].mu, lt = hypot(l[0], l[1]), ct = hypot(c[0], c[1]);
        const double cn = c[2] - p->bound[k]; /* the row's c_n: v+_n - b */
        ck_assert_msg(l[2] >= -1e-12 * lam_scale, "contact %d pulls: %g", k, l[2]);
        ck_assert_msg(lt <= mu * l[2] + 1e-9 * lam_scale, "contact %d outside its cone", k);
        ck_assert_msg(cn >= -1e-9 * vel_scale, "contact %d sinks: c_n %g", k, cn);
        const double compl = l[0] * c[0] + l[1] * c[1] + l[2] * (cn + mu * ct);
        ck_assert_msg(fabs(compl) <= 1e-8 * lam_scale * vel_scale,
                      "contact %d: lambda . (c + s) = %g", k, compl);
    }
}

static cdyn_contact_settings settings_for(double mu, int solver)
{
    cdyn_contact_settings s = CDYN_CONTACT_SETTINGS_DEFAULT;
    s.dt = DT;
    s.friction = mu;
    s.solver = solver;
    s.cone.max_iter = 2000;
    s.cone.abs_tol = 1e-14; /* absolute, on impulses ~1e-2 N s: ADMM's dual residual is rho
                             * (~1e-3 here) times the change of lambda */
    return s;
}

/* ---- the box ---------------------------------------------------------------------------- */

#define BOX_MASS 2.0
#define BOX_MU 0.4

/* The box with its corners on the ground (its centre 0.05 m up), at rest, pushed along x by
 * push (N) at its centre for steps; returns its x velocity. */
static double box_run(double push, int steps, int solver, double growth_tol)
{
    sim s;
    double tau[6] = { 0 };
    const cdyn_contact_settings set = settings_for(BOX_MU, solver);
    sim_open(&s, &contact_box_api);
    s.q[2] = 0.05;
    tau[0] = push; /* the free-flyer's force, in the body's axes (the box stays level) */
    for (int k = 1; k <= steps; ++k) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_conditions(&p, BOX_MASS * G0 * DT, G0 * DT);
        ck_assert_msg(fabs(normal_sum(&p) - BOX_MASS * G0 * DT) <= 1e-8 * BOX_MASS * G0 * DT,
                      "step %d: normal impulses %.15g, m g dt %.15g", k, normal_sum(&p),
                      BOX_MASS * G0 * DT);
        if (growth_tol > 0) { /* sliding: (push - mu m g) / m per second */
            const double expect = k * (push - BOX_MU * BOX_MASS * G0) / BOX_MASS * DT;
            ck_assert_msg(fabs(s.v[0] - expect) <= growth_tol * fabs(expect),
                          "step %d: v %.12g, expected %.12g", k, s.v[0], expect);
            ck_assert(fabs(s.v[1]) + fabs(s.v[2]) + vmax(s.v + 3, 3) <= 1e-8);
        } else {
            ck_assert_msg(vmax(s.v, 6) <= 1e-8, "step %d: the box moves (%g)", k, vmax(s.v, 6));
        }
    }
    const double vx = s.v[0];
    sim_close(&s);
    return vx;
}

START_TEST(box_at_rest)
{
    box_run(0, 200, CDYN_CONTACT_ADMM, 0);
    box_run(0, 200, CDYN_CONTACT_PGS, 0);
}
END_TEST

START_TEST(box_pushed_sticks)
{
    box_run(0.9 * BOX_MU * BOX_MASS * G0, 200, CDYN_CONTACT_ADMM, 0);
    box_run(-0.9 * BOX_MU * BOX_MASS * G0, 200, CDYN_CONTACT_PGS, 0);
}
END_TEST

START_TEST(box_pushed_slides)
{
    const double vx = box_run(1.1 * BOX_MU * BOX_MASS * G0, 200, CDYN_CONTACT_ADMM, 1e-6);
    ck_assert(vx > 0.07); /* 200 steps of 0.1 mu g dt: 0.0785 m/s */
    box_run(1.1 * BOX_MU * BOX_MASS * G0, 100, CDYN_CONTACT_PGS, 1e-6);
}
END_TEST

/* A converged problem solved again from its own solution: 1 iteration (a solve does at
 * least one). */
START_TEST(warm_start_resolve)
{
    for (int solver = 0; solver < 2; ++solver) {
        sim s;
        double tau[6] = { 0 };
        cdyn_contact_settings set = settings_for(BOX_MU, solver);
        sim_open(&s, &contact_box_api);
        s.q[2] = 0.05;
        tau[0] = 1.1 * BOX_MU * BOX_MASS * G0;
        sim_step(&s, &set, tau);
        cdyn_contact_problem p = sim_view(&s);
        /* from a solution to abs_tol, one iteration moves lambda by up to about cond(G)
         * abs_tol: the re-solve asks for 100 abs_tol */
        set.cone.warm_start = 1;
        set.cone.abs_tol *= 100;
        const int it = cdyn_contact_solve(&p, &set);
        ck_assert_msg(it == 1, "solver %d: %d iterations from the solution", solver,
                      it);
        sim_close(&s);
    }
}
END_TEST

/* ---- the ball --------------------------------------------------------------------------- */

#define BALL_R 0.1

static double ball_energy(const sim *s)
{
    const double *v = s->v;
    return 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
           0.5 * 0.004 * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]) + G0 * s->q[2];
}

/* The ball dropped from h (its bottom), restitution e, for steps; returns the highest the
 * bottom rises after the first contact. Energy never grows. */
static double ball_drop(double h, double e, int steps, double *rest_z)
{
    sim s;
    const double tau[6] = { 0 }, radius[1] = { BALL_R }, rest[1] = { e };
    cdyn_contact_settings set = settings_for(0.5, CDYN_CONTACT_ADMM);
    set.radius = radius;
    set.restitution = rest;
    sim_open(&s, &contact_ball_api);
    s.q[2] = BALL_R + h;
    double apex = 0, energy = ball_energy(&s);
    int touched = 0;
    for (int k = 0; k < steps; ++k) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_conditions(&p, G0 * DT, G0 * DT);
        const double e1 = ball_energy(&s);
        ck_assert_msg(e1 <= energy + 1e-12, "step %d: energy grows by %g", k, e1 - energy);
        energy = e1;
        if (p.lambda[2] > 0)
            touched = 1;
        else if (touched)
            apex = fmax(apex, s.q[2] - BALL_R);
        ck_assert_msg(s.q[2] - BALL_R >= -1e-9, "step %d: the ball sinks %g", k, s.q[2] - BALL_R);
    }
    *rest_z = s.q[2] - BALL_R;
    sim_close(&s);
    return apex;
}

START_TEST(ball_without_restitution_stops)
{
    double z;
    const double apex = ball_drop(0.5, 0, 1000, &z);
    ck_assert_msg(apex <= 1e-9, "e = 0 bounces to %g", apex);
    ck_assert_msg(fabs(z) <= 1e-9, "resting %g from the ground", z);
}
END_TEST

START_TEST(ball_bounces_to_a_quarter)
{
    double z;
    /* free fall 0.32 s, then up to 0.125 m in 0.16 s: apex near step 480 */
    const double apex = ball_drop(0.5, 0.5, 600, &z);
    /* the bounce happens at the step that would reach the ground: up to one step of travel
     * (3.1 mm) early, and the apex is sampled every step: 2% of the quarter height */
    ck_assert_msg(fabs(apex - 0.125) <= 0.02 * 0.125, "apex %g, expected 0.125", apex);
}
END_TEST

/* ADMM and PGS on the same sliding ball: the solution is unique. */
START_TEST(admm_and_pgs_agree)
{
    sim a, b;
    double tau[6] = { 0 };
    const double radius[1] = { BALL_R };
    cdyn_contact_settings sa = settings_for(0.3, CDYN_CONTACT_ADMM),
                          sb = settings_for(0.3, CDYN_CONTACT_PGS);
    sa.radius = sb.radius = radius;
    sim_open(&a, &contact_ball_api);
    sim_open(&b, &contact_ball_api);
    a.q[2] = b.q[2] = BALL_R;
    a.v[0] = b.v[0] = 0.2;
    a.v[1] = b.v[1] = -0.1;
    tau[0] = 2.0;
    tau[1] = 1.0;
    for (int k = 0; k < 50; ++k) {
        sim_step(&a, &sa, tau);
        sim_step(&b, &sb, tau);
        const cdyn_contact_problem pa = sim_view(&a), pb = sim_view(&b);
        ck_assert_msg(rel_gap(pa.lambda, pb.lambda, 3, 1e-6) <= 1e-8, "step %d: %g", k,
                      rel_gap(pa.lambda, pb.lambda, 3, 1e-6));
    }
    sim_close(&a);
    sim_close(&b);
}
END_TEST

/* ---- the quadruped ------------------------------------------------------------------- */

/* tau: PD on the joints (not the base) towards target. */
static void pd(const sim *s, const double *target, double *tau)
{
    const double kp = 50, kd = 0.2; /* explicit damping: kd dt / I < 2 for the shank's 5e-4 kg m^2 */
    for (int j = 0; j < 6; ++j)
        tau[j] = 0;
    for (int j = 6; j < s->g->nv; ++j)
        tau[j] = kp * (target[j + 1] - s->q[j + 1]) - kd * s->v[j];
}

START_TEST(quadruped_stands_and_lifts_a_foot)
{
    sim s;
    double tau[MAXV], target[MAXV], R[9], p[3];
    const cdyn_contact_settings set = settings_for(0.8, CDYN_CONTACT_ADMM);
    sim_open(&s, &contact_quadruped_api);
    memcpy(target, s.q, sizeof target);
    s.g->fk(s.d, s.q);
    ck_assert_int_eq(s.g->frame_placement(s.d, s.set[0].frame_a, R, p), 0);
    s.q[2] = -p[2] + 0.05; /* feet 5 cm above the ground */
    double lowest = 1;
    for (int k = 0; k < 1500; ++k) {
        pd(&s, target, tau);
        sim_step(&s, &set, tau);
        const cdyn_contact_problem pr = sim_view(&s);
        check_conditions(&pr, 8.0 * G0 * DT, G0 * DT);
        for (int c = 0; c < 4; ++c)
            lowest = fmin(lowest, pr.phi[c]);
    }
    /* standing: still, every foot loaded, none below the ground by more than 1e-9 m */
    ck_assert_msg(vmax(s.v, s.g->nv) <= 1e-6, "still moving: %g", vmax(s.v, s.g->nv));
    ck_assert_msg(lowest >= -1e-9, "a foot sank %g", lowest);
    {
        const cdyn_contact_problem pr = sim_view(&s);
        for (int c = 0; c < 4; ++c)
            ck_assert_msg(pr.active[c] && pr.lambda[3 * c + 2] > 0.1 * G0 * DT, "foot %d unloaded",
                          c);
        ck_assert_msg(fabs(normal_sum(&pr) - 8.252 * G0 * DT) <= 1e-6 * 8.252 * G0 * DT,
                      "normal impulses %g against the weight's %g", normal_sum(&pr),
                      8.252 * G0 * DT);
    }
    /* the first foot's hip and knee flex: it leaves the ground */
    target[1 + 7] += 0.6;
    target[1 + 8] -= 1.2;
    for (int k = 0; k < 200; ++k) {
        pd(&s, target, tau);
        sim_step(&s, &set, tau);
    }
    const cdyn_contact_problem pr = sim_view(&s);
    ck_assert_msg(pr.phi[0] > set.margin && !pr.active[0], "foot 0 at %g", pr.phi[0]);
    ck_assert(pr.lambda[0] == 0 && pr.lambda[1] == 0 && pr.lambda[2] == 0);
    sim_close(&s);
}
END_TEST

/* G's largest eigenvalue by this file's own arithmetic: the Rayleigh quotient after 4000
 * power iterations from a vector unlike the solver's start (G is 12 x 12 here; its error is
 * of the order of the squared eigenvector error, far below the check's 1e-8). */
static double largest_eigenvalue_of(const double *G, int m)
{
    double v[MAXC], w[MAXC], rq = 0;
    for (int r = 0; r < m; ++r)
        v[r] = 1 + 0.1 * r;
    for (int it = 0; it < 4000; ++it) {
        double n = 0;
        for (int r = 0; r < m; ++r) {
            w[r] = 0;
            for (int c = 0; c < m; ++c)
                w[r] += G[r * m + c] * v[c];
            n += w[r] * w[r];
        }
        rq = 0;
        for (int r = 0; r < m; ++r) {
            rq += v[r] * w[r];
            v[r] = w[r] / sqrt(n);
        }
    }
    return rq;
}

/* With warm_start, ADMM's power iteration starts from the last step's vector (p->power, whose
 * norm is its estimate of L, G's largest eigenvalue) and stops when the estimate changes by
 * 1e-8 of itself. Through the drop, standing and a foot lifted (the active set changing the
 * vector's layout and G's size), the estimate is never above L (|G v| <= L |v|) and never
 * more than 1e-5 below it. The stop rule bounds the change per iteration, not the error:
 * the legs alike make G's top eigenvalues nearly equal, so Pinocchio's rule stops 2e-7
 * below L on four feet (cold, from ones, as here at touchdown) and 3e-6 below on three;
 * L only scales ADMM's penalty. */
START_TEST(quadruped_warm_power_iteration)
{
    sim s;
    double tau[MAXV], target[MAXV], R[9], p[3];
    cdyn_contact_settings set = settings_for(0.8, CDYN_CONTACT_ADMM);
    set.cone.warm_start = 1;
    sim_open(&s, &contact_quadruped_api);
    memcpy(target, s.q, sizeof target);
    s.g->fk(s.d, s.q);
    ck_assert_int_eq(s.g->frame_placement(s.d, s.set[0].frame_a, R, p), 0);
    s.q[2] = -p[2] + 0.05;
    int checked = 0, sizes = 0, last_m = -1;
    for (int k = 0; k < 900; ++k) {
        if (k == 700) { /* the first foot lifts */
            target[1 + 7] += 0.6;
            target[1 + 8] -= 1.2;
        }
        pd(&s, target, tau);
        sim_step(&s, &set, tau);
        const cdyn_contact_problem pr = sim_view(&s);
        if (pr.m == 0)
            continue;
        double n2 = 0;
        for (int r = 0; r < pr.m; ++r)
            n2 += pr.power[r] * pr.power[r];
        const double L = largest_eigenvalue_of(pr.G, pr.m);
        ck_assert_msg(sqrt(n2) <= L * (1 + 1e-12) && sqrt(n2) >= L * (1 - 1e-5),
                      "step %d: estimate %.17g, L %.17g", k, sqrt(n2), L);
        checked++;
        sizes += pr.m != last_m;
        last_m = pr.m;
    }
    ck_assert_msg(checked > 800 && sizes >= 2, "%d steps with contact, %d sizes", checked, sizes);
    sim_close(&s);
}
END_TEST

/* ---- joint limits -------------------------------------------------------------------- */

/* The arm's joint 2 (limits +-1.7628 rad) driven up against its upper limit by a torque,
 * gravity compensated by the generated RNEA, then driven back: it stops at the limit
 * (within the step's travel at the stabilised approach), pushes back with lambda >= 0 on
 * the upper row only, and is released (lambda = 0) when the torque reverses. The clamped
 * arm does the same with its tool held by a bilateral contact: rows of both kinds in one
 * problem. Row layout: the set's nc rows, then per limited joint (lower, upper). */
static void arm_into_limit(const generated_api *g)
{
    sim s;
    double tau[MAXV], zero[MAXV] = { 0 };
    const cdyn_contact_settings set = settings_for(0, CDYN_CONTACT_ADMM);
    sim_open(&s, g);
    ck_assert_int_eq(g->njoint_limits, 7);
    const int nc = g->nc, upper = nc + 2 * 1 + 1; /* joint 2's upper row */
    const double limit = g->joint_limits[1].upper;
    s.q[1] = 1.6;
    s.q[3] = -1.0; /* joints 4 and 6: inside their limits (q = 0 is not) */
    s.q[5] = 1.0;
    int touched = 0;
    for (int k = 0; k < 700; ++k) {
        const int push = k < 500;
        g->rnea(s.d, s.q, zero, zero, tau); /* holds the arm against gravity */
        tau[1] += push ? 10.0 : -10.0;
        for (int j = 0; j < g->nv; ++j)
            tau[j] -= 0.5 * s.v[j];
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_conditions(&p, 1e-2, G0 * DT);
        for (int r = nc; r < p.nr; ++r)
            ck_assert_msg(p.lambda[r] >= 0, "limit row %d pulls: %g", r, p.lambda[r]);
        ck_assert_msg(s.q[1] <= limit + 1e-9, "step %d: joint 2 at %.12g past %.12g", k, s.q[1],
                      limit);
        if (push && k > 400) { /* at the limit, held there */
            ck_assert_msg(fabs(s.q[1] - limit) <= 1e-9 && p.lambda[upper] > 0,
                          "step %d: joint 2 at %.12g, lambda %g", k, s.q[1], p.lambda[upper]);
            touched = 1;
        }
        if (k > 550) /* driven away: released */
            ck_assert_msg(p.lambda[upper] == 0 && s.q[1] < limit - 1e-3,
                          "step %d: joint 2 at %.12g, lambda %g", k, s.q[1], p.lambda[upper]);
    }
    ck_assert(touched);
    sim_close(&s);
}

START_TEST(arm_stops_at_its_limit)
{
    arm_into_limit(&contact_arm_api);
}
END_TEST

START_TEST(clamped_arm_stops_at_its_limit)
{
    arm_into_limit(&contact_arm_clamped_api);
}
END_TEST

/* ---- bad input ---------------------------------------------------------------------- */

START_TEST(bad_input_refused)
{
    sim s;
    double tau[6] = { 0 }, q1[MAXV], v1[MAXV];
    const double nan = strtod("nan", 0);
    sim_open(&s, &contact_box_api);
    s.q[2] = 0.05;
    for (int k = 0; k < MAXV; ++k)
        q1[k] = v1[k] = 7;
    cdyn_contact_settings set = settings_for(BOX_MU, CDYN_CONTACT_ADMM);
    const double zero_normal[12] = { 0 }, neg_mu[4] = { 0.4, -0.1, 0.4, 0.4 };
    set.dt = 0;
    ck_assert_int_eq(s.g->contact_step(s.d, &set, s.q, s.v, tau, q1, v1), CDYN_E_ARG);
    set.dt = DT;
    set.mu = neg_mu;
    ck_assert_int_eq(s.g->contact_step(s.d, &set, s.q, s.v, tau, q1, v1), CDYN_E_ARG);
    set.mu = 0;
    set.normal = zero_normal;
    ck_assert_int_eq(s.g->contact_step(s.d, &set, s.q, s.v, tau, q1, v1), CDYN_E_ARG);
    set.normal = 0;
    set.cone.max_iter = 0;
    ck_assert_int_eq(s.g->contact_step(s.d, &set, s.q, s.v, tau, q1, v1), CDYN_E_ARG);
    set.cone.max_iter = 100;
    tau[3] = nan;
    ck_assert_int_eq(s.g->contact_step(s.d, &set, s.q, s.v, tau, q1, v1), CDYN_E_NONFINITE);
    ck_assert_int_eq(cdyn_contact_step(s.m, &s.gd, s.set_data, &s.gp, &set, s.q, s.v, tau, q1, v1),
                     CDYN_E_NONFINITE);
    tau[3] = 0;
    s.q[0] = 1.0 / 0.0;
    ck_assert_int_eq(s.g->contact_step(s.d, &set, s.q, s.v, tau, q1, v1), CDYN_E_NONFINITE);
    for (int k = 0; k < MAXV; ++k) /* outputs untouched */
        ck_assert(q1[k] == 7 && v1[k] == 7);
    sim_close(&s);
}
END_TEST

static Suite *contact_suite(void)
{
    Suite *s = suite_create("contact step");
    TCase *t = tcase_create("scenes");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, box_at_rest);
    tcase_add_test(t, box_pushed_sticks);
    tcase_add_test(t, box_pushed_slides);
    tcase_add_test(t, warm_start_resolve);
    tcase_add_test(t, ball_without_restitution_stops);
    tcase_add_test(t, ball_bounces_to_a_quarter);
    tcase_add_test(t, admm_and_pgs_agree);
    tcase_add_test(t, quadruped_stands_and_lifts_a_foot);
    tcase_add_test(t, quadruped_warm_power_iteration);
    tcase_add_test(t, arm_stops_at_its_limit);
    tcase_add_test(t, clamped_arm_stops_at_its_limit);
    tcase_add_test(t, bad_input_refused);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return check_run(contact_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
