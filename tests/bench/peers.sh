#!/usr/bin/env bash
# peers.sh — the generated code built by gcc and by clang, the generic runtime built by each,
# and Pinocchio 3.7, timed side by side in one run on the sample and reference robots, with
# each generated function's code size and op count. Not a test: docs/benchmarks.md's table.
#
#   tests/bench/peers.sh CDYNGEN PINOCCHIO_BENCH OUT.md [BATCHES] [ROUNDS]
#
# OUT.md is written whole; or, when it already holds the lines <!-- peers:begin --> and
# <!-- peers:end --> (docs/benchmarks.md), only what is between them (doc_section.sh).
# CDYNGEN is a built cdyngen (its `bench` command compiles and times each side);
# PINOCCHIO_BENCH is ../shared/peers/pinocchio's harness (build.sh builds it). The reference
# robots are read from CDYN_SHARED (default: ../shared beside the source tree) and skipped
# when it is absent. Every program is pinned to one core (taskset -c 1). Per robot, ROUNDS
# rounds (default 3) each run the three sides one after the other (gcc, clang, Pinocchio);
# each side's time for an algorithm is the smallest of its rounds' medians. A shared virtual
# machine has slow phases lasting tens of seconds: a single pass puts one side in a slow
# phase and the other in a fast one, and the ratio moves by 20-50% between runs; the rounds
# give every side, Pinocchio included, the same chance at the machine's quiet time.
#   gcc:   -std=gnu99 -O3 -march=native (as the emitted CMakeLists.txt builds it)
#   clang: -std=c99 -O3 -march=native
# Environment (all optional; without them, every robot's unconstrained rows, as before):
#   PEERS_ROBOTS=iiwa,solo12,talos   only these robots (arm7 quadruped12 humanoid iiwa solo12 talos)
#   PEERS_ALGORITHMS=LIST            the robots' rows (`cdyngen bench --algorithms`; default all),
#                                    e.g. aba,rnea_derivatives,aba_derivatives,aba_fd
#   PEERS_CASES=1 | ROBOT,...       also the contact cases of every robot (1) or of those:
#                                    seed 001's Table I sets and ../shared/reference/README.md's
#                                    (arm7, iiwa H3 H6; quadruped12, solo12 F3x2 F3x4; humanoid,
#                                    talos F6x2 F6x2_H6x2), generated with the set, rows
#                                    "ROBOT CASE", against Pinocchio's --case rows:
#                                    constraintDynamics proxLTL 3it -> prox_ltl,
#                                    constraintDynamics 3it + derivatives -> prox_ltl_derivatives
#                                    (three proximal iterations, then the derivatives),
#                                    constrainedABA 3it -> constrained_aba, pv 3it -> prox_pv
#   PEERS_CASE_ALGORITHMS=LIST       the cases' rows (default prox_ltl,prox_ltl_derivatives)
#   PEERS_SECTION=NAME               the markers of OUT.md to write between (default peers;
#                                    docs/benchmarks.md's derivatives table: derivatives)
#   PEERS_BATCH=W                    4, 8, 16 or native: the generated sides' runs take
#                                    `--batch W` (the robots generated with their batch forms)
#                                    and a second table gives, per robot and algorithm with a
#                                    batch form (fk rnea nle gravity crba crba_tree minv aba
#                                    and the derivatives), the single and the batch form's
#                                    µs per state of gcc and clang, Pinocchio's µs, single ÷
#                                    batch and Pinocchio ÷ batch
#   PEERS_CFLAGS="FLAGS"             the generated sides' flags in place of -march=native
#                                    (after -O3; e.g. -march=x86-64-v3: AVX2 without AVX-512)
# With aba_derivatives and aba_fd among the rows, a second table gives, per robot, how many
# times faster the analytical ABA derivatives are than aba_fd (dddq/dq by forward differences:
# nv + 1 calls of the generated ABA), per compiler.
# Batch example (W = 4 on AVX2, the lanes' per-state time against the single form's):
#   PEERS_ROBOTS=iiwa,solo12,talos PEERS_ALGORITHMS=fk,rnea,nle,gravity,crba,minv,aba \
#   PEERS_BATCH=4 PEERS_CFLAGS=-march=x86-64-v3 \
#   tests/bench/peers.sh CDYNGEN PINOCCHIO_BENCH OUT.md 10 2
# Derivatives example (hours on a shared 2-core VM: each talos case compiles for 10 minutes):
#   PEERS_ALGORITHMS=aba,rnea_derivatives,aba_derivatives,aba_fd PEERS_CASES=iiwa,solo12,talos \
#   PEERS_SECTION=derivatives tests/bench/peers.sh CDYNGEN PINOCCHIO_BENCH OUT.md 10 2
set -Eeuo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,54p' "$0" >&2
    exit 2
