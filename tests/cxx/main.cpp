// main.cpp — a C++ controller's view of the generated arm: the README's C++ example.
// The generated code and the runtime are C (compiled as C by the robot's CMakeLists.txt);
// this file includes every public header from C++ and calls both sides. It checks
// RNEA(q, v, ABA(q, v, tau)) = tau, the generated ABA against the generic runtime's, and
// the tool's contact solve (generated/arm7 has --contact tool:6d): J ddq + gamma = 0.
// Built with add_subdirectory (tests/cxx/CMakeLists.txt, ROBOT_DIR) or find_package.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "arm7.h"
#include "arm7_model.h"
#include "cdyn.h"
#include "cdyn_spatial.h"

namespace {

template <std::size_t N>
double max_diff(const std::array<cdyn_real, N> &a, const std::array<cdyn_real, N> &b)
{
    double m = 0;
    for (std::size_t i = 0; i < N; ++i)
        m = std::max(m, std::fabs(double(a[i]) - double(b[i])));
    return m;
}

}  // namespace

int main()
{
    const double tol = sizeof(cdyn_real) == sizeof(double) ? 1e-9 : 1e-3;
    arm7_data d;
    std::array<cdyn_real, ARM7_NQ> q0, q;
    std::array<cdyn_real, ARM7_NV> dq, v, tau, ddq, tau_back, ddq_generic;
    arm7_neutral(q0.data());
    for (int i = 0; i < ARM7_NV; ++i) {
        dq[i] = cdyn_real(0.1 * (i + 1));
        v[i] = cdyn_real(0.5);
        tau[i] = cdyn_real(1.0);
    }
    arm7_integrate(q0.data(), dq.data(), 1, q.data());
    if (arm7_aba(&d, q.data(), v.data(), tau.data(), ddq.data()) != CDYN_OK)
        return 2;
    arm7_rnea(&d, q.data(), v.data(), ddq.data(), tau_back.data());

    static unsigned char work[ARM7_GENERIC_DATA_BYTES];
    cdyn_data gd;
    if (cdyn_data_init(&gd, &arm7_model, work, sizeof work) != CDYN_OK ||
        cdyn_aba(&arm7_model, &gd, q.data(), v.data(), tau.data(), ddq_generic.data()) != CDYN_OK)
        return 3;

    // the tool clamped to the world, at rest: J ddq + gamma = 0 for the constrained ddq
    std::array<cdyn_real, ARM7_NV> zero = {}, ddq_c;
    std::array<cdyn_real, ARM7_NC> lambda, gamma;
    std::array<cdyn_real, ARM7_NC * ARM7_NV> J;
    cdyn_prox_settings settings = CDYN_PROX_SETTINGS_DEFAULT;
    const int iterations = arm7_prox_ltl(&d, &settings, q.data(), zero.data(), tau.data(),
                                         ddq_c.data(), lambda.data());
    arm7_constraint_jacobian(&d, q.data(), J.data());
    arm7_constraint_drift(&d, q.data(), zero.data(), gamma.data());
    double contact_err = 0;
    for (int r = 0; r < ARM7_NC; ++r) {
        double s = gamma[r];
        for (int k = 0; k < ARM7_NV; ++k)
            s += double(J[r * ARM7_NV + k]) * ddq_c[k];
        contact_err = std::max(contact_err, std::fabs(s));
    }

    const double rnea_err = max_diff(tau_back, tau), generic_err = max_diff(ddq, ddq_generic);
    std::printf("%s: rnea(aba) - tau %.1e, generated - generic aba %.1e, "
                "|J ddq + gamma| %.1e after %d iterations\n",
                arm7_frame_names[ARM7_FRAME_TOOL], rnea_err, generic_err, contact_err, iterations);
    if (!(rnea_err <= tol) || !(generic_err <= tol) || iterations < 1 || !(contact_err <= tol))
        return 1;
    std::puts("OK");
    return 0;
}
