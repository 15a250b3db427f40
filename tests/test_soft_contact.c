/* test_soft_contact.c — the contact step's soft model (cdyn_contact_settings.model =
 * CDYN_CONTACT_SOFT, seed 000's spring-damper): per frictional contact
 *     lambda_n = dt f_n = max(0, -dt k phi - beta v+_n),   beta = dt (d + k dt),
 * its tangential rows regularised by the same compliance 1/beta. Each scene is stepped by
 * the generated code and, side by side from the same state every step, by the generic
 * runtime (support/contact_sim.h: generated = generic to 1e-10 relative), on
 *  - the 2 kg box of tests/contact/box.urdf on its four bottom corners, mu 0.4;
 *  - the 1 kg ball of tests/contact/ball.urdf (radius 0.1, a contact at its centre);
 * dt 1 ms. Every step's solution is checked against the model by this file's arithmetic:
 * the spring-damper law on the normal row, the regularised Coulomb law on the tangential
 * ones (lambda_t in the cone, opposed to c'_t = v+_t + lambda_t / beta on its edge, c'_t = 0
 * inside), and a contact left out of the step would not have pushed. The solvers run to
 * abs_tol 1e-14 on impulses ~1e-2 N s (m g dt): the laws to 1e-9 of m g dt. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "generated_api.h"
#include "support/check_main.h"
#include "support/contact_sim.h"

extern const generated_api contact_box_api, contact_ball_api;

#define BOX_MASS 2.0
#define BOX_MU 0.4
#define BALL_MASS 1.0
#define BALL_R 0.1

static const double box_inertia[3] = { 0.016666666666666666, 0.028333333333333332,
                                       0.041666666666666664 };
static const double ball_inertia[3] = { 0.004, 0.004, 0.004 };
static const double ball_radius[1] = { BALL_R };

static cdyn_contact_settings soft_settings(double mu, int solver, double k, double d)
{
    cdyn_contact_settings s = CDYN_CONTACT_SETTINGS_DEFAULT;
    s.dt = DT;
    s.friction = mu;
    s.solver = solver;
    s.cone.max_iter = 2000;
    s.cone.abs_tol = 1e-14; /* absolute, on impulses ~1e-2 N s */
    s.model = CDYN_CONTACT_SOFT;
    s.soft_stiffness = k;
    s.soft_damping = d;
    return s;
}

static double stiffness_of(const cdyn_contact_settings *s, int k)
{
    return s->stiffness ? s->stiffness[k] : s->soft_stiffness;
}

static double beta_of(const cdyn_contact_settings *s, int k)
{
    const double d = s->damping ? s->damping[k] : s->soft_damping;
    return s->dt * (d + stiffness_of(s, k) * s->dt);
}

/* The soft model on each frictional contact of p, by hand (see the top). */
static void check_soft(const cdyn_contact_problem *p, const cdyn_contact_settings *s,
                       double lam_scale, double vel_scale)
{
    for (int k = 0; k < p->n; ++k) {
        if (p->cones[k].kind != CDYN_CONE_FRICTION)
            continue;
        const double *l = p->lambda + p->set_row[k], *c = p->c + p->set_row[k];
        const double beta = beta_of(s, k);
        /* dt f_n = -dt (k phi+ + d v+_n) at the step's end, phi+ = phi + dt v+_n */
        const double law = -s->dt * stiffness_of(s, k) * p->phi[k] - beta * c[2];
        if (!p->active[k]) { /* left out: it would not have pushed */
            ck_assert(l[0] == 0 && l[1] == 0 && l[2] == 0);
            ck_assert_msg(law <= 1e-9 * lam_scale, "contact %d left out would push %g", k, law);
            continue;
        }
        ck_assert_msg(l[2] >= 0, "contact %d pulls: %g", k, l[2]);
        ck_assert_msg(fabs(l[2] - fmax(0, law)) <= 1e-9 * lam_scale,
                      "contact %d: lambda_n %.15g, the spring-damper's %.15g", k, l[2],
                      fmax(0, law));
        const double mu = p->cones[k].mu;
        const double ct0 = c[0] + l[0] / beta, ct1 = c[1] + l[1] / beta; /* c'_t */
        ck_assert_msg(hypot(l[0], l[1]) <= mu * l[2] + 1e-9 * lam_scale,
                      "contact %d outside its cone", k);
        /* with |lambda_t| <= mu lambda_n this is >= 0, and 0 only when c'_t = 0 (sticks)
         * or lambda_t = -mu lambda_n c'_t / |c'_t| (slides on the edge) */
        const double compl = l[0] * ct0 + l[1] * ct1 + mu * l[2] * hypot(ct0, ct1);
        ck_assert_msg(fabs(compl) <= 1e-8 * lam_scale * vel_scale,
                      "contact %d: friction not Coulomb's on c'_t: %g", k, compl);
    }
}

