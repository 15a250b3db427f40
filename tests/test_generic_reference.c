/* test_generic_reference.c — the generic runtime against Pinocchio 3.7's reference vectors
 * (CDYN_SHARED_DIR/reference) on six real robots, all four states, every algorithm.
 *
 * Each robot is run twice: with the model built from its URDF by model_table_load (the
 * whole chain), and with the model read straight from the reference's model.txt (joint
 * placements, inertias, S), so a runtime bug and a parser/tree bug fail in different
 * test cases. Tolerance: |x - ref| <= tol (1 + max|ref|) over each quantity. The references
 * round-trip exactly and agree with themselves to about 1e-13 relative (README); measured
 * here, the runtime on model.txt agrees to 4e-12 at worst (talos' L, from the conditioning
 * of M), hence 1e-11. Built from the URDF, robots with no near-right angle (solo12,
 * double_pendulum) agree as closely (5e-13), hence 1e-12; the others write right angles
 * rounded to 12 digits, which the tree makes exact (at most 4.9e-12 rad), and move by up to
 * 2e-11, hence 1e-10. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"
#include "support/check_main.h"
#include "model/model_table.h"
#include "support/models.h"
#include "support/reference.h"

#define REF_DIR CDYN_SHARED_DIR "/reference"
#define SKIP_RETURN_CODE 77
#define MODEL_TXT_TOL 1e-11

static const struct {
    const char *dir, *urdf;
    int floating;
    double urdf_tol; /* built from the URDF: 1e-10 where right angles are snapped */
} robots[] = {
    { "iiwa", "iiwa.urdf", 0, 1e-10 },
    { "ur5", "ur5_robot.urdf", 0, 1e-10 },
    { "double_pendulum", "double_pendulum.urdf", 0, 1e-12 },
    { "solo12", "solo12.urdf", 1, 1e-12 },
    { "hyq", "hyq_no_sensors.urdf", 1, 1e-10 },
    { "talos_full_v2", "talos_full_v2.urdf", 1, 1e-10 },
};
#define NROBOTS ((int)(sizeof robots / sizeof robots[0]))

static ref_file *load_ref(int robot, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", REF_DIR, robots[robot].dir, file);
    ref_file *f = ref_load(path);
    ck_assert_msg(f != NULL, "cannot read %s", path);
    return f;
}

/* ---- comparisons -------------------------------------------------------------------- */

typedef struct {
    const char *robot, *source;
    int state;
    double tol;
} context;

/* max |x - ref| <= tol (1 + max |ref|) over the n values. */
static void assert_close(const context *cx, const char *what, const cdyn_real *x, const double *ref,
                         int n)
{
    double scale = 0, err = 0;
    int at = 0;
    for (int k = 0; k < n; ++k) {
        const double e = fabs((double)x[k] - ref[k]);
        if (fabs(ref[k]) > scale)
            scale = fabs(ref[k]);
        if (!(e <= err)) { /* also catches NaN */
            err = e;
            at = k;
        }
    }
    ck_assert_msg(err <= cx->tol * (1 + scale),
                  "%s (%s) state %d: %s: |x - ref| = %.3g at [%d] (x %.17g, ref %.17g), "
                  "tolerance %.3g",
                  cx->robot, cx->source, cx->state, what, err, at, (double)x[at], ref[at],
                  cx->tol * (1 + scale));
}

static const ref_record *need(const ref_file *f, int state, const char *name, int rows, int cols)
{
    const ref_record *r = ref_get(f, state, name);
    ck_assert_msg(r != NULL, "state %d: no record %s", state, name);
    ck_assert_msg(r->rows == rows && r->cols == cols, "%s is %dx%d, expected %dx%d", name, r->rows,
                  r->cols, rows, cols);
    return r;
}

static void assert_record(const context *cx, const ref_file *f, const char *name,
                          const cdyn_real *x, int rows, int cols)
{
    assert_close(cx, name, x, need(f, cx->state, name, rows, cols)->v, rows * cols);
}

