/* test_generated_reference.c — code generated for the six reference robots against
 * Pinocchio 3.7's vectors (all four states, every quantity they hold) and against the
 * generic runtime on the same model.
 *
 * Tolerances: 1e-9 relative to each quantity's size against Pinocchio (the reference agrees
 * with itself to ~1e-13; the tree snaps right-angle rotations by < 1e-11), and 1e-10 against
 * the generic runtime, which runs the same model in a different order of operations. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "support/check_main.h"
#include "support/compare.h"
#include "generated_api.h"
#include "support/registry.h"
#include "support/reference.h"

#define REF_TOL 1e-9
#define GENERIC_TOL 1e-10
#define SKIP_RETURN_CODE 77

typedef struct {
    const generated_api *api;
    ref_file *ref;
    void *d;      /* generated data */
    cdyn_data gd; /* generic data */
    void *gwork;
    double *buf; /* scratch vectors and matrices */
} fixture;

static void setup(fixture *fx, int robot)
{
    char path[1024];
    const cdyn_model *m;
    size_t bytes;
    fx->api = generated_robots[robot];
    m = fx->api->model;
    snprintf(path, sizeof path, "%s/reference/%s/unconstrained.txt", CDYN_SHARED_DIR,
             fx->api->name);
    fx->ref = ref_load(path);
    ck_assert_msg(fx->ref != NULL, "cannot read %s", path);
    fx->d = malloc(fx->api->data_size);
    bytes = cdyn_data_size(m);
    ck_assert_uint_eq(fx->api->generic_data_bytes, bytes); /* the static size is exact */
    fx->gwork = malloc(bytes);
    fx->buf = malloc(8 * (size_t)(fx->api->nv * fx->api->nv + 6 * fx->api->nv) * sizeof(double));
    ck_assert(fx->d && fx->gwork && fx->buf);
    ck_assert_int_eq(cdyn_data_init(&fx->gd, m, fx->gwork, bytes), CDYN_OK);
}

static void teardown(fixture *fx)
{
    ref_free(fx->ref);
    free(fx->d);
    free(fx->gwork);
    free(fx->buf);
}

static const double *rec(const fixture *fx, int s, const char *name, int n)
{
    const ref_record *r = ref_get(fx->ref, s, name);
    ck_assert_msg(r != NULL, "%s state %d: no record %s", fx->api->name, s, name);
    ck_assert_int_eq(r->rows * r->cols, n);
    return r->v;
}

static void check_dynamics(fixture *fx, int s)
{
    const generated_api *g = fx->api;
    const cdyn_model *m = g->model;
    int nv = g->nv, n2 = nv * nv;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    const double *tau = rec(fx, s, "tau", nv), *a = rec(fx, s, "a", nv);
    double *x = fx->buf, *y = x + n2, *L = y + n2, *D = L + n2, *h = D + nv;
    int i, j;
    const char *r = g->name;

    g->rnea(fx->d, q, v, a, x);
    assert_vec_close(x, rec(fx, s, "rnea", nv), nv, REF_TOL, "%s state %d rnea", r, s);
    cdyn_rnea(m, &fx->gd, q, v, a, y);
    assert_vec_close(x, y, nv, GENERIC_TOL, "%s state %d rnea vs generic", r, s);
    g->nle(fx->d, q, v, h);
    assert_vec_close(h, rec(fx, s, "nle", nv), nv, REF_TOL, "%s state %d nle", r, s);
    g->gravity(fx->d, q, x);
    assert_vec_close(x, rec(fx, s, "gravity", nv), nv, REF_TOL, "%s state %d gravity", r, s);
    ck_assert_int_eq(g->aba(fx->d, q, v, tau, x), 0);
    assert_vec_close(x, rec(fx, s, "aba", nv), nv, REF_TOL, "%s state %d aba", r, s);
    cdyn_aba(m, &fx->gd, q, v, tau, y);
    assert_vec_close(x, y, nv, GENERIC_TOL, "%s state %d aba vs generic", r, s);

    g->crba(fx->d, q, x);
    assert_vec_close(x, rec(fx, s, "M", n2), n2, REF_TOL, "%s state %d crba", r, s);
    ck_assert_int_eq(g->ltl(fx->d), 0);
    g->ltl_factor(fx->d, L, D);
    /* the reference's U (unit upper, M = U D U^T) is our L^T */
    for (i = 0; i < nv; i++)
        for (j = 0; j < nv; j++)
            y[i * nv + j] = L[j * nv + i];
    assert_vec_close(y, rec(fx, s, "chol_U", n2), n2, REF_TOL, "%s state %d L^T", r, s);
    assert_vec_close(D, rec(fx, s, "chol_D", nv), nv, REF_TOL, "%s state %d D", r, s);
    /* M^-1 (tau - nle) through the factor is the reference ABA */
    for (i = 0; i < nv; i++)
        x[i] = tau[i] - h[i];
    g->ltl_solve(fx->d, x);
    assert_vec_close(x, rec(fx, s, "aba", nv), nv, REF_TOL, "%s state %d ltl_solve", r, s);
    ck_assert_int_eq(g->minv(fx->d, q, x), 0);
    ck_assert_int_eq(cdyn_minv(m, &fx->gd, q, y), CDYN_OK);
    assert_vec_close(x, y, n2, GENERIC_TOL, "%s state %d minv vs generic", r, s);
}

