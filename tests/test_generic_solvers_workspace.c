/* test_generic_solvers_workspace.c — the generic solvers' workspaces (test_generic_solvers'
 * second file; the fixture and sets: test_generic_solvers.h):
 *
 *  - nothing is carried over between calls: with the workspaces scrambled (NaN and 1e30)
 *    between two calls the outputs are bitwise identical;
 *  - workspaces carved anew over junk bytes (cdyn_data_attach, cdyn_constraint_data_attach,
 *    what a --size robot does on every call) give every function's results bit for bit as
 *    initialised ones, also moved after crba; cdyn_data_view refuses junk;
 * on sample sets and seeded random robots with random sets. */
#include "test_generic_solvers.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "support/random_robot.h"

/* ---- nothing carried over between calls ---- */

/* Every real the solvers may write: d's after the constant S, cd's but the set's inputs
 * (ref_R, ref_p, and bR, bp which hold the identity for a contact from init). */
static void scramble(fixture *fx, double junk)
{
    cdyn_data *d = &fx->d;
    cdyn_constraint_data *cd = &fx->cd;
    for (double *x = d->liR; x < d->LinvT + fx->nv * fx->nv; ++x)
        *x = junk;
    for (double *x = cd->aR; x < cd->bR; ++x)
        *x = junk;
    for (double *x = cd->J; x < (double *)(void *)cd->row; ++x)
        *x = junk;
    cd->primal_residual = cd->dual_residual = junk;
}

static void check_scrambled(fixture *fx, xorshift64s *g)
{
    const int nv = fx->nv, nc = fx->nc;
    double Kp[MAXCON + 2], Kd[MAXCON + 2];
    for (int k = 0; k < fx->n; ++k)
        Kp[k] = Kd[k] = 10 + k;
    random_state(fx->m, g, fx->q, fx->v, fx->tau, fx->x);
    for (int s = 0; s < NSOLVERS; ++s)
        for (int gains = 0; gains < 2 && (solvers[s].loops || !fx->loops); ++gains) {
            cdyn_prox_settings st = prox_settings(1e-6, 3);
            cdyn_real p[2], dl[2];
            st.Kp = gains ? Kp : NULL;
            st.Kd = gains ? Kd : NULL;
            const int it0 = solvers[s].f(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau,
                                         fx->ddq0, fx->lam0);
            cdyn_constraint_residuals(&fx->cd, &p[0], &dl[0]);
            ck_assert_int_eq(it0, 3);
            for (int junk = 0; junk < 2; ++junk) {
                scramble(fx, junk ? NAN : 1e30);
                const int it = solvers[s].f(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau,
                                            fx->ddq, fx->lam);
                cdyn_constraint_residuals(&fx->cd, &p[1], &dl[1]);
                ck_assert_int_eq(it, it0);
                ck_assert_msg(memcmp(fx->ddq, fx->ddq0, (size_t)nv * sizeof(double)) == 0 &&
                                  memcmp(fx->lam, fx->lam0, (size_t)nc * sizeof(double)) == 0 &&
                                  p[0] == p[1] && dl[0] == dl[1],
                              "%s: %s differs after scrambling (%s, gains %d)", fx->what,
                              solvers[s].name, junk ? "NaN" : "1e30", gains);
            }
        }
}

START_TEST(test_scrambled)
{
    model_table mt;
    cdyn_constraint set[MAXCON + 2];
    fixture fx;
    xorshift64s g = { 777 + (uint64_t)_i };
    const int which[3] = { 3, 8, 9 }; /* quadruped 3d feet; humanoid contacts, with a loop */
    const sample_set *s = &sample_sets[which[_i]];
    load_sample(s->file, s->floating, &mt);
    fixture_open(&fx, &mt.model, s->what, 1, set, sample_set_constraints(s, &mt.model, set));
    check_scrambled(&fx, &g);
    fixture_close(&fx);
    model_table_free(&mt);
}
END_TEST

START_TEST(test_scrambled_random)
{
    random_model r;
    cdyn_constraint set[MAXCON + 2];
    fixture fx;
    xorshift64s g = { 0xABCDEFull + (uint64_t)_i };
    random_model_open(&r, (unsigned)_i);
    fixture_open(&fx, &r.mt.model, "random robot", 0, set,
                 random_constraint_set(&r.mt.model, &g, MAXCON, 0, set));
    check_scrambled(&fx, &g);
    fixture_close(&fx);
    random_model_close(&r);
}
END_TEST

/* ---- a workspace carved anew over any bytes (cdyn_data_attach, --size) ---- */

static int contacts_only(const fixture *fx)
{
    return !fx->loops;
}

/* Every function's results on (d, cd) at the fixture's state, one after another into out,
 * statuses included; returns how many. Reference placements come from constraint_capture
 * (at the neutral pose) before anything reads them. */
