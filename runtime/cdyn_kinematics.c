/* cdyn_kinematics.c — joint transforms, forward kinematics, frame placements and
 * Jacobians, and the configuration manifold (neutral, integrate). The workspace these
 * fill is carved in cdyn_workspace.c. */
#include "cdyn_internal.h"

/* ---- joint transforms --------------------------------------------------------------- */

static void cdyn__copy(cdyn_real *dst, const cdyn_real *src, int n)
{
    for (int k = 0; k < n; ++k)
        dst[k] = src[k];
}

/* R = Rb * Rot(axis, c, s). An axis along +-e_k only mixes the two other columns of Rb. */
static void cdyn__rotate_about_axis(cdyn_real R[9], const cdyn_real Rb[9], const cdyn_real axis[3],
                                    int k, cdyn_real c, cdyn_real s)
{
    if (k < 0) {
        cdyn_real RJ[9];
        cdyn_rot_axis(RJ, axis, c, s);
        cdyn_rot_mul(R, Rb, RJ);
        return;
    }
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    if (axis[k] < 0)
        s = -s;
    for (int r = 0; r < 3; ++r) {
        const cdyn_real bi = Rb[3 * r + i], bj = Rb[3 * r + j];
        R[3 * r + k] = Rb[3 * r + k];
        R[3 * r + i] = c * bi + s * bj;
        R[3 * r + j] = c * bj - s * bi;
    }
}

/* p = pb + Rb t */
static void cdyn__offset(cdyn_real p[3], const cdyn_real Rb[9], const cdyn_real pb[3],
                         const cdyn_real t[3])
{
    cdyn_rot_apply(p, Rb, t);
    p[0] += pb[0];
    p[1] += pb[1];
    p[2] += pb[2];
}

void cdyn__joint_placement(const cdyn_model *m, cdyn_data *d, int i, const cdyn_real *q)
{
    static const cdyn_real z_axis[3] = { 0, 0, 1 };
    const cdyn_body *b = &m->bodies[i];
    const cdyn_real *qj = q + b->idx_q;
    cdyn_real *R = d->liR + 9 * i, *p = d->lip + 3 * i;
    switch (b->type) {
    case CDYN_JOINT_REVOLUTE:
        cdyn__rotate_about_axis(R, b->R, b->axis, d->axis_index[i], CDYN_COS(qj[0]),
                                CDYN_SIN(qj[0]));
        cdyn__copy(p, b->p, 3);
        break;
    case CDYN_JOINT_REVOLUTE_UNBOUNDED:
        cdyn__rotate_about_axis(R, b->R, b->axis, d->axis_index[i], qj[0], qj[1]);
        cdyn__copy(p, b->p, 3);
        break;
    case CDYN_JOINT_PRISMATIC: {
        const cdyn_real t[3] = { b->axis[0] * qj[0], b->axis[1] * qj[0], b->axis[2] * qj[0] };
        cdyn__copy(R, b->R, 9);
        cdyn__offset(p, b->R, b->p, t);
        break;
    }
    case CDYN_JOINT_PLANAR: {
        const cdyn_real t[3] = { qj[0], qj[1], 0 };
        cdyn__rotate_about_axis(R, b->R, z_axis, 2, qj[2], qj[3]);
        cdyn__offset(p, b->R, b->p, t);
        break;
    }
    case CDYN_JOINT_FREEFLYER: {
        cdyn_real RJ[9];
        cdyn_quat_to_rot(RJ, qj + 3);
        cdyn_rot_mul(R, b->R, RJ);
        cdyn__offset(p, b->R, b->p, qj);
        break;
    }
    }
}

/* ---- forward kinematics ------------------------------------------------------------- */

/* (R, p) = (Ra, pa) * (Rb, pb) */
static void cdyn__compose(cdyn_real R[9], cdyn_real p[3], const cdyn_real Ra[9],
                          const cdyn_real pa[3], const cdyn_real Rb[9], const cdyn_real pb[3])
{
    cdyn_rot_mul(R, Ra, Rb);
    cdyn__offset(p, Ra, pa, pb);
}

