/* sim_html.c — the run's motion as one self-contained page: no network, no external script,
 * style or font; the style and the script are inline, the run is inline JSON.
 *
 * The page draws the robot as a stick figure on a <canvas> (2D context, its own perspective
 * projection): each point joined to its parent point, the joints as dots, the ground as a
 * grid at its height, the contact points coloured by their state and their normal forces as
 * arrows. Drag rotates, the wheel zooms, the camera follows the base horizontally; a slider,
 * play/pause and three speeds play it.
 *
 * The run is embedded as <script type="application/json" id="sim-data"> with the keys
 * robot, dt, ground, point_names, point_parent, contact_names, nq and frames (other tests
 * read them): a frame is {"k","t","q","p","c","s"} of one sample, about 60 frames per
 * simulated second, the first and the last sample always among them. The normal forces the
 * arrows need are beside it, as <script type="application/json" id="sim-forces"> (one array
 * per frame), so sim-data keeps exactly its keys. Numbers are printed with %.17g (they read
 * back to the same double), a number that is not finite as null (the page skips it); every
 * '<' in a string is \u003c, so no name can close the script element.
 *
 * Once drawn, the script sets on <body>: data-frames (frames parsed), data-points (points
 * per frame), data-drawn (segments drawn in the first frame) and data-ok="1", or
 * data-ok="0" and data-error when something failed (tests/scripts/sim_page_check.cmake). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim_trace.h"

#define FRAMES_PER_SECOND 60

/* ---- text ---- */

/* The length of the UTF-8 sequence at s, or 0 when it is not valid UTF-8. */
static int utf8_length(const unsigned char *s)
{
    int n, i;
    unsigned long c;
    if (s[0] < 0x80)
        return 1;
    n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 && s[0] < 0xF0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (n == 0 || (s[0] >= 0xF5))
        return 0;
    c = s[0] & (0x7F >> n);
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    if ((n == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) ||
        (n == 4 && (c < 0x10000 || c > 0x10FFFF)))
        return 0;
    return n;
}

/* C1 controls and the bidirectional overrides and isolates, which could reorder the text
 * around a name: their code point, or 0. */
static unsigned unsafe_code_point(const unsigned char *c, int n)
{
    if (n == 2 && c[0] == 0xC2 && c[1] <= 0x9F)
        return c[1];
    if (n == 3 && c[0] == 0xE2 && ((c[1] == 0x80 && c[2] >= 0xAA && c[2] <= 0xAE) ||
                                   (c[1] == 0x81 && c[2] >= 0xA6 && c[2] <= 0xA9)))
        return 0x2000u + ((c[1] & 0x3Fu) << 6 | (c[2] & 0x3Fu));
    return 0;
}

/* A name as HTML text, as `cdyngen report` writes it (report_text.c): markup escaped,
 * control characters as visible escapes (\n, \x01, \u202e), bytes that are not UTF-8 as
 * U+FFFD. */
static void html_text(FILE *f, const char *s)
{
    const unsigned char *c = (const unsigned char *)(s ? s : "?");
    while (*c) {
        const int n = utf8_length(c);
        if (n == 0) {
            fputs("\xEF\xBF\xBD", f);
            c++;
            continue;
        }
        if (n == 1) {
            switch (*c) {
            case '&': fputs("&amp;", f); break;
            case '<': fputs("&lt;", f); break;
            case '>': fputs("&gt;", f); break;
            case '"': fputs("&quot;", f); break;
            case '\'': fputs("&#39;", f); break;
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default:
                if (*c < 0x20 || *c == 0x7F)
                    fprintf(f, "\\x%02x", *c);
                else
                    fputc(*c, f);
            }
        } else if (unsafe_code_point(c, n)) {
            fprintf(f, "\\u%04x", unsafe_code_point(c, n));
        } else {
            fwrite(c, 1, (size_t)n, f);
        }
        c += n;
    }
}

/* A JSON string that is safe inside <script>: '<', '>' and '&' as \u escapes (so neither
 * "</script" nor "<!--" can appear), control characters, U+2028 and U+2029 escaped, bytes
 * that are not UTF-8 as U+FFFD (JSON.parse would see them replaced anyway). NULL: null. */
static void json_string(FILE *f, const char *s)
{
    const unsigned char *c = (const unsigned char *)s;
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    while (*c) {
        const int n = utf8_length(c);
        if (n == 0) {
            fputs("\\ufffd", f);
            c++;
            continue;
        }
        if (n == 1) {
            if (*c == '"' || *c == '\\')
                fprintf(f, "\\%c", *c);
            else if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&' || *c == 0x7F)
                fprintf(f, "\\u%04x", *c);
            else
                fputc(*c, f);
        } else if (n == 3 && c[0] == 0xE2 && c[1] == 0x80 && (c[2] == 0xA8 || c[2] == 0xA9)) {
            fprintf(f, "\\u%04x", 0x2000u + (c[2] & 0x3Fu));
        } else {
            fwrite(c, 1, (size_t)n, f);
        }
        c += n;
    }
    fputc('"', f);
}