/* The signed distance of contact k at s->q (the ground plane z = 0, less the radius). */
static double phi_at(sim *s, int k, double radius)
{
    double R[9], pos[3];
    s->g->fk(s->d, s->q);
    ck_assert_int_eq(s->g->frame_placement(s->d, s->set[k].frame_a, R, pos), 0);
    return pos[2] - radius;
}

/* Kinetic (the free-flyer's velocity in its body axes at the centre of mass, diagonal
 * inertia), gravity's and the springs' energy, 1/2 k phi^2 while phi < 0. */
static double energy(sim *s, const cdyn_contact_settings *set, double mass,
                     const double inertia[3], double radius)
{
    const double *v = s->v;
    double e = 0.5 * mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + mass * G0 * s->q[2];
    for (int a = 0; a < 3; ++a)
        e += 0.5 * inertia[a] * v[3 + a] * v[3 + a];
    for (int k = 0; k < s->g->nconstraints; ++k) {
        const double phi = fmin(0, phi_at(s, k, radius));
        e += 0.5 * stiffness_of(set, k) * phi * phi;
    }
    return e;
}

/* ---- at rest: penetration m g / k -------------------------------------------------------- */

/* The box on its corners (ADMM, PGS) and the ball, released at phi = 0 and damped (the box's
 * bounce mode: 4k over 2 kg, 4d = 4e3 N s/m, damping ratio 2.2; the slow root ~100/s), after
 * 1000 steps: each corner sinks by its share of the weight over k. The step's fixed point is
 * exactly that (v+ = v = 0: lambda_n = -dt k phi and the impulses carry m g dt), the
 * transient is e^-100 gone and the solve is to 1e-14 on impulses of 5e-3: 1e-6 relative
 * is met with room. */
static void settle(const generated_api *g, double mass, double radius, int solver, double k,
                   double d)
{
    sim s;
    const double tau[6] = { 0 };
    cdyn_contact_settings set = soft_settings(BOX_MU, solver, k, d);
    set.radius = radius > 0 ? ball_radius : 0;
    sim_open(&s, g);
    s.q[2] = g == &contact_box_api ? 0.05 : BALL_R;
    const int n = g->nconstraints;
    for (int step = 0; step < 1000; ++step) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_soft(&p, &set, mass * G0 * DT, G0 * DT);
    }
    const double expect = -mass * G0 / (n * k);
    for (int c = 0; c < n; ++c) {
        const double phi = phi_at(&s, c, radius);
        ck_assert_msg(fabs(phi - expect) <= 1e-6 * fabs(expect),
                      "%s contact %d: phi %.12g, -m g / (n k) %.12g", g->name, c, phi, expect);
    }
    ck_assert_msg(vmax(s.v, 6) <= 1e-9, "still moving %g", vmax(s.v, 6));
    sim_close(&s);
}

START_TEST(soft_rest_penetration_is_m_g_over_k)
{
    settle(&contact_box_api, BOX_MASS, 0, CDYN_CONTACT_ADMM, 1e5, 1e3);
    settle(&contact_box_api, BOX_MASS, 0, CDYN_CONTACT_PGS, 1e5, 1e3);
    settle(&contact_box_api, BOX_MASS, 0, CDYN_CONTACT_ADMM, 3e6, 2e3);
    settle(&contact_ball_api, BALL_MASS, BALL_R, CDYN_CONTACT_ADMM, 1e5, 1e3);
}
END_TEST

/* Per-contact stiffness and damping (the arrays): the box's front corners at k 1e5, its hind
 * ones at 2e5 (d likewise). It settles tilted, the hind side higher; each corner's law is
 * checked with its own k and d (check_soft), and at rest each corner sinks by its own load
 * over its own k, the loads carrying the weight (1e-6, as above). */
