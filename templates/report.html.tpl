<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cdyngen {{ version }}">
<title>{{ robot }} · cdyngen report</title>
<style>
:root {
  --ink: #1e293b; --muted: #64748b; --line: #e2e8f0; --soft: #f8fafc;
  --rev: #2563eb; --cont: #0891b2; --pris: #d97706; --plan: #7c3aed; --ff: #475569;
  --con: #dc2626; --loop: #7c3aed;
  --sans: "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans Condensed", sans-serif;
  --mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 14px/1.5 var(--sans); color: var(--ink); background: #fff; }
.wrap { max-width: 1440px; margin: 0 auto; padding: 0 28px; }
header { background: var(--soft); border-bottom: 1px solid var(--line); padding: 18px 0 16px; }
.kicker { margin: 0; color: var(--muted); font-size: 12px; letter-spacing: .06em; text-transform: uppercase; }
h1 { margin: 2px 0 8px; font-size: 26px; line-height: 1.2; word-break: break-word; }
h2 { margin: 34px 0 6px; font-size: 18px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { margin: 18px 0 6px; font-size: 15px; }
code { font: 12.5px var(--mono); background: #eef2f7; padding: 1px 5px; border-radius: 4px; white-space: nowrap; }
.meta code { white-space: normal; word-break: break-all; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; font-size: 13px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; }
.stats { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }
.stat { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 5px; min-width: 82px; }
.stat b { display: block; font-size: 20px; line-height: 1.25; }
.stat span { color: var(--muted); font-size: 12px; }
nav.toc { margin: 14px 0 0; font-size: 13px; }
nav.toc a { color: var(--rev); text-decoration: none; margin-right: 14px; }
nav.toc a:hover { text-decoration: underline; }
.lead { margin: 4px 0 10px; color: var(--muted); max-width: 980px; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; background: #fff; padding: 10px; }
.legend { margin: 8px 0 0; font-size: 12.5px; color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 18px; }
.legend span { white-space: nowrap; }
.sw { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.sw.revolute { background: var(--rev); } .sw.continuous { background: var(--cont); }
.sw.prismatic { background: var(--pris); } .sw.planar { background: var(--plan); }
.sw.freeflyer { background: var(--ff); } .sw.contact { background: var(--con); }
.sw.loop { background: var(--loop); } .sw.c1 { background: var(--rev); }
.sw.c2 { background: #ea580c; } .sw.c3 { background: #7c3aed; } .sw.c4 { background: var(--con); }
.check { margin: 6px 0 0; font-size: 12px; color: var(--muted); }
/* the tree */
svg.tree { display: block; margin: 0 auto; font-family: var(--sans); }
.tree .box { fill: #fff; stroke: #cbd5e1; stroke-width: 1; }
.tree .band { fill: var(--ff); }
.tree .revolute .band { fill: var(--rev); } .tree .continuous .band { fill: var(--cont); }
.tree .prismatic .band { fill: var(--pris); } .tree .planar .band { fill: var(--plan); }
.tree .world .box { fill: #f1f5f9; } .tree .world .band { fill: #94a3b8; }
.tree a:hover .box { stroke: var(--rev); stroke-width: 2; }
.tree .jn { font-size: 12px; font-weight: 600; fill: #0f172a; }
.tree .jt { font-size: 10.5px; fill: var(--ff); }
.tree .revolute .jt { fill: var(--rev); } .tree .continuous .jt { fill: var(--cont); }
.tree .prismatic .jt { fill: var(--pris); } .tree .planar .jt { fill: var(--plan); }
.tree .jv { font-size: 10px; fill: var(--muted); text-anchor: end; }
.tree .sep { stroke: var(--line); }
.tree .fn { font-size: 10.5px; fill: #334155; }
.tree .fn.massless, .tree .fn.more { fill: #94a3b8; }
.tree .fn.con { fill: var(--con); font-weight: 600; }
.tree .fm { fill: #fff; stroke: #64748b; stroke-width: 1; }
.tree .fm.own { fill: #334155; stroke: none; }
.tree .fm.massless { stroke: #a8b3c2; }
.tree .fm.con { fill: var(--con); stroke: var(--con); }
.tree .edges path { fill: none; stroke: #94a3b8; stroke-width: 1.5; }
.tree .contact path { fill: none; stroke: var(--con); stroke-width: 1.6; }
.tree .contact text { font-size: 10.5px; font-weight: 700; fill: var(--con); }
.tree .loop path { fill: none; stroke: var(--loop); stroke-width: 1.8; stroke-dasharray: 6 4; }
.tree .loop circle { fill: var(--loop); }
.tree .loop text { font-size: 11px; font-weight: 700; fill: var(--loop); text-anchor: middle; paint-order: stroke; stroke: #fff; stroke-width: 4px; }
/* the matrices */
.matrices { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.matrices figure { margin: 0; width: min-content; min-width: 250px; max-width: 100%; }
.matrices figcaption { font-size: 13px; margin: 0 0 6px; }
.matrices .scroll { padding: 6px; width: fit-content; max-width: 100%; }
.matrices .legend span { white-space: normal; }
.nnz { font-weight: 700; }
svg.matrix { display: block; font-family: var(--sans); }
.matrix .grid { fill: none; stroke: #e8ecf1; stroke-width: .6; }
.matrix .outline { fill: none; stroke: #94a3b8; }
.matrix .split { stroke: #0f172a; stroke-width: 1.2; }
.matrix .c1 { fill: var(--rev); } .matrix .c2 { fill: #ea580c; }
.matrix .c3 { fill: #7c3aed; } .matrix .c4 { fill: var(--con); }
.matrix text { font-size: 9px; fill: #94a3b8; }
.matrix .lx { text-anchor: middle; } .matrix .ly { text-anchor: end; }
/* tables */
.table { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
.table.fit { display: inline-block; max-width: 100%; }
.table.fit table { width: auto; }
th, td { padding: 4px 10px; text-align: left; white-space: nowrap; border-bottom: 1px solid #f1f5f9; }
th { background: var(--soft); color: #334155; font-weight: 600; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fbfcfe; }
tbody tr:hover, tbody tr:target { background: #eff6ff; }
td.name { font-family: var(--mono); font-size: 12.5px; }
td.held { color: var(--con); font-weight: 600; }
.tag { white-space: nowrap; display: inline-block; font-size: 11.5px; padding: 0 7px; border-radius: 9px; border: 1px solid currentColor; }
.tag.revolute { color: var(--rev); } .tag.continuous { color: var(--cont); } .tag.prismatic { color: var(--pris); }
.tag.planar { color: var(--plan); } .tag.freeflyer { color: var(--ff); }
.muted { color: var(--muted); }
.bar { display: inline-block; height: 8px; background: #93c5fd; border-radius: 4px; vertical-align: middle; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
td.barcell { width: 30%; min-width: 120px; }
ul.facts { padding-left: 20px; max-width: 1000px; }
ul.facts li { margin: 4px 0; }
.note { border-left: 4px solid #f59e0b; background: #fffbeb; padding: 8px 12px; border-radius: 4px; max-width: 1000px; }
footer { margin: 40px 0 24px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 10px; }
@media print {
  @page { margin: 12mm; }
  body { font-size: 10pt; background: #fff; color: #000; }
  header { background: #fff; border-bottom: 2px solid #000; }
  .wrap { max-width: none; padding: 0; }
  nav.toc, .check { display: none; }
  .scroll, .table { overflow: visible; border: none; padding: 0; }
  svg { max-width: 100% !important; height: auto !important; }
  svg.tree { margin: 0; }
  .matrices figure { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  tr { break-inside: avoid; }
  table { font-size: 8pt; }
  th { white-space: nowrap; }
  td { white-space: normal; padding: 2px 6px; }
  td.name { font-size: 8pt; overflow-wrap: anywhere; }
  .tag { border: none; padding: 0; }
  code { background: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  .note { background: #fff; }
}
</style>
</head>
<body>
<header>
<div class="wrap">
<p class="kicker">cdyngen {{ version }} · how the generator understood the robot</p>
<h1>{{ robot }}</h1>
<dl class="meta">
<dt>file</dt><dd><code>{{ file }}</code></dd>
<dt>options</dt><dd><code>{{ options }}</code></dd>
<dt>base</dt><dd>{{ base }}</dd>
</dl>
<div class="stats">
<div class="stat"><b>{{ nq }}</b><span>nq</span></div>
<div class="stat"><b>{{ nv }}</b><span>nv (DoFs)</span></div>
<div class="stat"><b>{{ nbodies }}</b><span>bodies (joints)</span></div>
<div class="stat"><b>{{ nframes }}</b><span>frames (links)</span></div>
<div class="stat"><b>{{ depth }}</b><span>depth</span></div>
<div class="stat"><b>{{ nconstraints }}</b><span>constraints ({{ nc }} rows)</span></div>
</div>
<nav class="toc"><a href="#s-tree">Tree</a><a href="#s-sparsity">Sparsity</a><a href="#s-joints">Joints</a><a href="#s-frames">Frames</a><a href="#s-ops">Operations</a><a href="#s-special">Specialisation and notes</a></nav>
</div>
</header>
<main class="wrap">
<section id="s-tree">
<h2>Kinematic tree</h2>
<p class="lead">One node per body, named by its joint, with the joint's type and axis and its first velocity index; under it, the frames it carries: the link of its joint, then the links merged into it by fixed joints. Children are in Pinocchio's order, left to right.</p>
<div class="scroll">
{{ tree }}
</div>
<div class="legend">
<span><i class="sw revolute"></i>revolute</span><span><i class="sw continuous"></i>continuous</span><span><i class="sw prismatic"></i>prismatic</span><span><i class="sw planar"></i>planar</span><span><i class="sw freeflyer"></i>free-flyer</span>
<span>&#9679; link of the joint</span><span>&#9671; link merged by a fixed joint (grey: no inertia)</span>
<span><i class="sw contact"></i>contact with the world (ground mark), its dimension (μ: unilateral with friction)</span><span><i class="sw loop"></i>loop closure (dashed), its dimension</span>
</div>
<p id="tree-check" class="check" data-drawn="none">The tree's nodes are counted by the page's script.</p>
</section>
<section id="s-sparsity">
<h2>Sparsity patterns</h2>
<p class="lead">The entries the generated code computes: every other entry is a structural zero and no operation is emitted for it. The counts are those of <code>cdyngen --summary</code>.</p>
<div class="matrices">
{% for m in matrices %}
<figure>
<figcaption><b>{{ m.title }}</b><br>{{ m.n }} &times; {{ m.n }}: <span class="nnz" data-matrix="{{ m.id }}">{{ m.nnz }}</span> nonzeros of {{ m.of }}</figcaption>
<div class="scroll">{{ m.svg }}</div>
<p class="legend"><span>{{ m.legend }}</span></p>
</figure>
{% endfor %}
</div>
{% if constraints %}
<h3>Constraints ({{ nc }} rows of J and &lambda;)</h3>
<div class="table fit"><table>
<thead><tr><th>#</th><th>kind</th><th>dim</th><th>frames</th><th>rows</th><th class="num">supporting DoFs</th></tr></thead>
<tbody>
{% for c in constraints %}
<tr><td class="num">{{ loop.index }}</td><td>{{ c.kind }}</td><td>{{ c.dim }}d</td><td class="name">{{ c.frames }}</td><td>{{ c.rows }}</td><td class="num">{{ c.support }}</td></tr>
{% endfor %}
</tbody></table></div>
<p class="muted">Solvers generated for this set: {{ solvers }}.</p>
{% endif %}
</section>
<section id="s-joints">
<h2>Joints in Pinocchio's order</h2>
<div class="table"><table>
<thead><tr><th class="num">#</th><th>joint</th><th>type</th><th>axis</th><th>parent</th><th>link</th><th class="num">idx_q</th><th class="num">nq</th><th class="num">idx_v</th><th class="num">nv</th></tr></thead>
<tbody>
{% for j in joints %}
<tr id="joint-{{ loop.index }}"><td class="num">{{ loop.index }}</td><td class="name">{{ j.name }}</td><td><span class="tag {{ j.kind }}">{{ j.type }}</span></td><td class="name">{{ j.axis }}</td><td class="name">{{ j.parent }}</td><td class="name">{{ j.link }}</td><td class="num">{{ j.idx_q }}</td><td class="num">{{ j.nq }}</td><td class="num">{{ j.idx_v }}</td><td class="num">{{ j.nv }}</td></tr>
{% endfor %}
</tbody></table></div>
</section>
<section id="s-frames">
<h2>Frames</h2>
<p class="lead">One per URDF link, in the file's order, with its placement in the frame of the body that carries it (roll, pitch, yaw in radians, as URDF writes them).</p>
<div class="table"><table>
<thead><tr><th class="num">#</th><th>frame</th><th>on body</th><th>kind</th><th>xyz</th><th>rpy</th><th>held by</th></tr></thead>
<tbody>
{% for f in frames %}
<tr><td class="num">{{ loop.index0 }}</td><td class="name">{{ f.name }}</td><td class="name">{{ f.body }}</td><td>{{ f.kind }}</td><td class="name">{{ f.xyz }}</td><td class="name">{{ f.rpy }}</td><td class="held">{{ f.held }}</td></tr>
{% endfor %}
</tbody></table></div>
</section>
<section id="s-ops">
<h2>Emitted operations per algorithm</h2>
<p class="lead">What the generated code executes, per call; the same figures as <code>cdyngen --summary</code>.</p>
<div class="table"><table>
<thead><tr><th>algorithm</th><th class="num">mul</th><th class="num">add</th><th class="num">div</th><th class="num">sqrt</th><th class="num">sin/cos</th><th>mul + add</th></tr></thead>
<tbody>
{% for o in ops %}
<tr><td class="name">{{ o.algorithm }}</td><td class="num">{{ o.mul }}</td><td class="num">{{ o.add }}</td><td class="num">{{ o.div }}</td><td class="num">{{ o.sqrt }}</td><td class="num">{{ o.sincos }}</td><td class="barcell"><span class="bar" style="width:{{ o.pct }}%"></span></td></tr>
{% endfor %}
</tbody></table></div>
</section>
<section id="s-special">
<h2>What was specialised</h2>
<ul class="facts">
{% for s in special %}
<li>{{ s }}</li>
{% endfor %}
</ul>
<h3>Notes</h3>
{% for n in notes %}
<p class="note">{{ n }}</p>
{% endfor %}
{% if not notes %}
<p class="muted">The generator prints no warning for this robot and these options.</p>
{% endif %}
</section>
<footer>Written by cdyngen {{ version }} from {{ file }}; the page is self-contained (no network) and is replaced by the next <code>cdyngen report</code> to this file.</footer>
</main>
<script>
/* Squeezes a name longer than its node into it (the generator cannot know the font), and
 * counts the tree's nodes that were laid out with a size, for readers and for the report
 * test, which reads the result with a headless browser; a script error is recorded too. */
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  function fit() {
    var texts = document.querySelectorAll('svg text[data-fit]'), i, fit;
    for (i = 0; i < texts.length; i++) {
      fit = Number(texts[i].getAttribute('data-fit'));
      if (texts[i].getComputedTextLength() > fit) {
        texts[i].setAttribute('textLength', String(fit));
        texts[i].setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    }
  }
  window.addEventListener('load', function () {
    fit();
    var out = document.getElementById('tree-check');
    var svg = document.getElementById('tree');
    var nodes = svg ? svg.querySelectorAll('g.node') : [];
    var drawn = 0, i, box;
    for (i = 0; i < nodes.length; i++) {
      box = nodes[i].getBoundingClientRect();
      if (box.width > 0 && box.height > 0)
        drawn++;
    }
    out.setAttribute('data-drawn', String(drawn));
    out.setAttribute('data-errors', String(errors.length));
    out.textContent = drawn + ' of ' + (svg ? svg.getAttribute('data-nodes') : 0) +
      ' tree nodes drawn' + (errors.length ? '; script errors: ' + errors.join('; ') : '.');
  });
})();
</script>
</body>
</html>
