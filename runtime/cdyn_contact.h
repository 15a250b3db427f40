/* cdyn_contact.h — unilateral contacts with Coulomb friction: the cone complementarity
 * problem of one velocity-level time step (seed 002), its solvers (ADMM, PGS), and the
 * pieces of the step that the generated R_contact_step and the generic cdyn_contact_step
 * share. Nothing here knows the robot: the robot-specific parts (J, G = J M^-1 J^T, the free
 * velocity, the frames' placements) are handed in.
 *
 * The problem (dual form). lambda stacks one block per cone, c = G lambda + g the blocks'
 * velocities, s the De Saxce shift of c (Coulomb's law; zero for the convex relaxation):
 *     lambda_i in K_i,   c_i + s_i in K_i*,   lambda_i . (c_i + s_i) = 0   for every block i.
 * A block is one of
 *  - a friction cone (3 rows: two tangential, then the normal): K = {|lambda_t| <= mu lambda_n},
 *    K* = {mu |c_t| <= c_n}, s = (0, 0, mu |c_t|): a sticking contact has c = 0, a sliding one
 *    pushes on the cone's edge against its slip velocity, a separating one has lambda = 0;
 *  - a half line (1 row): lambda >= 0, c >= 0 (a joint limit, a frictionless contact);
 *  - free rows (a bilateral constraint): lambda anything, c = 0. */
#ifndef CDYN_CONTACT_H
#define CDYN_CONTACT_H

#include "cdyn_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CDYN_CONE_FREE = 0,     /* dim rows, bilateral */
    CDYN_CONE_FRICTION = 1, /* 3 rows (t1, t2, n), Coulomb cone of coefficient mu */
    CDYN_CONE_POSITIVE = 2  /* 1 row, lambda >= 0 */
} cdyn_cone_kind;

typedef struct {
    int kind;     /* cdyn_cone_kind */
    int dim;      /* rows: 3 for a friction cone, 1 for a half line, 1..6 for free rows */
    cdyn_real mu; /* friction coefficient (friction cones), >= 0 */
} cdyn_cone;

typedef struct {
    int max_iter;      /* at most this many iterations, >= 1 */
    cdyn_real abs_tol; /* stop when the solver's residuals are <= abs_tol (0: not a criterion) */
    cdyn_real rel_tol; /* stop when |lambda_k - lambda_k-1|_inf <= rel_tol |lambda|_inf (0: not) */
    int ccp;           /* 1: the convex relaxation (no De Saxce shift), 0: Coulomb's law */
    int warm_start;    /* 1: start from the lambda passed in; 0: from lambda = 0 */
    /* ADMM (Pinocchio 3.7's ADMMContactSolverTpl and its defaults) */
    cdyn_real mu_prox;           /* proximal damping, >= 0 (1e-6) */
    cdyn_real rho;               /* penalty; <= 0: the spectral rule sqrt(L m) (L/m)^rho_power,
                                  * L the largest eigenvalue of G (power iteration), m = mu_prox;
                                  * a given rho needs a finite 1 / (tau rho) (else CDYN_E_ARG) */
    cdyn_real tau;               /* over-relaxation of the penalty, in (0, 1] (0.5) */
    cdyn_real rho_power;         /* 0.2 */
    cdyn_real rho_power_factor;  /* rho changes by (L/m)^rho_power_factor when the primal and
                                  * dual residuals differ by more than ratio_primal_dual (0.05) */
    cdyn_real ratio_primal_dual; /* 10 */
    int power_iter;              /* power iterations for L (20) */
    /* PGS */
    cdyn_real over_relax; /* in (0, 2) (1) */
} cdyn_cone_settings;

#ifdef CDYN_FLOAT
#define CDYN_CONE_SETTINGS_DEFAULT                                                                 \
    {                                                                                              \
        100, CDYN_R(1e-5), CDYN_R(0), 0, 0, CDYN_R(1e-4), CDYN_R(0), CDYN_R(0.5), CDYN_R(0.2),     \
            CDYN_R(0.05), CDYN_R(10), 20, CDYN_R(1)                                                \
    }
