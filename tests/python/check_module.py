"""check_module.py — the python_module test on one module written by cdyngen --python.

    python3 check_module.py MODULE_DIR NAME DRIVER

MODULE_DIR holds NAME.py, NAME.h and build/libNAME.so (not named: the module must find it);
DRIVER is tests/python/driver.c built against that library. Checks: the module has a
function for every one NAME.h declares; RNEA(q, v, ABA(q, v, tau)) = tau; ABA equals the C
driver's bit for bit and Data has sizeof(NAME_data); the other functions against each other
(M, M^-1, the factor, g, h, a frame Jacobian against finite differences of fk, the frame
names against the library's, the constrained solvers' equations); wrong shapes, dtypes and
frames raise ValueError naming the argument; a singular input raises StatusError; load()
takes an explicit path. With a contact step (NAME_contact_step): Data's size is the library's
(NAME_data_size; a module whose contact_buf is off by one real refuses to load); one step from a
random state holds M (v+ - v) = dt (tau - h) + J^T lambda, q+ = integrate(q, v+ dt) and every
block's conditions (bilateral rows at rest, Coulomb's cone and complementarity, limits), gives
bit-identical results when taken twice and as contact_problem + contact_solve; a NaN tau
raises StatusError CDYN_E_NONFINITE, dt = 0 CDYN_E_ARG, bad settings ValueError. Scenes, by
the robot: the 2 kg box of tests/contact/box.urdf (frames c_fl...) at rest on its corners
(ADMM and PGS: normal impulses sum to m g dt, velocity 0), dropped tilted (comes to rest
on its four corners) and on soft corners (each sinks by m g / 4k; every step the spring-damper's
laws, as after a soft step from the random state); a robot with joint limits and no set (arm7 --joint-limits) driven into
its joint 2's upper limit (held there, released when the torque reverses).
Derivatives (check_derivatives): rnea_derivatives, aba_derivatives, integrate_derivatives,
difference_derivatives and, for a contacts-only set of at most NV rows, prox_ltl_derivatives
(skipped, saying so, while the library lacks NAME_prox_ltl_derivatives) against central
differences of the module's own functions, q stepped in the tangent space by integrate and
configurations compared by difference; and identities (aba's ddq_dtau = crba's M^-1,
ddq_dq = -M^-1 dtau_dq at a = ddq, difference(q, integrate(q, v)) = v, the chain rule of
difference and integrate, J ddq_dtau = 0, M ddq_dtau - J^T lambda_dtau = I).
Batch forms (check_batch, a module of cdyngen --batch): every batch_* function on 2 W + 3
states against the single-state function row by row (1e-12 relative in double, 1e-5 in float),
among them batch_rnea_derivatives' and batch_aba_derivatives' every output (and
batch_aba_derivatives' with dtau=False), N = 1 and 0, a NaN row's StatusError naming the
row (the derivatives' naming it alone, with the single form's status), ValueError on bad
shapes; with a constraint set (check_batch_prox), batch_constraint_capture's references and,
with check_batch_solver, batch_prox_ltl's (and with contacts only batch_constrained_aba's and
batch_prox_pv's) ddq, lambda, iterations and residuals against the single solver's row by row
(to the same tolerance at a fixed max_iter, with Baumgarte gains and a warm start; a row's
iterations its block's most at a tolerance), a NaN row named alone, every unconverged row
named, bad settings; with contacts only (check_batch_prox_derivatives)
batch_prox_ltl_derivatives' ddq, lambda and six derivatives against prox_ltl_derivatives'
row by row (to rounding at a fixed max_iter, within 1e3 tol at a tolerance), N = 1
and 0, a NaN row named alone, bad shapes.
Prints what it checked; exits 1 listing every failure.
"""
import ctypes
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

FAILURES = []
WORST = {}          # check -> (worst error / scale, tolerance), printed by main
DT, G0 = 1e-3, 9.81


def check(ok, what):
    if not ok:
        FAILURES.append(what)


def close(a, b, tol, what):
    err = float(np.max(np.abs(np.asarray(a, float) - np.asarray(b, float)), initial=0.0))
    scale = 1.0 + float(np.max(np.abs(np.asarray(b, float)), initial=0.0))
    check(err <= tol * scale, "%s: off by %.2e (tolerance %.1e x %.3g)" % (what, err, tol, scale))


def worst(a, b, tol, what):
    """close(), recording the error relative to its scale 1 + max|b| under `what`."""
    err = float(np.max(np.abs(np.asarray(a, float) - np.asarray(b, float)), initial=0.0))
    rel = err / (1.0 + float(np.max(np.abs(np.asarray(b, float)), initial=0.0)))
    WORST[what] = (max(rel, WORST.get(what, (0.0, tol))[0]), tol)
    close(a, b, tol, what)


def raises(exc, words, fn, *args):
    """fn(*args) must raise exc with every one of `words` in its message."""
    try:
        fn(*args)
    except exc as e:
        missing = [w for w in words if w not in str(e)]
        check(not missing, "%s message %r lacks %s" % (exc.__name__, str(e), missing))
        return
    except Exception as e:  # noqa: BLE001 - any other exception is the failure reported
        check(False, "expected %s %s, got %s: %s" % (exc.__name__, words, type(e).__name__, e))
        return
    check(False, "expected %s %s, nothing raised" % (exc.__name__, words))


def status_of(m, fn, *args):
    """The cdyn_status of the StatusError that fn(*args) must raise (on a NaN row)."""
    try:
        fn(*args)
    except m.StatusError as e:
        return e.status
    check(False, "%s of a NaN row: no StatusError" % fn.__name__)
    return None