static void json_number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.17g", x);
    else
        fputs("null", f);
}

/* "[a,b,...]" of n doubles. */
static void json_numbers(FILE *f, const double *x, long n)
{
    long i;
    fputc('[', f);
    for (i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        if (x)
            json_number(f, x[i]);
        else
            fputs("null", f);
    }
    fputc(']', f);
}

static void json_names(FILE *f, const char *const *names, int n)
{
    int i;
    fputc('[', f);
    for (i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        json_string(f, names ? names[i] : NULL);
    }
    fputc(']', f);
}

/* ---- the frames ---- */

/* The samples the page shows, in order, into keep (nsamples long); their count. A sample is
 * kept when it is the one nearest (within half a step) the next 1/60 s after the last kept
 * one's; the first and the last always. */
static int choose_frames(const sim_trace *tr, int *keep)
{
    const double half_step = tr->dt > 0 && isfinite(tr->dt) ? tr->dt / 2 : 0;
    const double t0 = tr->t[0];
    double next = t0;
    int k, n = 0;
    for (k = 0; k < tr->nsamples; k++) {
        const double t = tr->t[k];
        if (k == 0 || k == tr->nsamples - 1 || (isfinite(t) && t + half_step >= next)) {
            keep[n++] = k;
            if (isfinite(t))
                next = t0 + (floor((t + half_step - t0) * FRAMES_PER_SECOND) + 1) /
                                FRAMES_PER_SECOND;
        }
    }
    return n;
}

static void json_frame(FILE *f, const sim_trace *tr, int k)
{
    const long np = tr->npoints, nc = tr->ncontacts;
    long i;
    fprintf(f, "{\"k\":%d,\"t\":", k);
    json_number(f, tr->t[k]);
    fputs(",\"q\":", f);
    json_numbers(f, tr->q ? tr->q + (long)k * tr->nq : NULL, tr->nq);
    fputs(",\"p\":", f);
    json_numbers(f, tr->points ? tr->points + (long)k * np * 3 : NULL, np * 3);
    fputs(",\"c\":", f);
    json_numbers(f, tr->contact_point ? tr->contact_point + (long)k * nc * 3 : NULL, nc * 3);
    fputs(",\"s\":[", f);
    for (i = 0; i < nc; i++)
        fprintf(f, "%s%d", i ? "," : "", tr->contact_state ? tr->contact_state[k * nc + i] : 0);
    fputs("]}", f);
}

static void sim_data(FILE *f, const sim_trace *tr, const int *keep, int nframes)
{
    int i;
    fputs("<script type=\"application/json\" id=\"sim-data\">{\"robot\":", f);
    json_string(f, tr->robot);
    fputs(",\"dt\":", f);
    json_number(f, tr->dt);
    fputs(",\"ground\":", f);
    json_number(f, tr->ground);
    fputs(",\"point_names\":", f);
    json_names(f, tr->point_names, tr->npoints);
    fputs(",\"point_parent\":[", f);
    for (i = 0; i < tr->npoints; i++)
        fprintf(f, "%s%d", i ? "," : "", tr->point_parent ? tr->point_parent[i] : -1);
    fputs("],\"contact_names\":", f);
    json_names(f, tr->contact_names, tr->ncontacts);
    fprintf(f, ",\"nq\":%d,\"frames\":[\n", tr->nq);
    for (i = 0; i < nframes; i++) {
        json_frame(f, tr, keep[i]);
        fputs(i + 1 < nframes ? ",\n" : "\n", f);
    }
    fputs("]}</script>\n", f);
}

/* The normal forces of each frame's contacts, for the arrows. */
static void sim_forces(FILE *f, const sim_trace *tr, const int *keep, int nframes)
{
    const long nc = tr->ncontacts;
    int i;
    fputs("<script type=\"application/json\" id=\"sim-forces\">[", f);
    for (i = 0; i < nframes; i++) {
        if (i)
            fputc(',', f);
        json_numbers(f, tr->normal_force ? tr->normal_force + keep[i] * nc : NULL, nc);
    }
    fputs("]</script>\n", f);
}

/* ---- the page's parts: one string a line (C99 guarantees 4095 characters a literal) ---- */

