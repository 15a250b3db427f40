#!/bin/sh
# derivative_rows.sh — `cdyngen bench` times the derivatives' rows (rnea_derivatives,
# aba_derivatives, aba_fd, prox_ltl_derivatives) on the sample arm with its tool as a 3d
# contact, and writes them to the CSV and JSON files like every other row:
#
#   tests/bench/derivative_rows.sh CDYNGEN WORKDIR
#
# Checks: exactly the rows asked for, in the harness's order, in the CSV and the JSON;
# positive times on both sides; the two sides agree (rel_diff: both derivatives of RNEA, the
# three of ABA, ddq, lambda and the six derivatives of prox_ltl's three iterations, to
# rounding; aba_fd's forward differences to 1e-5; the harness reports 1 when a side's
# derivatives returned an error); code sizes for the generated derivatives, none for aba_fd
# (nv + 1 calls of R_aba), whose op count is 8 times aba's (nv = 7); op counts on every row;
# and prox_ltl_derivatives refused for a robot without contacts.
set -eu
if [ $# -ne 2 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
cdyngen=$1 work=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
mkdir -p "$work/tmp"
fail() {
    echo "derivative_rows.sh: $*" >&2
    exit 1
}
TMPDIR=$work/tmp "$cdyngen" bench "$src/robots/arm7.urdf" --contact tool:3d --batches 3 \
    --algorithms prox_ltl_derivatives,aba_fd,aba_derivatives,rnea_derivatives,aba \
    --cflags "-O1" --csv "$work/d.csv" --json "$work/d.json" > "$work/out.txt" 2>&1 ||
    fail "cdyngen bench failed: $(cat "$work/out.txt")"
[ -z "$(ls -A "$work/tmp")" ] || fail "left files in TMPDIR"
grep -q DIFFERENT "$work/out.txt" && fail "the sides differ: $(cat "$work/out.txt")"
# csv: robot,algorithm,generated_us,generated_min_us,generated_max_us,generic_us,
#      generic_min_us,generic_max_us,speedup,mul,add,code_bytes,rel_diff
awk -F, -v want="aba rnea_derivatives aba_derivatives aba_fd prox_ltl_derivatives" '
    BEGIN { n = split(want, names, " ") }
    NR == 1 { next }
    {
        i = NR - 1
        if ($1 != "arm7" || $2 != names[i]) { print "row " i ": " $1 " " $2; bad = 1 }
        for (k = 3; k <= 9; k++) if (!($k > 0)) { print $2 " field " k ": " $k; bad = 1 }
        bound = $2 == "aba_fd" ? 1e-5 : 1e-9
        if (!($13 >= 0 && $13 < bound)) { print $2 " rel_diff " $13; bad = 1 }
        if ($2 == "aba_fd" && $12 != "") { print $2 " code_bytes " $12; bad = 1 }
        if ($2 != "aba_fd" && !($12 > 0)) { print $2 " code_bytes " $12; bad = 1 }
        mul[$2] = $10; add[$2] = $11
    }
    END {
        if (NR - 1 != n) { print NR - 1 " rows"; bad = 1 }
        if (!(mul["aba"] > 0) || mul["aba_fd"] != 8 * mul["aba"] || add["aba_fd"] != 8 * add["aba"]) {
            print "aba_fd op count " mul["aba_fd"] "/" add["aba_fd"] ", aba " mul["aba"] "/" add["aba"]
            bad = 1
        }
        for (a in mul)
            if (!(mul[a] > 0 && add[a] > 0)) { print a ": no op count"; bad = 1 }
        exit bad
    }' "$work/d.csv" || fail "d.csv: $(cat "$work/d.csv")"
for a in rnea_derivatives aba_derivatives aba_fd prox_ltl_derivatives; do
    grep -q "\"algorithm\": \"$a\"" "$work/d.json" || fail "d.json: no $a"
done
# a robot without contacts has no prox_ltl_derivatives
if TMPDIR=$work/tmp "$cdyngen" bench "$src/robots/arm7.urdf" \
    --algorithms prox_ltl_derivatives > "$work/refused.txt" 2>&1; then
    fail "prox_ltl_derivatives without contacts: accepted"
fi
grep -q "prox_ltl_derivatives needs constraints" "$work/refused.txt" ||
    fail "prox_ltl_derivatives without contacts: $(cat "$work/refused.txt")"
echo "derivative_rows.sh: the derivatives' rows timed, agreeing, in the CSV and JSON"