static void cdyn__frame_in_world(const cdyn_model *m, cdyn_data *d, int k)
{
    const cdyn_frame *fr = &m->frames[k];
    cdyn_real *R = d->ofR + 9 * k, *p = d->ofp + 3 * k;
    if (fr->body < 0) {
        cdyn__copy(R, fr->R, 9);
        cdyn__copy(p, fr->p, 3);
        return;
    }
    cdyn__compose(R, p, d->oR + 9 * fr->body, d->op + 3 * fr->body, fr->R, fr->p);
}

void cdyn__body_in_world(const cdyn_model *m, cdyn_data *d, int i)
{
    const int parent = m->bodies[i].parent;
    if (parent < 0) {
        cdyn__copy(d->oR + 9 * i, d->liR + 9 * i, 9);
        cdyn__copy(d->op + 3 * i, d->lip + 3 * i, 3);
    } else {
        cdyn__compose(d->oR + 9 * i, d->op + 3 * i, d->oR + 9 * parent, d->op + 3 * parent,
                      d->liR + 9 * i, d->lip + 3 * i);
    }
}

cdyn_status cdyn_fk(const cdyn_model *m, cdyn_data *d, const cdyn_real *q)
{
    if (cdyn__check(m, d) || !q)
        return CDYN_E_ARG;
    for (int i = 0; i < m->nbodies; ++i) {
        cdyn__joint_placement(m, d, i, q);
        cdyn__body_in_world(m, d, i);
    }
    for (int k = 0; k < m->nframes; ++k)
        cdyn__frame_in_world(m, d, k);
    return CDYN_OK;
}

cdyn_status cdyn_frame_placement(const cdyn_model *m, const cdyn_data *d, int frame, cdyn_real R[9],
                                 cdyn_real p[3])
{
    if (cdyn__check(m, d) || frame < 0 || frame >= m->nframes)
        return CDYN_E_ARG;
    if (R)
        cdyn__copy(R, d->ofR + 9 * frame, 9);
    if (p)
        cdyn__copy(p, d->ofp + 3 * frame, 3);
    return CDYN_OK;
}

/* ---- frame Jacobian ----------------------------------------------------------------- */

/* (Rx, px) := (Rx, px) * (liR_i, lip_i)^-1: a map "body i -> target" becomes
 * "parent of i -> target". (R, p)^-1 = (R^T, -R^T p). */
static void cdyn__compose_inverse(cdyn_real Rx[9], cdyn_real px[3], const cdyn_data *d, int i)
{
    const cdyn_real *R = d->liR + 9 * i, *p = d->lip + 3 * i;
    cdyn_real Rn[9], t[3];
    cdyn_rot_mul_t(Rn, Rx, R);
    cdyn_rot_apply(t, Rn, p);
    px[0] -= t[0];
    px[1] -= t[1];
    px[2] -= t[2];
    cdyn__copy(Rx, Rn, 9);
}

static void cdyn__set_column(cdyn_real *J, int nv, int k, const cdyn_real col[6])
{
    for (int r = 0; r < 6; ++r)
        J[r * nv + k] = col[r];
}

/* LOCAL_WORLD_ALIGNED = blockdiag(R, R) LOCAL on the support columns of body b. */
static void cdyn__align_to_world(const cdyn_model *m, cdyn_real *J, const cdyn_real R[9], int b)
{
    const int nv = m->nv;
    for (int k = m->bodies[b].idx_v + m->bodies[b].nv - 1; k >= 0; k = m->dof_parent[k]) {
        cdyn_real loc[6], col[6];
        for (int r = 0; r < 6; ++r)
            loc[r] = J[r * nv + k];
        cdyn_rot_apply(col, R, loc);
        cdyn_rot_apply(col + 3, R, loc + 3);
        cdyn__set_column(J, nv, k, col);
    }
}