/* Dense inverse by Gauss-Jordan with partial pivoting, independent of the runtime. */
static void gauss_jordan_inverse(const double *A, double *inv, int n)
{
    double *W = malloc(sizeof(double) * (size_t)(n * 2 * n));
    ck_assert_ptr_nonnull(W);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < 2 * n; ++c)
            W[r * 2 * n + c] = c < n ? A[r * n + c] : (c - n == r);
    for (int c = 0; c < n; ++c) {
        int piv = c;
        for (int r = c + 1; r < n; ++r)
            if (fabs(W[r * 2 * n + c]) > fabs(W[piv * 2 * n + c]))
                piv = r;
        ck_assert_msg(W[piv * 2 * n + c] != 0, "reference M is singular");
        for (int k = 0; k < 2 * n; ++k) {
            const double t = W[c * 2 * n + k];
            W[c * 2 * n + k] = W[piv * 2 * n + k];
            W[piv * 2 * n + k] = t;
        }
        const double inv_p = 1 / W[c * 2 * n + c];
        for (int k = 0; k < 2 * n; ++k)
            W[c * 2 * n + k] *= inv_p;
        for (int r = 0; r < n; ++r) {
            const double f = W[r * 2 * n + c];
            if (r == c || f == 0)
                continue;
            for (int k = 0; k < 2 * n; ++k)
                W[r * 2 * n + k] -= f * W[c * 2 * n + k];
        }
    }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            inv[r * n + c] = W[r * 2 * n + n + c];
    free(W);
}

/* ---- the model, checked against model.txt ------------------------------------------- */

/* Joint order, sizes and parents, then each joint's placement, inertia and S. */
static void check_model(const context *cx, const cdyn_model *m, const cdyn_data *d,
                        const ref_file *mf)
{
    ck_assert_int_eq(m->nq, ref_header_int(mf, "nq", -1));
    ck_assert_int_eq(m->nv, ref_header_int(mf, "nv", -1));
    ck_assert_int_eq(m->nbodies, ref_njoints(mf));
    ck_assert_int_eq(ref_njoints(mf), ref_header_int(mf, "njoints", -1) - 1);
    for (int i = 0; i < m->nbodies; ++i) {
        const ref_joint *j = ref_joint_at(mf, i);
        const cdyn_body *b = &m->bodies[i];
        char name[256];
        ck_assert_msg(j->id == i + 1 && b->idx_q == j->idx_q && b->nq == j->nq &&
                          b->idx_v == j->idx_v && b->nv == j->nv && b->parent == j->parent - 1,
                      "%s (%s): body %d is not joint %d %s (idx_q %d/%d nq %d/%d idx_v %d/%d "
                      "nv %d/%d parent %d/%d)",
                      cx->robot, cx->source, i, j->id, j->name, b->idx_q, j->idx_q, b->nq, j->nq,
                      b->idx_v, j->idx_v, b->nv, j->nv, b->parent, j->parent - 1);
        cdyn_real placement[12], inertia[10], S[36];
        for (int k = 0; k < 9; ++k)
            placement[k] = b->R[k];
        for (int k = 0; k < 3; ++k)
            placement[9 + k] = b->p[k];
        inertia[0] = b->mass;
        for (int k = 0; k < 3; ++k)
            inertia[1 + k] = b->com[k];
        for (int k = 0; k < 6; ++k)
            inertia[4 + k] = b->inertia[k];
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < b->nv; ++c)
                S[r * b->nv + c] = d->S[6 * (b->idx_v + c) + r];
        snprintf(name, sizeof name, "placement.%s", j->name);
        assert_record(cx, mf, name, placement, 1, 12);
        snprintf(name, sizeof name, "inertia.%s", j->name);
        assert_record(cx, mf, name, inertia, 1, 10);
        snprintf(name, sizeof name, "S.%s", j->name);
        assert_record(cx, mf, name, S, 6, b->nv);
    }
    for (int k = 0; k < ref_nframes(mf); ++k) {
        const ref_frame *rf = ref_frame_at(mf, k);
        const int f = frame_index(m, rf->name);
        ck_assert_msg(f >= 0, "%s (%s): no frame %s", cx->robot, cx->source, rf->name);
        ck_assert_int_eq(m->frames[f].body, rf->parent_joint - 1);
        assert_close(cx, rf->name, m->frames[f].R, rf->R, 9);
        assert_close(cx, rf->name, m->frames[f].p, rf->p, 3);
    }
    assert_record(cx, mf, "gravity_world", m->gravity, 3, 1);
    cdyn_real *q = malloc(sizeof(cdyn_real) * (size_t)m->nq);
    ck_assert_int_eq(cdyn_neutral(m, q), CDYN_OK);
    assert_record(cx, mf, "q_neutral", q, m->nq, 1);
    free(q);
}