def c_aba(driver, q, v, tau):
    text = " ".join(repr(float(x)) for x in np.concatenate([q, v, tau]))
    out = subprocess.run([driver], input=text, stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout.split()
    return int(out[0]), int(out[1]), np.array([float(x) for x in out[2:]])


def fd_q(m, f, q, eps):
    """Central differences of f in q's tangent space: column k is
    (f(integrate(q, eps u_k, 1)) - f(integrate(q, -eps u_k, 1))) / (2 eps)."""
    cols = []
    for k in range(m.NV):
        e = np.zeros(m.NV, m.DTYPE)
        e[k] = eps
        cols.append((np.asarray(f(m.integrate(q, e, 1.0)), float)
                     - np.asarray(f(m.integrate(q, -e, 1.0)), float)) / (2 * eps))
    return np.stack(cols, axis=-1)


def fd_x(f, x, eps):
    """Central differences of f in a vector x (v, tau)."""
    cols = []
    for k in range(len(x)):
        e = np.zeros_like(x)
        e[k] = eps
        cols.append((np.asarray(f(x + e), float) - np.asarray(f(x - e), float)) / (2 * eps))
    return np.stack(cols, axis=-1)


def fd_settings(m):
    """Step and tolerance of the central differences, relative to 1 + max|difference|.
    Double: eps = 1e-5 leaves a truncation error eps^2 / 6 |f'''| ~ 2e-11 |f'''| and a
    rounding error ~ 1e-16 |f| / eps ~ 1e-11 |f|, so 1e-6 holds while the third derivatives
    stay within ~1e4 times the scale (main prints the worst measured). Float: eps = 1e-2
    (rounding ~6e-8 |f| / eps ~ 1e-5 |f|, truncation ~2e-5 |f'''|) and 1e-2, as
    frame_jacobian's check."""
    return (1e-2, 1e-2) if m.DTYPE == np.float32 else (1e-5, 1e-6)


def check_derivatives(m, q, v, tau, tol):
    """The unconstrained derivatives and the configuration manifold's; returns what it checked."""
    eps, fd_tol = fd_settings(m)
    rng = np.random.default_rng(7)
    I, Z = np.eye(m.NV), np.zeros((m.NV, m.NV))
    a = rng.uniform(-1, 1, m.NV).astype(m.DTYPE)
    dq, dv = m.rnea_derivatives(q, v, a)
    check(dq.shape == (m.NV, m.NV) and dv.shape == (m.NV, m.NV) and dq.dtype == m.DTYPE
          and dq.flags.c_contiguous, "rnea_derivatives: %s %s %s" % (dq.shape, dv.shape, dq.dtype))
    worst(dq, fd_q(m, lambda x: m.rnea(x, v, a), q, eps), fd_tol, "rnea dtau_dq")
    worst(dv, fd_x(lambda x: m.rnea(q, x, a), v, eps), fd_tol, "rnea dtau_dv")
    checked = ["rnea"]

    if hasattr(m, "aba_derivatives"):
        ddq_dq, ddq_dv, ddq_dtau = m.aba_derivatives(q, v, tau, data=m.Data())
        worst(ddq_dq, fd_q(m, lambda x: m.aba(x, v, tau), q, eps), fd_tol, "aba ddq_dq")
        worst(ddq_dv, fd_x(lambda x: m.aba(q, x, tau), v, eps), fd_tol, "aba ddq_dv")
        worst(ddq_dtau, fd_x(lambda x: m.aba(q, v, x), tau, eps), fd_tol, "aba ddq_dtau")
        M = m.crba(q).astype(float)
        Minv = np.linalg.inv(M)
        worst(ddq_dtau, Minv, 10 * tol, "aba ddq_dtau = inv(crba M)")
        R_dq, R_dv = m.rnea_derivatives(q, v, m.aba(q, v, tau))
        worst(ddq_dq, -Minv @ R_dq, 10 * tol, "aba ddq_dq = -M^-1 dtau_dq(a = ddq)")
        worst(ddq_dv, -Minv @ R_dv, 10 * tol, "aba ddq_dv = -M^-1 dtau_dv(a = ddq)")
        checked.append("aba")

    # the manifold: q1 = q (+) v1, |v1| < 1 (inside the injectivity radius)
    v1 = rng.uniform(-1, 1, m.NV).astype(m.DTYPE)
    q1 = m.integrate(q, v1, 1.0)
    worst(m.difference(q, q1), v1, tol, "difference(q, integrate(q, v)) = v")
    worst(m.difference(q, q), np.zeros(m.NV), 0, "difference(q, q) = 0")
    q2 = m.integrate(m.neutral(), rng.uniform(-1, 1, m.NV).astype(m.DTYPE), 1.0)
    worst(m.difference(q2, m.integrate(q, m.difference(q, q2), 1.0)), np.zeros(m.NV), tol,
          "integrate(q, difference(q, q2)) = q2")
    dn_dq, dn_dv = m.integrate_derivatives(q, v1)
    worst(dn_dq, fd_q(m, lambda x: m.difference(q1, m.integrate(x, v1, 1.0)), q, eps), fd_tol,
          "integrate dq_next_dq")
    worst(dn_dv, fd_x(lambda x: m.difference(q1, m.integrate(q, x, 1.0)), v1, eps), fd_tol,
          "integrate dq_next_dv")
    dv_dq0, dv_dq1 = m.difference_derivatives(q, q1)
    worst(dv_dq0, fd_q(m, lambda x: m.difference(x, q1), q, eps), fd_tol, "difference dv_dq0")
    worst(dv_dq1, fd_q(m, lambda x: m.difference(q, x), q1, eps), fd_tol, "difference dv_dq1")
    # v1 = difference(q, integrate(q, v1)) for all q, v1: the chain rule
    worst(dv_dq1 @ dn_dv, I, 10 * tol, "dv_dq1 dq_next_dv = I")
    worst(dv_dq1 @ dn_dq + dv_dq0, Z, 10 * tol, "dv_dq1 dq_next_dq + dv_dq0 = 0")
    worst(np.concatenate(m.difference_derivatives(q, q)), np.concatenate([-I, I]), tol,
          "difference_derivatives(q, q) = -I, I")
    worst(np.concatenate(m.integrate_derivatives(q, np.zeros(m.NV, m.DTYPE))),
          np.concatenate([I, I]), tol, "integrate_derivatives(q, 0) = I, I")
    checked.append("integrate, difference")

    nan_q = np.full(m.NQ, np.nan, m.DTYPE)
    raises(ValueError, ["rnea_derivatives", "a", "shape"], m.rnea_derivatives, q, v, a[:-1])
    raises(ValueError, ["difference", "q1", "shape"], m.difference, q, q[:-1])
    raises(m.StatusError, ["rnea_derivatives", "cdyn_status -4"], m.rnea_derivatives, nan_q, v, a)
    raises(m.StatusError, ["difference", "cdyn_status -4"], m.difference, q, nan_q)
    raises(m.StatusError, ["integrate_derivatives", "cdyn_status -4"], m.integrate_derivatives,
           nan_q, v)
    raises(m.StatusError, ["difference_derivatives", "cdyn_status -4"], m.difference_derivatives,
           nan_q, q)
    if hasattr(m, "aba_derivatives"):
        raises(m.StatusError, ["aba_derivatives", "cdyn_status"], m.aba_derivatives, nan_q, v, tau)
    return checked


def check_prox_derivatives(m, name, q, v, tau, tol):
    """prox_ltl_derivatives against central differences of prox_ltl solved to its last digit
    (abs_tol = rel_tol = 0: exactly max_iter proximal iterations, each shrinking the error by
    ~mu / (mu + sigma_min(G))), and its identities. Returns what it checked, or why not."""
    if not hasattr(m._LIB[0], name + "_prox_ltl_derivatives"):
        raises(OSError, [name + "_prox_ltl_derivatives"], m.prox_ltl_derivatives, q, v, tau)
        return "prox_ltl SKIPPED (the library has no %s_prox_ltl_derivatives)" % name
    eps, fd_tol = fd_settings(m)
    single = m.DTYPE == np.float32
    kw = dict(mu=1e-3 if single else 1e-6, max_iter=200 if single else 50, abs_tol=0.0)
    r = m.prox_ltl_derivatives(q, v, tau, **kw)
    ddq, lam, ddq_dq, ddq_dv, ddq_dtau, lam_dq, lam_dv, lam_dtau = r
    check([x.shape for x in r] == [(m.NV,), (m.NC,)] + [(m.NV, m.NV)] * 3 + [(m.NC, m.NV)] * 3,
          "prox_ltl_derivatives shapes %s" % [x.shape for x in r])
    ddq0, lam0, _ = m.prox_ltl(q, v, tau, **kw)
    worst(np.concatenate([ddq, lam]), np.concatenate([ddq0, lam0]), 0,
          "prox_ltl_derivatives' ddq, lambda = prox_ltl's")

    def solve(x, y, z):
        ddq, lam, _ = m.prox_ltl(x, y, z, **kw)
        return np.concatenate([ddq, lam])
    for what, got, fd in (("dq", (ddq_dq, lam_dq), fd_q(m, lambda x: solve(x, v, tau), q, eps)),
                          ("dv", (ddq_dv, lam_dv), fd_x(lambda x: solve(q, x, tau), v, eps)),
                          ("dtau", (ddq_dtau, lam_dtau), fd_x(lambda x: solve(q, v, x), tau, eps))):
        worst(got[0], fd[:m.NV], fd_tol, "prox_ltl ddq_" + what)
        worst(got[1], fd[m.NV:], fd_tol, "prox_ltl lambda_" + what)
    J, M = m.constraint_jacobian(q).astype(float), m.crba(q).astype(float)
    worst(J @ ddq_dtau, np.zeros((m.NC, m.NV)), 10 * tol, "prox_ltl J ddq_dtau = 0")
    worst(M @ ddq_dtau - J.T @ lam_dtau, np.eye(m.NV), 10 * tol,
          "prox_ltl M ddq_dtau - J^T lambda_dtau = I")
    raises(ValueError, ["prox_ltl_derivatives", "q", "shape"], m.prox_ltl_derivatives, q[:-1], v, tau)
    return "prox_ltl"


def check_constrained(m, q, v, tau, tol):
    J, gamma = m.constraint_jacobian(q), m.constraint_drift(q, v)
    M, h = m.crba(q), m.nle(q, v)
    mu = 1e-6 if m.DTYPE == np.float64 else 1e-3
    solvers = [s for s in ("prox_ltl", "prox_ltls", "constrained_aba", "prox_pv") if hasattr(m, s)]
    for s in solvers:
        ddq, lam, it = getattr(m, s)(q, v, tau, mu=mu)
        check(ddq.dtype == m.DTYPE and it >= 1, "%s: dtype %s, %d iterations" % (s, ddq.dtype, it))
        close(J @ ddq + gamma, np.zeros(m.NC), 1e3 * tol, "%s: J ddq + gamma = 0" % s)
        close(M @ ddq + h, tau + J.T @ lam, 1e3 * tol, "%s: M ddq + h = tau + J^T lambda" % s)
    raises(ValueError, ["lam", "shape"], m.prox_ltl, q, v, tau, np.zeros(m.NC + 1, m.DTYPE))
    raises(ValueError, ["Kp", "shape"], lambda: m.prox_ltl(q, v, tau, Kp=[1.0] * (m.NCONSTRAINTS + 1)))
    G = J @ np.linalg.inv(M.astype(float)) @ J.T + mu * np.eye(m.NC)
    for s in ("delassus", "delassus_factorised", "delassus_articulated"):
        if hasattr(m, s):
            close(getattr(m, s)(q, mu), G, 1e3 * tol, s + " = J M^-1 J^T + mu I")
    v_after, imp, it = m.impulse(q, v, 0.5, mu=mu)
    close(J @ v_after, -0.5 * (J @ v), 1e3 * tol, "impulse: J v+ = -e J v-")
    close(M @ (v_after - v), J.T @ imp, 1e3 * tol, "impulse: M (v+ - v-) = J^T impulse")
    # seed 003's projection, where every constraint is bilateral (a frictional contact's rows
    # keep J v instead): J v_out = 0, and v_out is the kinetic-energy projection, so
    # M (v_out - v) is in J^T's range and the energy lost is |v - v_out|_M^2 / 2
    if not any(m.CONSTRAINT_FRICTION):
        vp, it = m.project_velocity(q, v)
        check(it >= 1 and vp.dtype == m.DTYPE, "project_velocity: %d iterations" % it)
        close(J @ vp, np.zeros(m.NC), 1e3 * tol, "project_velocity: J v = 0")
        lam = np.linalg.lstsq(J.T.astype(float), M @ (vp - v), rcond=None)[0]
        close(M @ (vp - v), J.T @ lam, 1e3 * tol, "project_velocity: M dv in range(J^T)")
        dp = m.Data()
        m.constraint_capture(dp, q)
        step = np.linspace(-1e-3, 1e-3, m.NV).astype(m.DTYPE)
        q_off = m.integrate(q, step, 1.0)
        q_back, steps = m.project_position(q_off, data=dp)
        check(steps >= 1, "project_position: %d Gauss-Newton steps" % steps)
        _, steps = m.project_position(q_back, data=dp)
        check(steps == 0, "project_position: q_back on the manifold (%d more steps)" % steps)
        raises(ValueError, ["project_position", "tol"], m.project_position, q, None, -1.0)
    d = m.Data()
    m.constraint_capture(d, q)
    if hasattr(m, "constrained_aba"):           # contacts only: each has a reference
        ref_R = np.ctypeslib.as_array(d.ref_R)[0].reshape(3, 3)
        close(ref_R @ ref_R.T, np.eye(3), tol, "constraint_capture: ref_R a rotation")
    return solvers


def contact_conditions(r, mu, tol, what):
    """The step's solution block by block (cdyn_contact.h), by this file's arithmetic: bilateral
    rows at rest (c = 0); a friction cone's lambda in the cone, c_n - b >= 0 and
    lambda . (c + s) = 0 with the De Saxce shift s = (0, 0, mu |c_t|); a half line's
    lambda >= 0, c - b >= 0, complementary; a block left out pushes nothing."""
    lam, c = r["lambda"].astype(float), r["c"].astype(float)
    ls, vs = 1 + np.abs(lam).max(initial=0), 1 + np.abs(c).max(initial=0)
    ends = list(r["row"][1:]) + [len(lam)]
    bad = []
    for b, (kind, row, end) in enumerate(zip(r["kind"], r["row"], ends)):
        l, v, bound = lam[row:end], c[row:end], float(r["bound"][b])
        if kind == 0:
            ok = np.abs(v).max() <= tol * vs
        elif not r["active"][b]:
            ok = not l.any()
        elif kind == 1:
            cn, ct = v[2] - bound, np.hypot(v[0], v[1])
            ok = (l[2] >= -tol * ls and np.hypot(l[0], l[1]) <= mu * l[2] + tol * ls
                  and cn >= -tol * vs and abs(l[:2] @ v[:2] + l[2] * (cn + mu * ct)) <= tol * ls * vs)
        else:
            ok = l[0] >= -tol * ls and v[0] - bound >= -tol * vs and abs(l[0] * (v[0] - bound)) <= tol * ls * vs
        if not ok:
            bad.append("block %d (kind %d): lambda %s, c %s, bound %g" % (b, kind, l, v, bound))
    check(not bad, "%s: %s" % (what, "; ".join(bad)))


def soft_conditions(r, s, tol, what):
    """The soft model (settings s, model "soft") block by block, by this file's arithmetic: an
    active frictional contact's lambda_n = max(0, -dt k phi - beta v+_n), beta = dt (d + k dt),
    its friction in the cone and Coulomb's on c'_t = v+_t + lambda_t / beta (sticking: c'_t = 0;
    sliding: lambda_t = -mu lambda_n c'_t / |c'_t|); a block left out would not push."""
    lam, c = r["lambda"].astype(float), r["c"].astype(float)
    ls, vs = 1 + np.abs(lam).max(initial=0), 1 + np.abs(c).max(initial=0)
    bad = []
    for b, (kind, row) in enumerate(zip(r["kind"], r["row"])):
        if kind != 1:
            continue
        k = s["soft_stiffness"] if s["stiffness"] is None else float(s["stiffness"][b])
        d = s["soft_damping"] if s["damping"] is None else float(s["damping"][b])
        mu = s["friction"] if s["mu"] is None else float(s["mu"][b])
        beta = s["dt"] * (d + k * s["dt"])
        l, v = lam[row:row + 3], c[row:row + 3]
        law = -s["dt"] * k * float(r["phi"][b]) - beta * v[2]
        if not r["active"][b]:
            ok = not l.any() and law <= tol * ls
        else:
            ct = v[:2] + l[:2] / beta
            ok = (l[2] >= 0 and abs(l[2] - max(0.0, law)) <= tol * ls
                  and np.hypot(l[0], l[1]) <= mu * l[2] + tol * ls
                  and abs(l[:2] @ ct + mu * l[2] * np.hypot(ct[0], ct[1])) <= tol * ls * vs)
        if not ok:
            bad.append("block %d: lambda %s, c %s, phi %g" % (b, l, v, r["phi"][b]))
    check(not bad, "%s: %s" % (what, "; ".join(bad)))


def contact_tolerances(m, abs_tol, abs_tol_float):
    """Settings solved to abs_tol (float: abs_tol_float), and the conditions' tolerance."""
    single = m.DTYPE == np.float32
    return (m.contact_settings(max_iter=5000, abs_tol=abs_tol_float if single else abs_tol),
            1e-3 if single else 1e-8)


def check_contact(m, module_dir, name, q, v, tau):
    s, tol = contact_tolerances(m, 1e-10, 1e-4)      # a random state: impulses up to ~1e3 N s
    s["friction"] = 0.5
    check(m.data_size() == ctypes.sizeof(m.Data), "data_size %d, Data %d" % (m.data_size(), ctypes.sizeof(m.Data)))
    src = open(os.path.join(module_dir, name + ".py")).read()
    head, fn, tail = src.partition("def _contact_buf_reals(")
    rounded = "    return (nbytes + size - 1) // size\n"
    check(rounded in tail, "contact_buf's size not found in %s.py" % name)
    with tempfile.TemporaryDirectory() as tmp:  # contact_buf one real longer: load refuses
        path = os.path.join(tmp, "bad.py")
        open(path, "w").write(head + fn + tail.replace(rounded, rounded[:-1] + " + 1\n", 1))
        spec = importlib.util.spec_from_file_location("bad", path)
        bad = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bad)
        raises(OSError, ["sizeof(%s_data)" % name, "regenerate"], bad.load, m._LIB[0]._name)

    d1, d2 = m.Data(), m.Data()
    q1, v1 = m.contact_step(q, v, tau, s, d1)
    r = m.contact_view(d1)
    check(q1.dtype == m.DTYPE and q1.shape == (m.NQ,) and v1.shape == (m.NV,), "contact_step shapes")
    check(r["iterations"] >= 1 or not r["active"].any(), "contact_step: %d iterations" % r["iterations"])
    M, h = m.crba(q), m.nle(q, v)
    close(M @ (v1 - v), DT * (tau - h) + r["impulse"], 10 * tol, "contact_step: M (v+ - v) = dt (tau - h) + J^T lambda")
    close(q1, m.integrate(q, v1, DT), 0, "contact_step: q+ = integrate(q, v+, dt)")
    if hasattr(m, "NC"):
        Jv = m.constraint_jacobian(q) @ v1
        for row, kind, end in zip(r["row"], r["kind"], list(r["row"][1:]) + [len(r["c"])]):
            if kind == 0 and row < m.NC:
                close(r["c"][row:end], Jv[row:end], tol, "contact_view: c = J v+ on bilateral rows")
    contact_conditions(r, 0.5, tol, "contact_step from a random state")
    q2, v2 = m.contact_step(q, v, tau, s, d2)
    check(np.array_equal(q1, q2) and np.array_equal(v1, v2)
          and np.array_equal(m.contact_view(d2)["lambda"], r["lambda"]), "contact_step twice differs")
    G, g = m.contact_problem(q, v, tau, s, d2)
    rows = sum(e - b for b, e, a in zip(r["row"], list(r["row"][1:]) + [len(r["c"])], r["active"]) if a)
    check(G.shape == (rows, rows) and g.shape == (rows,), "contact_problem: G %s, g %s, %d active rows" % (G.shape, g.shape, rows))
    close(G, G.T, tol, "contact_problem: G symmetric")
    it = m.contact_solve(s, d2)
    check(it == r["iterations"] and np.array_equal(m.contact_view(d2)["lambda"], r["lambda"]),
          "contact_problem + contact_solve differ from contact_step")
    m.contact_reset(d2)
    check(not m.contact_view(d2)["lambda"].any(), "contact_reset left lambda")
    m.contact_step(q, v, tau, s)                     # the module's own Data
    check(np.array_equal(m.contact_view()["lambda"], r["lambda"]), "contact_view() after contact_step(data=None)")

    nan_tau = tau.copy()
    nan_tau[0] = np.nan
    raises(m.StatusError, ["contact_step", "cdyn_status -4"], m.contact_step, q, v, nan_tau, s)
    raises(m.StatusError, ["contact_step", "cdyn_status -1"], m.contact_step, q, v, tau, m.contact_settings(dt=0))
    raises(ValueError, ["no field", "dtt"], lambda: m.contact_settings(dtt=1))
    raises(ValueError, ["solver"], m.contact_step, q, v, tau, {"solver": "newton"})
    # the soft model from the same state: the same equation of motion, the spring-damper's laws
    soft = dict(s, model="soft", soft_stiffness=1e4, soft_damping=1e2)
    q3, v3 = m.contact_step(q, v, tau, soft, d2)
    r3 = m.contact_view(d2)
    close(M @ (v3 - v), DT * (tau - h) + r3["impulse"], 10 * tol, "soft contact_step: M (v+ - v) = dt (tau - h) + J^T lambda")
    soft_conditions(r3, soft, tol, "soft contact_step from a random state")
    raises(m.StatusError, ["contact_step", "cdyn_status -1"], m.contact_step, q, v, tau,
           m.contact_settings(model="soft", soft_stiffness=0.0))
    raises(m.StatusError, ["contact_step", "cdyn_status -1"], m.contact_step, q, v, tau,
           m.contact_settings(model="soft", soft_damping=-1.0))
    raises(ValueError, ["model"], m.contact_step, q, v, tau, {"model": "spring"})
    n = getattr(m, "NCONSTRAINTS", 0)
    raises(ValueError, ["mu", "shape"], m.contact_step, q, v, tau, {"mu": [0.5] * (n + 1)})