START_TEST(soft_per_contact_arrays)
{
    sim s;
    const double tau[6] = { 0 }, k[4] = { 1e5, 1e5, 2e5, 2e5 }, d[4] = { 1e3, 1e3, 2e3, 2e3 };
    cdyn_contact_settings set = soft_settings(BOX_MU, CDYN_CONTACT_ADMM, 1, 0);
    set.stiffness = k;
    set.damping = d;
    sim_open(&s, &contact_box_api);
    s.q[2] = 0.05;
    for (int step = 0; step < 1000; ++step) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_soft(&p, &set, BOX_MASS * G0 * DT, G0 * DT);
    }
    const cdyn_contact_problem p = sim_view(&s);
    ck_assert(fabs(normal_sum(&p) - BOX_MASS * G0 * DT) <= 1e-6 * BOX_MASS * G0 * DT);
    /* the stiffer side sinks less: the corners' depths differ, each its load over its k */
    double load = 0;
    for (int c = 0; c < 4; ++c) {
        const double phi = phi_at(&s, c, 0), share = p.lambda[3 * c + 2] / DT;
        ck_assert_msg(fabs(phi + share / k[c]) <= 1e-6 * share / k[c], "corner %d: %g, %g", c,
                      phi, -share / k[c]);
        load += share;
    }
    ck_assert(phi_at(&s, 0, 0) < phi_at(&s, 2, 0));
    ck_assert(fabs(load - BOX_MASS * G0) <= 1e-6 * BOX_MASS * G0);
    sim_close(&s);
}
END_TEST

/* ---- a bounce: the ground never pulls ---------------------------------------------------- */

/* The ball dropped 0.2 m on a lightly damped spring (k 1e4, d 20: damping ratio 0.1) bounces
 * back up; lambda_n >= 0 every step, and in the steps where the linear spring-damper would
 * pull (still below the surface, moving out fast: -k phi+ - d v+_n < 0) lambda_n is 0. Those
 * steps must occur (else the check proves nothing), and the energy never grows. */
START_TEST(soft_never_pulls)
{
    sim s;
    const double tau[6] = { 0 };
    cdyn_contact_settings set = soft_settings(0.5, CDYN_CONTACT_ADMM, 1e4, 20);
    set.radius = ball_radius;
    sim_open(&s, &contact_ball_api);
    s.q[2] = BALL_R + 0.2;
    s.v[0] = 0.3; /* sliding as it lands: friction on the cone's edge */
    const double e0 = energy(&s, &set, BALL_MASS, ball_inertia, BALL_R);
    double e_prev = e0, apex = 0;
    int clipped = 0, touched = 0;
    for (int step = 0; step < 1000; ++step) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_soft(&p, &set, BALL_MASS * G0 * DT, G0 * DT);
        const double phi_next = s.q[2] - BALL_R, ln = p.lambda[2];
        const double linear = -set.soft_stiffness * phi_next - set.soft_damping * p.c[2];
        ck_assert_msg(ln >= 0, "step %d: lambda_n %g", step, ln);
        if (phi_next < 0 && linear < 0) {
            ck_assert_msg(ln == 0, "step %d: pulls %g", step, ln);
            clipped++;
        }
        if (ln > 0)
            touched = 1;
        else if (touched)
            apex = fmax(apex, phi_next);
        const double e = energy(&s, &set, BALL_MASS, ball_inertia, BALL_R);
        /* rounding of energies ~2.5 J: 1e-12 */
        ck_assert_msg(e <= e_prev + 1e-12 * e0, "step %d: energy grows %g", step, e - e_prev);
        e_prev = e;
    }
    ck_assert_msg(clipped >= 1, "no step where the linear law would pull");
    ck_assert_msg(apex > 0.05, "no bounce: apex %g", apex);
    printf("soft bounce (k 1e4, d 20): apex %.4f m of 0.2, %d steps clipped at lambda_n = 0\n",
           apex, clipped);
    sim_close(&s);
}
END_TEST

/* ---- stiff: no blow-up ------------------------------------------------------------------- */

/* k 1e7 N/m with no damping at dt 1 ms (omega dt ~3 for the ball, beyond an explicit
 * step's 2): the ball dropped 0.5 m, and the box from 0.15 m tilted and spinning, 1500
 * steps. The implicit spring damps what the step cannot resolve: the energy (kinetic,
 * gravity's, the springs') never exceeds its initial value (nor grows by more than rounding
 * from one step to the next), and it comes to rest at m g / k. */