static int frame_id(const generated_api *g, const char *name)
{
    int f;
    for (f = 0; f < g->nframes; f++)
        if (strcmp(g->frame_names[f], name) == 0)
            return f;
    ck_abort_msg("%s: no frame %s", g->name, name);
    return -1;
}

static void check_frames(fixture *fx, int s)
{
    const generated_api *g = fx->api;
    const double *q = rec(fx, s, "q", g->nq);
    int k, nv = g->nv;
    double R[9], p[3], *J = fx->buf;
    g->fk(fx->d, q);
    for (k = 0; k < ref_nrecords(fx->ref, s); k++) {
        const ref_record *r = ref_record_at(fx->ref, s, k);
        const char *dot = strchr(r->name, '.');
        int f;
        if (!dot || strncmp(r->name, "oMf_R.", 6) != 0)
            continue;
        f = frame_id(g, dot + 1);
        ck_assert_int_eq(g->frame_placement(fx->d, f, R, p), 0);
        assert_vec_close(R, r->v, 9, REF_TOL, "%s state %d %s", g->name, s, r->name);
        {
            char name[300];
            snprintf(name, sizeof name, "oMf_p.%s", dot + 1);
            assert_vec_close(p, rec(fx, s, name, 3), 3, REF_TOL, "%s state %d %s", g->name, s,
                             name);
            snprintf(name, sizeof name, "J_local.%s", dot + 1);
            ck_assert_int_eq(g->frame_jacobian(fx->d, q, f, CDYN_LOCAL, J), 0);
            assert_vec_close(J, rec(fx, s, name, 6 * nv), 6 * nv, REF_TOL, "%s state %d %s",
                             g->name, s, name);
            snprintf(name, sizeof name, "J_lwa.%s", dot + 1);
            ck_assert_int_eq(g->frame_jacobian(fx->d, q, f, CDYN_LOCAL_WORLD_ALIGNED, J), 0);
            assert_vec_close(J, rec(fx, s, name, 6 * nv), 6 * nv, REF_TOL, "%s state %d %s",
                             g->name, s, name);
        }
    }
    /* a bad frame id is refused */
    ck_assert_int_eq(g->frame_placement(fx->d, g->nframes, R, p), -1);
    ck_assert_int_eq(g->frame_jacobian(fx->d, q, -1, CDYN_LOCAL, J), -1);
}

START_TEST(generated_matches_reference)
{
    fixture fx;
    int s;
    setup(&fx, _i);
    ck_assert_int_eq(ref_nstates(fx.ref), 4);
    for (s = 0; s < 4; s++) {
        check_dynamics(&fx, s);
        check_frames(&fx, s);
    }
    teardown(&fx);
}
END_TEST

int main(void)
{
    const int nrobots = registry_count(generated_robots);
    Suite *s;
    TCase *tc;
    if (nrobots == 0) {
        printf("test_generated_reference: %s/reference absent at configure time, skipping\n",
               CDYN_SHARED_DIR);
        return SKIP_RETURN_CODE;
    }
    s = suite_create("generated_reference");
    tc = tcase_create("robots");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, generated_matches_reference, 0, nrobots);
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
