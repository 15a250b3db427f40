/* emit_config.c — the configuration manifold: neutral configuration and integration. */
#include <stdarg.h>
#include <stdio.h>
#include "emit/emit.h"

void emit_neutral(expr_prog *p, const kin_tree *t)
{
    int i, k;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        for (k = 0; k < b->nq; k++) {
            /* cos = 1 for [cos, sin] pairs, qw = 1 for the free-flyer quaternion */
            int one = (b->kind == TREE_REVOLUTE_UNBOUNDED && k == 0) ||
                      (b->kind == TREE_PLANAR && k == 2) || (b->kind == TREE_FREEFLYER && k == 6);
            expr_storef(p, ex_const(one ? 1.0 : 0.0), "q[%d]", b->idx_q + k);
        }
    }
}

/* One line of emitted C: the caller's indent, 4 more spaces per depth, the text. */
static void line(ebuf *o, const char *in, int depth, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    ebuf_printf(o, "%s%*s%s\n", in, 4 * depth, "", text);
}

/* [c, s] = q[qc..qc+1] rotated by the angle w, then pulled back to the unit circle to first
 * order ((3 - |x|^2) / 2, as Pinocchio): cheap, and enough for one step. */
static void integrate_circle(ebuf *o, const char *in, int depth, int qc)
{
    line(o, in, depth, "const cdyn_real cd = CDYN_COS(w), sd = CDYN_SIN(w);");
    line(o, in, depth, "const cdyn_real c = q[%d] * cd - q[%d] * sd;", qc, qc + 1);
    line(o, in, depth, "const cdyn_real s = q[%d] * cd + q[%d] * sd;", qc + 1, qc);
    line(o, in, depth, "const cdyn_real k = (CDYN_R(3.0) - (c * c + s * s)) * CDYN_R(0.5);");
    line(o, in, depth, "q_next[%d] = c * k;", qc);
    line(o, in, depth, "q_next[%d] = s * k;", qc + 1);
}

/* q (+) v dt = q * exp(v dt) on SE(2), v = [vx vy wz] in the joint frame. */
static void integrate_planar(ebuf *o, const char *in, const char *pre, const tree_body *b)
{
    int q = b->idx_q, v = b->idx_v;
    line(o, in, 1, "/* t = V(w) [vx vy], V = [[s/w, -(1-c)/w], [(1-c)/w, s/w]] */");
    line(o, in, 1, "const cdyn_real vx = v[%d] * dt, vy = v[%d] * dt, w = v[%d] * dt;", v, v + 1,
         v + 2);
    line(o, in, 1, "const cdyn_real sw = %s__sinc(w), hw = CDYN_R(0.5) * w;", pre);
    line(o, in, 1, "const cdyn_real sh = %s__sinc(hw), cw = hw * sh * sh;   /* (1 - cos w)/w */",
         pre);
    line(o, in, 1, "const cdyn_real tx = sw * vx - cw * vy, ty = cw * vx + sw * vy;");
    line(o, in, 1, "q_next[%d] = q[%d] + q[%d] * tx - q[%d] * ty;", q, q, q + 2, q + 3);
    line(o, in, 1, "q_next[%d] = q[%d] + q[%d] * tx + q[%d] * ty;", q + 1, q + 1, q + 3, q + 2);
    line(o, in, 1, "{");
    integrate_circle(o, in, 2, q + 2);
    line(o, in, 1, "}");
}

/* Position: p' = p + R(q) t, t = v + a w x v + b w x (w x v), a = (1 - cos th)/th^2,
 * b = (th - sin th)/th^3, and R t = t + 2 qw (u x t) + 2 u x (u x t), u = (qx qy qz). */
static void integrate_translation(ebuf *o, const char *in, const char *pre, int q, int v)
{
    line(o, in, 1, "const cdyn_real vx = v[%d] * dt, vy = v[%d] * dt, vz = v[%d] * dt;", v, v + 1,
         v + 2);
    line(o, in, 1, "const cdyn_real wx = v[%d] * dt, wy = v[%d] * dt, wz = v[%d] * dt;", v + 3,
         v + 4, v + 5);
    line(o, in, 1, "const cdyn_real th = CDYN_SQRT(wx * wx + wy * wy + wz * wz);");
    line(o, in, 1, "const cdyn_real hs = CDYN_R(0.5) * %s__sinc(CDYN_R(0.5) * th);", pre);
    line(o, in, 1, "const cdyn_real hc = CDYN_COS(CDYN_R(0.5) * th);");
    line(o, in, 1, "const cdyn_real a = CDYN_R(2.0) * hs * hs, bb = %s__sinc_rest(th);", pre);
    line(o, in, 1, "const cdyn_real cx = wy * vz - wz * vy, cy = wz * vx - wx * vz;");
    line(o, in, 1, "const cdyn_real cz = wx * vy - wy * vx;");
    line(o, in, 1, "const cdyn_real ex = wy * cz - wz * cy, ey = wz * cx - wx * cz;");
    line(o, in, 1, "const cdyn_real ez = wx * cy - wy * cx;");
    line(o, in, 1, "const cdyn_real tx = vx + a * cx + bb * ex, ty = vy + a * cy + bb * ey;");
    line(o, in, 1, "const cdyn_real tz = vz + a * cz + bb * ez;");
    line(o, in, 1, "const cdyn_real x = q[%d], y = q[%d], z = q[%d], w = q[%d];", q + 3, q + 4,
         q + 5, q + 6);
    line(o, in, 1, "const cdyn_real ux = y * tz - z * ty, uy = z * tx - x * tz;");
    line(o, in, 1, "const cdyn_real uz = x * ty - y * tx;");
    line(o, in, 1, "q_next[%d] = q[%d] + tx + CDYN_R(2.0) * (w * ux + y * uz - z * uy);", q, q);
    line(o, in, 1, "q_next[%d] = q[%d] + ty + CDYN_R(2.0) * (w * uy + z * ux - x * uz);", q + 1,
         q + 1);
    line(o, in, 1, "q_next[%d] = q[%d] + tz + CDYN_R(2.0) * (w * uz + x * uy - y * ux);", q + 2,
         q + 2);
}