cdyn_status cdyn_frame_jacobian(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, int frame,
                                cdyn_reference ref, cdyn_real *J)
{
    if (cdyn__check(m, d) || !q || !J || frame < 0 || frame >= m->nframes ||
        (ref != CDYN_LOCAL && ref != CDYN_LOCAL_WORLD_ALIGNED))
        return CDYN_E_ARG;
    const int nv = m->nv;
    for (int k = 0; k < 6 * nv; ++k)
        J[k] = 0;
    /* Walk from the frame's body to the root, keeping X = (frame <- current body):
     * column k of J_local is X S_k; one transform per supporting body. */
    const cdyn_frame *fr = &m->frames[frame];
    cdyn_real XR[9], Xp[3];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            XR[3 * r + c] = fr->R[3 * c + r];
    cdyn_rot_apply(Xp, XR, fr->p);
    Xp[0] = -Xp[0];
    Xp[1] = -Xp[1];
    Xp[2] = -Xp[2];
    for (int i = fr->body; i >= 0; i = m->bodies[i].parent) {
        const cdyn_body *b = &m->bodies[i];
        cdyn__joint_placement(m, d, i, q);
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k) {
            cdyn_real col[6];
            cdyn__act_S(col, XR, Xp, d, k);
            cdyn__set_column(J, nv, k, col);
        }
        cdyn__compose_inverse(XR, Xp, d, i);
    }
    /* X is now (frame <- world); the frame's world placement is its inverse. */
    cdyn_real *oR = d->ofR + 9 * frame, *op = d->ofp + 3 * frame;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            oR[3 * r + c] = XR[3 * c + r];
    cdyn_rot_apply(op, oR, Xp);
    op[0] = -op[0];
    op[1] = -op[1];
    op[2] = -op[2];
    if (ref == CDYN_LOCAL_WORLD_ALIGNED && fr->body >= 0)
        cdyn__align_to_world(m, J, oR, fr->body);
    return CDYN_OK;
}

/* ---- configuration manifold --------------------------------------------------------- */

cdyn_status cdyn_neutral(const cdyn_model *m, cdyn_real *q)
{
    if (!m || !q || (!m->bodies && m->nbodies))
        return CDYN_E_ARG;
    for (int k = 0; k < m->nq; ++k)
        q[k] = 0;
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE_UNBOUNDED: q[b->idx_q] = 1; break; /* [cos sin] = [1 0] */
        case CDYN_JOINT_PLANAR: q[b->idx_q + 2] = 1; break;         /* [x y cos sin] */
        case CDYN_JOINT_FREEFLYER: q[b->idx_q + 6] = 1; break;      /* qw = 1 */
        default: break;
        }
    }
    return CDYN_OK;
}

/* (c, s) rotated by the angle theta and renormalised (cosine, sine pairs). */
static void cdyn__rotate_pair(cdyn_real out[2], const cdyn_real cs[2], cdyn_real theta)
{
    const cdyn_real ct = CDYN_COS(theta), st = CDYN_SIN(theta);
    const cdyn_real c = cs[0] * ct - cs[1] * st, s = cs[1] * ct + cs[0] * st;
    const cdyn_real inv = 1 / CDYN_SQRT(c * c + s * s);
    out[0] = c * inv;
    out[1] = s * inv;
}

/* q = [x y c s] composed on the right with exp of the SE(2) twist (vx, vy, w) dt. */
static void cdyn__integrate_planar(cdyn_real out[4], const cdyn_real q[4], const cdyn_real v[3],
                                   cdyn_real dt)
{
    const cdyn_real th = v[2] * dt, vx = v[0] * dt, vy = v[1] * dt;
    cdyn_real sinc, cosc; /* sin(th)/th and (1 - cos th)/th */
    if (th < CDYN__SMALL_ANGLE && th > -CDYN__SMALL_ANGLE) {
        const cdyn_real t2 = th * th;
        sinc = 1 - t2 / 6 * (1 - t2 / 20);
        cosc = th / 2 * (1 - t2 / 12 * (1 - t2 / 30));
    } else {
        const cdyn_real sh = CDYN_SIN(th / 2);
        sinc = CDYN_SIN(th) / th;
        cosc = 2 * sh * sh / th;
    }
    const cdyn_real tx = sinc * vx - cosc * vy, ty = cosc * vx + sinc * vy;
    out[0] = q[0] + q[2] * tx - q[3] * ty;
    out[1] = q[1] + q[3] * tx + q[2] * ty;
    cdyn__rotate_pair(out + 2, q + 2, th);
}