fi
cdyngen=$1 pinocchio=$2 out=$3 batches=${4:-20} rounds=${5:-3}
only_robots=${PEERS_ROBOTS:-}
algorithms=${PEERS_ALGORITHMS:-}
with_cases=${PEERS_CASES:-0}
case_algorithms=${PEERS_CASE_ALGORITHMS:-prox_ltl,prox_ltl_derivatives}
section=${PEERS_SECTION:-peers}
batch=${PEERS_BATCH:-}
cflags=${PEERS_CFLAGS:--march=native}
case "$batch" in
    "" | 4 | 8 | 16 | native) ;;
    *)
        echo "peers.sh: PEERS_BATCH=$batch: expected 4, 8, 16 or native" >&2
        exit 2
        ;;
esac
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${CDYN_SHARED:-$src/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'echo "peers.sh: line $LINENO failed (exit $?)" >&2' ERR
pin="taskset -c 1"
command -v taskset >/dev/null || pin=""

# name|urdf|cdyngen options|Pinocchio root (ff|fixed)|Jacobian frame|contact cases
# (CASE=3D:FRAME,6D:FRAME,... separated by ";", as Pinocchio's --case takes them)
robots=(
    "arm7|$src/robots/arm7.urdf||fixed|tool|H3=3D:tool;H6=6D:tool"
    "quadruped12|$src/robots/quadruped12.urdf|--floating-base|ff|lf_foot|F3x2=3D:lf_foot,3D:rf_foot;F3x4=3D:lf_foot,3D:rf_foot,3D:lh_foot,3D:rh_foot"
    "humanoid|$src/robots/humanoid.urdf|--floating-base|ff|left_sole|F6x2=6D:left_sole,6D:right_sole;F6x2_H6x2=6D:left_sole,6D:right_sole,6D:left_hand,6D:right_hand"
)
if [ -d "$shared/reference/urdf" ]; then
    r=$shared/reference/urdf
    robots+=("iiwa|$r/iiwa.urdf||fixed|lbr_iiwa_link_7|H3=3D:lbr_iiwa_link_7;H6=6D:lbr_iiwa_link_7"
             "solo12|$r/solo12.urdf|--floating-base|ff|FL_FOOT|F3x2=3D:FL_FOOT,3D:FR_FOOT;F3x4=3D:FL_FOOT,3D:FR_FOOT,3D:HL_FOOT,3D:HR_FOOT"
             "talos|$r/talos_full_v2.urdf|--floating-base|ff|left_sole_link|F6x2=6D:left_sole_link,6D:right_sole_link;F6x2_H6x2=6D:left_sole_link,6D:right_sole_link,6D:gripper_left_base_link,6D:gripper_right_base_link")
fi
if [ -n "$only_robots" ]; then
    for want in ${only_robots//,/ }; do
        found=0
        for entry in "${robots[@]}"; do
            [ "${entry%%|*}" = "$want" ] && found=1
        done
        if [ $found = 0 ]; then
            echo "peers.sh: PEERS_ROBOTS: no robot \"$want\" (or ../shared is absent)" >&2
            exit 2
        fi
    done
fi

# Pinocchio's markdown rows -> "algorithm,median_us" in cdyngen's algorithm names; a contact
# case's rows "CASE/algorithm,median_us".
pinocchio_csv() {
    awk -F'|' '/^\| [^-]/ && $4 !~ /algorithm/ {
        gsub(/^ +| +$/, "", $4); gsub(/ /, "", $5)
        n = $4
        if (match(n, / \[[^]]*\]$/)) {             # a contact case: "... 3it [CASE]"
            c = substr(n, RSTART + 2, RLENGTH - 3) "/"; n = substr(n, 1, RSTART - 1)
            if (n == "constraintDynamics proxLTL 3it") n = "prox_ltl"
            else if (n == "constraintDynamics 3it + derivatives") n = "prox_ltl_derivatives"
            else if (n == "constrainedABA 3it") n = "constrained_aba"
            else if (n ~ /^pv /) n = "prox_pv"
            print c n "," $5; next
        }
        if (n ~ /^forwardKinematics/) n = "fk"; else if (n ~ /^computeFrameJacobian/) n = "jacobian"
        else if (n == "nonLinearEffects") n = "nle"; else if (n == "computeGeneralizedGravity") n = "gravity"
        else if (n ~ /^crba/) { print "crba_tree," $5; n = "crba" } else if (n ~ /^cholesky/) n = "ltl"
        else if (n == "computeMinverse") n = "minv"; else if (n ~ /^aba/) n = "aba"
        else if (n == "computeRNEADerivatives") n = "rnea_derivatives"
        else if (n == "computeABADerivatives") n = "aba_derivatives"
        print n "," $5 }' "$1"
}