static int run_everything(fixture *fx, cdyn_data *d, cdyn_constraint_data *cd, double *out)
{
    const cdyn_model *m = fx->m;
    const int nv = fx->nv, nc = fx->nc, nf = m->nframes;
    double Kp[2 * MAXCON + 2], Kd[2 * MAXCON + 2], *q0 = fx->y, *o = out;
    cdyn_prox_settings st = prox_settings(1e-4, 3);
    for (int k = 0; k < fx->n; ++k) {
        Kp[k] = 50 + k;
        Kd[k] = 5;
    }
    /* each result: its status in o[0], its values from o[1]; then o moves past them */
#define PUT(call, len) (o[0] = (call), o += 1 + (len))
    PUT(cdyn_fk(m, d, fx->q), 0);
    for (int f = 0; f < nf; ++f)
        PUT(cdyn_frame_placement(m, d, f, o + 1, o + 10), 12);
    for (int ref = 0; ref < 4; ++ref)
        PUT(cdyn_frame_jacobian(m, d, fx->q, ref < 2 ? nf - 1 : nf / 2, (cdyn_reference)(ref % 2),
                                o + 1),
            6 * nv);
    PUT(cdyn_rnea(m, d, fx->q, fx->v, fx->tau, o + 1), nv);
    PUT(cdyn_nle(m, d, fx->q, fx->v, o + 1), nv);
    PUT(cdyn_gravity(m, d, fx->q, o + 1), nv);
    PUT(cdyn_crba(m, d, fx->q, o + 1), nv * nv);
    PUT(cdyn_ltl(m, d), 0);
    PUT(cdyn_ltl_factor(m, d, o + 1, o + 1 + nv * nv), nv * nv + nv);
    memcpy(o + 1, fx->tau, (size_t)nv * sizeof(double));
    PUT(cdyn_ltl_solve(m, d, o + 1), nv);
    PUT(cdyn_minv(m, d, fx->q, o + 1), nv * nv);
    PUT(cdyn_aba(m, d, fx->q, fx->v, fx->tau, o + 1), nv);
    ck_assert_int_eq(cdyn_neutral(m, q0), CDYN_OK);
    PUT(cdyn_constraint_capture(m, d, cd, q0), 0);
    for (int k = 0; k < fx->n; ++k) /* a contact's references (a loop has none) */
        if (fx->set[k].frame_b < 0) {
            memcpy(o, cd->ref_R + 9 * k, 9 * sizeof(double));
            memcpy(o + 9, cd->ref_p + 3 * k, 3 * sizeof(double));
            o += 12;
        }
    PUT(cdyn_constraint_jacobian(m, d, cd, fx->q, o + 1), nc * nv);
    PUT(cdyn_constraint_drift(m, d, cd, fx->q, fx->v, o + 1), nc);
    PUT(cdyn_delassus(m, d, cd, fx->q, st.mu, o + 1), nc * nc);
    st.Kp = Kp;
    st.Kd = Kd;
    for (int s = -1; s < NSOLVERS; ++s) {
        solver_fn f = s < 0 ? cdyn_prox_ltl : solvers[s].f;
        if (s >= 0 && !solvers[s].loops && !contacts_only(fx))
            continue;
        o[0] = f(m, d, cd, &st, fx->q, fx->v, fx->tau, o + 1, o + 1 + nv);
        cdyn_constraint_residuals(cd, o + 1 + nv + nc, o + 2 + nv + nc);
        o += 3 + nv + nc;
    }
    PUT(cdyn_impulse(m, d, cd, &st, fx->q, fx->v, 0.5, o + 1, o + 1 + nv), nv + nc);
#undef PUT
    return (int)(o - out);
}

/* Results on workspaces attached over junk (and moved) are those on initialised ones, bit
 * for bit: nothing a function reads is left from cdyn_data_init's zeroing but what attach
 * refills. A view of junk is refused; a view of a filled workspace reads it. */
