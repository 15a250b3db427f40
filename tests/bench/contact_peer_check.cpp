// contact_peer_check.cpp — the frictional contact step's problem solved by the generated code
// and by Pinocchio 3.7 (ADMMContactSolverTpl), the same problem, both to convergence, compared:
// the generalised impulse J^T lambda (basis-independent) and lambda itself (the two bases
// agree here) within 1e-6 relative. Built and run by contact_peer_check.sh, which generates
// solo12 with --contact FRAME:friction as chk1 (FL_FOOT: one contact, G 3 x 3 positive
// definite, a unique solution) and chk4 (the four feet, G 12 x 12 positive definite here).
//
// The problem is pinocchio_admm.cpp's (../shared/peers/pinocchio): at a random state, G =
// computeDelassusMatrix over 3D LOCAL point contacts, v_f = v + dt aba(q, v, tau) (dt 1e-3),
// g = J v_f with J the frame's LOCAL linear rows and the normal rows shifted by -0.05 m/s,
// Coulomb cones of mu 0.8. Ours: NAME_contact_problem + NAME_contact_solve (ADMM) with each
// contact's normal given as its frame's world z axis (so the basis t1, t2, n is the frame's
// x, y, z: Pinocchio's LOCAL), phi = -0.05 dt and stabilisation 1, so that the normal row's
// bound is b = -phi/dt = 0.05 m/s and g_n = (J v_f)_n - 0.05 as Pinocchio's.
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/admm-solver.hpp>
#include <pinocchio/algorithm/compute-all-terms.hpp>
#include <pinocchio/algorithm/contact-info.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/delassus-operator-dense.hpp>
#include <pinocchio/algorithm/delassus.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/algorithm/constraints/coulomb-friction-cone.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/parsers/urdf.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "chk1.h"
#include "chk4.h"

using namespace pinocchio;
typedef Eigen::VectorXd VecX;
typedef Eigen::MatrixXd MatX;

