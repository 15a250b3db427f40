/* emit.h — each algorithm written once over symspatial, unrolled over one robot's tree.
 *
 * The loops over bodies and DoFs run here, in the generator; what lands in the expr
 * program is straight-line arithmetic for this robot only. Every emit_* function reads
 * inputs by the names of the generated function's parameters (q, v, a, tau, x, d->...)
 * and stores into its outputs, so the render stage only wraps the emitted text in a
 * signature.
 *
 * Data struct fields the programs use (templates/robot.h.tpl declares them):
 *   d->oMb_R[b][9], d->oMb_p[b][3]   world placement of body b (fk)
 *   d->oMf_R[f][9], d->oMf_p[f][3]   world placement of frame f (fk)
 *   d->M[k], d->L[k]                 M and its factor on the tree pattern (emit_ltl_index)
 *   d->D[i], d->Dinv[i]              the factor's diagonal and its inverse */
#ifndef CDYNGEN_EMIT_H
#define CDYNGEN_EMIT_H

#include "symbolic/expr.h"
#include "symbolic/expr_print.h"
#include "symbolic/symspatial.h"
#include "model/tree.h"

struct stash;

/* ---- shared joint models (emit_joint.c) ---- */

/* Parent-to-body placement at q: the constant joint placement times the joint transform. */
splace emit_joint_placement(expr_prog *p, const kin_tree *t, int body);
/* The joint's motion subspace columns S (constant in the body frame); returns nv. */
int emit_joint_subspace(const kin_tree *t, int body, smot S[6]);
/* Joint velocity S qd for the joint's slice of the vector named `vec` (NULL: zero). */
smot emit_joint_motion(expr_prog *p, const kin_tree *t, int body, const char *vec);
/* For a revolute joint about a coordinate axis whose constant placement rotation is a signed
 * permutation: X = placement * rotation about axis k by (c, s). Transforming a matrix
 * quantity in these two steps is cheaper than with the composed rotation. Returns 1 and
 * the pieces, or 0 when the joint does not split so. */
int emit_joint_split(expr_prog *p, const kin_tree *t, int body, splace *placement, int *k, ex *c,
                     ex *s);
/* f = I a + v x* (I v) for the body's inertia (Newton-Euler at its centre of mass). */
smot emit_body_force(expr_prog *p, const kin_tree *t, int body, smot a, smot v);
/* Rigid-body inertia of a body in its own frame. */
sinertia emit_body_inertia(const kin_tree *t, int body);
/* Gravity as a spatial acceleration of the world: [-g; 0] (the base accelerates upward). */
smot emit_base_acceleration(const kin_tree *t);
/* Stores placement x into d->FIELD_R[index][0..8] (row-major) and d->FIELD_p[index][0..2]. */
void emit_store_placement(expr_prog *p, splace x, const char *field, int index);

/* The DoFs from i's root to i, i included: the length of row i of the tree pattern. */
int emit_dof_depth(const kin_tree *t, int i);
/* Compact index of M(i, j) / L(i, j) on the tree pattern (j == i or an ancestor DoF of i),
 * or -1 when (i, j) is structurally zero. Row i's entries are contiguous, from its root's
 * column to i's own (the diagonal last): row i lines up with the head of each descendant's
 * row, so the LTDL's updates read prefixes of rows it has just stored (emit_crba.c). */
int emit_ltl_index(const kin_tree *t, int i, int j);
int emit_ltl_nnz(const kin_tree *t);

/* The banner of a body's block, `body 3 "knee" <- "hip": revolute +y (link thigh)[, what]`,
 * as a comment in p, and a barrier after it (CDYN_BARRIER: each body's values computed in
 * its block, fewer live at once). emit_body_heading: the banner alone, for a block the
 * barriers did not separate when they were measured (adding one would change the timing). */
void emit_body_comment(expr_prog *p, const kin_tree *t, int body, const char *what);
void emit_body_heading(expr_prog *p, const kin_tree *t, int body, const char *what);
/* Prepares p for printing as a robot's function: names the temporaries of the joint inputs
 * q[], v[], a[] and tau[] after their joints (q_knee, v_knee; q_root_joint_qw: expr_name_input
 * for every DoF of the tree), and hands the printer the robot's rules (emit_print_rules). */