static void check_attached(fixture *fx, xorshift64s *g)
{
    const cdyn_model *m = fx->m;
    const int nv = fx->nv, cap = 12 * m->nframes + 40 * (nv + fx->nc + 4) * (nv + fx->nc + 4);
    double *ref = malloc((size_t)cap * sizeof(double));
    double *got = malloc((size_t)cap * sizeof(double));
    unsigned char *dbuf = malloc(fx->dbytes + 8), *cbuf = malloc(fx->cbytes), *moved;
    cdyn_data d, view;
    cdyn_constraint_data cd;
    ck_assert(ref && got && dbuf && cbuf);
    random_state(fx->m, g, fx->q, fx->v, fx->tau, fx->x);
    const int n = run_everything(fx, &fx->d, &fx->cd, ref);
    ck_assert_int_lt(n, cap);
    for (int junk = 0; junk < 3; ++junk) {
        for (size_t k = 0; k < fx->dbytes + 8; ++k)
            dbuf[k] = junk == 0   ? 0xff
                      : junk == 1 ? 0x00
                                  : (unsigned char)xorshift64s_uniform(g, 0, 256);
        for (size_t k = 0; k < fx->cbytes; ++k)
            cbuf[k] = junk == 0   ? 0xff
                      : junk == 1 ? 0x00
                                  : (unsigned char)xorshift64s_uniform(g, 0, 256);
        ck_assert_int_eq(cdyn_data_view(&view, m, dbuf, fx->dbytes), CDYN_E_ARG);
        ck_assert_ptr_null(view.model);
        ck_assert_int_eq(cdyn_ltl_solve(m, &view, fx->x), CDYN_E_ARG);
        ck_assert_int_eq(cdyn_data_attach(&d, m, dbuf, fx->dbytes), CDYN_OK);
        ck_assert_int_eq(cdyn_constraint_data_attach(&cd, m, fx->set, fx->n, cbuf, fx->cbytes),
                         CDYN_OK);
        memset(got, 0, (size_t)cap * sizeof(double));
        ck_assert_int_eq(run_everything(fx, &d, &cd, got), n);
        int at = 0;
        while (at < n && memcmp(got + at, ref + at, sizeof(double)) == 0)
            ++at;
        ck_assert_msg(at == n,
                      "%s: results on an attached workspace (junk %d) differ at %d of "
                      "%d: %.17g, initialised %.17g",
                      fx->what, junk, at, n, got[at], ref[at]);
    }
    /* crba, then the workspace moved by 8 bytes (memmove; an odd count of floats): ltl and
     * its factor as on the initialised one */
    ck_assert_int_eq(cdyn_crba(m, &d, fx->q, NULL), CDYN_OK);
    moved = dbuf + 8;
    memmove(moved, dbuf, fx->dbytes);
    ck_assert_int_eq(cdyn_data_view(&view, m, moved, fx->dbytes), CDYN_OK);
    ck_assert_int_eq(cdyn_data_attach(&d, m, moved, fx->dbytes), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl(m, &d), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl_factor(m, &d, got, got + nv * nv), CDYN_OK);
    ck_assert_int_eq(cdyn_crba(m, &fx->d, fx->q, NULL), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl(m, &fx->d), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl_factor(m, &fx->d, ref, ref + nv * nv), CDYN_OK);
    ck_assert(memcmp(got, ref, (size_t)(nv * nv + nv) * sizeof(double)) == 0);
    ck_assert_int_eq(cdyn_data_view(&view, m, moved, fx->dbytes), CDYN_OK);
    memcpy(got, fx->tau, (size_t)nv * sizeof(double));
    memcpy(ref, fx->tau, (size_t)nv * sizeof(double));
    ck_assert_int_eq(cdyn_ltl_solve(m, &view, got), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl_solve(m, &fx->d, ref), CDYN_OK);
    ck_assert(memcmp(got, ref, (size_t)nv * sizeof(double)) == 0);
    /* what attach refuses leaves d and cd refused by every function */
    ck_assert_int_eq(cdyn_data_attach(&d, m, moved, fx->dbytes - 1), CDYN_E_SIZE);
    ck_assert_int_eq(cdyn_fk(m, &d, fx->q), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_data_attach(&d, m, NULL, fx->dbytes), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_data_view(&view, m, moved, fx->dbytes - 1), CDYN_E_SIZE);
    ck_assert_int_eq(cdyn_data_attach(NULL, m, moved, fx->dbytes), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_constraint_data_attach(&cd, m, fx->set, fx->n, cbuf, fx->cbytes - 1),
                     CDYN_E_SIZE);
    ck_assert_int_eq(cdyn_constraint_dim(&cd), 0);
    ck_assert_int_eq(cdyn_data_attach(&d, m, moved, fx->dbytes), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_jacobian(m, &d, &cd, fx->q, got), CDYN_E_ARG);
    free(ref);
    free(got);
    free(dbuf);
    free(cbuf);
}

START_TEST(test_attached)
{
    const sample_set *s = &sample_sets[_i];
    model_table mt;
    cdyn_constraint set[MAXCON + 2];
    fixture fx;
    xorshift64s g = { 4242 + (uint64_t)_i };
    load_sample(s->file, s->floating, &mt);
    fixture_open(&fx, &mt.model, s->what, 1, set, sample_set_constraints(s, &mt.model, set));
    check_attached(&fx, &g);
    fixture_close(&fx);
    model_table_free(&mt);
}
END_TEST

START_TEST(test_attached_random)
{
    const unsigned seed = seed_of(_i);
    random_model r;
    cdyn_constraint set[MAXCON + 2];
    fixture fx;
    xorshift64s g = { 0x5151ull + seed };
    random_model_open(&r, seed);
    for (int loops = 0; loops < 2; ++loops) {
        fixture_open(&fx, &r.mt.model, loops ? "random robot, loops allowed" : "random robot", 0,
                     set, random_constraint_set(&r.mt.model, &g, MAXCON, loops, set));
        check_attached(&fx, &g);
        fixture_close(&fx);
    }
    random_model_close(&r);
}
END_TEST

void add_workspace_tests(TCase *tc)
{
    tcase_add_loop_test(tc, test_scrambled, 0, 3);
    tcase_add_loop_test(tc, test_scrambled_random, 0, 4);
    tcase_add_loop_test(tc, test_attached, 0, nsample_sets);
    tcase_add_loop_test(tc, test_attached_random, 0, NSEEDS + (int)RANDOM_ROBOT_BIG_COUNT);
}
