/* test_generic_constrained_kinematics.c — test_generic_constrained's kinematic checks:
 *
 *  - J against the frame Jacobians (cdyn_frame_jacobian): 3d R_A^T (pdot_A - pdot_B),
 *    6d R_A^T [pdot_A - pdot_B - w_B x (p_A - p_B); w_A - w_B];
 *  - J ddq + gamma against the time derivative of the same quantities, by
 *    Richardson-extrapolated central differences along q(t) = q (+) (v t + ddq t^2 / 2),
 *    v(t) = v + ddq t.
 *
 * Tolerances: the head of test_generic_constrained.c. */
#include "test_generic_constrained.h"

#include <string.h>
#include "support/compare.h"
#include "support/dense.h"

#define J_TOL 1e-12
#define FD_TOL 1e-7
#define FD_STEP 1e-3

void rot_t_apply(double y[3], const double R[9], const double x[3])
{
    for (int r = 0; r < 3; ++r)
        y[r] = R[r] * x[0] + R[3 + r] * x[1] + R[6 + r] * x[2];
}

static void cross(double y[3], const double a[3], const double b[3])
{
    y[0] = a[1] * b[2] - a[2] * b[1];
    y[1] = a[2] * b[0] - a[0] * b[2];
    y[2] = a[0] * b[1] - a[1] * b[0];
}

/* The world Jacobian (6 x nv, LOCAL_WORLD_ALIGNED) and placement of a frame at q. */
void frame_world(fixture *fx, const double *q, int f, double *J6, double R[9], double p[3])
{
    ck_assert_int_eq(cdyn_frame_jacobian(fx->m, &fx->d, q, f, CDYN_LOCAL_WORLD_ALIGNED, J6),
                     CDYN_OK);
    ck_assert_int_eq(cdyn_frame_placement(fx->m, &fx->d, f, R, p), CDYN_OK);
}

