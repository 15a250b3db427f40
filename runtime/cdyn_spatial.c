/* cdyn_spatial.c — the larger spatial helpers (see cdyn_spatial.h for conventions). */
#include "cdyn_spatial.h"

void cdyn_rot_axis(cdyn_real R[9], const cdyn_real a[3], cdyn_real c, cdyn_real s)
{
    const cdyn_real t = CDYN_R(1.0) - c;
    const cdyn_real tx = t * a[0], ty = t * a[1], tz = t * a[2];
    const cdyn_real sx = s * a[0], sy = s * a[1], sz = s * a[2];
    R[0] = c + tx * a[0];
    R[1] = tx * a[1] - sz;
    R[2] = tx * a[2] + sy;
    R[3] = tx * a[1] + sz;
    R[4] = c + ty * a[1];
    R[5] = ty * a[2] - sx;
    R[6] = tx * a[2] - sy;
    R[7] = ty * a[2] + sx;
    R[8] = c + tz * a[2];
}

void cdyn_quat_to_rot(cdyn_real R[9], const cdyn_real q[4])
{
    const cdyn_real x = q[0], y = q[1], z = q[2], w = q[3];
    const cdyn_real tx = 2 * x, ty = 2 * y, tz = 2 * z;
    const cdyn_real twx = tx * w, twy = ty * w, twz = tz * w;
    const cdyn_real txx = tx * x, txy = ty * x, txz = tz * x;
    const cdyn_real tyy = ty * y, tyz = tz * y, tzz = tz * z;
    R[0] = 1 - (tyy + tzz);
    R[1] = txy - twz;
    R[2] = txz + twy;
    R[3] = txy + twz;
    R[4] = 1 - (txx + tzz);
    R[5] = tyz - twx;
    R[6] = txz - twy;
    R[7] = tyz + twx;
    R[8] = 1 - (txx + tyy);
}

void cdyn_quat_mul(cdyn_real res[4], const cdyn_real a[4], const cdyn_real b[4])
{
    /* [v; w] = [aw bv + bw av + av x bv; aw bw - av . bv] */
    cdyn_cross3(res, a, b);
    for (int k = 0; k < 3; ++k)
        res[k] += a[3] * b[k] + b[3] * a[k];
    res[3] = a[3] * b[3] - cdyn_dot3(a, b);
}

void cdyn_inertia10_from_body(cdyn_real I10[10], cdyn_real mass, const cdyn_real com[3],
                              const cdyn_real I[6])
{
    const cdyn_real cx = com[0], cy = com[1], cz = com[2];
    I10[0] = mass;
    I10[1] = mass * cx;
    I10[2] = mass * cy;
    I10[3] = mass * cz;
    I10[4] = I[0] + mass * (cy * cy + cz * cz);
    I10[5] = I[1] - mass * cx * cy;
    I10[6] = I[2] - mass * cx * cz;
    I10[7] = I[3] + mass * (cx * cx + cz * cz);
    I10[8] = I[4] - mass * cy * cz;
    I10[9] = I[5] + mass * (cx * cx + cy * cy);
}

/* Full 3x3 of a symmetric (xx xy xz yy yz zz). */
static void cdyn__sym3_full(cdyn_real S[9], const cdyn_real s[6])
{
    S[0] = s[0];
    S[1] = s[1];
    S[2] = s[2];
    S[3] = s[1];
    S[4] = s[3];
    S[5] = s[4];
    S[6] = s[2];
    S[7] = s[4];
    S[8] = s[5];
}

/* res (xx xy xz yy yz zz) = R S R^T for a symmetric full S. */
static void cdyn__rot_congruence_sym(cdyn_real res[6], const cdyn_real R[9], const cdyn_real S[9])
{
    cdyn_real T[9];
    cdyn_rot_mul(T, R, S);
    res[0] = T[0] * R[0] + T[1] * R[1] + T[2] * R[2];
    res[1] = T[0] * R[3] + T[1] * R[4] + T[2] * R[5];
    res[2] = T[0] * R[6] + T[1] * R[7] + T[2] * R[8];
    res[3] = T[3] * R[3] + T[4] * R[4] + T[5] * R[5];
    res[4] = T[3] * R[6] + T[4] * R[7] + T[5] * R[8];
    res[5] = T[6] * R[6] + T[7] * R[7] + T[8] * R[8];
}