def box_scenes(m):
    """tests/contact/box.urdf: 2 kg, corners c_fl, c_fr, c_hl, c_hr 0.05 m below its centre."""
    s, tol = contact_tolerances(m, 1e-14, 1e-8)      # impulses ~1e-2 N s
    s["friction"] = 0.4
    mgdt, zero = 2.0 * G0 * DT, np.zeros(m.NV, m.DTYPE)
    rest = 1e-4 if m.DTYPE == np.float32 else 1e-8
    for solver in ("admm", "pgs"):
        s["solver"] = solver
        q, v = m.neutral(), zero
        q[2] = 0.05
        worst = 0.0
        for k in range(200):
            q, v = m.contact_step(q, v, zero, s)
            r = m.contact_view()
            contact_conditions(r, 0.4, tol, "box at rest (%s), step %d" % (solver, k))
            worst = max(worst, abs(float(r["lambda"][2::3].sum()) - mgdt))
        check(worst <= rest * mgdt, "box at rest (%s): normal impulses off m g dt by %.2e" % (solver, worst))
        check(np.abs(v).max() <= rest, "box at rest (%s): moves at %.2e" % (solver, np.abs(v).max()))
    # dropped tilted and spinning (its lowest corner 4 cm up): the landing's problems (12 rows,
    # rank 6, sliding) stall ADMM short of 1e-12, so max_iter iterations (abs_tol = rel_tol
    # = 0 never raise) and the conditions to 1e-4; then at rest on its four corners
    s.update(solver="admm", abs_tol=0.0, max_iter=300)
    q = m.neutral()
    q[2] = 0.13
    q = m.integrate(q, np.array([0, 0, 0, 0.15, -0.1, 0], m.DTYPE), 1.0)
    v = np.array([0.2, 0, 0, 0, 0, 1.0], m.DTYPE)
    lowest, landed = 1.0, -1
    for k in range(800):
        q, v = m.contact_step(q, v, zero, s)
        r = m.contact_view()
        contact_conditions(r, 0.4, max(tol, 1e-4), "box dropped, step %d" % k)
        lowest = min(lowest, float(r["phi"].min()))
        landed = k if landed < 0 and r["active"].any() else landed
    check(80 < landed < 100, "box dropped: landed at step %d, not after ~sqrt(2 h / g) / dt = 89" % landed)
    check(np.abs(v).max() <= rest, "box dropped: still moving at %.2e" % np.abs(v).max())
    check(r["active"].all() and abs(float(r["lambda"][2::3].sum()) - mgdt) <= rest * mgdt,
          "box dropped: at rest on %s, normal impulses %g, m g dt %g" % (r["active"], r["lambda"][2::3].sum(), mgdt))
    check(lowest >= -1e-6 and abs(q[2] - 0.05) <= 1e-6, "box dropped: a corner %g m deep, centre at %g m" % (lowest, q[2]))
    # soft corners (k 1e5, d 1e3, heavily damped): released at phi = 0, at rest each sinks by
    # its share of the weight over k, m g / (4 k) (the step's exact fixed point; float: the
    # corners' heights are rounded to 4e-9 m of the 1.2e-5)
    s, tol = contact_tolerances(m, 1e-14, 1e-8)
    k, n = 1e5, 4
    s.update(friction=0.4, model="soft", soft_stiffness=k, soft_damping=1e3,  # k by array in double
             stiffness=None if m.DTYPE == np.float32 else [k] * n)
    q, v = m.neutral(), zero
    q[2] = 0.05
    for step in range(600):
        q, v = m.contact_step(q, v, zero, s)
        r = m.contact_view()
        soft_conditions(r, s, tol, "soft box, step %d" % step)
    sink = 2.0 * G0 / (n * k)
    worst = float(np.abs(r["phi"] + sink).max())
    check(worst <= (1e-3 if m.DTYPE == np.float32 else 1e-6) * sink,
          "soft box at rest: corners at %s, -m g / (4 k) = %g" % (r["phi"], -sink))
    return "box at rest (ADMM, PGS), dropped, and soft (at m g / 4k)"