void emit_name_joint_inputs(expr_prog *p, const kin_tree *t);
/* How a robot's functions print (expr_print.h): the sin and cos of joint angles batched by
 * cdyn_sincos_n, which reads a stretch of q in place. */
extern const expr_print_rules emit_print_rules;
/* A short description of a body's joint ("revolute +y", "free-flyer"). */
const char *emit_joint_label(const tree_body *b, char *buf, size_t len);

/* ---- algorithms ---- */

/* fk: stores d->oMb_* and d->oMf_*; input q. */
void emit_fk(expr_prog *p, const kin_tree *t);
/* Jacobian columns of t->frames[frame] (its offset in its body a constant), written into
 * J (6 x nv, rows [linear; angular]); only the supporting columns are stored.
 * local = 1: LOCAL, 0: LOCAL_WORLD_ALIGNED. Input q; the frame's world placement goes to
 * d->oMf_*[frame] (`frame` a variable of the generated code) on the way. */
void emit_jacobian(expr_prog *p, const kin_tree *t, int frame, int local);
/* The forward step of body i (parents first): X[i] = its placement in the parent, v[i] and
 * a[i] its velocity and acceleration (gravity as the base's upward acceleration); NULL
 * vname/aname are zero. The same nodes RNEA builds, so programs that need both share them. */
void emit_rnea_forward_body(expr_prog *p, const kin_tree *t, int i, const char *vname,
                            const char *aname, splace *X, smot *v, smot *a);
/* World column of motion S of a body at world placement oj, seen at the world point pf:
 * [R S_lin + w x (pf - p); w], w = R S_ang. */
smot emit_world_column(expr_prog *p, splace oj, smot s, sv3 pf);
/* rnea: tau = RNEA(q, v, a). Passing NULL for v or a makes it zero (nle, gravity). */
void emit_rnea(expr_prog *p, const kin_tree *t, const char *v, const char *a, const char *out);
/* M on the tree pattern as handles H[emit_ltl_index(t, i, j)] (composite inertias carried up). */
void emit_crba_pattern(expr_prog *p, const kin_tree *t, ex *H);
/* crba: M on the tree pattern into d->M, and the full M (NV x NV, "M[...]"): both
 * triangles and the zeros outside the tree pattern. */
void emit_crba(expr_prog *p, const kin_tree *t);
/* crba_tree: M on the tree pattern into d->M only (R_crba with M NULL, and M^-1). */
void emit_crba_tree(expr_prog *p, const kin_tree *t);
/* crba_full: the full M only, not d->M (the batch form with M: a third fewer stores of lane
 * vectors, which bound it). */
void emit_crba_full(expr_prog *p, const kin_tree *t);
/* ltl: factorises d->M into d->L (D on its diagonal), d->D, d->Dinv. Two forms: an expr
 * program (emit_ltl), or, when emit_ltl_in_place says the factor is too big for registers,
 * C text that builds d->L row by row from d->M (emit_ltl_text, counting its operations into
 * c; it returns 1 and writes nothing for a small factor). */
void emit_ltl(expr_prog *p, const kin_tree *t);
int emit_ltl_in_place(const kin_tree *t);
/* The LTDL's products: 1 + depth(i) per DoF k and ancestor i (a = M(k,i) / D_k, then row i's
 * stretch), as emit_ltl_text counts them. */
long emit_ltl_products(const kin_tree *t);
int emit_ltl_text(const kin_tree *t, ebuf *out, const char *indent, expr_counts *c);
/* One row of emit_ltl_text's (rows go from nv - 1 down to 0), its operations added to c. */
void emit_ltl_row_text(const kin_tree *t, int row, ebuf *out, const char *indent, expr_counts *c);
/* ltl_solve: x <- M^-1 x from d->L, d->Dinv. */
void emit_ltl_solve(expr_prog *p, const kin_tree *t);
/* minus_minv: X <- -M^-1 X (input and output "X", NV x NV row-major) from d->L, d->Dinv,
 * for X with RNEA's derivatives' pattern (zero off each DoF's branch), straight-line. */