/* The style: the look of `cdyngen report` (templates/report.html.tpl). */
static const char *const page_style[] = {
    ":root {",
    "  --ink: #1e293b; --muted: #64748b; --line: #e2e8f0; --soft: #f8fafc; --blue: #2563eb;",
    "  --sep: #94a3b8; --stick: #16a34a; --slide: #ea580c; --force: #dc2626;",
    "  --sans: \"Segoe UI\", Roboto, \"Helvetica Neue\", Arial, \"Liberation Sans\", \"DejaVu Sans Condensed\", sans-serif;",
    "  --mono: ui-monospace, \"SF Mono\", Menlo, Consolas, \"DejaVu Sans Mono\", monospace;",
    "}",
    "* { box-sizing: border-box; }",
    "html { -webkit-text-size-adjust: 100%; }",
    "body { margin: 0; font: 14px/1.5 var(--sans); color: var(--ink); background: #fff; }",
    ".wrap { max-width: 1200px; margin: 0 auto; padding: 0 28px; }",
    "header { background: var(--soft); border-bottom: 1px solid var(--line); padding: 18px 0 16px; }",
    ".kicker { margin: 0; color: var(--muted); font-size: 12px; letter-spacing: .06em; text-transform: uppercase; }",
    "h1 { margin: 2px 0 8px; font-size: 26px; line-height: 1.2; word-break: break-word; }",
    "code { font: 12.5px var(--mono); background: #eef2f7; padding: 1px 5px; border-radius: 4px; word-break: break-all; }",
    ".meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; font-size: 13px; }",
    ".meta dt { color: var(--muted); }",
    ".meta dd { margin: 0; }",
    ".stats { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }",
    ".stat { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 5px; min-width: 82px; }",
    ".stat b { display: block; font-size: 20px; line-height: 1.25; }",
    ".stat span { color: var(--muted); font-size: 12px; }",
    "main { padding-top: 18px; }",
    ".stage { position: relative; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; background: #fff; }",
    "canvas#view { display: block; width: 100%; height: 560px; cursor: grab; touch-action: none; }",
    "canvas#view.dragging { cursor: grabbing; }",
    ".hint { position: absolute; right: 10px; top: 8px; margin: 0; font-size: 12px; color: var(--muted); pointer-events: none; }",
    ".controls { display: flex; flex-wrap: wrap; align-items: center; gap: 10px 14px; margin: 12px 0 0; }",
    ".controls button { font: 13px var(--sans); padding: 4px 12px; border: 1px solid #cbd5e1; border-radius: 6px; background: #fff; color: var(--ink); cursor: pointer; }",
    ".controls button:hover { border-color: var(--blue); }",
    ".controls button[aria-pressed=\"true\"] { background: var(--blue); border-color: var(--blue); color: #fff; }",
    ".controls button#play { min-width: 76px; font-weight: 600; }",
    ".controls input[type=range] { flex: 1 1 320px; min-width: 200px; }",
    ".speeds { display: inline-flex; gap: 4px; }",
    "output#time { font: 13px var(--mono); min-width: 190px; font-variant-numeric: tabular-nums; }",
    ".legend { margin: 10px 0 0; font-size: 12.5px; color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 18px; }",
    ".legend span { white-space: nowrap; }",
    ".sw { display: inline-block; width: 11px; height: 11px; border-radius: 50%; margin-right: 5px; vertical-align: -1px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }",
    ".sw.link { border-radius: 2px; height: 4px; width: 16px; vertical-align: 2px; background: #334155; }",
    ".sw.joint { background: #1e293b; width: 8px; height: 8px; }",
    ".sw.base { background: var(--blue); }",
    ".sw.s0 { background: var(--sep); } .sw.s1 { background: var(--stick); } .sw.s2 { background: var(--slide); }",
    ".sw.force { border-radius: 2px; height: 3px; width: 16px; vertical-align: 3px; background: var(--force); }",
    ".sw.grid { border-radius: 2px; background: none; border: 1px solid #cbd5e1; }",
    "h2 { margin: 26px 0 6px; font-size: 16px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }",
    "ul.contacts { list-style: none; padding: 0; margin: 6px 0 0; display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 13px; }",
    "ul.contacts li { font-family: var(--mono); font-size: 12.5px; }",
    "ul.contacts .state { font-family: var(--sans); color: var(--muted); margin-left: 6px; }",
    ".status { margin: 8px 0 0; font-size: 12px; color: var(--muted); }",
    ".status.failed { color: var(--force); font-weight: 600; }",
    "footer { margin: 40px 0 24px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 10px; }",
    NULL
};