def arm_limit_scene(m, name):
    """Joint 2 (v index 1) pushed into its upper limit, gravity held by RNEA, then pulled back."""
    class Limit(ctypes.Structure):  # cdyn_joint_limit
        _fields_ = [("idx_q", ctypes.c_int), ("idx_v", ctypes.c_int), ("lower", m._real), ("upper", m._real)]
    limits = (Limit * m.NJOINT_LIMITS).in_dll(m._LIB[0], name + "_joint_limits")
    l = [x.idx_v for x in limits].index(1)
    limit, block = limits[l].upper, getattr(m, "NCONSTRAINTS", 0) + 2 * l + 1
    s, tol = contact_tolerances(m, 1e-14, 1e-8)      # impulses ~1e-2 N s
    s["friction"] = 0.0
    zero = np.zeros(m.NV, m.DTYPE)
    q, v = m.neutral(), zero
    q[1], q[3], q[5] = 1.6, -1.0, 1.0                # joints 4 and 6 inside their limits
    highest, held, released = -1.0, 0, True
    for k in range(700):
        tau = m.rnea(q, zero, zero) - 0.5 * v
        tau[1] += 10.0 if k < 500 else -10.0
        q, v = m.contact_step(q, v, tau, s)
        r = m.contact_view()
        contact_conditions(r, 0.0, tol, "arm at its limit, step %d" % k)
        lam = r["lambda"][r["row"][block]]
        highest = max(highest, float(q[1]))
        held += 400 < k < 500 and abs(q[1] - limit) <= 1e-9 and lam > 0
        released &= k <= 550 or (lam == 0 and q[1] < limit - 1e-3)
    check(highest <= limit + 1e-9, "arm: joint 2 reached %.12g past its limit %.12g" % (highest, limit))
    check(held == 99, "arm: joint 2 held at its limit in %d of the steps 401..499" % held)
    check(released, "arm: joint 2 not released when driven back")
    return "arm driven into joint 2's limit"