void emit_minus_minv(expr_prog *p, const kin_tree *t);
/* minv: C text computing M^-1 into Minv (both triangles) from the factor in d, in
 * emit_minv_nsteps steps run in order (render/programs.c groups them into functions); the
 * generated function runs crba and ltl first. Each step adds its operations to c. */
int emit_minv_nsteps(const kin_tree *t);
void emit_minv_step(const kin_tree *t, int step, ebuf *out, const char *indent, expr_counts *c);
/* aba: ddq = ABA(q, v, tau). */
void emit_aba(expr_prog *p, const kin_tree *t);
/* rnea_derivatives: each DoF's terms of RNEA's derivatives at inputs q, v, a into
 * d->dcol[k][48] (emit_derivatives.c: the layout), from which the caller's loop over the
 * pairs on each branch makes the entries of dtau/dq and dtau/dv. */
void emit_rnea_derivatives(expr_prog *p, const kin_tree *t);
/* con_derivatives (a set of contacts): the same terms at a = ddq with the contact forces
 * "lambda[r]" taken off their bodies, and each contact's rows of d(J ddq + gamma) by q and
 * by v on its support ("lambda_dq[r * NV + j]", "lambda_dv[...]"; the caller zeroes the
 * rest). */
void emit_constrained_derivatives(expr_prog *p, const kin_tree *t);

/* ---- ABA's passes, shared with the constrained solvers (emit_aba.c) ---- */

/* Symmetric n x n (n <= 6) factorised as L D L^T, L unit lower; one division per pivot. */
typedef struct {
    int n;
    ex L[6][6], d[6], dinv[6];
} sym_ldl;

/* A body's quantities in ABA, in its own frame. */
typedef struct {
    splace X;            /* placement in the parent */
    smot v, c, pA, U[6]; /* velocity, v x S qd, bias force, U = IA S */
    sabi IA;             /* articulated inertia */
    int nv;
    smot S[6];
    ex u[6];       /* tau - S^T pA */
    ex Dinv[6][6]; /* (S^T IA S)^-1 when the joint has a parent */
    sym_ldl ldl;   /* multi-DoF root: solved, not inverted */
} aba_body;

/* x <- A^-1 x for a factorised A. */
void emit_ldl_solve(expr_prog *p, const sym_ldl *f, ex *x);
/* Pass 1 (root to leaves): X, v, c, S, IA = I and pA = v x* I v of every body. */
void emit_aba_pass1(expr_prog *p, const kin_tree *t, aba_body *B);
/* Pass 2 (leaves to root): U, u, D, each body's articulated inertia and bias handed to its
 * parent (tau read as "tau[k]"). */
void emit_aba_pass2(expr_prog *p, const kin_tree *t, aba_body *B);
/* Pass 3 (root to leaves): ddq = D^-1 (u - U^T a') stored as "ddq[k]", acc[i] each body's
 * acceleration (gravity as the base's upward acceleration). With a mask, only the bodies
 * it marks: their parents are marked too, or have acc[parent] set by the caller. */
void emit_aba_pass3(expr_prog *p, const kin_tree *t, aba_body *B, smot *acc,
                    const unsigned char *only);
/* Stores each DoF's pivot (D of a 1-DoF joint, the LDL pivots of a multi-DoF one, after
 * pass 2) as "array[k]", so the caller can check them at run time. */
void emit_aba_pivots(expr_prog *p, const kin_tree *t, const aba_body *B, const char *array);
/* Stashes (or loads back) what pass 3 reads: X, c, U, and D^-1 or the root's factor. */
void emit_aba_stash(struct stash *s, const kin_tree *t, aba_body *B);
/* ---- constraints (emit_constraint.c; the set is t->constraints) ----
 * R_data fields: d->Jc[nnz_J] compact J (tree_constraint_index), d->B (same pattern),
 * d->gamma[nc], d->nle[nv], d->zd[nv], d->r[nc], d->Gl[nc*nc] / d->GD / d->GDinv the factor
 * of G + mu I, d->con_a_*[c] / d->con_b_*[c] the frames' world placements, d->ref_*[c]. */