/* q = [p; quat] composed on the right with exp of the body twist [v; w] dt:
 * exp gives the rotation quaternion [sin(th/2) w/th; cos(th/2)] and the translation
 * (1 + B [w]x + C [w]x^2) v, B = (1 - cos th)/th^2, C = (th - sin th)/th^3. */
static void cdyn__integrate_freeflyer(cdyn_real out[7], const cdyn_real q[7], const cdyn_real v[6],
                                      cdyn_real dt)
{
    const cdyn_real u[3] = { v[0] * dt, v[1] * dt, v[2] * dt };
    const cdyn_real w[3] = { v[3] * dt, v[4] * dt, v[5] * dt };
    const cdyn_real t2 = cdyn_dot3(w, w), th = CDYN_SQRT(t2);
    cdyn_real half_sinc, C; /* sin(th/2)/th, (th - sin th)/th^3 */
    cdyn_real e[4];
    if (th < CDYN__SMALL_ANGLE) {
        half_sinc = CDYN_R(0.5) * (1 - t2 / 24 * (1 - t2 / 80));
        C = (1 - t2 / 20 * (1 - t2 / 42)) / 6;
        e[3] = 1 - t2 / 8 * (1 - t2 / 48);
    } else {
        half_sinc = CDYN_SIN(th / 2) / th;
        C = (th - CDYN_SIN(th)) / (t2 * th);
        e[3] = CDYN_COS(th / 2);
    }
    const cdyn_real B = 2 * half_sinc * half_sinc; /* 1 - cos th = 2 sin^2(th/2) */
    e[0] = half_sinc * w[0];
    e[1] = half_sinc * w[1];
    e[2] = half_sinc * w[2];
    cdyn_real wu[3], wwu[3], t[3], Rq[9], Rt[3], quat[4];
    cdyn_cross3(wu, w, u);
    cdyn_cross3(wwu, w, wu);
    for (int k = 0; k < 3; ++k)
        t[k] = u[k] + B * wu[k] + C * wwu[k];
    cdyn_quat_to_rot(Rq, q + 3);
    cdyn_rot_apply(Rt, Rq, t);
    for (int k = 0; k < 3; ++k)
        out[k] = q[k] + Rt[k];
    cdyn_quat_mul(quat, q + 3, e);
    const cdyn_real inv = 1 / CDYN_SQRT(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] +
                                        quat[3] * quat[3]);
    for (int k = 0; k < 4; ++k)
        out[3 + k] = quat[k] * inv;
}

cdyn_status cdyn_integrate(const cdyn_model *m, const cdyn_real *q, const cdyn_real *v,
                           cdyn_real dt, cdyn_real *q_next)
{
    if (!m || !q || !v || !q_next || (!m->bodies && m->nbodies))
        return CDYN_E_ARG;
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *qi = q + b->idx_q, *vi = v + b->idx_v;
        cdyn_real *out = q_next + b->idx_q;
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE:
        case CDYN_JOINT_PRISMATIC: out[0] = qi[0] + vi[0] * dt; break;
        case CDYN_JOINT_REVOLUTE_UNBOUNDED: cdyn__rotate_pair(out, qi, vi[0] * dt); break;
        case CDYN_JOINT_PLANAR: cdyn__integrate_planar(out, qi, vi, dt); break;
        case CDYN_JOINT_FREEFLYER: cdyn__integrate_freeflyer(out, qi, vi, dt); break;
        }
    }
    return CDYN_OK;
}
