#!/bin/sh
# contact_rows.sh — `cdyngen bench` times the contact step's rows (contact_problem, admm, pgs,
# contact_step) on the sample quadruped with its four feet as frictional contacts, and
# writes them to the CSV, JSON and SVG files like every other row:
#
#   tests/bench/contact_rows.sh CDYNGEN WORKDIR
#
# Checks: exactly the four rows asked for, in order, in the CSV and the JSON; positive
# times on both sides; the two sides agree (rel_diff: the problem's G and g, the solvers'
# lambda after their 20 iterations, the step's q+ and v+; the harness reports 1, far above
# the bound, when the problems differ in size or a solver did not run exactly 20
# iterations); the solvers' rows have no code size (their code is the runtime's); the SVG
# names them; and these rows are refused for a robot without a frictional contact.
set -eu
if [ $# -ne 2 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
cdyngen=$1 work=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
mkdir -p "$work/tmp"
fail() {
    echo "contact_rows.sh: $*" >&2
    exit 1
}
feet="--contact lf_foot:friction --contact rf_foot:friction --contact lh_foot:friction --contact rh_foot:friction"
# shellcheck disable=SC2086  # the options are words
TMPDIR=$work/tmp "$cdyngen" bench "$src/robots/quadruped12.urdf" --floating-base $feet \
    --batches 3 --algorithms contact_problem,admm,pgs,contact_step,aba \
    --cflags "-O1" \
    --csv "$work/c.csv" --json "$work/c.json" --svg "$work/c.svg" > "$work/out.txt" 2>&1 ||
    fail "cdyngen bench failed: $(cat "$work/out.txt")"
[ -z "$(ls -A "$work/tmp")" ] || fail "left files in TMPDIR"
grep -q DIFFERENT "$work/out.txt" && fail "the sides differ: $(cat "$work/out.txt")"
# csv: robot,algorithm,generated_us,generated_min_us,generated_max_us,generic_us,
#      generic_min_us,generic_max_us,speedup,mul,add,code_bytes,rel_diff
awk -F, -v want="aba contact_problem admm pgs contact_step" '
    BEGIN { n = split(want, names, " ") }
    NR == 1 { next }
    {
        i = NR - 1
        if ($1 != "quadruped12" || $2 != names[i]) { print "row " i ": " $1 " " $2; bad = 1 }
        for (k = 3; k <= 9; k++) if (!($k > 0)) { print $2 " field " k ": " $k; bad = 1 }
        if (!($13 >= 0 && $13 < 1e-7)) { print $2 " rel_diff " $13; bad = 1 }
        solver = $2 == "admm" || $2 == "pgs"
        if (solver && $12 != "") { print $2 " code_bytes " $12; bad = 1 }
        if (!solver && !($12 > 0)) { print $2 " code_bytes " $12; bad = 1 }
        # the step is the problem, one solve and a little more
        t[$2] = $3
    }
    END {
        if (NR - 1 != n) { print NR - 1 " rows"; bad = 1 }
        if (!(t["contact_step"] > t["contact_problem"])) { print "step faster than its problem"; bad = 1 }
        exit bad
    }' "$work/c.csv" || fail "c.csv: $(cat "$work/c.csv")"
for a in contact_problem admm pgs contact_step; do
    grep -q "\"algorithm\": \"$a\"" "$work/c.json" || fail "c.json: no $a"
    grep -q "$a" "$work/c.svg" || fail "c.svg: no $a"
done
# a robot without a frictional contact has no such rows
if TMPDIR=$work/tmp "$cdyngen" bench "$src/robots/quadruped12.urdf" --floating-base \
    --contact lf_foot:3d --algorithms admm > "$work/refused.txt" 2>&1; then
    fail "admm without a frictional contact: accepted"
fi
grep -q "admm needs a frictional contact" "$work/refused.txt" ||
    fail "admm without a frictional contact: $(cat "$work/refused.txt")"
echo "contact_rows.sh: the contact step's rows timed, agreeing, in the CSV, JSON and SVG"