/* M pattern, nle, compact J, gamma and placements (inputs q, v); _kin: M, J, placements. */
void emit_constraint_terms(expr_prog *p, const kin_tree *t);
void emit_constraint_terms_kin(expr_prog *p, const kin_tree *t);
/* The dense J (output "J", NC x NV; only support entries stored) and gamma (output "gamma"). */
void emit_constraint_jacobian(expr_prog *p, const kin_tree *t);
void emit_constraint_drift(expr_prog *p, const kin_tree *t);
/* B = D^-1 L^-T J^T and the L^T D L of G + mu I (input mu) from d->L, d->Dinv, d->Jc. */
void emit_kkt_factor(expr_prog *p, const kin_tree *t);
/* A symmetric n x n matrix's L^T D L by Featherstone's order (rows n-1 .. 0) on its fill
 * pattern (n x n bytes, lower triangle), stored as d->L[slot], d->D[k], d->Dinv[k]; slot
 * index[k * n + i], or k * n + i when index is NULL. */
typedef struct {
    int n;
    const unsigned char *pat;
    const int *index;
    const char *L, *D, *Dinv;
} dense_factor;
/* A (lower triangle of an n x n array of handles, destroyed) factorised into d. */
void emit_dense_factor(expr_prog *p, const dense_factor *f, ex *A);
/* x <- A^-1 x from the stored factor. */
void emit_dense_solve(expr_prog *p, const dense_factor *f, ex *x);
/* The L^T D L of G + mu I given as handles (lower triangle of an nc x nc array, destroyed)
 * into d->Gl, d->GD, d->GDinv, on the factor's fill pattern; -1 when out of memory. */
int emit_delassus_factor(expr_prog *p, const kin_tree *t, ex *G);
/* G + mu I (output "G", NC x NV full) from the same route. */
void emit_delassus(expr_prog *p, const kin_tree *t);
/* x <- (G + mu I)^-1 x with the factor in d. */
void emit_kkt_solve(expr_prog *p, const kin_tree *t);
/* d->zd and d->r from tau, astar; d->r from v_before, restitution (impact). */
void emit_prox_rhs(expr_prog *p, const kin_tree *t);
void emit_impulse_rhs(expr_prog *p, const kin_tree *t);
/* astar = -Kp e - Kd J v (inputs Kp, Kd per constraint, v, placements in d). */
void emit_baumgarte(expr_prog *p, const kin_tree *t);
/* A constraint's position error (6 or 3 entries) for frame A's world placement against a
 * reference; the contact ci's reference placement d->ref_*[ci]. */
void emit_constraint_error(expr_prog *p, const tree_constraint *c, splace A, splace ref, ex *e);
splace emit_constraint_reference(expr_prog *p, int ci);
/* ddq = L^-1 (d->zd + B lambda); v_after = v_before + L^-1 B impulse. */
void emit_prox_ddq(expr_prog *p, const kin_tree *t);
void emit_impulse_velocity(expr_prog *p, const kin_tree *t);

/* ---- contacts seen from their bodies (emit_contact.c) ---- */

int emit_contact_body(const kin_tree *t, const tree_constraint *c);
/* carries[b] = 1 for the bodies on a contact body's chain to the root. */
void emit_contact_carriers(const kin_tree *t, unsigned char *carries);
/* The contact's rows K a of a body acceleration a (dim entries). */
void emit_contact_rows(expr_prog *p, const kin_tree *t, const tree_constraint *c, smot a, ex *rows);
/* K^T y: the force on the body of the multiplier y (dim entries). */
smot emit_contact_force(expr_prog *p, const kin_tree *t, const tree_constraint *c, const ex *y);
/* rho K^T K, as an articulated inertia to add to the body's. */
sabi emit_contact_inertia(expr_prog *p, const kin_tree *t, const tree_constraint *c, ex rho);
/* kappa (dim entries): the rows are K a_b + kappa, a_b ABA's acceleration; g_body the
 * gravity vector in the body's axes, v_body its velocity. */
void emit_contact_bias(expr_prog *p, const kin_tree *t, const tree_constraint *c, sv3 g_body,
                       smot v_body, ex *kappa);