#else
#define CDYN_CONE_SETTINGS_DEFAULT                                                                 \
    {                                                                                              \
        100, CDYN_R(1e-10), CDYN_R(0), 0, 0, CDYN_R(1e-6), CDYN_R(0), CDYN_R(0.5), CDYN_R(0.2),    \
            CDYN_R(0.05), CDYN_R(10), 20, CDYN_R(1)                                                \
    }
#endif

/* What a solve leaves: the conditions above measured on the lambda it returns. */
typedef struct {
    int iterations;
    cdyn_real primal;          /* max over blocks of the distance of lambda_i to K_i */
    cdyn_real dual;            /* max over blocks of the distance of c_i + s_i to K_i* */
    cdyn_real complementarity; /* max over blocks of |lambda_i . (c_i + s_i)| */
    cdyn_real change;          /* |lambda_k - lambda_k-1|_inf of the last iteration */
    cdyn_real rho;             /* ADMM: the last penalty */
} cdyn_cone_stats;

/* Reals of workspace a solver needs for m rows (caller-owned). ADMM keeps its two matrices
 * and its vectors with the rows padded to CDYN_CONE_PAD(m), a multiple of 4, so that its
 * inner loops are whole 4-wide vector operations. */
#define CDYN_CONE_PAD(m) (((size_t)(m) + 3) / 4 * 4)
#define CDYN_CONE_WORK_REALS(m) (2 * CDYN_CONE_PAD(m) * CDYN_CONE_PAD(m) + 10 * CDYN_CONE_PAD(m))

/* The rows of the blocks (sum of dims), or -1 if a block is invalid (kind, dim, a friction
 * cone's mu < 0 or not finite; other blocks do not read mu). */
int cdyn_cone_rows(const cdyn_cone *cones, int ncones);
/* Euclidean projection onto K (x may be y), onto K*, and the De Saxce shift s of c. */
void cdyn_cone_project(const cdyn_cone *cones, int ncones, const cdyn_real *x, cdyn_real *y);
void cdyn_cone_project_dual(const cdyn_cone *cones, int ncones, const cdyn_real *x, cdyn_real *y);
void cdyn_cone_desaxce(const cdyn_cone *cones, int ncones, const cdyn_real *c, cdyn_real *s);
/* The conditions of lambda with c = G lambda + g (shift as settings->ccp says), into st's
 * primal, dual and complementarity. */
void cdyn_cone_conditions(const cdyn_cone *cones, int ncones, int ccp, const cdyn_real *lambda,
                          const cdyn_real *c, cdyn_cone_stats *st);

/* Solvers of the problem on a dense G (m x m, symmetric positive semi-definite, row-major).
 * lambda (m) is in (warm start) and out; c (m, may be NULL) gets G lambda + g; work holds
 * CDYN_CONE_WORK_REALS(m) reals; st (may be NULL) gets the conditions. They stop after an
 * iteration when every positive tolerance is met (with both 0, exactly max_iter
 * iterations) and return the iterations done, or a negative cdyn_status: CDYN_E_ARG (bad
 * settings or cones), CDYN_E_NONFINITE (a NaN or infinity in G, g or lambda: lambda and c
 * are then zeros), CDYN_E_SINGULAR (ADMM: G + rho I not positive definite; PGS: a
 * non-positive diagonal block; lambda and c zeros too), CDYN_E_NOT_CONVERGED (lambda and c
 * hold the last iterate).
 *
 * cdyn_cone_admm: ADMM on lambda = y in K with the splitting x = y (Carpentier et al.,
 * "Proximal and sparse...", Pinocchio's ADMMContactSolverTpl): per iteration one solve with
 * A = G + (mu_prox + tau rho) I (its LDL^T factor, formed when rho changes), a
 * projection onto K, a dual update; rho adapted by the spectral rule. abs_tol bounds its own
 * residuals (|x - y|, the dual change, the complementarity of its dual variable). */
int cdyn_cone_admm(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                   const cdyn_cone_settings *settings, cdyn_real *lambda, cdyn_real *c,
                   cdyn_real *work, cdyn_cone_stats *st);
