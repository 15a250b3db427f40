"""check_module.py — the python_module test on one module written by cdyngen --python.

    python3 check_module.py MODULE_DIR NAME DRIVER

MODULE_DIR holds NAME.py, NAME.h and build/libNAME.so (not named: the module must find it);
DRIVER is tests/python/driver.c built against that library. Checks: the module has a
function for every one NAME.h declares; RNEA(q, v, ABA(q, v, tau)) = tau; ABA equals the C
driver's bit for bit and Data has sizeof(NAME_data); the other functions against each other
(M, M^-1, the factor, g, h, a frame Jacobian against finite differences of fk, the frame
names against the library's, the constrained solvers' equations); wrong shapes, dtypes and
frames raise ValueError naming the argument; a singular input raises StatusError; load()
takes an explicit path. Prints what it checked; exits 1 listing every failure.
"""
import ctypes
import importlib
import os
import re
import subprocess
import sys

import numpy as np

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)


def close(a, b, tol, what):
    err = float(np.max(np.abs(np.asarray(a, float) - np.asarray(b, float)), initial=0.0))
    scale = 1.0 + float(np.max(np.abs(np.asarray(b, float)), initial=0.0))
    check(err <= tol * scale, "%s: off by %.2e (tolerance %.1e x %.3g)" % (what, err, tol, scale))


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


def c_aba(driver, q, v, tau):
    text = " ".join(repr(float(x)) for x in np.concatenate([q, v, tau]))
    out = subprocess.run([driver], input=text, stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout.split()
    return int(out[0]), int(out[1]), np.array([float(x) for x in out[2:]])


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
    d = m.Data()
    m.constraint_capture(d, q)
    if hasattr(m, "constrained_aba"):           # contacts only: each has a reference
        ref_R = np.ctypeslib.as_array(d.ref_R)[0].reshape(3, 3)
        close(ref_R @ ref_R.T, np.eye(3), tol, "constraint_capture: ref_R a rotation")
    return solvers


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

    solvers = check_constrained(m, q, v, tau, tol) if hasattr(m, "NC") else []

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
    print("%s.py (%s): %d functions of %s.h, solvers %s: %s" % (
        name, np.dtype(m.DTYPE).name, len(declared), name, ", ".join(solvers) or "none",
        "%d failures" % len(FAILURES) if FAILURES else "OK"))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