def check_batch(m, module_dir, name, rng, single):
    """--batch: every batch_* function on N states (two lane blocks and a padded third)
    against the single-state function row by row, to 1e-12 relative in double (1e-5 in
    float); N = 1 and N = 0; a NaN row raises StatusError naming it, with the single form's
    status; wrong shapes raise ValueError. Returns what it checked."""
    tol = 1e-5 if single else 1e-12
    w = m.batch_w()
    check(w in (2, 4, 8, 16) and (m.BATCH_W_GENERATED in (0, w)),
          "batch_w() %d, generated %d" % (w, m.BATCH_W_GENERATED))
    header = open(os.path.join(module_dir, name + "_batch.h")).read()
    declared = re.findall(r"^\w+ %s_batch_(\w+)\(" % name, header, re.M)
    missing = [f for f in declared if f not in ("pack", "unpack", "frame_placement", "data_bytes")
               and not callable(getattr(m, "batch_" + f, None))]
    check(len(declared) >= 9 and not missing, "batch forms of %s_batch.h missing from the "
          "module: %s" % (name, missing))
    n = 2 * w + 3
    q = np.array([m.integrate(m.neutral(), rng.uniform(-3, 3, m.NV).astype(m.DTYPE), 1.0)
                  for _ in range(n)])
    v, a = (rng.uniform(-1, 1, (n, m.NV)).astype(m.DTYPE) for _ in range(2))
    tip = m.FRAME_NAMES[-1]
    each = lambda f, *xs: np.array([f(*row) for row in zip(*xs)])
    ddq = each(m.aba, q, v, a)
    pairs = [("rnea", m.batch_rnea(q, v, a), each(m.rnea, q, v, a)),
             ("nle", m.batch_nle(q, v), each(m.nle, q, v)),
             ("gravity", m.batch_gravity(q), each(m.gravity, q)),
             ("crba", m.batch_crba(q), each(m.crba, q)),
             ("minv", m.batch_minv(q), each(m.minv, q)),
             ("aba", m.batch_aba(q, v, a), ddq)]
    for ref in (m.LOCAL, m.LOCAL_WORLD_ALIGNED):
        pairs.append(("frame_jacobian %d" % ref, m.batch_frame_jacobian(q, tip, ref),
                      each(lambda x: m.frame_jacobian(x, tip, ref), q)))
    # the derivatives: every output of each against the single form's, row by row (and
    # batch_aba_derivatives without ddq_dtau: the first two)
    for f, outs, kw in (("rnea_derivatives", ("dtau_dq", "dtau_dv"), {}),
                        ("aba_derivatives", ("ddq_dq", "ddq_dv", "ddq_dtau"), {}),
                        ("aba_derivatives", ("ddq_dq", "ddq_dv"), {"dtau": False})):
        got = getattr(m, "batch_" + f)(q, v, a, **kw)
        want = [np.array(w) for w in zip(*(getattr(m, f)(*row) for row in zip(q, v, a)))]
        check(len(got) == len(outs), "batch_%s%s returned %d arrays" % (f, kw or "", len(got)))
        pairs += [("%s %s%s" % (f, o, ", dtau=False" if kw else ""), g, w)
                  for o, g, w in zip(outs, got, want)]
    R, p = m.batch_fk(q)
    fk = [m.fk(x) for x in q]
    pairs += [("fk R", R, np.array([f[0] for f in fk])), ("fk p", p, np.array([f[1] for f in fk]))]
    rel = 0.0
    for what, got, want in pairs:
        check(got.shape == want.shape and got.dtype == m.DTYPE,
              "batch_%s: %s %s, single %s" % (what, got.shape, got.dtype, want.shape))
        if got.shape == want.shape:
            close(got, want, tol, "batch_%s = %s row by row" % (what, what.split()[0]))
            rel = max(rel, float(np.max(np.abs(got.astype(float) - want)) /
                                 (1 + np.max(np.abs(want.astype(float))))))
    d = m.BatchData()
    close(m.batch_aba(q[:1], v[:1], a[:1], data=d), ddq[:1], tol, "batch_aba, N = 1")
    close(m.batch_aba(q[1:], v[1:], a[1:], data=d), ddq[1:], tol, "batch_aba, data kept")
    check(m.batch_rnea(q[:0], v[:0], a[:0]).shape == (0, m.NV), "batch_rnea of no state")
    bad = w + 1                                   # a NaN in the second block's second lane
    qn = q.copy()
    qn[bad] = np.nan
    status = status_of(m, m.aba, qn[bad], v[bad], a[bad])
    for f, args in (("batch_aba", (qn, v, a)), ("batch_minv", (qn,))):
        raises(m.StatusError, [f, "row %d" % bad, "cdyn_status %d" % status], getattr(m, f), *args)
    try:
        m.batch_aba(qn, v, a)
    except m.StatusError as e:
        check(e.row == bad and e.status == status, "batch_aba's error: row %s status %s"
              % (getattr(e, "row", None), e.status))
    # the derivatives: the NaN row named alone, with the single form's status on it
    for f, single_f in (("batch_rnea_derivatives", m.rnea_derivatives),
                        ("batch_aba_derivatives", m.aba_derivatives)):
        status = status_of(m, single_f, qn[bad], v[bad], a[bad])
        try:
            getattr(m, f)(qn, v, a)
            check(False, "%s of a NaN row: nothing raised" % f)
        except m.StatusError as e:
            check(e.row == bad and e.rows == [bad] and e.status == status
                  and "row %d)" % bad in str(e), "%s's error: %s, rows %s, status %s (single %s)"
                  % (f, e, getattr(e, "rows", None), e.status, status))
    raises(ValueError, ["batch_aba_derivatives", "tau", "(N, %d)" % m.NV],
           m.batch_aba_derivatives, q, v, a[:, :-1])
    raises(ValueError, ["batch_aba", "q", "(N, %d)" % m.NQ], m.batch_aba, q[:, :-1], v, a)
    raises(ValueError, ["batch_rnea", "a", "rows"], m.batch_rnea, q, v, a[:-1])
    raises(ValueError, ["batch_gravity", "q", "shape"], m.batch_gravity, q[0])
    done = "batch forms (W = %d, N = %d) as the single forms to %.1e" % (w, n, rel)
    if hasattr(m, "NC"):
        done += "; " + check_batch_prox(m, rng, tol, q, v, a)
    return done