void cdyn_inertia10_add_act(cdyn_real acc[10], const cdyn_real R[9], const cdyn_real p[3],
                            const cdyn_real I10[10])
{
    /* Io' = R Io R^T - (p hr^T + hr p^T) + (2 hr.p + m |p|^2) 1 - m p p^T, hr = R h */
    const cdyn_real m = I10[0];
    cdyn_real hr[3], S[9], rot[6];
    cdyn_rot_apply(hr, R, I10 + 1);
    cdyn__sym3_full(S, I10 + 4);
    cdyn__rot_congruence_sym(rot, R, S);
    const cdyn_real diag = 2 * cdyn_dot3(hr, p) + m * cdyn_dot3(p, p);
    const cdyn_real mp[3] = { m * p[0], m * p[1], m * p[2] };
    static const int row[6] = { 0, 0, 0, 1, 1, 2 }, col[6] = { 0, 1, 2, 1, 2, 2 };
    acc[0] += m;
    for (int k = 0; k < 3; ++k)
        acc[1 + k] += hr[k] + mp[k];
    for (int k = 0; k < 6; ++k) {
        const int r = row[k], c = col[k];
        acc[4 + k] += rot[k] - (p[r] * hr[c] + hr[r] * p[c]) - mp[r] * p[c];
    }
    acc[4] += diag;
    acc[7] += diag;
    acc[9] += diag;
}

void cdyn_inertia_to_mat6(cdyn_real I36[36], cdyn_real mass, const cdyn_real com[3],
                          const cdyn_real I[6])
{
    cdyn_real I10[10];
    cdyn_inertia10_from_body(I10, mass, com, I);
    const cdyn_real *h = I10 + 1;
    const cdyn_real hx[9] = { 0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0 };
    cdyn_real Io[9];
    cdyn__sym3_full(Io, I10 + 4);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            I36[6 * r + c] = r == c ? mass : 0;
            I36[6 * r + c + 3] = -hx[3 * r + c];
            I36[6 * (r + 3) + c] = hx[3 * r + c];
            I36[6 * (r + 3) + c + 3] = Io[3 * r + c];
        }
}

/* The 3x3 block of a 6x6 at block row br, block column bc. */
static void cdyn__mat6_block(cdyn_real B[9], const cdyn_real I36[36], int br, int bc)
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            B[3 * r + c] = I36[6 * (3 * br + r) + 3 * bc + c];
}

void cdyn_mat6_add_act(cdyn_real acc[36], const cdyn_real R[9], const cdyn_real p[3],
                       const cdyn_real I36[36])
{
    /* I = [[A, B], [B^T, C]]; rotate each block (A' = R A R^T, ...), then shift by
     * P = [p]x:  A'' = A',  B'' = B' - A' P,  C'' = C' + P B'' - B'^T P. */
    cdyn_real A[9], B[9], C[9], T[9], Ar[6], Br[9], Cr[6];
    cdyn__mat6_block(A, I36, 0, 0);
    cdyn__mat6_block(B, I36, 0, 1);
    cdyn__mat6_block(C, I36, 1, 1);
    cdyn__rot_congruence_sym(Ar, R, A);
    cdyn__rot_congruence_sym(Cr, R, C);
    cdyn_rot_mul(T, R, B);
    cdyn_rot_mul_t(Br, T, R);

    cdyn_real Af[9], B2[9], C2[9];
    cdyn__sym3_full(Af, Ar);
    for (int r = 0; r < 3; ++r) { /* row r of A' P is (row r of A') x p */
        cdyn_real t[3];
        cdyn_cross3(t, Af + 3 * r, p);
        for (int c = 0; c < 3; ++c)
            B2[3 * r + c] = Br[3 * r + c] - t[c];
    }
    cdyn__sym3_full(C2, Cr);
    for (int c = 0; c < 3; ++c) { /* column c of P B'' is p x (column c of B'') */
        const cdyn_real col[3] = { B2[c], B2[3 + c], B2[6 + c] };
        cdyn_real t[3];
        cdyn_cross3(t, p, col);
        C2[c] += t[0];
        C2[3 + c] += t[1];
        C2[6 + c] += t[2];
    }
    for (int r = 0; r < 3; ++r) { /* row r of B'^T P is (column r of B') x p */
        const cdyn_real col[3] = { Br[r], Br[3 + r], Br[6 + r] };
        cdyn_real t[3];
        cdyn_cross3(t, col, p);
        for (int c = 0; c < 3; ++c)
            C2[3 * r + c] -= t[c];
    }
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            acc[6 * r + c] += Af[3 * r + c];
            acc[6 * r + c + 3] += B2[3 * r + c];
            acc[6 * (r + 3) + c] += B2[3 * c + r];
            acc[6 * (r + 3) + c + 3] += C2[3 * r + c];
        }
}