/* cdyn_cone_pgs: projected Gauss-Seidel, one block at a time (a friction cone: its normal row,
 * then its tangential pair projected on the disc of radius mu lambda_n; with ccp = 1 the whole
 * block's step projected on K instead, since the disc update converges to Coulomb's answer,
 * not the relaxation's; free rows solved exactly with their block). abs_tol bounds the dual
 * feasibility and complementarity. */
int cdyn_cone_pgs(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                  const cdyn_cone_settings *settings, cdyn_real *lambda, cdyn_real *c,
                  cdyn_real *work, cdyn_cone_stats *st);

/* ---- the time step's problem, shared by the generated and the generic step ------------
 * The constraint set's frictional contacts (cdyn_constraint.friction = 1, dim 3) are the
 * unilateral blocks; its other constraints take part as free rows (held exactly at the
 * velocity level: J v+ = 0 in their rows). Per frictional contact i with frame A:
 *  - geometry: the normal n (world, unit) and the signed distance phi; by default the plane
 *    z = ground_height: n = +z, phi = p_A.z - radius - ground_height; or as the caller
 *    gives them (normal, phi: terrain, a perception stack);
 *  - the contact basis (t1, t2, n), t1 the frame's x axis made orthogonal to n (its y axis
 *    when x is along n), t2 = n x t1: friction follows the foot's heading, and when n is the
 *    frame's z axis the basis is the frame's (Pinocchio's LOCAL 3D contact);
 *  - active when phi <= margin or when the free motion brings it there within the step
 *    (phi + dt (J v_f)_n <= margin: a fast fall is caught, not tunnelled), otherwise left
 *    out: lambda = 0;
 *  - the normal row asks c_n = v+_n - b >= 0 with b = -phi/dt for phi >= 0 (reach the
 *    surface, not beyond), -stabilisation phi/dt for phi < 0 (seed 002's stabilisation,
 *    a fraction of the penetration per step), and, for an approaching contact that reaches
 *    the surface within the step (phi + dt v_n <= 0, v_n < 0), b = max(b, -e v_n): Newton's
 *    restitution coefficient e.
 * The velocity of a contact is its frame origin's (J's rows): a radius moves the point
 * for phi only, so a rolling ball's spin does not couple to its contact's slip.
 *
 * Soft contacts (model = CDYN_CONTACT_SOFT, seed 000's spring-damper): every frictional
 * contact i pushes with f_n = max(0, -k phi+ - d v+_n), k, d its stiffness and damping,
 * taken implicitly at the end of the step, phi+ = phi + dt v+_n. Its impulse is then
 *     lambda_n = dt f_n = max(0, -dt k phi - beta v+_n),   beta = dt (d + k dt),
 * which is the rigid row with a compliance 1/beta on G's diagonal and the bound b replaced by
 * b_s = -k phi / (d + k dt): lambda_n >= 0 _|_ v+_n + lambda_n / beta - b_s >= 0. Its two
 * tangential rows get the same compliance (regularised Coulomb friction): a sticking contact
 * creeps at v+_t = -lambda_t / beta, a velocity proportional to its friction force (viscous
 * below the cone's edge, Coulomb on it). As k grows (d with it, slower: d / k -> 0), 1/beta
 * -> 0 and b_s -> -phi/dt: the rigid row. Implicit, a stiff k (1e7 N/m on a few kg at 1 ms)
 * does not blow up: the spring is integrated by backward Euler, which damps what it cannot
 * resolve. With the compliance G is positive definite: lambda is unique (four corners too).
 *  - The De Saxce shift (ccp = 0) acts on the compliant velocity c' = v+ + lambda/beta - b:
 *    the conditions then read lambda_n c'_n = 0 (the spring-damper law) and, on the cone's
 *    edge, lambda_t = -mu lambda_n c'_t / |c'_t|, with v+_t = c'_t - lambda_t / beta parallel
 *    to c'_t: friction opposes the slip, as Coulomb's law asks. With ccp = 1 the relaxation
 *    asks c'_n >= mu |c'_t| instead: a sliding contact's spring pushes less (the rigid
 *    relaxation's lift-off, seen through the spring).
 *  - Activation: the damper pushes before the contact touches (when v+_n < -k phi+ / d), so
 *    a soft contact is in the step when phi <= margin or phi + (dt + d/k) (J v_f)_n <= margin
 *    (the free motion brings it where the spring-damper pushes; the rigid rule is the same
 *    with d/k = 0). A contact in the step that does not push gets lambda = 0 exactly.
 *  - Restitution and stabilisation do not apply to soft contacts (the damper decides the
 *    bounce, the spring the penetration); joint limits and bilateral rows stay rigid. */