/* The stage, the controls, the legend and the contacts' list (filled by the script). */
static const char *const page_body[] = {
    "<main class=\"wrap\">",
    "<div class=\"stage\">",
    "<canvas id=\"view\" width=\"1100\" height=\"560\" aria-label=\"the robot as a stick figure\"></canvas>",
    "<p class=\"hint\">drag: rotate &middot; wheel: zoom</p>",
    "</div>",
    "<div class=\"controls\">",
    "<button type=\"button\" id=\"play\" aria-pressed=\"false\">Play</button>",
    "<input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" step=\"1\" value=\"0\" aria-label=\"frame\">",
    "<output id=\"time\">t = 0.000 s</output>",
    "<span class=\"speeds\"><button type=\"button\" id=\"speed-0_25\" aria-pressed=\"false\">0.25&times;</button><button type=\"button\" id=\"speed-1\" aria-pressed=\"true\">1&times;</button><button type=\"button\" id=\"speed-4\" aria-pressed=\"false\">4&times;</button></span>",
    "<button type=\"button\" id=\"reset\">Reset view</button>",
    "</div>",
    "<div class=\"legend\">",
    "<span><i class=\"sw link\"></i>link (a point to its parent)</span><span><i class=\"sw joint\"></i>point (frame)</span><span><i class=\"sw base\"></i>base, followed by the camera</span>",
    "<span><i class=\"sw s0\"></i>contact separated</span><span><i class=\"sw s1\"></i>sticking</span><span><i class=\"sw s2\"></i>sliding</span>",
    "<span><i class=\"sw force\"></i>normal force (the run's 90th percentile: half the figure)</span><span><i class=\"sw grid\"></i>ground, grid of <span id=\"grid-step\">?</span> m</span>",
    "</div>",
    "<h2>Contacts</h2>",
    "<ul class=\"contacts\" id=\"contacts\"></ul>",
    "<p class=\"status\" id=\"status\">The page's script draws the run (it needs JavaScript).</p>",
    "<footer>Written by cdyngen simulate; the page is self-contained (no network). Frames: about 60 per simulated second, the first and the last step always among them.</footer>",
    "</main>",
    NULL
};