{
    echo "| robot | algorithm | mul/add | gcc µs | gcc code | clang µs | clang code | generic gcc µs | generic clang µs | Pinocchio µs | gcc ÷ Pinocchio | clang ÷ Pinocchio | gcc ÷ generic | clang ÷ generic |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$work/table.md"
# bench_round CC CFLAGS [CASE]: one round of the generated code and the generic runtime built
# by CC, its rows appended to $work/CC.csv, or with CASE (generated with that contact set) to
# $work/CC.CASE.csv (for the robot of the loop below).
bench_round() {
    local file=$work/$1.csv extra="" list=$algorithms
    if [ $# -ge 3 ]; then
        file=$work/$1.$3.csv extra=$(case_options "$3") list=$case_algorithms
    fi
    # shellcheck disable=SC2086  # the options are words
    $pin "$cdyngen" bench "$urdf" --name "$name" $options $extra --frame "$frame" \
        --batches "$batches" ${list:+--algorithms "$list"} ${batch:+--batch "$batch"} \
        --cc "$1" --cflags "$2" \
        --csv "$work/round.csv" >/dev/null
    tail -n +2 "$work/round.csv" >> "$file"
}
# case_options CASE: cdyngen's --contact options of the robot's case ("3D:F" -> F:3d)
case_options() {
    local spec item opts=""
    spec=$(tr ';' '\n' <<< "$cases" | sed -n "s/^$1=//p")
    for item in ${spec//,/ }; do
        opts="$opts --contact ${item#*:}:$(tr 'D' 'd' <<< "${item%%:*}")"
    done
    echo "$opts"
}
# table_rows LABEL KEY GCC.csv CLANG.csv: the table's rows of one robot or case, Pinocchio's
# times under KEY (a case's "CASE/"). csv fields (no header; one row per round and algorithm):
# robot,algorithm,generated_us,min,max,generic_us,min,max,speedup,mul,add,code_bytes,rel_diff
table_rows() {
    awk -F, -v robot="$1" -v key="$2" '
        function least(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
        FILENAME ~ /pinocchio/ { least(pin, $1, $2); next }
        FILENAME ~ /gcc/ {
            if (!($2 in g)) order[++n] = $2
            least(g, $2, $3); least(gg, $2, $6); gb[$2] = $12
            ops[$2] = $10 == "" ? "" : $10 "/" $11; next
        }
        { least(c, $2, $3); least(cg, $2, $6); cb[$2] = $12 }
        function kb(b) { return b == "" ? "" : b < 1024 ? b " B" : sprintf("%.1f KB", b / 1024) }
        function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f×", b / a) : "" }
        END {
            for (i = 1; i <= n; i++) {
                a = order[i]; p = pin[key a]
                printf "| %s | %s | %s | %.4g | %s | %.4g | %s | %.4g | %.4g | %s | %s | %s | %s | %s |\n",
                    robot, a, ops[a], g[a], kb(gb[a]), c[a], kb(cb[a]), gg[a], cg[a], p,
                    ratio(g[a], p), ratio(c[a], p), ratio(g[a], gg[a]), ratio(c[a], cg[a])
            }
        }' "$work/pinocchio.csv" "$3" "$4"
}

: > "$work/fd.md"
: > "$work/batch.md"
for entry in "${robots[@]}"; do
    IFS='|' read -r name urdf options root frame cases <<< "$entry"
    if [ -n "$only_robots" ] && ! grep -qx "$name" <<< "${only_robots//,/$'\n'}"; then
        continue
    fi
    case_names=() pinocchio_cases=()
    if [ "$with_cases" = 1 ] || grep -qx "$name" <<< "${with_cases//,/$'\n'}"; then
        while IFS= read -r c; do
            case_names+=("${c%%=*}")
            pinocchio_cases+=(--case "$name:$c")
        done < <(tr ';' '\n' <<< "$cases")
    fi
    rm -f "$work"/*.csv
    : > "$work/gcc.csv"; : > "$work/clang.csv"; : > "$work/pinocchio.csv"
    for round in $(seq "$rounds"); do
        echo "peers.sh: $name, round $round of $rounds" >&2
        bench_round gcc "-O3 $cflags"
        bench_round clang "-std=c99 -O3 $cflags"
        for c in "${case_names[@]}"; do
            echo "peers.sh: $name $c, round $round of $rounds" >&2
            bench_round gcc "-O3 $cflags" "$c"
            bench_round clang "-std=c99 -O3 $cflags" "$c"
        done
        $pin "$pinocchio" --robot "$name:$urdf:$root:$frame" "${pinocchio_cases[@]}" \
            --batches "$batches" > "$work/pinocchio.md" 2>/dev/null
        pinocchio_csv "$work/pinocchio.md" >> "$work/pinocchio.csv"
    done
    table_rows "$name" "" "$work/gcc.csv" "$work/clang.csv" >> "$work/table.md"
    for c in "${case_names[@]}"; do
        table_rows "$name $c" "$c/" "$work/gcc.$c.csv" "$work/clang.$c.csv" >> "$work/table.md"
    done
    # aba_derivatives against aba_fd (nv + 1 generated ABAs), when both were timed
    # shellcheck disable=SC2086  # the options are words
    nv=$("$cdyngen" --summary "$urdf" $options 2>/dev/null | awk '$3 == "nv" && !n { print $4; n = 1 }')
    awk -F, -v robot="$name" -v nv="$nv" '
        function least(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
        FILENAME ~ /gcc/ { least(g, $2, $3); next }
        { least(c, $2, $3) }
        END {
            if (!(g["aba_derivatives"] > 0 && g["aba_fd"] > 0)) exit
            printf "| %s | %s | %.4g | %.4g | %.2f× | %.4g | %.4g | %.2f× |\n", robot, nv,
                g["aba_derivatives"], g["aba_fd"], g["aba_fd"] / g["aba_derivatives"],
                c["aba_derivatives"], c["aba_fd"], c["aba_fd"] / c["aba_derivatives"]
        }' "$work/gcc.csv" "$work/clang.csv" >> "$work/fd.md"
    # PEERS_BATCH: the rows with a batch form (csv fields 14 batch_w, 15 batch_us_per_state)
    [ -z "$batch" ] || awk -F, -v robot="$name" '
        function least(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
        function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f×", b / a) : "" }
        FILENAME ~ /pinocchio/ { least(pin, $1, $2); next }
        $14 == "" { next }
        FILENAME ~ /gcc/ {
            if (!($2 in g)) order[++n] = $2
            least(g, $2, $3); least(gb, $2, $15); w[$2] = $14; next
        }
        { least(c, $2, $3); least(cb, $2, $15) }
        END {
            for (i = 1; i <= n; i++) {
                a = order[i]; p = pin[a]
                printf "| %s | %s | %s | %.4g | %.4g | %.4g | %.4g | %s | %s | %s | %s | %s |\n",
                    robot, a, w[a], g[a], gb[a], c[a], cb[a], p, ratio(gb[a], g[a]),
                    ratio(cb[a], c[a]), ratio(gb[a], p), ratio(cb[a], p)
            }
        }' "$work/pinocchio.csv" "$work/gcc.csv" "$work/clang.csv" >> "$work/batch.md"
done
{
    echo "Generated (gcc -std=gnu99 and clang -std=c99, -O3 $cflags) vs the generic runtime"
    echo "built by the same compiler vs Pinocchio 3.7 (clang++ -O3 -march=native), one run,"
    echo "$rounds rounds per robot of $batches batches of 1000 calls per side, each side's time the"
    echo "smallest of its rounds' medians, pinned to one core; \"÷\" is how many times faster the"
    echo "generated code is. CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
    if [ "$with_cases" != 0 ]; then
        echo "Rows \"ROBOT CASE\" are generated with that contact set; prox_ltl_derivatives is prox_ltl"
        echo "(three iterations, mu 1e-6, tolerances 0) followed by its derivatives, against Pinocchio's"
        echo "constraintDynamics (the same settings) followed by computeConstraintDynamicsDerivatives."
    fi
    echo "$(gcc --version | head -1); $(clang --version | head -1)."
    settings=""
    for v in PEERS_ROBOTS PEERS_ALGORITHMS PEERS_CASES PEERS_CASE_ALGORITHMS PEERS_SECTION \
        PEERS_BATCH PEERS_CFLAGS; do
        value=${!v:-}
        [ "$value" = "${value// /}" ] || value="\"$value\""
        [ -n "${!v:-}" ] && settings="$settings$v=$value "
    done
    echo "Of $(git -C "$src" describe --always --dirty 2>/dev/null || echo "an unknown commit"):" \
        "\`${settings}tests/bench/peers.sh CDYNGEN PINOCCHIO_BENCH OUT.md $batches $rounds\`."
    echo
    cat "$work/table.md"
    if [ -s "$work/fd.md" ]; then
        echo
        echo "aba_derivatives (all three outputs) against aba_fd: dddq/dq alone by forward differences in the"
        echo "tangent space, nv + 1 calls of the generated ABA (the dq, dv and dtau forward-difference"
        echo "Jacobian takes 3 nv + 1 calls); \"÷\" is aba_fd's time over the other's."
        echo
        echo "| robot | nv | gcc aba_derivatives µs | gcc aba_fd µs | gcc aba_fd ÷ aba_derivatives | clang aba_derivatives µs | clang aba_fd µs | clang aba_fd ÷ aba_derivatives |"
        echo "|---|---:|---:|---:|---:|---:|---:|---:|"
        cat "$work/fd.md"
    fi
    if [ -s "$work/batch.md" ]; then
        echo
        echo "The batch forms (--batch $batch; W states a call in vector lanes, W as compiled) per state"
        echo "against the single-state form built by the same compiler and against Pinocchio (one state"
        echo "a call, single thread): \"batch µs\" is a call's time over W, each side's time the smallest"
        echo "of its rounds' medians; \"÷\" is how many times faster the batch form is per state: the"
        echo "single form's, or Pinocchio's, µs over the batch form's."
        echo
        echo "| robot | algorithm | W | gcc single µs | gcc batch µs | clang single µs | clang batch µs | Pinocchio µs | gcc single ÷ batch | clang single ÷ batch | gcc Pinocchio ÷ batch | clang Pinocchio ÷ batch |"
        echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        cat "$work/batch.md"
    fi
} > "$work/out.md"
if [ -f "$out" ] && grep -qxF "<!-- $section:begin -->" "$out"; then
    sh "$src/tests/bench/doc_section.sh" "$section" "$out" "$work/out.md"
else
    cp "$work/out.md" "$out"
    echo "peers.sh: wrote $out" >&2
fi