/* Row block of constraint c into Jc (dim x nv), from the frame Jacobians. */
static void reference_rows(fixture *fx, const double *q, const cdyn_constraint *c, double *Jc)
{
    const int nv = fx->nv;
    double *JA = fx->H, *JB = fx->H + 6 * nv, RA[9], pA[3], RB[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    double pB[3] = { 0, 0, 0 };
    frame_world(fx, q, c->frame_a, JA, RA, pA);
    if (c->frame_b >= 0)
        frame_world(fx, q, c->frame_b, JB, RB, pB);
    else
        memset(JB, 0, 6 * (size_t)nv * sizeof *JB);
    const double arm[3] = { pA[0] - pB[0], pA[1] - pB[1], pA[2] - pB[2] };
    for (int k = 0; k < nv; ++k) {
        double lin[3], ang[3], wb[3], shift[3], out[6];
        for (int r = 0; r < 3; ++r) {
            lin[r] = JA[r * nv + k] - JB[r * nv + k];
            ang[r] = JA[(3 + r) * nv + k] - JB[(3 + r) * nv + k];
            wb[r] = JB[(3 + r) * nv + k];
        }
        if (c->dim == 6) { /* B's velocity taken at A's origin */
            cross(shift, wb, arm);
            for (int r = 0; r < 3; ++r)
                lin[r] -= shift[r];
        }
        rot_t_apply(out, RA, lin);
        rot_t_apply(out + 3, RA, ang);
        for (int r = 0; r < c->dim; ++r)
            Jc[r * nv + k] = out[r];
    }
}

static void reference_jacobian(fixture *fx, const double *q, double *J)
{
    for (int k = 0, row = 0; k < fx->n; row += fx->set[k].dim, ++k)
        reference_rows(fx, q, &fx->set[k], J + row * fx->nv);
}

/* The world-side velocity quantity of constraint c at (q, v): 3d pdot_A - pdot_B, 6d the
 * difference of the frames' spatial velocities at the world origin (world axes). */
static void world_velocity(fixture *fx, const double *q, const double *v, const cdyn_constraint *c,
                           double out[6])
{
    const int nv = fx->nv, f[2] = { c->frame_a, c->frame_b };
    for (int r = 0; r < 6; ++r)
        out[r] = 0;
    for (int side = 0; side < 2; ++side) {
        double R[9], p[3], V[6], wxp[3];
        if (f[side] < 0)
            continue;
        frame_world(fx, q, f[side], fx->H, R, p);
        dense_mul(fx->H, 6, nv, v, V);
        cross(wxp, V + 3, p);
        for (int r = 0; r < 3; ++r) {
            const double lin = c->dim == 6 ? V[r] - wxp[r] : V[r];
            out[r] += side ? -lin : lin;
            out[3 + r] += side ? -V[3 + r] : V[3 + r];
        }
    }
}

/* d/dt world_velocity along q(t) = q (+) (v t + a t^2 / 2), v(t) = v + a t, by central
 * differences extrapolated (Richardson): (4 D(h/2) - D(h)) / 3. */
static void velocity_rate(fixture *fx, const cdyn_constraint *c, const double *a, double out[6])
{
    const int nv = fx->nv;
    double D[2][6];
    for (int level = 0; level < 2; ++level) {
        const double h = level ? FD_STEP / 2 : FD_STEP;
        double f[2][6];
        for (int s = 0; s < 2; ++s) {
            const double t = s ? -h : h;
            double *qt = fx->y, *vt = fx->y + fx->nq + 1, *step = vt + nv;
            for (int k = 0; k < nv; ++k) {
                step[k] = fx->v[k] * t + 0.5 * a[k] * t * t;
                vt[k] = fx->v[k] + a[k] * t;
            }
            ck_assert_int_eq(cdyn_integrate(fx->m, fx->q, step, 1.0, qt), CDYN_OK);
            world_velocity(fx, qt, vt, c, f[s]);
        }
        for (int r = 0; r < 6; ++r)
            D[level][r] = (f[0][r] - f[1][r]) / (2 * h);
    }
    for (int r = 0; r < 6; ++r)
        out[r] = (4 * D[1][r] - D[0][r]) / 3;
}

/* J and J a + gamma (a random) against the frame Jacobians and their time derivative. */
void check_kinematics(fixture *fx, xorshift64s *g, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    ck_assert_int_eq(cdyn_constraint_jacobian(fx->m, &fx->d, &fx->cd, fx->q, fx->J), CDYN_OK);
    reference_jacobian(fx, fx->q, fx->Jref);
    assert_vec_close(fx->J, fx->Jref, nc * nv, J_TOL, "%s state %d J", fx->what, state);
    double *a = fx->ddq, *gamma = fx->lambda, *lhs = fx->x;
    xorshift64s_vector(g, a, nv, 1.0);
    ck_assert_int_eq(cdyn_constraint_drift(fx->m, &fx->d, &fx->cd, fx->q, fx->v, gamma), CDYN_OK);
    dense_mul(fx->J, nc, nv, a, lhs);
    for (int k = 0, row = 0; k < fx->n; row += fx->set[k].dim, ++k) {
        const cdyn_constraint *c = &fx->set[k];
        double rate[6], RA[9], pA[3], ref[6], t[3];
        velocity_rate(fx, c, a, rate);
        frame_world(fx, fx->q, c->frame_a, fx->H, RA, pA);
        if (c->dim == 6) { /* motion seen in A's frame: R^T (v - p x w), R^T w */
            cross(t, pA, rate + 3);
            for (int r = 0; r < 3; ++r)
                t[r] = rate[r] - t[r];
            rot_t_apply(ref, RA, t);
            rot_t_apply(ref + 3, RA, rate + 3);
        } else {
            rot_t_apply(ref, RA, rate);
        }
        for (int r = 0; r < c->dim; ++r)
            lhs[row + r] += gamma[row + r];
        assert_vec_close(lhs + row, ref, c->dim, FD_TOL, "%s state %d constraint %d: J a + gamma",
                         fx->what, state, k);
    }
}
