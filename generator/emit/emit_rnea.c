/* emit_rnea.c — recursive Newton-Euler (Featherstone RBDA 5.3, Pinocchio LOCAL). */
#include <stdio.h>
#include <stdlib.h>
#include "emit/emit.h"

/* Forward: v_i = X_i^-1 v_p + S qd, a_i = X_i^-1 a_p + S qdd + v_i x (S qd),
 * f_i = I_i a_i + v_i x* I_i v_i, with a_world = -g. Backward: tau_i = S^T f_i,
 * f_p += X_i f_i. A NULL v or a is zero and folds away (nle, gravity).
 * Bodies are in depth-first order, so a subtree is finished as soon as its last body is
 * reached: its backward pass is emitted there, and a leg's values die before the next leg
 * starts (fewer live values, fewer spills in the compiled code). */

/* Body i's backward step under its own banner (no barrier: the sweep was measured without
 * one), its joint forces placed there too: f_i's last term came from a child's step. */
static void emit_backward(expr_prog *p, const kin_tree *t, int i, const splace *X, smot *f,
                          const char *out)
{
    smot S[6];
    int k, nv = emit_joint_subspace(t, i, S), parent = t->bodies[i].parent;
    emit_body_heading(p, t, i,
                      parent >= 0 ? "joint forces, its force onto the parent" : "joint forces");
    for (k = 0; k < nv; k++) {
        char target[256];
        snprintf(target, sizeof target, "%.200s[%d]", out, t->bodies[i].idx_v + k);
        expr_store_here(p, target, smot_dot(p, S[k], f[i]));
    }
    if (parent >= 0)
        f[parent] = smot_add(p, f[parent], sforce_act(p, X[i], f[i]));
}

void emit_rnea_forward_body(expr_prog *p, const kin_tree *t, int i, const char *vname,
                            const char *aname, splace *X, smot *v, smot *a)
{
    int parent = t->bodies[i].parent;
    smot vj = emit_joint_motion(p, t, i, vname);
    smot aj = emit_joint_motion(p, t, i, aname);
    X[i] = emit_joint_placement(p, t, i);
    if (parent < 0) {
        v[i] = vj;
        a[i] = smot_add(p, smot_act_inv(p, X[i], emit_base_acceleration(t)), aj);
    } else {
        v[i] = smot_add(p, smot_act_inv(p, X[i], v[parent]), vj);
        a[i] = smot_add(p, smot_act_inv(p, X[i], a[parent]), aj);
        a[i] = smot_add(p, a[i], smot_cross(p, v[i], vj));
    }
}

void emit_rnea(expr_prog *p, const kin_tree *t, const char *vname, const char *aname,
               const char *out)
{
    int n = t->nbodies, i;
    splace *X = malloc((size_t)(n > 0 ? n : 1) * sizeof *X);
    smot *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    smot *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
    smot *f = malloc((size_t)(n > 0 ? n : 1) * sizeof *f);
    if (!X || !v || !a || !f) {
        expr_comment(p, "out of memory");
        goto done;
    }
    expr_section(p,
                 "each subtree: velocities, accelerations and body forces down, joint forces up");
    for (i = 0; i < n; i++) {
        int j;
        emit_body_comment(p, t, i, NULL);
        emit_rnea_forward_body(p, t, i, vname, aname, X, v, a);
        f[i] = emit_body_force(p, t, i, a[i], v[i]);
        /* every subtree that ends at body i is complete: its joint forces go up */
        for (j = i; j >= 0 && j + t->subtree[j] - 1 == i; j = t->bodies[j].parent)
            emit_backward(p, t, j, X, f, out);
    }
done:
    free(X);
    free(v);
    free(a);
    free(f);
}