namespace {

// One generated robot's contact step, behind a common face.
struct Ours {
    const char *name;
    int nq, nv;
    std::vector<int> frames;
    void *d;
    void (*fk)(void *, const cdyn_real *);
    int (*placement)(const void *, int, cdyn_real *, cdyn_real *);
    void (*rnea)(void *, const cdyn_real *, const cdyn_real *, const cdyn_real *, cdyn_real *);
    int (*problem)(void *, const cdyn_contact_settings *, const cdyn_real *, const cdyn_real *,
                   const cdyn_real *);
    int (*solve)(void *, const cdyn_contact_settings *);
    int (*view)(void *, cdyn_contact_problem *);
};

#define OURS(R, RU, ...)                                                                          \
    Ours R##_ours()                                                                               \
    {                                                                                             \
        static R##_data data;                                                                     \
        Ours o;                                                                                   \
        o.name = #R;                                                                              \
        o.nq = RU##_NQ;                                                                           \
        o.nv = RU##_NV;                                                                           \
        o.frames = { __VA_ARGS__ };                                                               \
        o.d = &data;                                                                              \
        o.fk = [](void *d, const cdyn_real *q) { R##_fk((R##_data *)d, q); };                     \
        o.placement = [](const void *d, int f, cdyn_real *Rm, cdyn_real *p) {                     \
            return R##_frame_placement((const R##_data *)d, f, Rm, p);                            \
        };                                                                                        \
        o.rnea = [](void *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *a,          \
                    cdyn_real *tau) { R##_rnea((R##_data *)d, q, v, a, tau); };                   \
        o.problem = [](void *d, const cdyn_contact_settings *s, const cdyn_real *q,               \
                       const cdyn_real *v, const cdyn_real *tau) {                                \
            return R##_contact_problem((R##_data *)d, s, q, v, tau);                              \
        };                                                                                        \
        o.solve = [](void *d, const cdyn_contact_settings *s) {                                   \
            return R##_contact_solve((R##_data *)d, s);                                           \
        };                                                                                        \
        o.view = [](void *d, cdyn_contact_problem *p) {                                           \
            return R##_contact_view((R##_data *)d, p);                                            \
        };                                                                                        \
        return o;                                                                                 \
    }

OURS(chk1, CHK1, CHK1_FRAME_FL_FOOT)
OURS(chk4, CHK4, CHK4_FRAME_FL_FOOT, CHK4_FRAME_FR_FOOT, CHK4_FRAME_HL_FOOT, CHK4_FRAME_HR_FOOT)

double rel(const VecX &a, const VecX &b)
{
    return (a - b).lpNorm<Eigen::Infinity>() / std::max(1e-300, b.lpNorm<Eigen::Infinity>());
}

// 0 when the two agree on every state, 1 otherwise.
int compare(const Model &model, Ours o, const std::vector<std::string> &names, int states,
            bool verbose)
{
    const int nc = (int)names.size(), m = 3 * nc, nv = model.nv;
    const double dt = 1e-3, shift = 0.05, mu = 0.8, tol = 1e-12;
    if (model.nq != o.nq || model.nv != o.nv) {
        std::printf("%s: nq %d nv %d, Pinocchio's %d %d\n", o.name, o.nq, o.nv, model.nq, model.nv);
        return 1;
    }
    std::vector<RigidConstraintModel> cm;
    std::vector<FrameIndex> fids;
    for (const std::string &f : names) {
        const FrameIndex fid = model.getFrameId(f);
        fids.push_back(fid);
        cm.push_back(RigidConstraintModel(CONTACT_3D, model, model.frames[fid].parentJoint,
                                          model.frames[fid].placement, LOCAL));
    }
    std::vector<RigidConstraintData> cd;
    for (auto &c : cm)
        cd.push_back(RigidConstraintData(c));
    Data data(model), data2(model);
    std::vector<CoulombFrictionCone> cones(nc, CoulombFrictionCone(mu));
    ADMMContactSolverTpl<double> solver(m);
    solver.setMaxIterations(100000);
    solver.setAbsolutePrecision(tol);
    solver.setRelativePrecision(tol);
    int bad = 0;
    double worst_imp = 0, worst_lambda = 0, worst_order = 0, worst_G = 0, worst_g = 0;
    double worst_cond[2] = { 0, 0 }, worst_ref[2] = { 0, 0 };
    int pin_it = 0, our_it = 0;
    srand(20240607);
    for (int k = 0; k < states; ++k) {
        const VecX lo = VecX::Constant(model.nq, -1.0), hi = VecX::Constant(model.nq, 1.0);
        const VecX q = randomConfiguration(model, lo, hi), v = VecX::Random(nv),
                   tau = VecX::Random(nv);
        // the same joint order and conventions: rnea agrees
        VecX ours_tau(nv);
        o.rnea(o.d, q.data(), v.data(), tau.data(), ours_tau.data());
        worst_order = std::max(worst_order, rel(ours_tau, rnea(model, data2, q, v, tau)));
        // Pinocchio
        MatX G(m, m), J6(6, nv), J(m, nv);
        computeDelassusMatrix(model, data, q, cm, cd, G, 0.);
        const VecX vf = v + dt * aba(model, data2, q, v, tau);
        computeJointJacobians(model, data2, q);
        for (int c = 0; c < nc; ++c) {
            J6.setZero();
            getFrameJacobian(model, data2, fids[c], LOCAL, J6);
            J.middleRows(3 * c, 3) = J6.topRows(3);
        }
        VecX g = J * vf;
        for (int c = 0; c < nc; ++c)
            g[3 * c + 2] -= shift;
        DelassusOperatorDense delassus(G);
        solver.solve(delassus, g, cones, VecX::Zero(m));
        pin_it = std::max(pin_it, solver.getIterationCount());
        const VecX lambda_pin = solver.getPrimalSolution();
        const VecX imp_pin = J.transpose() * lambda_pin;
        // ours: the frames' z axes as the normals, phi = -shift dt, stabilisation 1
        std::vector<cdyn_real> normal(3 * nc), phi(nc, -shift * dt);
        o.fk(o.d, q.data());
        for (int c = 0; c < nc; ++c) {
            cdyn_real Rm[9], p[3];
            o.placement(o.d, o.frames[c], Rm, p);
            normal[3 * c] = Rm[2];
            normal[3 * c + 1] = Rm[5];
            normal[3 * c + 2] = Rm[8];
        }
        cdyn_contact_settings s = CDYN_CONTACT_SETTINGS_DEFAULT;
        s.dt = dt;
        s.friction = mu;
        s.stabilisation = 1;
        s.normal = normal.data();
        s.phi = phi.data();
        s.solver = CDYN_CONTACT_ADMM;
        s.cone.max_iter = 100000;
        s.cone.abs_tol = tol;
        s.cone.rel_tol = tol;
        int rc = o.problem(o.d, &s, q.data(), v.data(), tau.data());
        const int it = rc == 0 ? o.solve(o.d, &s) : rc;
        cdyn_contact_problem p;
        o.view(o.d, &p);
        if (it <= 0 || p.m != m) {
            std::printf("%s state %d: solve returned %d, m %d\n", o.name, k, it, p.m);
            return 1;
        }
        our_it = std::max(our_it, it);
        // the same problem: G and g alike (ours in the contact bases, here the frames' axes)
        const MatX G_ours = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic,
                                                           Eigen::RowMajor>>(p.G, m, m);
        const VecX g_ours = Eigen::Map<const VecX>(p.g, m);
        worst_G = std::max(worst_G, (G_ours - G).lpNorm<Eigen::Infinity>() /
                                        G.lpNorm<Eigen::Infinity>());
        // and both against J M^-1 J^T formed from Pinocchio's crba and J
        {
            Data d3(model);
            MatX M = crba(model, d3, q);
            M.triangularView<Eigen::StrictlyLower>() = M.transpose().triangularView<Eigen::StrictlyLower>();
            const MatX Gref = J * M.ldlt().solve(J.transpose());
            const double sc = Gref.lpNorm<Eigen::Infinity>();
            worst_ref[0] = std::max(worst_ref[0], (G_ours - Gref).lpNorm<Eigen::Infinity>() / sc);
            worst_ref[1] = std::max(worst_ref[1], (G - Gref).lpNorm<Eigen::Infinity>() / sc);
        }
        worst_g = std::max(worst_g, rel(g_ours, g));
        // both answers measured on Pinocchio's G and g (cdyn_cone_conditions: primal, dual,
        // complementarity of Coulomb's law with the De Saxce shift)
        for (int side = 0; side < 2; ++side) {
            const VecX lam = side ? solver.getPrimalSolution() : Eigen::Map<const VecX>(p.lambda, m);
            const VecX c = G * lam + g;
            cdyn_cone_stats st;
            cdyn_cone_conditions(p.step_cones, p.ncones, 0, lam.data(), c.data(), &st);
            worst_cond[side] = std::max({ worst_cond[side], st.primal, st.dual,
                                          st.complementarity });
        }
        const VecX imp_ours = Eigen::Map<const VecX>(p.impulse, nv);
        const VecX lambda_ours = Eigen::Map<const VecX>(p.lambda, m);
        const double e_imp = rel(imp_ours, imp_pin), e_lambda = rel(lambda_ours, lambda_pin);
        worst_imp = std::max(worst_imp, e_imp);
        worst_lambda = std::max(worst_lambda, e_lambda);
        if ((!(e_imp <= 1e-6) || !(e_lambda <= 1e-6)) && verbose) {
            std::printf("%s state %d: J^T lambda %.3g, lambda %.3g relative\n  ours %s\n  "
                        "Pinocchio's %s\n",
                        o.name, k, e_imp, e_lambda,
                        [&] { std::string t; for (int i = 0; i < m; ++i) t += std::to_string(lambda_ours[i]) + " "; return t; }().c_str(),
                        [&] { std::string t; for (int i = 0; i < m; ++i) t += std::to_string(lambda_pin[i]) + " "; return t; }().c_str());
        }
        bad |= !(e_imp <= 1e-6) || !(e_lambda <= 1e-6);
    }
    if (worst_order > 1e-9) {
        std::printf("%s: rnea differs from Pinocchio's by %.3g: not the same robot\n", o.name,
                    worst_order);
        return 1;
    }
    std::printf("%s (%d contacts, m = %d): %d states; the problem: G within %.2g, g within %.2g "
                "relative; J^T lambda within %.2g relative, lambda within %.2g (bound 1e-6); "
                "Coulomb's conditions on the answers (largest residual): ours %.2g, "
                "Pinocchio's %.2g; iterations at most: ours %d, Pinocchio's %d%s\n"
                "  G against J M^-1 J^T (Pinocchio's crba and J): ours within %.2g, "
                "computeDelassusMatrix's within %.2g relative\n",
                o.name, nc, m, states, worst_G, worst_g, worst_imp, worst_lambda, worst_cond[0],
                worst_cond[1], our_it, pin_it, bad ? " DIFFERENT" : "", worst_ref[0], worst_ref[1]);
    std::fflush(stdout);
    return bad;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s SOLO12_URDF\n", argv[0]);
        return 2;
    }
    Model model;
    pinocchio::urdf::buildModel(argv[1], JointModelFreeFlyer(), model);
    // one contact: a unique solution, the check; four: reported (the NCP may have several)
    const int bad = compare(model, chk1_ours(), { "FL_FOOT" }, 20, true);
    compare(model, chk4_ours(), { "FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT" }, 20, false);
    return bad;
}