typedef struct {
    cdyn_real dt;            /* time step, > 0 */
    cdyn_real ground_height; /* the default geometry: the plane z = ground_height */
    cdyn_real margin;        /* contacts with phi > margin (and phi + dt (J v_f)_n > margin)
                              * are left out of the step (>= 0) */
    cdyn_real stabilisation; /* fraction of a penetration removed per step, in [0, 1] */
    cdyn_real friction;      /* mu of every frictional contact when mu is NULL */
    const cdyn_real *mu;          /* (n, by constraint of the set) friction coefficients, or NULL */
    const cdyn_real *restitution; /* (n) restitution coefficients in [0, 1], or NULL: 0 */
    const cdyn_real *radius;      /* (n) the point's offset below the frame along -n, or NULL */
    const cdyn_real *normal;      /* (n x 3) world unit normals, or NULL: the ground plane */
    const cdyn_real *phi;         /* (n) signed distances (with normal), or NULL: the plane */
    int solver;                   /* CDYN_CONTACT_ADMM or CDYN_CONTACT_PGS */
    cdyn_cone_settings cone;      /* the solver's settings (warm_start: from the last step's
                                   * lambda of the contacts active in both, and ADMM's power
                                   * iteration from the last step's vector) */
    int model;                 /* CDYN_CONTACT_RIGID (0, default) or CDYN_CONTACT_SOFT (1) */
    cdyn_real soft_stiffness;  /* soft: k (N/m) of every frictional contact when stiffness is
                                * NULL, > 0 (1e5) */
    cdyn_real soft_damping;    /* soft: d (N s/m) when damping is NULL, >= 0 (1e3) */
    const cdyn_real *stiffness, *damping; /* (n, by constraint of the set) per contact, or
                                           * NULL; every entry checked like mu's (soft only) */
    int project;               /* 1: after the step, project q+ and v+ onto the set's bilateral
                                * constraints (cdyn_project_position / _velocity, their default
                                * settings; a set of frictional contacts alone has none); 0
                                * (default). A projection's error is the step's return, q_next
                                * and v_next as far as they got */
} cdyn_contact_settings;

enum { CDYN_CONTACT_ADMM = 0, CDYN_CONTACT_PGS = 1 };
enum { CDYN_CONTACT_RIGID = 0, CDYN_CONTACT_SOFT = 1 };

#ifdef CDYN_FLOAT
#define CDYN_CONTACT_SETTINGS_DEFAULT                                                              \
    {                                                                                              \
        CDYN_R(1e-3), CDYN_R(0), CDYN_R(1e-3), CDYN_R(1), CDYN_R(0.8), 0, 0, 0, 0, 0,              \
            CDYN_CONTACT_ADMM, CDYN_CONE_SETTINGS_DEFAULT, CDYN_CONTACT_RIGID, CDYN_R(1e5),        \
            CDYN_R(1e3), 0, 0, 0                                                                   \
    }
#else
#define CDYN_CONTACT_SETTINGS_DEFAULT                                                              \
    {                                                                                              \
        CDYN_R(1e-3), CDYN_R(0), CDYN_R(1e-3), CDYN_R(1), CDYN_R(0.8), 0, 0, 0, 0, 0,              \
            CDYN_CONTACT_ADMM, CDYN_CONE_SETTINGS_DEFAULT, CDYN_CONTACT_RIGID, CDYN_R(1e5),        \
            CDYN_R(1e3), 0, 0, 0                                                                   \
    }
#endif


/* A joint's position limits as two one-row unilateral constraints of the step (seed 004
 * section 3): the lower row q - lower >= 0 pushes with +lambda on the DoF, the upper row
 * upper - q >= 0 with -lambda; each a half line (lambda >= 0) with the contacts' rules:
 * phi the distance to the limit, active within the margin, the normal rows' bound b. */