static void stiff_drop(const generated_api *g, double mass, const double inertia[3],
                       double radius)
{
    sim s;
    const double tau[6] = { 0 };
    cdyn_contact_settings set = soft_settings(BOX_MU, CDYN_CONTACT_ADMM, 1e7, 0);
    set.radius = radius > 0 ? ball_radius : 0;
    sim_open(&s, g);
    if (radius > 0) {
        s.q[2] = BALL_R + 0.5;
    } else {
        const double w[6] = { 0, 0, 0, 0.15, -0.1, 0 };
        double q0[MAXV];
        s.q[2] = 0.15;
        memcpy(q0, s.q, sizeof q0);
        cdyn_integrate(s.m, q0, w, 1.0, s.q);
        s.v[0] = 0.2;
        s.v[5] = 1.0;
    }
    const double e0 = energy(&s, &set, mass, inertia, radius);
    double e_prev = e0, e_max = e0;
    for (int step = 0; step < 1500; ++step) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_soft(&p, &set, mass * G0 * DT, G0 * DT);
        const double e = energy(&s, &set, mass, inertia, radius);
        ck_assert_msg(isfinite(e) && e <= e_prev + 1e-12 * fabs(e0), "%s step %d: energy %g, %g",
                      g->name, step, e, e_prev);
        e_max = fmax(e_max, e);
        e_prev = e;
    }
    ck_assert(e_max <= e0);
    ck_assert_msg(vmax(s.v, 6) <= 1e-6, "%s still moving %g", g->name, vmax(s.v, 6));
    printf("soft stiff (k 1e7, d 0) %s: energy %.6g J -> %.6g J, lowest contact %.3g m\n",
           g->name, e0, e_prev, phi_at(&s, 0, radius));
    sim_close(&s);
}

START_TEST(soft_stiff_stays_bounded)
{
    stiff_drop(&contact_ball_api, BALL_MASS, ball_inertia, BALL_R);
    stiff_drop(&contact_box_api, BOX_MASS, box_inertia, 0);
}
END_TEST

/* ---- k -> infinity: the rigid step ------------------------------------------------------- */

#define DROP_STEPS 800

/* The height of the dropped body over DROP_STEPS: rigid (k = 0) or soft with k and the
 * critical damping of a contact's share of the mass, d = 2 sqrt(k m / n). */
static void drop_heights(const generated_api *g, double mass, double radius, double k,
                         double *z)
{
    sim s;
    const double tau[6] = { 0 };
    const int n = g->nconstraints;
    cdyn_contact_settings set = soft_settings(0.5, CDYN_CONTACT_ADMM, k, 2 * sqrt(k * mass / n));
    if (k == 0)
        set.model = CDYN_CONTACT_RIGID;
    set.radius = radius > 0 ? ball_radius : 0;
    sim_open(&s, g);
    s.q[2] = radius > 0 ? BALL_R + 0.5 : 0.05 + 0.3;
    for (int step = 0; step < DROP_STEPS; ++step) {
        sim_step(&s, &set, tau);
        if (k > 0) {
            const cdyn_contact_problem p = sim_view(&s);
            check_soft(&p, &set, mass * G0 * DT, G0 * DT);
        }
        z[step] = s.q[2];
    }
    sim_close(&s);
}

/* The max over the run of |z_soft - z_rigid| for k = 1e4 ... 1e7 decreases (the soft row
 * tends to the rigid one: b_s -> -phi/dt, 1/beta -> 0, d/k -> 0), each at least 1.5 times
 * smaller than the one before (measured 2.3 to 2.9; d/k ~ k^-1/2 alone would give 3.2), and
 * at 1e7 the trajectories agree to 2 mm (measured 0.85 mm for the ball, 0.57 for the box). */
static void tends_to_rigid(const generated_api *g, double mass, double radius)
{
    static double rigid[DROP_STEPS], soft[DROP_STEPS];
    double last = INFINITY;
    drop_heights(g, mass, radius, 0, rigid);
    printf("soft -> rigid, %s dropped (max |z_soft - z_rigid| over %d steps):", g->name,
           DROP_STEPS);
    for (double k = 1e4; k <= 1e7 * 1.01; k *= 10) {
        drop_heights(g, mass, radius, k, soft);
        double gap = 0;
        for (int step = 0; step < DROP_STEPS; ++step)
            gap = fmax(gap, fabs(soft[step] - rigid[step]));
        printf(" k %.0e: %.3e m;", k, gap);
        ck_assert_msg(gap * 1.5 <= last, "%s k %g: %g, not below %g / 1.5", g->name, k, gap,
                      last);
        last = gap;
    }
    printf("\n");
    ck_assert_msg(last <= 2e-3, "%s at k 1e7: %g", g->name, last);
}