/* ---- the algorithms, state by state ------------------------------------------------- */

typedef struct {
    cdyn_real *q, *v, *tau, *a, *out, *M, *L, *D, *Minv, *J;
    double *U_T, *Minv_ref;
} buffers;

static void buffers_alloc(buffers *b, const cdyn_model *m)
{
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv, r = sizeof(cdyn_real);
    b->q = malloc(r * nq);
    b->v = malloc(r * nv);
    b->tau = malloc(r * nv);
    b->a = malloc(r * nv);
    b->out = malloc(r * nv);
    b->M = malloc(r * nv * nv);
    b->L = malloc(r * nv * nv);
    b->D = malloc(r * nv);
    b->Minv = malloc(r * nv * nv);
    b->J = malloc(r * 6 * nv);
    b->U_T = malloc(sizeof(double) * nv * nv);
    b->Minv_ref = malloc(sizeof(double) * nv * nv);
    ck_assert(b->q && b->v && b->tau && b->a && b->out && b->M && b->L && b->D && b->Minv && b->J &&
              b->U_T && b->Minv_ref);
}

static void buffers_free(buffers *b)
{
    free(b->q);
    free(b->v);
    free(b->tau);
    free(b->a);
    free(b->out);
    free(b->M);
    free(b->L);
    free(b->D);
    free(b->Minv);
    free(b->J);
    free(b->U_T);
    free(b->Minv_ref);
}

static void read_vector(cdyn_real *x, const ref_file *f, int state, const char *name, int n)
{
    const ref_record *r = need(f, state, name, n, 1);
    for (int k = 0; k < n; ++k)
        x[k] = (cdyn_real)r->v[k];
}

static void check_dynamics(const context *cx, const cdyn_model *m, cdyn_data *d, const ref_file *uf,
                           buffers *b)
{
    const int nv = m->nv;
    ck_assert_int_eq(cdyn_rnea(m, d, b->q, b->v, b->a, b->out), CDYN_OK);
    assert_record(cx, uf, "rnea", b->out, nv, 1);
    ck_assert_int_eq(cdyn_nle(m, d, b->q, b->v, b->out), CDYN_OK);
    assert_record(cx, uf, "nle", b->out, nv, 1);
    ck_assert_int_eq(cdyn_gravity(m, d, b->q, b->out), CDYN_OK);
    assert_record(cx, uf, "gravity", b->out, nv, 1);
    ck_assert_int_eq(cdyn_aba(m, d, b->q, b->v, b->tau, b->out), CDYN_OK);
    assert_record(cx, uf, "aba", b->out, nv, 1);

    ck_assert_int_eq(cdyn_crba(m, d, b->q, b->M), CDYN_OK);
    const ref_record *M = need(uf, cx->state, "M", nv, nv);
    assert_close(cx, "M", b->M, M->v, nv * nv);
    ck_assert_int_eq(cdyn_ltl(m, d), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl_factor(m, d, b->L, b->D), CDYN_OK);
    const ref_record *U = need(uf, cx->state, "chol_U", nv, nv);
    for (int r = 0; r < nv; ++r) /* L = U^T */
        for (int c = 0; c < nv; ++c)
            b->U_T[r * nv + c] = U->v[c * nv + r];
    assert_close(cx, "L = chol_U^T", b->L, b->U_T, nv * nv);
    assert_record(cx, uf, "chol_D", b->D, nv, 1);
    ck_assert_int_eq(cdyn_nle(m, d, b->q, b->v, b->out), CDYN_OK); /* M^-1 (tau - nle) */
    for (int k = 0; k < nv; ++k)
        b->out[k] = b->tau[k] - b->out[k];
    ck_assert_int_eq(cdyn_ltl_solve(m, d, b->out), CDYN_OK);
    assert_record(cx, uf, "aba", b->out, nv, 1);

    ck_assert_int_eq(cdyn_minv(m, d, b->q, b->Minv), CDYN_OK);
    gauss_jordan_inverse(M->v, b->Minv_ref, nv);
    assert_close(cx, "M^-1 (Gauss-Jordan of the reference M)", b->Minv, b->Minv_ref, nv * nv);
}

