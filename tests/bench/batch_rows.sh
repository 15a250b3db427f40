#!/bin/sh
# batch_rows.sh — `cdyngen bench --batch W` times the batch forms (R_batch_fk, rnea, nle,
# gravity, crba, crba_tree, minv, aba, rnea_derivatives, aba_derivatives, and the
# constrained solvers prox_ltl, prox_ltls, constrained_aba, prox_pv and prox_ltl_derivatives
# of a contacts-only set) beside the single-state forms on the sample arm with its 6d tool contact, and writes
# them to the CSV and JSON files:
#
#   tests/bench/batch_rows.sh CDYNGEN WORKDIR
#
# Checks: the text output's batch table (W = 4) with every batch form; in the CSV the batch
# fields filled on exactly those rows (empty on jacobian's), W 4, positive per-state times,
# the speed-up the single time over the batch per-state time, states per second 1e6 over
# it, each lane of the batch form equal to the single form to rounding (batch_rel_diff; the
# derivatives' every output, and 1 where a lane's or the single form's status is not 0); the
# JSON's batch_w and fields; nothing left in TMPDIR; --batch with --size refused.
set -eu
if [ $# -ne 2 ]; then
    sed -n '2,16p' "$0" >&2
    exit 2
fi
cdyngen=$1 work=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
mkdir -p "$work/tmp"
fail() {
    echo "batch_rows.sh: $*" >&2
    exit 1
}
# the rows timed, and those with a batch form (all but jacobian)
rows="fk jacobian rnea nle gravity crba crba_tree minv aba rnea_derivatives aba_derivatives prox_ltl prox_ltls
constrained_aba prox_pv prox_ltl_derivatives"
rows=$(echo $rows)
batched=$(echo "$rows" | sed 's/ jacobian//')
nbatched=$(echo $batched | wc -w)
TMPDIR=$work/tmp "$cdyngen" bench "$src/robots/arm7.urdf" --contact tool:6d --batch 4 \
    --batches 3 --algorithms "$(echo "$rows" | tr ' ' ,)" \
    --cflags "-O1" --csv "$work/b.csv" --json "$work/b.json" > "$work/out.txt" 2>&1 ||
    fail "cdyngen bench failed: $(cat "$work/out.txt")"
[ -z "$(ls -A "$work/tmp")" ] || fail "left files in TMPDIR"
grep -q DIFFERENT "$work/out.txt" && fail "the sides differ: $(cat "$work/out.txt")"
grep -q "batch forms (R_batch_\*, W = 4 states a call)" "$work/out.txt" ||
    fail "no batch table: $(cat "$work/out.txt")"
# the table's rows, after its heading: every batch form once, in order
table=$(sed -n '/batch forms (R_batch_/,/^$/p' "$work/out.txt" |
    awk '$1 ~ /^[a-z_]+$/ && $2 ~ /^[0-9.]+$/ { printf "%s%s", sep, $1; sep = " " }')
[ "$table" = "$batched" ] || fail "the batch table's rows: \"$table\", not \"$batched\""
# csv: robot,algorithm,generated_us,generated_min_us,generated_max_us,generic_us,
#      generic_min_us,generic_max_us,speedup,mul,add,code_bytes,rel_diff,batch_w,
#      batch_us_per_state,batch_min_us_per_state,batch_max_us_per_state,batch_speedup,
#      batch_states_per_second,batch_rel_diff
awk -F, -v want="$rows" -v nbatched="$nbatched" '
    BEGIN { n = split(want, names, " ") }
    NR == 1 {
        if ($14 != "batch_w" || $20 != "batch_rel_diff" || NF != 20) { print "header " $0; bad = 1 }
        next
    }
    {
        i = NR - 1
        if ($1 != "arm7" || $2 != names[i]) { print "row " i ": " $1 " " $2; bad = 1 }
        if (NF != 20) { print $2 ": " NF " fields"; bad = 1 }
        if ($2 == "jacobian") {
            for (k = 14; k <= 20; k++) if ($k != "") { print "jacobian field " k ": " $k; bad = 1 }
            next
        }
        if ($14 != 4) { print $2 " batch_w " $14; bad = 1 }
        for (k = 15; k <= 19; k++) if (!($k > 0)) { print $2 " field " k ": " $k; bad = 1 }
        if (!($16 <= $15 && $15 <= $17)) { print $2 " min/median/max " $16 " " $15 " " $17; bad = 1 }
        r = $3 / $15
        if (!($18 > 0.999 * r && $18 < 1.001 * r)) { print $2 " batch_speedup " $18 " vs " r; bad = 1 }
        r = 1e6 / $15
        if (!($19 > 0.999 * r && $19 < 1.001 * r)) { print $2 " states/s " $19 " vs " r; bad = 1 }
        if (!($20 >= 0 && $20 < 1e-12)) { print $2 " batch_rel_diff " $20; bad = 1 }
        batch++
    }
    END {
        if (NR - 1 != n) { print NR - 1 " rows"; bad = 1 }
        if (batch != nbatched) { print batch " batch rows"; bad = 1 }
        exit bad
    }' "$work/b.csv" || fail "b.csv: $(cat "$work/b.csv")"
grep -q '"batch_w": 4,' "$work/b.json" || fail "b.json: no batch_w"
[ "$(grep -c '"batch_us_per_state"' "$work/b.json")" = "$nbatched" ] ||
    fail "b.json: not $nbatched batch rows"
# no batch forms in the --size form
if TMPDIR=$work/tmp "$cdyngen" bench "$src/robots/arm7.urdf" --batch 4 --size \
    > "$work/refused.txt" 2>&1; then
    fail "--batch with --size: accepted"
fi
grep -q "batch" "$work/refused.txt" || fail "--batch with --size: $(cat "$work/refused.txt")"
echo "batch_rows.sh: the batch forms timed per state beside the single forms, lanes agreeing, in the CSV and JSON"