START_TEST(soft_tends_to_rigid)
{
    tends_to_rigid(&contact_ball_api, BALL_MASS, BALL_R);
    tends_to_rigid(&contact_box_api, BOX_MASS, 0);
}
END_TEST

/* ---- friction: creep below the cone's edge, Coulomb on it -------------------------------- */

/* The box at rest at its penetration (k 1e5, d 1e3), pushed along x at its centre by push
 * for 300 steps; returns its x velocity. Below the cone's edge every corner sticks in the
 * regularised sense (c'_t = 0: its slip v+_t = -lambda_t / beta), so the box creeps: at the
 * steady state the four corners' friction carries the push,
 *     v* = push dt / (4 beta) = push / (4 (d + k dt))     (1.6 mm/s at 0.9 mu m g),
 * and its centre runs ahead of the corners by the pitch the friction's moment gives it:
 * h theta, theta = push h / (4 k a^2) (h = 0.05 m the centre's height, a = 0.2 m the corners'
 * half length; 1.1e-6 m at 0.9 mu m g). The bound checked every step: the centre travels at
 * most v* t + h theta (its slip starts below v*: measured 4e-7 m inside it at the end; the
 * corners' slip overshoots v* by 0.15% while the box pitches, the centre by 4.4%). After
 * 300 steps the box creeps at v* to 1e-6 (the pitch's transient decays by 0.9 a step). */
static double creep_run(double push, int solver, double *creep)
{
    sim s;
    double tau[6] = { 0 };
    const double k = 1e5, d = 1e3, h = 0.05, a = 0.2;
    const cdyn_contact_settings set = soft_settings(BOX_MU, solver, k, d);
    sim_open(&s, &contact_box_api);
    s.q[2] = 0.05 - BOX_MASS * G0 / (4 * k);
    tau[0] = push;
    *creep = push / (4 * (d + k * DT));
    const double pitch = push * h * h / (4 * k * a * a);
    double x = 0;
    for (int step = 1; step <= 300; ++step) {
        sim_step(&s, &set, tau);
        const cdyn_contact_problem p = sim_view(&s);
        check_soft(&p, &set, BOX_MASS * G0 * DT, G0 * DT);
        x += s.v[0] * DT;
        if (push < BOX_MU * BOX_MASS * G0) {
            ck_assert_msg(x <= *creep * step * DT + pitch, "step %d: travelled %.12g, bound %.12g",
                          step, x, *creep * step * DT + pitch);
            for (int c = 0; c < 4; ++c) /* inside the cone: sticking */
                ck_assert(hypot(p.lambda[3 * c], p.lambda[3 * c + 1]) <
                          BOX_MU * p.lambda[3 * c + 2]);
        } else if (step > 10) { /* on the cone's edge: sliding (1e-9 of m g dt, the solve's) */
            for (int c = 0; c < 4; ++c)
                ck_assert(fabs(hypot(p.lambda[3 * c], p.lambda[3 * c + 1]) -
                               BOX_MU * p.lambda[3 * c + 2]) <= 1e-9 * BOX_MASS * G0 * DT);
        }
    }
    const double vx = s.v[0];
    sim_close(&s);
    return vx;
}

START_TEST(soft_friction_creeps_then_slides)
{
    double creep;
    const double stick = 0.9 * BOX_MU * BOX_MASS * G0, slide = 1.1 * BOX_MU * BOX_MASS * G0;
    double v = 0;
    for (int solver = 0; solver < 2; ++solver) {
        v = creep_run(stick, solver, &creep);
        ck_assert_msg(fabs(v - creep) <= 1e-6 * creep, "creeps at %.12g, v* %.12g", v, creep);
    }
    printf("soft friction (k 1e5, d 1e3): 0.9 mu m g creeps at %.4g mm/s (v* %.4g)", v * 1e3,
           creep * 1e3);
    const double vs = creep_run(slide, CDYN_CONTACT_ADMM, &creep);
    printf(", 1.1 mu m g slides at %.4g m/s after 0.3 s\n", vs);
    /* on the edge the corners' friction is mu m g: the box gains 0.1 mu g per second, and
     * a little more in its first steps, while the corners' friction rises to the edge along
     * the regularised stick (4 beta v+ < mu m g dt until v+ reaches the edge's creep
     * velocity mu m g / (4 (d + k dt)) = 1.8 mm/s): 0.1 mu g t to at most that much more
     * (measured 1.1 mm/s); below, 1e-3 for the loads' pitch transient */
    const double coulomb = 0.1 * BOX_MU * G0 * 0.3, edge = BOX_MU * BOX_MASS * G0 / 4400.0;
    ck_assert_msg(vs >= coulomb * (1 - 1e-3) && vs <= coulomb + edge,
                  "slides at %g, expected %g to %g more", vs, coulomb, edge);
}
END_TEST

