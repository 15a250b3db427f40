/* dense.h — plain dense linear algebra for the tests' independent checks (double, heap):
 * the textbook algorithms the sparse, unrolled ones are checked against. */
#ifndef CDYN_TESTS_DENSE_H
#define CDYN_TESTS_DENSE_H

/* A = G G^T (A symmetric n x n, G lower, both row-major); 0, or -1 at a non-positive pivot. */
int dense_cholesky(const double *A, double *G, int n);
/* x = A^-1 b with the G of dense_cholesky (x may be b). */
void dense_cholesky_solve_factored(const double *G, int n, const double *b, double *x);
/* X <- A^-1 X for X n x ncols (row-major), A symmetric positive definite; 0, or -1. */
int dense_cholesky_solve(const double *A, int n, double *X, int ncols);
/* Symmetric eigen-decomposition by cyclic Jacobi: A = V diag(w) V^T, the eigenvectors in
 * V's columns; 0, or -1 if it did not converge. */
int dense_sym_eigen(const double *A, int n, double *w, double *V);
/* The minimum-norm least-squares solution x = A^+ b of a symmetric positive semi-definite
 * A, eigenvalues below rel_cut * max eigenvalue counted as zero; returns the rank, -1 on
 * failure. */
int dense_minnorm_solve(const double *A, int n, const double *b, double *x, double rel_cut);
/* y = A x for A rows x cols (row-major); transposed: y = A^T x. */
void dense_mul(const double *A, int rows, int cols, const double *x, double *y);
void dense_mul_t(const double *A, int rows, int cols, const double *x, double *y);
/* W = M^-1 J^T (nv x nc, by dense_cholesky_solve) and the Delassus matrix G = J W (nc x nc,
 * made exactly symmetric for dense_sym_eigen), J nc x nv; 0, or -1 as dense_cholesky. */
int dense_jminvjt(const double *M, const double *J, int nv, int nc, double *W, double *G);

/* max_k |x_k| (a NaN entry stands only when it is the last: use dense_max_diff to catch NaN). */
double dense_max_abs(const double *x, int n);
/* max_k |x_k - y_k|, NaN counting as infinite (a NaN difference is kept). */
double dense_max_diff(const double *x, const double *y, int n);

#endif