/* Orientation: q times [sin(th/2) w/th; cos(th/2)] (Hamilton product), renormalised. */
static void integrate_rotation(ebuf *o, const char *in, int q)
{
    line(o, in, 1, "{");
    line(o, in, 2, "const cdyn_real dx = hs * wx, dy = hs * wy, dz = hs * wz;");
    line(o, in, 2, "const cdyn_real nx = w * dx + x * hc + y * dz - z * dy;");
    line(o, in, 2, "const cdyn_real ny = w * dy - x * dz + y * hc + z * dx;");
    line(o, in, 2, "const cdyn_real nz = w * dz + x * dy - y * dx + z * hc;");
    line(o, in, 2, "const cdyn_real nw = w * hc - x * dx - y * dy - z * dz;");
    line(o, in, 2, "const cdyn_real n2 = nx * nx + ny * ny + nz * nz + nw * nw;");
    line(o, in, 2, "const cdyn_real k = CDYN_R(1.0) / CDYN_SQRT(n2);");
    line(o, in, 2, "q_next[%d] = nx * k;", q + 3);
    line(o, in, 2, "q_next[%d] = ny * k;", q + 4);
    line(o, in, 2, "q_next[%d] = nz * k;", q + 5);
    line(o, in, 2, "q_next[%d] = nw * k;", q + 6);
    line(o, in, 1, "}");
}

/* q (+) v dt = q * exp6(v dt), v = [v; w] in the body frame. */
static void integrate_freeflyer(ebuf *o, const char *in, const char *pre, const tree_body *b)
{
    integrate_translation(o, in, pre, b->idx_q, b->idx_v);
    integrate_rotation(o, in, b->idx_q);
}

int emit_integrate_text(const kin_tree *t, const char *pre, ebuf *o, const char *in)
{
    int i;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        char label[96];
        line(o, in, 0, "{   /* body %d: %s */", i, emit_joint_label(b, label, sizeof label));
        switch (b->kind) {
        case TREE_REVOLUTE:
        case TREE_PRISMATIC:
            line(o, in, 1, "q_next[%d] = q[%d] + v[%d] * dt;", b->idx_q, b->idx_q, b->idx_v);
            break;
        case TREE_REVOLUTE_UNBOUNDED:
            line(o, in, 1, "const cdyn_real w = v[%d] * dt;", b->idx_v);
            integrate_circle(o, in, 1, b->idx_q);
            break;
        case TREE_PLANAR: integrate_planar(o, in, pre, b); break;
        case TREE_FREEFLYER: integrate_freeflyer(o, in, pre, b); break;
        }
        line(o, in, 0, "}");
    }
    return o->oom ? -1 : 0;
}

void emit_integrate_helpers(const kin_tree *t, const char *pre, ebuf *o)
{
    int i, planar = 0, ff = 0;
    for (i = 0; i < t->nbodies; i++) {
        planar |= t->bodies[i].kind == TREE_PLANAR;
        ff |= t->bodies[i].kind == TREE_FREEFLYER;
    }
    if (!planar && !ff)
        return;
    ebuf_printf(
        o,
        "/* sin(x)/x; its Taylor series near 0, where the quotient loses digits. */\n"
        "static cdyn_real %s__sinc(cdyn_real x)\n"
        "{\n"
        "    const cdyn_real x2 = x * x;\n"
        "    if (x2 < CDYN_R(1e-2))\n"
        "        return CDYN_R(1.0) - x2 / CDYN_R(6.0) * (CDYN_R(1.0) - x2 / CDYN_R(20.0) *\n"
        "               (CDYN_R(1.0) - x2 / CDYN_R(42.0) * (CDYN_R(1.0) - x2 / CDYN_R(72.0))));\n"
        "    return CDYN_SIN(x) / x;\n"
        "}\n\n",
        pre);
    if (!ff)
        return;
    ebuf_printf(
        o,
        "/* (x - sin x)/x^3, by its series near 0. */\n"
        "static cdyn_real %s__sinc_rest(cdyn_real x)\n"
        "{\n"
        "    const cdyn_real x2 = x * x;\n"
        "    if (x2 < CDYN_R(1e-2))\n"
        "        return (CDYN_R(1.0) - x2 / CDYN_R(20.0) * (CDYN_R(1.0) - x2 / CDYN_R(42.0) *\n"
        "               (CDYN_R(1.0) - x2 / CDYN_R(72.0)))) / CDYN_R(6.0);\n"
        "    return (x - CDYN_SIN(x)) / (x2 * x);\n"
        "}\n\n",
        pre);
}