/* ---- bad settings ------------------------------------------------------------------------ */

static void refused(sim *s, const cdyn_contact_settings *set, const char *what)
{
    double tau[6] = { 0 }, q1[MAXV], v1[MAXV];
    for (int k = 0; k < MAXV; ++k)
        q1[k] = v1[k] = 7;
    ck_assert_msg(s->g->contact_step(s->d, set, s->q, s->v, tau, q1, v1) == CDYN_E_ARG,
                  "generated: %s", what);
    ck_assert_msg(cdyn_contact_step(s->m, &s->gd, s->set_data, &s->gp, set, s->q, s->v, tau,
                                    q1, v1) == CDYN_E_ARG,
                  "generic: %s", what);
    for (int k = 0; k < MAXV; ++k) /* outputs untouched */
        ck_assert(q1[k] == 7 && v1[k] == 7);
}

START_TEST(soft_bad_settings_refused)
{
    sim s;
    const double nan = strtod("nan", 0), inf = strtod("inf", 0), tau[6] = { 0 };
    const double bad_k[4] = { 1e5, 0, 1e5, 1e5 }, bad_d[4] = { 1e3, 1e3, -1, 1e3 };
    const double nan_k[4] = { 1e5, 1e5, 1e5, nan };
    sim_open(&s, &contact_box_api);
    s.q[2] = 0.05;
    const cdyn_contact_settings good = soft_settings(BOX_MU, CDYN_CONTACT_ADMM, 1e5, 1e3);
    cdyn_contact_settings set = good;
    const double ks[] = { 0, -1e5, nan, inf }, ds[] = { -1, nan, inf };
    for (size_t i = 0; i < sizeof ks / sizeof *ks; ++i) {
        set = good;
        set.soft_stiffness = ks[i];
        refused(&s, &set, "soft_stiffness");
    }
    for (size_t i = 0; i < sizeof ds / sizeof *ds; ++i) {
        set = good;
        set.soft_damping = ds[i];
        refused(&s, &set, "soft_damping");
    }
    set = good;
    set.stiffness = bad_k;
    refused(&s, &set, "stiffness[1] = 0");
    set.stiffness = nan_k;
    refused(&s, &set, "stiffness[3] NaN");
    set = good;
    set.damping = bad_d;
    refused(&s, &set, "damping[2] < 0");
    set = good;
    set.model = 2;
    refused(&s, &set, "model 2");
    /* the arrays stand for the scalars: a bad scalar with a good array is not read */
    const double k4[4] = { 1e5, 1e5, 1e5, 1e5 }, d4[4] = { 0, 0, 0, 0 };
    set = good;
    set.soft_stiffness = -1;
    set.soft_damping = nan;
    set.stiffness = k4;
    set.damping = d4;
    sim_step(&s, &set, tau);
    /* the rigid model reads none of them */
    set = good;
    set.model = CDYN_CONTACT_RIGID;
    set.soft_stiffness = 0;
    set.soft_damping = nan;
    set.stiffness = bad_k;
    sim_step(&s, &set, tau);
    sim_close(&s);
}
END_TEST

static Suite *soft_contact_suite(void)
{
    Suite *s = suite_create("soft contact step");
    TCase *t = tcase_create("scenes");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, soft_rest_penetration_is_m_g_over_k);
    tcase_add_test(t, soft_per_contact_arrays);
    tcase_add_test(t, soft_never_pulls);
    tcase_add_test(t, soft_stiff_stays_bounded);
    tcase_add_test(t, soft_tends_to_rigid);
    tcase_add_test(t, soft_friction_creeps_then_slides);
    tcase_add_test(t, soft_bad_settings_refused);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return check_run(soft_contact_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
