/* compare.h — the one closeness test every numeric test uses, with a message that says
 * where and by how much two vectors differ. */
#ifndef CDYN_TESTS_COMPARE_H
#define CDYN_TESTS_COMPARE_H

#include <check.h>
#include <math.h>
#include <stdio.h>

/* max_k |x_k - ref_k| <= tol (1 + max_k |ref_k|): relative to the quantity's size, as the
 * reference README advises (talos accelerations reach 1e5). NaN fails. */
#define assert_vec_close(x, ref, n, tol, ...)                                                      \
    do {                                                                                           \
        double scale_ = 0, err_ = 0;                                                               \
        int at_ = 0, k_;                                                                           \
        for (k_ = 0; k_ < (n); k_++) {                                                             \
            double e_ = fabs((double)(x)[k_] - (double)(ref)[k_]);                                 \
            if (fabs((double)(ref)[k_]) > scale_)                                                  \
                scale_ = fabs((double)(ref)[k_]);                                                  \
            if (!(e_ <= err_) && err_ == err_) { /* a NaN, once seen, stays the error */           \
                err_ = e_;                                                                         \
                at_ = k_;                                                                          \
            }                                                                                      \
        }                                                                                          \
        if (!(err_ <= (tol) * (1 + scale_))) {                                                     \
            char what_[512];                                                                       \
            snprintf(what_, sizeof what_, __VA_ARGS__);                                            \
            ck_abort_msg("%s: |x - ref| = %.3g at [%d] (x %.17g, ref %.17g), tolerance %.3g",      \
                         what_, err_, at_, (double)(x)[at_], (double)(ref)[at_],                   \
                         (tol) * (1 + scale_));                                                    \
        }                                                                                          \
    } while (0)

#endif