typedef struct {
    int idx_q, idx_v;       /* the joint's coordinate in q and DoF in v (nq = nv = 1) */
    cdyn_real lower, upper; /* its limits, lower < upper */
} cdyn_joint_limit;

/* What a step's problem is over: the constraint set's n constraints (dims, friction
 * flags) and the joint limits, on nv DoFs. n may be 0 when nlimits > 0. */
typedef struct {
    int n;                          /* constraints of the set */
    const int *dims;                /* (n) their rows: 3 or 6 */
    const int *friction;            /* (n) 1 for a frictional contact (dim 3) */
    int nlimits;                    /* joints with limits */
    const cdyn_joint_limit *limits; /* (nlimits) */
    int nv;
} cdyn_contact_layout;

/* The step's problem in a caller buffer of CDYN_CONTACT_PROBLEM_BYTES(n, nc, nlimits, nv)
 * bytes (nc: the set's rows). Its blocks are the set's constraints then two per limited
 * joint (lower, upper): nb = n + 2 nlimits blocks, nr = nc + 2 nlimits rows. The robot
 * side fills J's first nc rows, Gset and, with limits, Y; cdyn_contact_assemble builds the
 * step's problem from them; cdyn_contact_solve solves it and leaves the impulses. */
typedef struct {
    int n, nc, nv;      /* the set: constraints, rows; DoFs */
    int nlimits;        /* limited joints */
    int nb, nr;         /* blocks and rows: the set's and 2 per limited joint */
    int m, ncones;      /* this step's problem: rows, blocks (active ones) */
    const cdyn_joint_limit *limits; /* (nlimits) */
    cdyn_cone *cones;      /* (nb) every block, in order (limits: half lines) */
    cdyn_cone *step_cones; /* (nb) this step's blocks: the active ones, packed */
    int *block_row;     /* (nb) each block's first row in the step's problem, -1: left out */
    int *set_row;       /* (nb) each block's first row among the nr */
    int *active;        /* (nb) 1 when the block is in this step's problem */
    cdyn_real *J;       /* (nr x nv) [in] the set's J at q in its first nc rows (each frame A's
                         * axes); the limits' rows (+-1 on their DoF) by the assembly */
    cdyn_real *Gset;    /* (nc x nc) [in] the set's J M^-1 J^T at q */
    cdyn_real *Y;       /* (nlimits x nv) [in] M^-1 e_k for each limit's DoF k */
    cdyn_real *Gall;    /* (nr x nr) J M^-1 J^T over every row, frame axes (without limits:
                         * Gset itself) */
    cdyn_real *basis;   /* (nb x 9) each frictional contact's t1, t2, n (rows, world) */
    cdyn_real *T;       /* (nb x 9) the rotation from its frame A's axes to that basis */
    cdyn_real *phi;     /* (nb) each frictional contact's and limit's signed distance */
    cdyn_real *bound;   /* (nb) the bound b on its normal velocity (c_n = v+_n - b >= 0; a
                         * soft contact's b_s, its row c_n = v+_n + lambda_n / beta - b_s) */
    cdyn_real *Jv;      /* (nr) J v before the step, in the step's rows (bases rotated) */
    cdyn_real *Jvf;     /* (nr) J v_f, likewise */
    cdyn_real *G;       /* (m x m) the step's Delassus matrix, contact rows in their bases;
                         * soft contacts' compliance 1/beta added to their rows' diagonal */
    cdyn_real *g;       /* (m) its free velocity J v_f minus the normal rows' bound b */
    cdyn_real *x;       /* (m) the solver's lambda */
    cdyn_real *y;       /* (m) its c = G x + g */
    cdyn_real *lambda;  /* (nr) the impulses: a frictional contact's (t1, t2, n) in its
                         * basis, 0 when left out; a bilateral constraint's in A's axes;
                         * then each limit's (lower, upper), >= 0 */
    cdyn_real *c;       /* (nr) the velocities J v+ in the same layout (no compliance) */
    cdyn_real *impulse; /* (nv) J^T lambda, the generalized impulse of the step */
    cdyn_real *vf;      /* (nv) [in] the free velocity v + dt M^-1 (tau - nle) */
    cdyn_real *scratch; /* (2 nv) the step's */
    cdyn_real *power;   /* (nr) ADMM's power-iteration vector (norm: G's largest eigenvalue),
                         * kept from step to step: with cone.warm_start the next solve's start */
    cdyn_real *work;    /* CDYN_CONE_WORK_REALS(nr) */
    cdyn_cone_stats *stats; /* the last solve's */
} cdyn_contact_problem;

