/* dense.c — see dense.h. */
#include "dense.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int dense_cholesky(const double *A, double *G, int n)
{
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = A[i * n + j];
            for (int k = 0; k < j; ++k)
                s -= G[i * n + k] * G[j * n + k];
            if (i == j) {
                if (!(s > 0))
                    return -1;
                G[i * n + i] = sqrt(s);
            } else {
                G[i * n + j] = s / G[j * n + j];
            }
        }
    return 0;
}

void dense_cholesky_solve_factored(const double *G, int n, const double *b, double *x)
{
    for (int i = 0; i < n; ++i) {
        double s = b[i];
        for (int k = 0; k < i; ++k)
            s -= G[i * n + k] * x[k];
        x[i] = s / G[i * n + i];
    }
    for (int i = n - 1; i >= 0; --i) {
        double s = x[i];
        for (int k = i + 1; k < n; ++k)
            s -= G[k * n + i] * x[k];
        x[i] = s / G[i * n + i];
    }
}

int dense_cholesky_solve(const double *A, int n, double *X, int ncols)
{
    double *G = malloc((size_t)n * (size_t)n * sizeof *G);
    double *col = malloc((size_t)n * sizeof *col);
    int rc = G && col ? dense_cholesky(A, G, n) : -1;
    for (int c = 0; rc == 0 && c < ncols; ++c) {
        for (int i = 0; i < n; ++i)
            col[i] = X[i * ncols + c];
        dense_cholesky_solve_factored(G, n, col, col);
        for (int i = 0; i < n; ++i)
            X[i * ncols + c] = col[i];
    }
    free(G);
    free(col);
    return rc;
}

/* One Jacobi rotation zeroing A(p, q), applied to A (both sides) and V (right). */
static void jacobi_rotate(double *A, double *V, int n, int p, int q)
{
    const double apq = A[p * n + q];
    const double theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
    const double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
    const double c = 1 / sqrt(t * t + 1), s = t * c;
    for (int k = 0; k < n; ++k) { /* columns p, q */
        const double akp = A[k * n + p], akq = A[k * n + q];
        A[k * n + p] = c * akp - s * akq;
        A[k * n + q] = s * akp + c * akq;
    }
    for (int k = 0; k < n; ++k) { /* rows p, q */
        const double apk = A[p * n + k], aqk = A[q * n + k];
        A[p * n + k] = c * apk - s * aqk;
        A[q * n + k] = s * apk + c * aqk;
    }
    for (int k = 0; k < n; ++k) {
        const double vkp = V[k * n + p], vkq = V[k * n + q];
        V[k * n + p] = c * vkp - s * vkq;
        V[k * n + q] = s * vkp + c * vkq;
    }
}

int dense_sym_eigen(const double *A, int n, double *w, double *V)
{
    double *B = malloc((size_t)n * (size_t)n * sizeof *B);
    int rc = -1;
    if (!B)
        return -1;
    memcpy(B, A, (size_t)n * (size_t)n * sizeof *B);
    for (int i = 0; i < n * n; ++i)
        V[i] = 0;
    for (int i = 0; i < n; ++i)
        V[i * n + i] = 1;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0, diag = 0;
        for (int p = 0; p < n; ++p) {
            diag += B[p * n + p] * B[p * n + p];
            for (int q = p + 1; q < n; ++q)
                off += B[p * n + q] * B[p * n + q];
        }
        if (off <= 1e-30 * diag || off == 0) { /* off-diagonal ~1e-15 of the diagonal */
            rc = 0;
            break;
        }
        for (int p = 0; p < n; ++p)
            for (int q = p + 1; q < n; ++q)
                if (B[p * n + q] != 0)
                    jacobi_rotate(B, V, n, p, q);
    }
    for (int i = 0; i < n; ++i)
        w[i] = B[i * n + i];
    free(B);
    return rc;
}

int dense_minnorm_solve(const double *A, int n, const double *b, double *x, double rel_cut)
{
    double *w = malloc((size_t)n * sizeof *w), *V = malloc((size_t)n * (size_t)n * sizeof *V);
    int rank = -1;
    if (w && V && dense_sym_eigen(A, n, w, V) == 0) {
        double wmax = 0;
        for (int i = 0; i < n; ++i)
            if (w[i] > wmax)
                wmax = w[i];
        rank = 0;
        for (int i = 0; i < n; ++i)
            x[i] = 0;
        for (int e = 0; e < n; ++e) {
            double c = 0;
            if (!(w[e] > rel_cut * wmax))
                continue;
            ++rank;
            for (int i = 0; i < n; ++i)
                c += V[i * n + e] * b[i];
            c /= w[e];
            for (int i = 0; i < n; ++i)
                x[i] += c * V[i * n + e];
        }
    }
    free(w);
    free(V);
    return rank;
}

void dense_mul(const double *A, int rows, int cols, const double *x, double *y)
{
    for (int r = 0; r < rows; ++r) {
        double s = 0;
        for (int c = 0; c < cols; ++c)
            s += A[r * cols + c] * x[c];
        y[r] = s;
    }
}

void dense_mul_t(const double *A, int rows, int cols, const double *x, double *y)
{
    for (int c = 0; c < cols; ++c)
        y[c] = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            y[c] += A[r * cols + c] * x[r];
}

int dense_jminvjt(const double *M, const double *J, int nv, int nc, double *W, double *G)
{
    for (int k = 0; k < nv; ++k)
        for (int i = 0; i < nc; ++i)
            W[k * nc + i] = J[i * nv + k];
    if (dense_cholesky_solve(M, nv, W, nc) != 0)
        return -1;
    for (int i = 0; i < nc; ++i)
        for (int j = 0; j < nc; ++j) {
            double s = 0;
            for (int k = 0; k < nv; ++k)
                s += J[i * nv + k] * W[k * nc + j];
            G[i * nc + j] = s;
        }
    for (int i = 0; i < nc; ++i)
        for (int j = 0; j < i; ++j)
            G[i * nc + j] = G[j * nc + i] = 0.5 * (G[i * nc + j] + G[j * nc + i]);
    return 0;
}

double dense_max_abs(const double *x, int n)
{
    double s = 0;
    for (int k = 0; k < n; ++k)
        if (!(fabs(x[k]) <= s))
            s = fabs(x[k]);
    return s;
}

double dense_max_diff(const double *x, const double *y, int n)
{
    double e = 0;
    for (int k = 0; k < n; ++k) {
        const double d = fabs(x[k] - y[k]);
        if (!(d <= e))
            e = d;
    }
    return e;
}