/* The script that plays the run. */
static const char *const page_script[] = {
    "/* Plays the run: a stick figure in a perspective of its own on a 2D canvas. Every name is",
    " * put in the page as text (textContent), never as markup. For the tests, which read the DOM",
    " * back with a headless browser, <body> gets data-frames, data-points, data-drawn (segments",
    " * of the first frame) and data-ok; a script error sets data-ok=\"0\" and data-error. */",
    "(function () {",
    "  'use strict';",
    "  var body = document.body;",
    "  var errors = [];",
    "  function fail(message) {",
    "    errors.push(message);",
    "    body.setAttribute('data-ok', '0');",
    "    body.setAttribute('data-error', errors.join('; '));",
    "    var status = document.getElementById('status');",
    "    status.textContent = 'The page could not play the run: ' + errors.join('; ');",
    "    status.className = 'status failed';",
    "  }",
    "  window.addEventListener('error', function (e) { fail(String(e.message)); });",
    "",
    "  function run() {",
    "    var STATE_COLOURS = ['#94a3b8', '#16a34a', '#ea580c'];",
    "    var STATE_NAMES = ['separated', 'sticking', 'sliding'];",
    "    var SPEEDS = [0.25, 1, 4];",
    "",
    "    function finite(v) { return typeof v === 'number' && isFinite(v); }",
    "",
    "    /* 1, 2 or 5 times a power of ten, near x. */",
    "    function roundStep(x) {",
    "      var d = Math.pow(10, Math.floor(Math.log(x) / Math.LN10)), m = x / d;",
    "      return d * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);",
    "    }",
    "",
    "    var data = JSON.parse(document.getElementById('sim-data').textContent);",
    "    var forces = JSON.parse(document.getElementById('sim-forces').textContent);",
    "    var frames = data.frames;",
    "    var np = data.point_names.length, nc = data.contact_names.length;",
    "    var ground = finite(data.ground) ? data.ground : 0;",
    "    var root = Math.max(0, data.point_parent.indexOf(-1));",
    "",
    "    var canvas = document.getElementById('view');",
    "    var ctx = canvas.getContext('2d');",
    "    var slider = document.getElementById('slider');",
    "    var playButton = document.getElementById('play');",
    "    var timeOut = document.getElementById('time');",
    "",
    "    /* Where the camera looks in a frame: the root point's x and y (the base), the run's",
    "     * middle height; the last finite place when the root is not finite. */",
    "    var lastFollow = [0, 0];",
    "    function follow(f) {",
    "      var x = f.p[3 * root], y = f.p[3 * root + 1];",
    "      if (finite(x) && finite(y))",
    "        lastFollow = [x, y];",
    "      return lastFollow;",
    "    }",
    "",
    "    /* The run's size around the base, its heights and its largest normal force. */",
    "    function measure() {",
    "      var size = 0, zlo = Infinity, zhi = -Infinity, pushes = [], i, j, c, x, y, z;",
    "      for (i = 0; i < frames.length; i++) {",
    "        c = follow(frames[i]);",
    "        for (j = 0; j < np; j++) {",
    "          x = frames[i].p[3 * j]; y = frames[i].p[3 * j + 1]; z = frames[i].p[3 * j + 2];",
    "          if (!finite(x) || !finite(y) || !finite(z))",
    "            continue;",
    "          size = Math.max(size, Math.abs(x - c[0]), Math.abs(y - c[1]));",
    "          zlo = Math.min(zlo, z);",
    "          zhi = Math.max(zhi, z);",
    "        }",
    "        for (j = 0; j < nc; j++)",
    "          if (finite(forces[i][j]) && forces[i][j] > 0)",
    "            pushes.push(forces[i][j]);",
    "      }",
    "      if (!(zhi >= zlo)) { zlo = ground; zhi = ground; }",
    "      zlo = Math.min(zlo, ground);",
    "      size = Math.max(size, zhi - zlo, 0.05);",
    "      lastFollow = [0, 0];",
    "      /* the arrows' scale: an impact's spike would shrink every other arrow to nothing */",
    "      pushes.sort(function (a, b) { return a - b; });",
    "      return { size: size, zmid: (zlo + zhi) / 2,",
    "               fref: pushes.length ? pushes[Math.floor(0.9 * (pushes.length - 1))] : 0 };",
    "    }",
    "    var scene = measure();",
    "    var gridStep = roundStep(scene.size / 3);",
    "    document.getElementById('grid-step').textContent = String(gridStep);",
    "",
    "    var view = { az: -0.9, el: 0.32, zoom: 1 };",
    "    var play = { i: 0, time: frames[0].t, playing: false, speed: 1, last: 0 };",
    "",
    "    /* ---- the projection ---- */",
    "",
    "    function camera(f, width, height) {",
    "      var c = follow(f), d = scene.size * 2.6 * view.zoom;",
    "      var ce = Math.cos(view.el), se = Math.sin(view.el);",
    "      var ca = Math.cos(view.az), sa = Math.sin(view.az);",
    "      var target = [c[0], c[1], scene.zmid];",
    "      var back = [ce * ca, ce * sa, se];              /* from the target to the eye */",
    "      var right = [-sa, ca, 0];",
    "      var up = [-se * ca, -se * sa, ce];",
    "      return {",
    "        eye: [target[0] + d * back[0], target[1] + d * back[1], target[2] + d * back[2]],",
    "        back: back, right: right, up: up, near: d * 0.05,",
    "        focal: Math.min(width, height) * 1.25, cx: width / 2, cy: height / 2",
    "      };",
    "    }",
    "",
    "    /* The screen point of x, y, z, or null behind the camera or not finite. */",
    "    function project(cam, x, y, z) {",
    "      if (!finite(x) || !finite(y) || !finite(z))",
    "        return null;",
    "      var rx = x - cam.eye[0], ry = y - cam.eye[1], rz = z - cam.eye[2];",
    "      var depth = -(rx * cam.back[0] + ry * cam.back[1] + rz * cam.back[2]);",
    "      if (depth < cam.near)",
    "        return null;",
    "      var sx = rx * cam.right[0] + ry * cam.right[1];",
    "      var sy = rx * cam.up[0] + ry * cam.up[1] + rz * cam.up[2];",
    "      return [cam.cx + cam.focal * sx / depth, cam.cy - cam.focal * sy / depth, depth];",
    "    }",
    "",
    "    function line(a, b) {",
    "      ctx.beginPath();",
    "      ctx.moveTo(a[0], a[1]);",
    "      ctx.lineTo(b[0], b[1]);",
    "      ctx.stroke();",
    "    }",
    "",
    "    function dot(p, r, fill) {",
    "      ctx.beginPath();",
    "      ctx.arc(p[0], p[1], r, 0, 2 * Math.PI);",
    "      ctx.fillStyle = fill;",
    "      ctx.fill();",
    "    }",
    "",
    "    /* ---- the drawing ---- */",
    "",
    "    /* The ground's grid around the base, in short pieces so those behind the camera drop. */",
    "    function drawGround(cam, f) {",
    "      var c = follow(f), n = 10, pieces = 20, i, j, s, a, b, x0, y0, u, v;",
    "      x0 = Math.floor(c[0] / gridStep) * gridStep;",
    "      y0 = Math.floor(c[1] / gridStep) * gridStep;",
    "      ctx.strokeStyle = '#e2e8f0';",
    "      ctx.lineWidth = 1;",
    "      ctx.beginPath(); /* one path: a stroke a piece would cost more than the figure */",
    "      for (i = -n; i <= n; i++)",
    "        for (s = 0; s < 2; s++)",
    "          for (j = 0; j < pieces; j++) {",
    "            u = -n + 2 * n * j / pieces;",
    "            v = -n + 2 * n * (j + 1) / pieces;",
    "            if (s === 0) {",
    "              a = project(cam, x0 + i * gridStep, y0 + u * gridStep, ground);",
    "              b = project(cam, x0 + i * gridStep, y0 + v * gridStep, ground);",
    "            } else {",
    "              a = project(cam, x0 + u * gridStep, y0 + i * gridStep, ground);",
    "              b = project(cam, x0 + v * gridStep, y0 + i * gridStep, ground);",
    "            }",
    "            if (a && b) {",
    "              ctx.moveTo(a[0], a[1]);",
    "              ctx.lineTo(b[0], b[1]);",
    "            }",
    "          }",
    "      ctx.stroke();",
    "    }",
    "",
    "    function point(f, j) {",
    "      return [f.p[3 * j], f.p[3 * j + 1], f.p[3 * j + 2]];",
    "    }",
    "",
    "    /* The links and their shadows on the ground; how many links were drawn. */",
    "    function drawLinks(cam, f) {",
    "      var drawn = 0, j, parent, a, b, pa, pb;",
    "      ctx.lineCap = 'round';",
    "      for (j = 0; j < np; j++) {",
    "        parent = data.point_parent[j];",
    "        if (parent < 0 || parent >= np)",
    "          continue;",
    "        pa = point(f, parent);",
    "        pb = point(f, j);",
    "        a = project(cam, pa[0], pa[1], ground);",
    "        b = project(cam, pb[0], pb[1], ground);",
    "        ctx.strokeStyle = 'rgba(15, 23, 42, 0.10)';",
    "        ctx.lineWidth = 4;",
    "        if (a && b)",
    "          line(a, b);",
    "        a = project(cam, pa[0], pa[1], pa[2]);",
    "        b = project(cam, pb[0], pb[1], pb[2]);",
    "        ctx.strokeStyle = '#334155';",
    "        ctx.lineWidth = 3;",
    "        if (a && b) {",
    "          line(a, b);",
    "          drawn++;",
    "        }",
    "      }",
    "      for (j = 0; j < np; j++) {",
    "        pa = point(f, j);",
    "        a = project(cam, pa[0], pa[1], pa[2]);",
    "        if (a)",
    "          dot(a, j === root ? 5 : 3.5, j === root ? '#2563eb' : '#1e293b');",
    "      }",
    "      return drawn;",
    "    }",
    "",
    "    /* An arrow along +z per normal force: the run's 90th percentile half the figure's size,",
    "     * none longer than the figure; see-through and wider than a link, which stays visible",
    "     * under an arrow along a straight leg. */",
    "    function drawForces(cam, f, fi) {",
    "      var j, a, b, force, angle;",
    "      ctx.strokeStyle = ctx.fillStyle = 'rgba(220, 38, 38, 0.5)';",
    "      ctx.lineWidth = 7;",
    "      for (j = 0; j < nc; j++) {",
    "        force = forces[fi][j];",
    "        if (!finite(force) || !(force > 0) || !(scene.fref > 0))",
    "          continue;",
    "        a = project(cam, f.c[3 * j], f.c[3 * j + 1], f.c[3 * j + 2]);",
    "        b = project(cam, f.c[3 * j], f.c[3 * j + 1],",
    "                    f.c[3 * j + 2] + scene.size * Math.min(1, 0.5 * force / scene.fref));",
    "        if (!a || !b)",
    "          continue;",
    "        line(a, b);",
    "        angle = Math.atan2(b[1] - a[1], b[0] - a[0]);",
    "        ctx.beginPath();",
    "        ctx.moveTo(b[0] + 12 * Math.cos(angle), b[1] + 12 * Math.sin(angle));",
    "        ctx.lineTo(b[0] - 2 * Math.cos(angle) + 8 * Math.sin(angle), b[1] - 2 * Math.sin(angle) - 8 * Math.cos(angle));",
    "        ctx.lineTo(b[0] - 2 * Math.cos(angle) - 8 * Math.sin(angle), b[1] - 2 * Math.sin(angle) + 8 * Math.cos(angle));",
    "        ctx.closePath();",
    "        ctx.fill();",
    "      }",
    "    }",
    "",
    "    /* The contact points, coloured by their state. */",
    "    function drawContactPoints(cam, f) {",
    "      var j, a;",
    "      for (j = 0; j < nc; j++) {",
    "        a = project(cam, f.c[3 * j], f.c[3 * j + 1], f.c[3 * j + 2]);",
    "        if (a) {",
    "          dot(a, 6.5, '#fff');",
    "          dot(a, 5, STATE_COLOURS[f.s[j]] || STATE_COLOURS[0]);",
    "        }",
    "      }",
    "    }",
    "",
    "    function fitCanvas() {",
    "      var ratio = window.devicePixelRatio || 1;",
    "      var width = Math.max(1, canvas.clientWidth), height = Math.max(1, canvas.clientHeight);",
    "      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {",
    "        canvas.width = Math.round(width * ratio);",
    "        canvas.height = Math.round(height * ratio);",
    "      }",
    "      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);",
    "      return [width, height];",
    "    }",
    "",
    "    var contactItems = [];",
    "    function listContacts() {",
    "      var list = document.getElementById('contacts'), j, li, sw, name, state;",
    "      for (j = 0; j < nc; j++) {",
    "        li = document.createElement('li');",
    "        sw = document.createElement('i');",
    "        name = document.createElement('span');",
    "        state = document.createElement('span');",
    "        name.textContent = String(data.contact_names[j]);",
    "        state.className = 'state';",
    "        li.appendChild(sw);",
    "        li.appendChild(name);",
    "        li.appendChild(state);",
    "        list.appendChild(li);",
    "        contactItems.push([sw, state]);",
    "      }",
    "      if (nc === 0)",
    "        list.textContent = 'No contact.';",
    "    }",
    "",
    "    function showContacts(f) {",
    "      for (var j = 0; j < nc; j++) {",
    "        var s = STATE_NAMES[f.s[j]] ? f.s[j] : 0;",
    "        contactItems[j][0].className = 'sw s' + s;",
    "        contactItems[j][1].textContent = STATE_NAMES[s];",
    "      }",
    "    }",
    "",
    "    function formatTime(t) {",
    "      return finite(t) ? t.toFixed(3) : '?';",
    "    }",
    "",
    "    /* Frame i: the picture, the slider, the time; the links drawn. */",
    "    function draw(i) {",
    "      var f = frames[i], size = fitCanvas(), cam = camera(f, size[0], size[1]), drawn;",
    "      ctx.clearRect(0, 0, size[0], size[1]);",
    "      drawGround(cam, f);",
    "      drawn = drawLinks(cam, f);",
    "      drawForces(cam, f, i);",
    "      drawContactPoints(cam, f);",
    "      ctx.fillStyle = '#1e293b';",
    "      ctx.font = '13px ' + getComputedStyle(body).fontFamily;",
    "      ctx.fillText('t = ' + formatTime(f.t) + ' s', 12, 22);",
    "      slider.value = String(i);",
    "      timeOut.textContent = 't = ' + formatTime(f.t) + ' s / ' +",
    "        formatTime(frames[frames.length - 1].t) + ' s (step ' + f.k + ')';",
    "      showContacts(f);",
    "      return drawn;",
    "    }",
    "",
    "    /* ---- playing ---- */",
    "",
    "    /* The last frame at or before time t. */",
    "    function frameAt(t) {",
    "      var lo = 0, hi = frames.length - 1, mid;",
    "      while (lo < hi) {",
    "        mid = (lo + hi + 1) >> 1;",
    "        if (frames[mid].t <= t)",
    "          lo = mid;",
    "        else",
    "          hi = mid - 1;",
    "      }",
    "      return lo;",
    "    }",
    "",
    "    function setPlaying(on) {",
    "      play.playing = on;",
    "      playButton.textContent = on ? 'Pause' : 'Play';",
    "      playButton.setAttribute('aria-pressed', on ? 'true' : 'false');",
    "      if (on) {",
    "        play.last = 0;",
    "        window.requestAnimationFrame(tick);",
    "      }",
    "    }",
    "",
    "    function tick(now) {",
    "      if (!play.playing)",
    "        return;",
    "      if (play.last)",
    "        play.time += (now - play.last) / 1000 * play.speed;",
    "      play.last = now;",
    "      var end = frames[frames.length - 1].t;",
    "      if (!(play.time < end)) {",
    "        play.time = end;",
    "        play.i = frames.length - 1;",
    "        draw(play.i);",
    "        setPlaying(false);",
    "        return;",
    "      }",
    "      play.i = frameAt(play.time);",
    "      draw(play.i);",
    "      window.requestAnimationFrame(tick);",
    "    }",
    "",
    "    playButton.addEventListener('click', function () {",
    "      if (!play.playing && play.i === frames.length - 1) {",
    "        play.i = 0;",
    "        play.time = frames[0].t;",
    "      }",
    "      setPlaying(!play.playing);",
    "    });",
    "",
    "    slider.max = String(frames.length - 1);",
    "    slider.addEventListener('input', function () {",
    "      play.i = Number(slider.value);",
    "      play.time = frames[play.i].t;",
    "      draw(play.i);",
    "    });",
    "",
    "    SPEEDS.forEach(function (speed) {",
    "      var button = document.getElementById('speed-' + String(speed).replace('.', '_'));",
    "      button.addEventListener('click', function () {",
    "        play.speed = speed;",
    "        SPEEDS.forEach(function (s) {",
    "          document.getElementById('speed-' + String(s).replace('.', '_'))",
    "            .setAttribute('aria-pressed', s === speed ? 'true' : 'false');",
    "        });",
    "      });",
    "    });",
    "",
    "    document.getElementById('reset').addEventListener('click', function () {",
    "      view.az = -0.9;",
    "      view.el = 0.32;",
    "      view.zoom = 1;",
    "      draw(play.i);",
    "    });",
    "",
    "    /* ---- the view ---- */",
    "",
    "    var drag = null;",
    "    canvas.addEventListener('pointerdown', function (e) {",
    "      drag = [e.clientX, e.clientY];",
    "      canvas.setPointerCapture(e.pointerId);",
    "      canvas.className = 'dragging';",
    "    });",
    "    canvas.addEventListener('pointermove', function (e) {",
    "      if (!drag)",
    "        return;",
    "      view.az -= (e.clientX - drag[0]) * 0.008;",
    "      view.el = Math.max(-0.15, Math.min(1.5, view.el + (e.clientY - drag[1]) * 0.008));",
    "      drag = [e.clientX, e.clientY];",
    "      draw(play.i);",
    "    });",
    "    function endDrag() {",
    "      drag = null;",
    "      canvas.className = '';",
    "    }",
    "    canvas.addEventListener('pointerup', endDrag);",
    "    canvas.addEventListener('pointercancel', endDrag);",
    "    canvas.addEventListener('wheel', function (e) {",
    "      e.preventDefault();",
    "      view.zoom = Math.max(0.15, Math.min(8, view.zoom * Math.exp(e.deltaY * 0.001)));",
    "      draw(play.i);",
    "    }, { passive: false });",
    "    window.addEventListener('resize', function () { draw(play.i); });",
    "",
    "    /* ---- the first frame ---- */",
    "",
    "    listContacts();",
    "    var drawn = draw(0);",
    "    body.setAttribute('data-frames', String(frames.length));",
    "    body.setAttribute('data-points', String(np));",
    "    body.setAttribute('data-drawn', String(drawn));",
    "    if (!errors.length) {",
    "      body.setAttribute('data-ok', '1');",
    "      document.getElementById('status').textContent = frames.length + ' frames of ' + np +",
    "        ' points; ' + drawn + ' links drawn in the first.';",
    "    }",
    "  }",
    "",
    "  try {",
    "    run();",
    "  } catch (e) {",
    "    fail(String(e && e.message || e));",
    "  }",
    "})();",
    NULL
};