static void check_frames(const context *cx, const cdyn_model *m, cdyn_data *d, const ref_file *mf,
                         const ref_file *uf, buffers *b)
{
    const int nv = m->nv;
    ck_assert_int_eq(cdyn_fk(m, d, b->q), CDYN_OK);
    for (int k = 0; k < ref_nframes(mf); ++k) {
        const char *fname = ref_frame_at(mf, k)->name;
        const int f = frame_index(m, fname);
        cdyn_real R[9], p[3];
        char name[256];
        ck_assert_int_eq(cdyn_frame_placement(m, d, f, R, p), CDYN_OK);
        snprintf(name, sizeof name, "oMf_R.%s", fname);
        assert_record(cx, uf, name, R, 3, 3);
        snprintf(name, sizeof name, "oMf_p.%s", fname);
        assert_record(cx, uf, name, p, 3, 1);
    }
    for (int k = 0; k < ref_nframes(mf); ++k) {
        const char *fname = ref_frame_at(mf, k)->name;
        const int f = frame_index(m, fname);
        char name[256];
        cdyn_real R[9], p[3];
        ck_assert_int_eq(cdyn_frame_jacobian(m, d, b->q, f, CDYN_LOCAL, b->J), CDYN_OK);
        snprintf(name, sizeof name, "J_local.%s", fname);
        assert_record(cx, uf, name, b->J, 6, nv);
        ck_assert_int_eq(cdyn_frame_jacobian(m, d, b->q, f, CDYN_LOCAL_WORLD_ALIGNED, b->J),
                         CDYN_OK);
        snprintf(name, sizeof name, "J_lwa.%s", fname);
        assert_record(cx, uf, name, b->J, 6, nv);
        /* the Jacobian leaves the frame's placement in d */
        ck_assert_int_eq(cdyn_frame_placement(m, d, f, R, p), CDYN_OK);
        snprintf(name, sizeof name, "oMf_R.%s", fname);
        assert_record(cx, uf, name, R, 3, 3);
        snprintf(name, sizeof name, "oMf_p.%s", fname);
        assert_record(cx, uf, name, p, 3, 1);
    }
}

static void check_robot(const char *source, int robot, const cdyn_model *m, const ref_file *mf)
{
    context cx = { robots[robot].dir, source, -1,
                   strcmp(source, "urdf") == 0 ? robots[robot].urdf_tol : MODEL_TXT_TOL };
    ref_file *uf = load_ref(robot, "unconstrained.txt");
    const size_t bytes = cdyn_data_size(m);
    void *buf = malloc(bytes);
    cdyn_data d;
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(cdyn_data_init(&d, m, buf, bytes), CDYN_OK);
    check_model(&cx, m, &d, mf);

    buffers b;
    buffers_alloc(&b, m);
    ck_assert_int_eq(ref_nstates(uf), 4);
    for (cx.state = 0; cx.state < ref_nstates(uf); ++cx.state) {
        read_vector(b.q, uf, cx.state, "q", m->nq);
        read_vector(b.v, uf, cx.state, "v", m->nv);
        read_vector(b.tau, uf, cx.state, "tau", m->nv);
        read_vector(b.a, uf, cx.state, "a", m->nv);
        check_dynamics(&cx, m, &d, uf, &b);
        check_frames(&cx, m, &d, mf, uf, &b);
    }
    buffers_free(&b);
    free(buf);
    ref_free(uf);
}

/* ---- models --------------------------------------------------------------------------- */

START_TEST(test_urdf_model)
{
    char path[512], err[512] = "";
    model_table mt;
    snprintf(path, sizeof path, "%s/urdf/%s", REF_DIR, robots[_i].urdf);
    ck_assert_msg(model_table_load(path, robots[_i].floating, &mt, err, sizeof err) == 0,
                  "model_table_load(%s): %s", path, err);
    ref_file *mf = load_ref(_i, "model.txt");
    check_robot("urdf", _i, &mt.model, mf);
    ref_free(mf);
    model_table_free(&mt);
}
END_TEST

/* The model as Pinocchio built it, from model.txt alone. */
typedef struct {
    cdyn_model model;
    cdyn_body *bodies;
    cdyn_frame *frames;
    int *dof_parent, *dof_body;
} txt_model;

