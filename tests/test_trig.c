/* cdyn_sincos_n (runtime/cdyn_trig.h) against libm, in the scalar the build asks for: this
 * file is built twice, once with -DCDYN_FLOAT.
 * Bounds: within one ulp of 1 (2^-52 in double, 2^-23 in float) absolutely, as
 * docs/firmware.md states; in double also within two ulps of libm's value, even near a zero of sin or cos. In
 * float the reduction (pi/2 in three float parts) leaves errors near 1e-11 there: far below
 * an ulp of 1, but many ulps of a result as small as 4e-6. Angles: random at four scales (the reduction's parts are exact up
 * to |k| < 2^20), the quadrant boundaries, and the values handed to libm (beyond 1e5, 1e4 in
 * float; NaN and infinities give NaN as libm does). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "support/check_main.h"
#include "cdyn_trig.h"

#ifdef CDYN_FLOAT
#define ONE_ULP_OF_ONE 0x1p-23
#define LIBM_SIN(x) sinf(x)
#define LIBM_COS(x) cosf(x)
#define NEXT_UP(x) nextafterf((x), INFINITY)
#define FAR 1e4
#define RELATIVE_ULPS 1e30 /* not bounded: see above */
#else
#define ONE_ULP_OF_ONE 0x1p-52
#define LIBM_SIN(x) sin(x)
#define LIBM_COS(x) cos(x)
#define NEXT_UP(x) nextafter((x), INFINITY)
#define FAR 1e5
#define RELATIVE_ULPS 2
#endif

enum { BATCH = 1024 };

/* Every sin and cos of a batch within the bounds; *worst_abs the largest error seen. */
static void check_batch(const cdyn_real *x, int n, double *worst_abs)
{
    cdyn_real s[BATCH], c[BATCH];
    int i;
    cdyn_sincos_n(x, s, c, n);
    for (i = 0; i < n; i++) {
        const cdyn_real want[2] = { LIBM_SIN(x[i]), LIBM_COS(x[i]) }, got[2] = { s[i], c[i] };
        int k;
        for (k = 0; k < 2; k++) {
            const double err = fabs((double)got[k] - (double)want[k]);
            const cdyn_real mag = (cdyn_real)fabs((double)want[k]);
            const double ulp = (double)NEXT_UP(mag) - (double)mag;
            ck_assert_msg(err <= ONE_ULP_OF_ONE && err <= RELATIVE_ULPS * ulp,
                          "x = %.17g: %s %.17g, libm %.17g", (double)x[i], k ? "cos" : "sin",
                          (double)got[k], (double)want[k]);
            if (err > *worst_abs)
                *worst_abs = err;
        }
    }
}

START_TEST(random_angles_at_every_scale)
{
    static const double scales[] = { 1e-3, 1.0, 10.0, FAR };
    cdyn_real x[BATCH];
    double worst_abs = 0;
    int s, rep, i;
    srand(7);
    for (s = 0; s < 4; s++)
        for (rep = 0; rep < 200; rep++) {
            for (i = 0; i < BATCH; i++)
                x[i] = (cdyn_real)(scales[s] * (2.0 * rand() / RAND_MAX - 1));
            check_batch(x, BATCH, &worst_abs);
        }
    /* not vacuous: the comparison saw rounding differences */
    ck_assert(worst_abs > 0);
}
END_TEST

/* Odd lengths (a vector loop's remainder), the quadrant boundaries k pi/4 and their
 * neighbours, zero and its sign. */
START_TEST(quadrant_boundaries_and_short_batches)
{
    cdyn_real x[BATCH];
    double worst_abs = 0;
    int n = 0, k, d, len;
    for (k = -40; k <= 40; k++)
        for (d = -1; d <= 1; d++) {
            const cdyn_real b = (cdyn_real)(k * 0.78539816339744830962);
            x[n++] = d < 0 ? -NEXT_UP(-b) : d > 0 ? NEXT_UP(b) : b;
        }
    x[n++] = 0;
    x[n++] = -(cdyn_real)0;
    for (len = 1; len <= 9; len++)
        check_batch(x + 3 * len, len, &worst_abs);
    check_batch(x, n, &worst_abs);
}
END_TEST

/* Beyond the reduction's range the values come from libm, mixed into a batch of ordinary
 * angles; NaN and the infinities give NaN. */
START_TEST(far_angles_and_non_finite)
{
    cdyn_real x[8] = { 0.5, (cdyn_real)(3 * FAR), -0.25, (cdyn_real)(-7 * FAR), 1, 2, 3, 4 };
    cdyn_real bad[3] = { NAN, INFINITY, -INFINITY }, s[3], c[3];
    double worst_abs = 0;
    int i;
    check_batch(x, 8, &worst_abs);
    cdyn_sincos_n(bad, s, c, 3);
    for (i = 0; i < 3; i++)
        ck_assert(isnan((double)s[i]) && isnan((double)c[i]));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trig");
    TCase *tc = tcase_create("sincos_n");
    tcase_add_test(tc, random_angles_at_every_scale);
    tcase_add_test(tc, quadrant_boundaries_and_short_batches);
    tcase_add_test(tc, far_angles_and_non_finite);
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