/* Gravity in each body's axes from pass 1's placements. */
void emit_body_gravity(expr_prog *p, const kin_tree *t, const aba_body *B, sv3 *g);
/* astar = -Kp e - Kd J v for a contact set (inputs q, v, Kp, Kd, d->ref_*). */
void emit_contact_baumgarte(expr_prog *p, const kin_tree *t);

/* ---- constrainedABA, proxPV, proxLTLs (emit_caba.c, emit_pv.c, emit_ltls.c) ---- */

/* constrainedABA. caba_setup (inputs q, v, tau, rho = 1/mu, astar): ABA's passes 1 and 2
 * with rho K^T K in each contact body's inertia and the constant part of the penalty
 * force in its bias; stashes into d->caba what the iterations reuse, d->u (tau - S^T pA at
 * lambda = 0) and d->u0 (the same, the DoFs that carry a contact), d->kap (kappa - a*),
 * and goes on into caba_forward at lambda = 0 (the first iteration).
 * caba_delta (input lambda): d->u = d->u0 + the multiplier's part, up the carrying bodies.
 * caba_forward: pass 3 of the carrying bodies, their ddq, d->r = J ddq + gamma - a*, and
 * into d->caba_acc the accelerations of those with other children (emit_caba_branches
 * of them, 6 values each). caba_rest: pass 3 of every other body, their ddq. */
void emit_caba_setup(expr_prog *p, const kin_tree *t);
void emit_caba_delta(expr_prog *p, const kin_tree *t);
void emit_caba_forward(expr_prog *p, const kin_tree *t);
void emit_caba_rest(expr_prog *p, const kin_tree *t);
int emit_caba_stash_size(const kin_tree *t);
int emit_caba_branches(const kin_tree *t);

/* proxPV. pv_setup (inputs q, v, tau, mu, astar): ABA's passes 1 and 2, the constraint
 * force maps KA carried down to the root, G + mu I = sum over joints of (S^T KA)^T D^-1
 * (S^T KA) + mu I factorised (emit_delassus_factor) and d->r = a* - gamma - J M^-1 (tau -
 * nle), the proximal iterations' right-hand side; stashes into d->pv what pv_forward reads.
 * pv_forward (input lambda): pass 3 with the constraint forces, ddq. */
void emit_pv_setup(expr_prog *p, const kin_tree *t);
void emit_pv_forward(expr_prog *p, const kin_tree *t);
int emit_pv_stash_size(const kin_tree *t);
/* G + mu I (output "G", full) by proxPV's sweeps (inputs q, mu). */
void emit_pv_delassus(expr_prog *p, const kin_tree *t);

/* proxLTLs. ltls_factor (inputs d->M, d->Jc, rho): M + rho J^T J's L^T D L into d->Lmu
 * (emit_ltls_nnz entries), d->Dmu, d->Dmuinv. ltls_rhs (inputs tau, astar, rho, d->nle,
 * d->gamma): d->ltls_b, d->ltls_c, d->ltls_rc. ltls_iterate (input lambda): ddq and
 * d->r = J ddq + gamma - a*. ltls_refine (inputs lambda, ddq, d->r of ltls_iterate at that
 * lambda): the same step refined once against M and J apart, into ddq and d->r. */
void emit_ltls_factor(expr_prog *p, const kin_tree *t);
void emit_ltls_rhs(expr_prog *p, const kin_tree *t);
void emit_ltls_iterate(expr_prog *p, const kin_tree *t);
void emit_ltls_refine(expr_prog *p, const kin_tree *t);
int emit_ltls_nnz(const kin_tree *t);

/* neutral: q. */
void emit_neutral(expr_prog *p, const kin_tree *t);
/* integrate: plain C text, q, v, dt -> q_next (q_next may be q). Planar and free-flyer
 * joints call the helpers PREFIX__sinc(x) = sin(x)/x and PREFIX__sinc_rest(x) =
 * (x - sin x)/x^3 that emit_integrate_helpers writes. */
int emit_integrate_text(const kin_tree *t, const char *prefix, ebuf *out, const char *indent);
/* The helpers, when the tree needs them (else nothing); static functions. */
void emit_integrate_helpers(const kin_tree *t, const char *prefix, ebuf *out);

#endif