def single_prox(m, fn, q, v, tau, lam, refs, **kw):
    """The solver fn (prox_ltl, ...) on each row, each with a Data holding that row's
    references (refs: the configurations given to constraint_capture, or None): ddq, lambda,
    iterations and residuals, stacked; a failing row's status instead of its iterations."""
    out = {"ddq": [], "lam": [], "it": [], "primal": [], "dual": []}
    for i in range(len(q)):
        d = m.Data()
        if refs is not None:
            m.constraint_capture(d, refs[i])
        try:
            ddq, lam_i, it = getattr(m, fn)(q[i], v[i], tau[i], None if lam is None else lam[i],
                                            data=d, **kw)
        except m.StatusError as e:
            ddq, lam_i, it = np.full(m.NV, np.nan), np.full(m.NC, np.nan), e.status
        for key, x in zip(out, (ddq, lam_i, it, d.primal_residual, d.dual_residual)):
            out[key].append(x)
    return {key: np.array(x) for key, x in out.items()}


def check_batch_prox(m, rng, tol, q, v, tau):
    """A module with a constraint set: batch_constraint_capture's references against
    constraint_capture's row by row, then each batch solver (check_batch_solver) with them:
    batch_prox_ltl and batch_prox_ltls, and with contacts only (the module has
    constrained_aba) also batch_constrained_aba and batch_prox_pv."""
    q_ref = np.array([m.integrate(x, rng.uniform(-0.05, 0.05, m.NV).astype(m.DTYPE), 1.0)
                      for x in q])
    lam0 = rng.uniform(-10, 10, (len(q), m.NC)).astype(m.DTYPE)
    d = m.BatchData()
    m.batch_constraint_capture(d, q_ref)
    for i in range(len(q)):                     # the references as constraint_capture's
        one = m.Data()
        m.constraint_capture(one, q_ref[i])
        close(d.ref_R[i].reshape(-1), np.ctypeslib.as_array(one.ref_R).reshape(-1), tol,
              "batch_constraint_capture's ref_R = constraint_capture's")
        close(d.ref_p[i], np.ctypeslib.as_array(one.ref_p), tol,
              "batch_constraint_capture's ref_p = constraint_capture's")
    raises(TypeError, ["batch_constraint_capture", "BatchData"],
           m.batch_constraint_capture, m.Data(), q)
    solvers = ["prox_ltl", "prox_ltls"] + (["constrained_aba", "prox_pv"]
                                           if hasattr(m, "constrained_aba") else [])
    missing = [fn for fn in solvers if not callable(getattr(m, "batch_" + fn, None))]
    check(not missing, "batch solvers missing from the module: %s" % missing)
    done = [check_batch_solver(m, fn, tol, q, v, tau, d, q_ref, lam0)
            for fn in solvers if fn not in missing]
    if hasattr(m, "prox_ltl_derivatives"):      # contacts only
        done.append(check_batch_prox_derivatives(m, tol, q, v, tau, lam0))
    return "; ".join(done)


DERIVATIVE_NAMES = ("ddq", "lambda", "ddq_dq", "ddq_dv", "ddq_dtau", "lambda_dq", "lambda_dv",
                    "lambda_dtau")


def check_batch_prox_derivatives(m, tol, q, v, tau, lam0):
    """batch_prox_ltl_derivatives against prox_ltl_derivatives row by row, on the N = 2 W + 3
    states of check_batch: its eight results' shapes and dtype; with abs_tol = rel_tol = 0
    (exactly max_iter iterations on every lane, warm-started by lam0) to rounding (tol, as
    the other batch forms); at a tolerance (the default settings, and mu = 1e-2) within
    1e3 tol, check_batch_solver's rule for a converged solve (below); N = 1 (a block of one row: its own iterations) to
    rounding, N = 0; a NaN row raises StatusError naming that row alone with
    prox_ltl_derivatives' status; bad shapes ValueError."""
    f, w, n = "batch_prox_ltl_derivatives", m.batch_w(), len(q)
    batch = m.batch_prox_ltl_derivatives
    shapes = [(m.NV,), (m.NC,)] + [(m.NV, m.NV)] * 3 + [(m.NC, m.NV)] * 3

    def single(qs, vs, taus, lams=None, **kw):
        rows = [m.prox_ltl_derivatives(qs[i], vs[i], taus[i], None if lams is None else lams[i],
                                       **kw) for i in range(len(qs))]
        return [np.array([r[k] for r in rows]).reshape((len(qs),) + shapes[k])
                for k in range(len(shapes))]

    def compare(got, want, tolerance, what):
        check(len(got) == len(shapes) and all(g.dtype == m.DTYPE for g in got) and
              [g.shape for g in got] == [x.shape for x in want],
              "%s (%s): %s, single %s" % (f, what, [(g.shape, g.dtype.name) for g in got],
                                          [x.shape for x in want]))
        rel = 0.0
        for name, g, x in zip(DERIVATIVE_NAMES, got, want):
            close(g, x, tolerance, "%s %s = prox_ltl_derivatives' row by row (%s)"
                  % (f, name, what))
            if g.shape == x.shape:
                rel = max(rel, float(np.max(np.abs(g.astype(float) - x), initial=0.0) /
                                     (1 + np.max(np.abs(x.astype(float)), initial=0.0))))
        return rel

    # exactly max_iter proximal iterations on every lane and in every single solve: the
    # same operations, so rounding-level agreement (10 iterations at the default mu converge)
    fixed = dict(max_iter=10, abs_tol=0.0, rel_tol=0.0)
    rel_fixed = compare(batch(q, v, tau, lam0, **fixed), single(q, v, tau, lam0, **fixed), tol,
                        "max_iter")
    # Converged solves at a tolerance: a block iterates until its slowest row converges, so
    # a row may take more iterations than alone and its ddq and lambda differ from the single
    # solve's within the tolerance's effect, bounded by 1e3 tol as check_batch_solver's
    # converged solves. The derivatives are the same operations on that ddq and lambda
    # (RNEA's derivatives at a = ddq and the contact forces' terms, linear in them; the
    # factor is q's, and G^-1's proximal steps stop per lane where the single form's do), so
    # they differ by as much relative to their own scale: the same 1e3 tol. The default
    # settings (CDYN_PROX_SETTINGS_DEFAULT's mu and abs_tol, max_iter 100), and mu = 1e-2 as
    # check_batch_solver's, where the rows need different counts (the humanoid: 6 of its 11
    # rows take more iterations than alone; measured 1.2e-11 relative).
    abs_tol = 1e-10 if m.DTYPE == np.float64 else 1e-4      # CDYN_PROX_SETTINGS_DEFAULT's
    rel = 0.0
    for what, kw in (("default settings", {}), ("mu = 1e-2", dict(mu=1e-2, max_iter=500))):
        d = m.BatchData()
        want = single(q, v, tau, **kw)
        rel = max(rel, compare(batch(q, v, tau, data=d, **kw), want, 1e3 * tol, what))
        check(d.primal_residual.shape == (n,) and np.all(d.primal_residual <= abs_tol),
              "%s residuals %s above abs_tol (%s)" % (f, d.primal_residual, what))
    want = single(q, v, tau)
    compare(batch(q[:1], v[:1], tau[:1]), [x[:1] for x in want], tol, "N = 1")
    compare(batch(q[:0], v[:0], tau[:0]), [x[:0] for x in want], 0, "N = 0")

    bad = w + 1                                 # a NaN in the second block's second lane
    qn = q.copy()
    qn[bad] = np.nan
    status = status_of(m, m.prox_ltl_derivatives, qn[bad], v[bad], tau[bad])
    try:
        batch(qn, v, tau)
        check(False, "%s of a NaN row: no StatusError" % f)
    except m.StatusError as e:
        check(e.rows == [bad] and e.row == bad and e.status == status and
              "(row %d)" % bad in str(e) and f in str(e),
              "%s's NaN error: rows %s status %s (%s), single %s"
              % (f, e.rows, e.status, e, status))
    raises(ValueError, [f, "tau", "(N, %d)" % m.NV], batch, q, v, tau[:, :-1])
    raises(ValueError, [f, "lam", "(N, %d)" % m.NC], batch, q, v, tau, lam0[:, :-1])
    raises(ValueError, [f, "v", "rows"], batch, q, v[:-1], tau)
    return ("%s as prox_ltl_derivatives to %.1e (max_iter), %.1e (at a tolerance)"
            % (f, rel_fixed, rel))