static cdyn_joint_type joint_type(const char *pinocchio_type)
{
    if (strstr(pinocchio_type, "FreeFlyer"))
        return CDYN_JOINT_FREEFLYER;
    if (strstr(pinocchio_type, "Planar"))
        return CDYN_JOINT_PLANAR;
    if (strstr(pinocchio_type, "Unbounded") || strstr(pinocchio_type, "RUB"))
        return CDYN_JOINT_REVOLUTE_UNBOUNDED;
    if (strstr(pinocchio_type, "Prismatic") || !strncmp(pinocchio_type, "JointModelP", 11))
        return CDYN_JOINT_PRISMATIC;
    ck_assert_msg(strstr(pinocchio_type, "Revolute") || !strncmp(pinocchio_type, "JointModelR", 11),
                  "unknown joint type %s", pinocchio_type);
    return CDYN_JOINT_REVOLUTE;
}

static void txt_body(cdyn_body *b, const ref_file *mf, const ref_joint *j)
{
    char name[256];
    b->type = joint_type(j->type);
    b->parent = j->parent - 1;
    b->idx_q = j->idx_q;
    b->nq = j->nq;
    b->idx_v = j->idx_v;
    b->nv = j->nv;
    snprintf(name, sizeof name, "placement.%s", j->name);
    const ref_record *pl = need(mf, -1, name, 1, 12);
    snprintf(name, sizeof name, "inertia.%s", j->name);
    const ref_record *in = need(mf, -1, name, 1, 10);
    snprintf(name, sizeof name, "S.%s", j->name);
    const ref_record *S = need(mf, -1, name, 6, j->nv);
    for (int k = 0; k < 9; ++k)
        b->R[k] = (cdyn_real)pl->v[k];
    for (int k = 0; k < 3; ++k) {
        b->p[k] = (cdyn_real)pl->v[9 + k];
        b->com[k] = (cdyn_real)in->v[1 + k];
        /* S = [0; axis] for revolute joints, [axis; 0] for prismatic ones */
        b->axis[k] = (cdyn_real)S->v[j->nv * (k + (b->type == CDYN_JOINT_PRISMATIC ? 0 : 3))];
    }
    b->mass = (cdyn_real)in->v[0];
    for (int k = 0; k < 6; ++k)
        b->inertia[k] = (cdyn_real)in->v[4 + k];
}

static void txt_model_build(txt_model *t, const ref_file *mf)
{
    const int nb = ref_njoints(mf), nf = ref_nframes(mf);
    const int nv = ref_header_int(mf, "nv", -1), nq = ref_header_int(mf, "nq", -1);
    ck_assert(nb > 0 && nv > 0 && nq > 0);
    t->bodies = calloc((size_t)nb, sizeof *t->bodies);
    t->frames = calloc((size_t)nf + 1, sizeof *t->frames);
    t->dof_parent = malloc(sizeof(int) * (size_t)nv);
    t->dof_body = malloc(sizeof(int) * (size_t)nv);
    ck_assert(t->bodies && t->frames && t->dof_parent && t->dof_body);
    for (int i = 0; i < nb; ++i) {
        const ref_joint *j = ref_joint_at(mf, i);
        cdyn_body *b = &t->bodies[i];
        txt_body(b, mf, j);
        /* expanded parent: a joint's first DoF hangs off its parent's last one */
        const int up =
            b->parent < 0 ? -1 : t->bodies[b->parent].idx_v + t->bodies[b->parent].nv - 1;
        for (int k = 0; k < b->nv; ++k) {
            t->dof_parent[b->idx_v + k] = k ? b->idx_v + k - 1 : up;
            t->dof_body[b->idx_v + k] = i;
        }
    }
    for (int k = 0; k < nf; ++k) {
        const ref_frame *rf = ref_frame_at(mf, k);
        t->frames[k].name = rf->name;
        t->frames[k].body = rf->parent_joint - 1;
        for (int r = 0; r < 9; ++r)
            t->frames[k].R[r] = (cdyn_real)rf->R[r];
        for (int r = 0; r < 3; ++r)
            t->frames[k].p[r] = (cdyn_real)rf->p[r];
    }
    const ref_record *g = need(mf, -1, "gravity_world", 3, 1);
    t->model = (cdyn_model){ ref_header(mf, "robot"),
                             nb,
                             nq,
                             nv,
                             nf,
                             t->bodies,
                             t->frames,
                             t->dof_parent,
                             t->dof_body,
                             { (cdyn_real)g->v[0], (cdyn_real)g->v[1], (cdyn_real)g->v[2] } };
}