/* ---- the page ---- */

static void put_lines(FILE *f, const char *const *lines)
{
    for (; *lines; lines++) {
        fputs(*lines, f);
        fputc('\n', f);
    }
}

static void stat_box(FILE *f, const char *value, const char *label)
{
    fprintf(f, "<div class=\"stat\"><b>%s</b><span>%s</span></div>\n", value, label);
}

static void page_header(FILE *f, const sim_trace *tr, int nframes)
{
    const double duration = tr->t[tr->nsamples - 1] - tr->t[0];
    char value[64];
    fputs("<header>\n<div class=\"wrap\">\n<p class=\"kicker\">cdyngen simulate &middot; the run, "
          "played</p>\n<h1>", f);
    html_text(f, tr->robot);
    fputs("</h1>\n<dl class=\"meta\">\n<dt>file</dt><dd><code>", f);
    html_text(f, tr->urdf);
    fputs("</code></dd>\n<dt>contact model</dt><dd>", f);
    html_text(f, tr->model);
    fprintf(f, "</dd>\n<dt>step</dt><dd>%g s</dd>\n<dt>ground</dt><dd>z = %g m</dd>\n</dl>\n",
            tr->dt, tr->ground);
    fputs("<div class=\"stats\">\n", f);
    snprintf(value, sizeof value, "%g s", duration);
    stat_box(f, value, "simulated");
    snprintf(value, sizeof value, "%d", tr->nsamples - 1);
    stat_box(f, value, "steps");
    snprintf(value, sizeof value, "%d", nframes);
    stat_box(f, value, "frames shown");
    snprintf(value, sizeof value, "%d", tr->npoints);
    stat_box(f, value, "points");
    snprintf(value, sizeof value, "%d", tr->ncontacts);
    stat_box(f, value, "contacts");
    snprintf(value, sizeof value, "%d", tr->nq);
    stat_box(f, value, "nq");
    fputs("</div>\n</div>\n</header>\n", f);
}