def check_batch_solver(m, fn, tol, q, v, tau, d, q_ref, lam0):
    """batch_FN against FN (prox_ltl, constrained_aba, prox_pv) row by row, on the N = 2 W + 3
    states of check_batch (the third block padded): with abs_tol = rel_tol = 0 every lane
    runs exactly max_iter iterations of the single form's operations, so ddq, lambda and the
    residuals agree to rounding (tol, as the other batch forms); with the default tolerance a
    block stops when its last row converges, so a row's iterations are the most of its
    block's rows alone and its result within the tolerance's effect of the single one.
    Baumgarte gains against the references in d (batch_constraint_capture of the perturbed
    configurations q_ref) and a warm start (lam0); a NaN row raises StatusError naming that
    row only, an unmet tolerance every row; bad settings raise StatusError CDYN_E_ARG or
    ValueError."""
    w, n, f = m.batch_w(), len(q), "batch_" + fn
    batch = getattr(m, f)
    mu = 1e-6 if m.DTYPE == np.float64 else 1e-3
    gains = dict(Kp=np.full(m.NCONSTRAINTS, 100.0, m.DTYPE),
                 Kd=np.full(m.NCONSTRAINTS, 20.0, m.DTYPE))

    # exactly max_iter iterations on every lane: rounding-level agreement (3 at mu = 1e-2,
    # short of converged, so that the warm start shows)
    fixed = dict(mu=1e-2, max_iter=3, abs_tol=0.0, rel_tol=0.0, **gains)
    ddq, lam, it = batch(q, v, tau, lam0, data=d, **fixed)
    want = single_prox(m, fn, q, v, tau, lam0, q_ref, **fixed)
    check(ddq.shape == (n, m.NV) and lam.shape == (n, m.NC) and ddq.dtype == m.DTYPE,
          "%s shapes %s %s %s" % (f, ddq.shape, lam.shape, ddq.dtype))
    check(np.array_equal(it, want["it"]) and np.all(it == 3),
          "%s iterations %s, single %s" % (f, it, want["it"]))
    rel = 0.0
    for what, got, ref in (("ddq", ddq, want["ddq"]), ("lambda", lam, want["lam"]),
                           ("primal_residual", d.primal_residual, want["primal"]),
                           ("dual_residual", d.dual_residual, want["dual"])):
        close(got, ref, tol, "%s %s = %s's row by row (max_iter)" % (f, what, fn))
        rel = max(rel, float(np.max(np.abs(got.astype(float) - ref)) /
                             (1 + np.max(np.abs(ref.astype(float))))))

    # the default tolerance, cold: each block runs until its slowest row converges (mu =
    # 1e-2: the rows need different counts, 10 to 19 on the humanoid)
    slow = dict(mu=1e-2, max_iter=500)
    d2 = m.BatchData()
    ddq, lam, it = batch(q, v, tau, data=d2, **slow)
    abs_tol = 1e-10 if m.DTYPE == np.float64 else 1e-4      # CDYN_PROX_SETTINGS_DEFAULT's
    check(np.all(d2.primal_residual <= abs_tol) and np.all(d2.primal_residual >= 0),
          "%s residuals %s above abs_tol" % (f, d2.primal_residual))
    want = single_prox(m, fn, q, v, tau, None, None, **slow)
    block_max = np.array([want["it"][i // w * w:i // w * w + w].max() for i in range(n)])
    # proxLTLs takes its refined last step when every lane stops: a lane may take refined
    # steps it would not alone, so its block may stop before or after its slowest row alone
    check(np.all(want["it"] >= 1) and (fn == "prox_ltls" or np.array_equal(it, block_max)),
          "%s iterations %s, the blocks' most alone %s" % (f, it, block_max))
    more = int(np.sum(it > want["it"]))
    close(ddq, want["ddq"], 1e3 * tol, "%s ddq = %s's (tolerance)" % (f, fn))
    close(lam, want["lam"], 1e3 * tol, "%s lambda = %s's (tolerance)" % (f, fn))
    ddq1, _, it1 = batch(q[:1], v[:1], tau[:1], **slow)
    close(ddq1, want["ddq"][:1], tol, "%s, N = 1" % f)
    check(it1[0] == want["it"][0], "%s, N = 1: %d iterations, alone %d"
          % (f, it1[0], want["it"][0]))
    check(batch(q[:0], v[:0], tau[:0])[1].shape == (0, m.NC), "%s of no state" % f)

    bad = w + 1                                 # a NaN in the second block's second lane
    qn = q.copy()
    qn[bad] = np.nan
    status = single_prox(m, fn, qn[bad:bad + 1], v[bad:], tau[bad:], None, None, mu=mu)["it"][0]
    try:
        batch(qn, v, tau, mu=mu)
        check(False, "%s of a NaN row: no StatusError" % f)
    except m.StatusError as e:
        check(e.rows == [bad] and e.row == bad and e.status == status < 0 and
              "(row %d)" % bad in str(e),
              "%s's NaN error: rows %s status %s (%s), single %s"
              % (f, e.rows, e.status, e, status))
    d1 = m.BatchData()
    try:                                        # 1 iteration cannot meet 1e-30: every row
        batch(q, v, tau, data=d1, mu=mu, max_iter=1, abs_tol=1e-30)
        check(False, "%s unconverged: no StatusError" % f)
    except m.StatusError as e:
        check(e.rows == list(range(n)) and e.status == -5 and "rows 0, 1" in str(e),
              "%s unconverged: rows %s status %s (%s)" % (f, e.rows, e.status, e))
        check(d1.primal_residual.shape == (n,) and np.all(d1.primal_residual > 1e-30),
              "%s unconverged: residuals %s" % (f, d1.primal_residual))
    for bad_settings in (dict(mu=0.0), dict(mu=np.nan), dict(max_iter=0)):
        raises(m.StatusError, [f, "cdyn_status -1"],
               lambda: batch(q, v, tau, **bad_settings))
    raises(ValueError, [f, "lam", "(N, %d)" % m.NC], batch, q, v, tau, lam0[:, :-1])
    raises(ValueError, [f, "Kp", "shape"],
           lambda: batch(q, v, tau, Kp=[1.0] * (m.NCONSTRAINTS + 1)))
    raises(ValueError, [f, "data.ref_R", "shape"], lambda: batch(q[1:], v[1:], tau[1:], data=d))
    return ("%s as %s to %.1e (max_iter); iterations its blocks' (%d of %d rows more than "
            "alone)" % (f, fn, rel, more, n))


def main():
    module_dir, name, driver = sys.argv[1:4]
    sys.path.insert(0, module_dir)
    m = importlib.import_module(name)
    single = m.DTYPE == np.float32
    tol = 2e-4 if single else 1e-10
    rng = np.random.default_rng(18)

    header = open(os.path.join(module_dir, name + ".h")).read()
    declared = re.findall(r"^\w+ %s_(\w+)\(" % name, header, re.M)
    missing = [f for f in declared if not callable(getattr(m, f, None))]
    check(len(declared) >= 14 and not missing, "functions of %s.h missing from the module: %s"
          % (name, missing))

    q = m.integrate(m.neutral(), rng.uniform(-1, 1, m.NV).astype(m.DTYPE), 1.0)
    v = rng.uniform(-1, 1, m.NV).astype(m.DTYPE)
    tau = rng.uniform(-5, 5, m.NV).astype(m.DTYPE)
    zero = np.zeros(m.NV, m.DTYPE)
    d = m.Data()
    ddq = m.aba(q, v, tau, data=d)
    check(ddq.dtype == m.DTYPE and ddq.shape == (m.NV,), "aba returned %s %s" % (ddq.dtype, ddq.shape))
    close(m.rnea(q, v, ddq), tau, tol, "RNEA(q, v, ABA(q, v, tau)) = tau")
    loaded = m._LIB[0]._name
    check(loaded.startswith(os.path.join(os.path.abspath(module_dir), "build")),
          "library found at %s, not beside the module's build/" % loaded)

    size, status, ddq_c = c_aba(driver, q, v, tau)
    check(status == 0 and np.array_equal(ddq_c.astype(m.DTYPE), ddq),
          "aba differs from the C driver's (status %d): %s vs %s" % (status, ddq, ddq_c))
    check(size == ctypes.sizeof(m.Data), "sizeof(%s_data) %d, Data %d" % (name, size, ctypes.sizeof(m.Data)))

    M = m.crba(q, data=d)
    close(M, M.T, tol, "crba symmetric")
    h = m.nle(q, v)
    close(M @ ddq + h, tau, tol * 10, "M ddq + h = tau")
    close(h, m.rnea(q, v, zero), tol, "nle = rnea(q, v, 0)")
    close(m.gravity(q), m.rnea(q, zero, zero), tol, "gravity = rnea(q, 0, 0)")
    close(m.minv(q) @ M, np.eye(m.NV), tol * 100, "minv M = I")
    m.ltl(d)
    L, D = m.ltl_factor(d)
    close(L.T @ np.diag(D) @ L, M, tol * 10, "L^T D L = M")
    close(m.ltl_solve(d, tau - h), ddq, tol * 100, "ltl_solve(tau - h) = aba")

    R, p = m.fk(q, data=d)
    check(R.shape == (m.NFRAMES, 3, 3) and p.shape == (m.NFRAMES, 3), "fk shapes %s %s" % (R.shape, p.shape))
    names = (ctypes.c_char_p * m.NFRAMES).in_dll(m._LIB[0], name + "_frame_names")
    check([n.decode() for n in names] == list(m.FRAME_NAMES), "FRAME_NAMES differ from the library's")
    check(sorted(m.FRAMES.values()) == list(range(m.NFRAMES)), "FRAMES is not every id once")
    tip = m.FRAME_NAMES[-1]
    Rt, pt = m.frame_placement(d, tip)
    close(Rt, R[m.FRAMES[tip]], 0, "frame_placement = fk")
    close(Rt @ Rt.T, np.eye(3), tol, "a rotation")
    J = m.frame_jacobian(q, tip, m.LOCAL_WORLD_ALIGNED)
    eps = 1e-2 if single else 1e-6
    fd = np.empty((3, m.NV))
    for k in range(m.NV):
        e = zero.copy()
        e[k] = eps
        fd[:, k] = (m.fk(m.integrate(q, e, 1.0))[1][m.FRAMES[tip]]
                    - m.fk(m.integrate(q, -e, 1.0))[1][m.FRAMES[tip]]) / (2 * eps)
    close(J[:3], fd, 1e-2 if single else 1e-6, "frame_jacobian = d(position)/dq")
    close(m.frame_jacobian(q, m.FRAMES[tip])[3:], Rt.T @ J[3:], tol, "LOCAL = R^T LOCAL_WORLD_ALIGNED")
    close(m.integrate(q, zero, 1.0), q, 0, "integrate(q, 0) = q")
    derivatives = check_derivatives(m, q, v, tau, tol)

    # (a set of more rows than DoFs, as the box's four corners, is inconsistent at a random
    # velocity: the solvers stop at max_iter; its contact step is checked below)
    solvers = check_constrained(m, q, v, tau, tol) if getattr(m, "NC", m.NV + 1) <= m.NV else []
    if "constrained_aba" in solvers:            # contacts only, at most NV rows
        derivatives.append(check_prox_derivatives(m, name, q, v, tau, tol))
    scenes = []
    if hasattr(m, "contact_step"):
        check_contact(m, module_dir, name, q, v, tau)
        scenes.append("contact step")
        if "c_fl" in m.FRAMES:
            scenes.append(box_scenes(m))
        if getattr(m, "NJOINT_LIMITS", 0) and not hasattr(m, "NC"):
            scenes.append(arm_limit_scene(m, name))

    if hasattr(m, "batch_w"):
        scenes.append(check_batch(m, module_dir, name, rng, single))

    raises(ValueError, ["aba", "q", "shape (%d,)" % m.NQ], m.aba, q[:-1], v, tau)
    raises(ValueError, ["rnea", "a", "shape"], m.rnea, q, v, np.zeros((m.NV, 1), m.DTYPE))
    wrong = np.complex128 if not single else np.float64
    raises(ValueError, ["aba", "tau", "dtype", np.dtype(wrong).name], m.aba, q, v, tau.astype(wrong))
    raises(ValueError, ["frame", "no-such-frame"], m.frame_jacobian, q, "no-such-frame")
    raises(ValueError, ["frame", str(m.NFRAMES)], m.frame_jacobian, q, m.NFRAMES)
    raises(m.StatusError, ["aba", "cdyn_status"], m.aba, np.full(m.NQ, np.nan, m.DTYPE), v, tau)
    raises(OSError, [], m.load, os.path.join(module_dir, "no-such-lib.so"))
    m.load(loaded)
    close(m.aba(q, v, tau), ddq, 0, "aba after load(path)")

    for f in FAILURES:
        print("FAIL: " + f)
    print("derivatives (worst error / (1 + max|reference|), tolerance): " + ", ".join(
        "%s %.1e (%.0e)" % (k, e, t) for k, (e, t) in WORST.items()))
    print("derivatives: " + ", ".join(derivatives))
    print("%s.py (%s): %d functions of %s.h, solvers %s; %s: %s" % (
        name, np.dtype(m.DTYPE).name, len(declared), name, ", ".join(solvers) or "none",
        ", ".join(scenes) or "no contact step",
        "%d failures" % len(FAILURES) if FAILURES else "OK"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