#define CDYN__CONTACT_NB(n, nl) ((size_t)(n) + 2 * (size_t)(nl))
#define CDYN__CONTACT_NR(nc, nl) ((size_t)(nc) + 2 * (size_t)(nl))
#define CDYN__CONTACT_REALS(n, nc, nl, nv)                                                         \
    (CDYN__CONTACT_NR(nc, nl) * (size_t)(nv) + (size_t)(nc) * (size_t)(nc) +                       \
     (size_t)(nl) * (size_t)(nv) + 2 * CDYN__CONTACT_NR(nc, nl) * CDYN__CONTACT_NR(nc, nl) +       \
     20 * CDYN__CONTACT_NB(n, nl) + 8 * CDYN__CONTACT_NR(nc, nl) + 4 * (size_t)(nv) +              \
     CDYN_CONE_WORK_REALS(CDYN__CONTACT_NR(nc, nl)))
#define CDYN_CONTACT_PROBLEM_BYTES(n, nc, nl, nv)                                                  \
    (CDYN__CONTACT_REALS(n, nc, nl, nv) * sizeof(cdyn_real) +                                      \
     3 * CDYN__CONTACT_NB(n, nl) * sizeof(int) + 2 * CDYN__CONTACT_NB(n, nl) * sizeof(cdyn_cone) + \
     sizeof(cdyn_cone_stats) + sizeof(cdyn_real))

/* Carves p out of buf for the layout (referenced, not copied); CDYN_E_SIZE if too small,
 * CDYN_E_ARG for a bad layout (a frictional constraint not of 3 rows, a limit with
 * lower >= upper or not finite). lambda (the warm start of the first step) and the stats
 * are cleared; the other reals are not. */
cdyn_status cdyn_contact_problem_init(cdyn_contact_problem *p, const cdyn_contact_layout *layout,
                                      void *buf, size_t bytes);
/* The same carving over a buffer that holds (or is to hold) p's problem, which may have
 * been copied or moved: lambda (the next warm start), the active flags and the last
 * results are kept. Any bytes are safe: the sizes are refilled from the layout. */
cdyn_status cdyn_contact_problem_attach(cdyn_contact_problem *p,
                                        const cdyn_contact_layout *layout, void *buf,
                                        size_t bytes);
/* The step's problem from p->J, p->Gset and p->Y, q (for the limits), each frame A's world
 * placement (aR: n x 9 row-major, ap: n x 3), the velocity v before the step and the free
 * velocity vf = v + dt M^-1 (tau - nle) (p->vf may be passed). CDYN_E_ARG for bad settings
 * (dt <= 0, mu < 0, e outside [0, 1], a zero normal, margin < 0, cone.max_iter < 1, a model
 * neither RIGID nor SOFT; soft: a stiffness <= 0 or a damping < 0, or either not finite),
 * CDYN_E_NONFINITE for a NaN or infinity in the other settings or the inputs. */
cdyn_status cdyn_contact_assemble(cdyn_contact_problem *p, const cdyn_contact_settings *s,
                                  const cdyn_real *q, const cdyn_real *aR, const cdyn_real *ap,
                                  const cdyn_real *v, const cdyn_real *vf);
/* Solves the assembled problem by the settings' solver, warm-started (settings->cone.
 * warm_start) from p->lambda and, ADMM, its power iteration from p->power; leaves p->lambda,
 * p->c, p->impulse and p->stats. Returns the solver's iterations (0 when no block is
 * active), or its negative cdyn_status (then lambda, c and impulse are zeros unless it is
 * CDYN_E_NOT_CONVERGED). */
int cdyn_contact_solve(cdyn_contact_problem *p, const cdyn_contact_settings *s);

#ifdef __cplusplus
}
#endif

#endif
