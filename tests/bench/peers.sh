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
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,20p' "$0" >&2
    exit 2
fi
cdyngen=$1 pinocchio=$2 out=$3 batches=${4:-20} rounds=${5:-3}
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${CDYN_SHARED:-$src/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin="taskset -c 1"
command -v taskset >/dev/null || pin=""

# name|urdf|cdyngen options|Pinocchio root (ff|fixed)|Jacobian frame
robots=(
    "arm7|$src/robots/arm7.urdf||fixed|tool"
    "quadruped12|$src/robots/quadruped12.urdf|--floating-base|ff|lf_foot"
    "humanoid|$src/robots/humanoid.urdf|--floating-base|ff|left_sole"
)
if [ -d "$shared/reference/urdf" ]; then
    r=$shared/reference/urdf
    robots+=("iiwa|$r/iiwa.urdf||fixed|lbr_iiwa_link_7"
             "solo12|$r/solo12.urdf|--floating-base|ff|FL_FOOT"
             "talos|$r/talos_full_v2.urdf|--floating-base|ff|left_sole_link")
fi

# Pinocchio's markdown rows -> "algorithm,median_us" in cdyngen's algorithm names.
pinocchio_csv() {
    awk -F'|' '/^\| [^-]/ && $4 !~ /algorithm/ {
        gsub(/^ +| +$/, "", $4); gsub(/ /, "", $5)
        n = $4
        if (n ~ /^forwardKinematics/) n = "fk"; else if (n ~ /^computeFrameJacobian/) n = "jacobian"
        else if (n == "nonLinearEffects") n = "nle"; else if (n == "computeGeneralizedGravity") n = "gravity"
        else if (n ~ /^crba/) { print "crba_tree," $5; n = "crba" } else if (n ~ /^cholesky/) n = "ltl"
        else if (n == "computeMinverse") n = "minv"; else if (n ~ /^aba/) n = "aba"
        print n "," $5 }' "$1"
}

{
    echo "| robot | algorithm | mul/add | gcc µs | gcc code | clang µs | clang code | generic gcc µs | generic clang µs | Pinocchio µs | gcc ÷ Pinocchio | clang ÷ Pinocchio | gcc ÷ generic | clang ÷ generic |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$work/table.md"
# bench_round CC CFLAGS: one round of the generated code and the generic runtime built by CC,
# its rows appended to $work/CC.csv (for the robot of the loop below).
bench_round() {
    # shellcheck disable=SC2086  # the options are words
    $pin "$cdyngen" bench "$urdf" --name "$name" $options --frame "$frame" --batches "$batches" \
        --cc "$1" --cflags "$2" --csv "$work/round.csv" >/dev/null
    tail -n +2 "$work/round.csv" >> "$work/$1.csv"
}

for entry in "${robots[@]}"; do
    IFS='|' read -r name urdf options root frame <<< "$entry"
    : > "$work/gcc.csv"; : > "$work/clang.csv"; : > "$work/pinocchio.csv"
    for round in $(seq "$rounds"); do
        echo "peers.sh: $name, round $round of $rounds" >&2
        bench_round gcc "-O3 -march=native"
        bench_round clang "-std=c99 -O3 -march=native"
        $pin "$pinocchio" --robot "$name:$urdf:$root:$frame" --batches "$batches" \
            > "$work/pinocchio.md" 2>/dev/null
        pinocchio_csv "$work/pinocchio.md" >> "$work/pinocchio.csv"
    done
    # csv fields (no header; one row per round and algorithm):
    # robot,algorithm,generated_us,min,max,generic_us,min,max,speedup,mul,add,code_bytes,rel_diff
    awk -F, -v robot="$name" '
        function least(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
        FILENAME ~ /pinocchio/ { least(pin, $1, $2); next }
        FILENAME ~ /gcc/ {
            if (!($2 in g)) order[++n] = $2
            least(g, $2, $3); least(gg, $2, $6); gb[$2] = $12; ops[$2] = $10 "/" $11; next
        }
        { least(c, $2, $3); least(cg, $2, $6); cb[$2] = $12 }
        function kb(b) { return b == "" ? "" : b < 1024 ? b " B" : sprintf("%.1f KB", b / 1024) }
        function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.2f×", b / a) : "" }
        END {
            for (i = 1; i <= n; i++) {
                a = order[i]
                printf "| %s | %s | %s | %.4g | %s | %.4g | %s | %.4g | %.4g | %s | %s | %s | %s | %s |\n",
                    robot, a, ops[a], g[a], kb(gb[a]), c[a], kb(cb[a]), gg[a], cg[a], pin[a],
                    ratio(g[a], pin[a]), ratio(c[a], pin[a]), ratio(g[a], gg[a]), ratio(c[a], cg[a])
            }
        }' "$work/pinocchio.csv" "$work/gcc.csv" "$work/clang.csv" >> "$work/table.md"
done
{
    echo "Generated (gcc -std=gnu99 and clang -std=c99, -O3 -march=native) vs the generic runtime"
    echo "built by the same compiler vs Pinocchio 3.7 (clang++ -O3 -march=native), one run,"
    echo "$rounds rounds per robot of $batches batches of 1000 calls per side, each side's time the"
    echo "smallest of its rounds' medians, pinned to one core; \"÷\" is how many times faster the"
    echo "generated code is. CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
    echo "$(gcc --version | head -1); $(clang --version | head -1)."
    echo "Of $(git -C "$src" describe --always --dirty 2>/dev/null || echo "an unknown commit"):" \
        "\`tests/bench/peers.sh CDYNGEN PINOCCHIO_BENCH OUT.md $batches $rounds\`."
    echo
    cat "$work/table.md"
} > "$work/out.md"
if [ -f "$out" ] && grep -qxF '<!-- peers:begin -->' "$out"; then
    sh "$src/tests/bench/doc_section.sh" peers "$out" "$work/out.md"
else
    cp "$work/out.md" "$out"
    echo "peers.sh: wrote $out" >&2
fi