static void write_page(const sim_trace *tr, FILE *f, const int *keep, int nframes)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"generator\" content=\"cdyngen simulate\">\n<title>",
          f);
    html_text(f, tr->robot);
    fputs(" &middot; cdyngen simulate</title>\n<style>\n", f);
    put_lines(f, page_style);
    fputs("</style>\n</head>\n<body data-ok=\"0\">\n", f);
    page_header(f, tr, nframes);
    put_lines(f, page_body);
    sim_data(f, tr, keep, nframes);
    sim_forces(f, tr, keep, nframes);
    fputs("<script>\n", f);
    put_lines(f, page_script);
    fputs("</script>\n</body>\n</html>\n", f);
}

/* Whatever the page reads must be there: names for every point and contact, a parent per
 * point, the samples' times; the rest may be NULL (written as null, drawn as nothing). */
static int trace_usable(const sim_trace *tr)
{
    return tr && tr->nsamples >= 1 && tr->t && tr->nq >= 0 && tr->npoints >= 0 &&
           tr->ncontacts >= 0 && (tr->npoints == 0 || (tr->point_names && tr->point_parent)) &&
           (tr->ncontacts == 0 || tr->contact_names);
}

int sim_write_html(const sim_trace *tr, FILE *f)
{
    int *keep, nframes;
    if (!f || !trace_usable(tr))
        return -1;
    keep = malloc(sizeof *keep * (size_t)tr->nsamples);
    if (!keep)
        return -1;
    nframes = choose_frames(tr, keep);
    write_page(tr, f, keep, nframes);
    free(keep);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