static void txt_model_free(txt_model *t)
{
    free(t->bodies);
    free(t->frames);
    free(t->dof_parent);
    free(t->dof_body);
}

START_TEST(test_txt_model)
{
    ref_file *mf = load_ref(_i, "model.txt");
    txt_model t;
    txt_model_build(&t, mf);
    check_robot("model.txt", _i, &t.model, mf);
    txt_model_free(&t);
    ref_free(mf);
}
END_TEST

/* ---- the reader itself, on values read off iiwa's files ------------------------------- */

START_TEST(test_reader)
{
    ref_file *mf = load_ref(0, "model.txt");
    ck_assert_str_eq(ref_header(mf, "robot"), "iiwa");
    ck_assert_str_eq(ref_header(mf, "root"), "fixed");
    ck_assert_int_eq(ref_header_int(mf, "njoints", -1), 8);
    ck_assert_int_eq(ref_nstates(mf), 0);
    ck_assert_int_eq(ref_njoints(mf), 7);
    const ref_joint *j = ref_joint_at(mf, 6);
    ck_assert_str_eq(j->name, "lbr_iiwa_joint_7");
    ck_assert_str_eq(j->type, "JointModelRZ");
    ck_assert(j->id == 7 && j->idx_q == 6 && j->nq == 1 && j->idx_v == 6 && j->nv == 1 &&
              j->parent == 6);
    ck_assert_ptr_eq(ref_find_joint(mf, "lbr_iiwa_joint_7"), j);
    const ref_record *pl = ref_get(mf, -1, "placement.lbr_iiwa_joint_1");
    ck_assert(pl && pl->rows == 1 && pl->cols == 12);
    ck_assert(pl->v[0] == 1 && pl->v[11] == 0.1575);
    ck_assert_ptr_null(ref_get(mf, 0, "placement.lbr_iiwa_joint_1"));
    ref_free(mf);

    ref_file *cf = load_ref(0, "contact_H3.txt");
    ck_assert_int_eq(ref_nstates(cf), 4);
    ck_assert_int_eq(ref_ncontacts(cf), 1);
    const ref_contact *c = ref_contact_at(cf, 0);
    ck_assert(c->index == 0 && c->dim == 3 && c->parent_joint == 7);
    ck_assert_str_eq(c->frame, "lbr_iiwa_link_7");
    ck_assert_int_eq(ref_header_int(cf, "constraint_dim", -1), 3);
    const ref_record *q = ref_get(cf, 0, "q");
    ck_assert(q && q->rows == 7 && q->cols == 1 && q->v[0] == 2.2347391067138269);
    ck_assert_str_eq(ref_record_at(cf, 0, 0)->name, "q");
    ck_assert_int_eq(ref_nrecords(cf, 0), ref_nrecords(cf, 3));
    ref_free(cf);
    ck_assert_ptr_null(ref_load(REF_DIR "/no_such_file.txt"));
}
END_TEST

static Suite *generic_reference_suite(void)
{
    Suite *s = suite_create("generic_reference");
    TCase *reader = tcase_create("reader");
    tcase_add_test(reader, test_reader);
    suite_add_tcase(s, reader);
    TCase *txt = tcase_create("model_txt");
    tcase_add_loop_test(txt, test_txt_model, 0, NROBOTS);
    suite_add_tcase(s, txt);
    TCase *urdf = tcase_create("urdf");
    tcase_add_loop_test(urdf, test_urdf_model, 0, NROBOTS);
    tcase_set_timeout(urdf, 30);
    suite_add_tcase(s, urdf);
    return s;
}

int main(void)
{
    FILE *probe = fopen(REF_DIR "/README.md", "r");
    if (!probe) {
        printf("test_generic_reference: skipped: no reference vectors in %s\n", REF_DIR);
        return SKIP_RETURN_CODE;
    }
    fclose(probe);
    return check_run(generic_reference_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
