#!/usr/bin/env bash
# contact_peers.sh — the frictional contact step's problem and ADMM (20 iterations), generated
# code built by gcc and by clang, the generic runtime, and Pinocchio 3.7's peer, timed side by
# side in one run. Not a test: docs/benchmarks.md's "Contact step" table.
#
#   tests/bench/contact_peers.sh CDYNGEN PINOCCHIO_ADMM OUT.md [BATCHES] [ROUNDS]
#
# OUT.md is written whole; or, when it holds the lines <!-- contact-peers:begin --> and
# <!-- contact-peers:end --> (docs/benchmarks.md), only what is between them (doc_section.sh).
# PINOCCHIO_ADMM is ../shared/peers/pinocchio's pinocchio_admm (its build.sh builds it): per
# random state computeDelassusMatrix over 3D LOCAL point contacts, v_f = v + dt aba, g = J v_f
# with the normal rows shifted by -0.05 m/s (every contact active), ADMMContactSolverTpl on
# Coulomb cones (mu 0.8), exactly 20 iterations. Ours: `cdyngen bench`'s contact_problem row
# (NAME_contact_problem: kinematics, M's factor, J, G = J M^-1 J^T, v_f, the assembly over
# the active contacts) plus its admm row (NAME_contact_solve, ADMM, 20 iterations, from
# lambda = 0, the spectral rho with its 20 power iterations as Pinocchio's), every contact
# active (phi = 0 given per contact); the contact_step row (both, then v+ and q+) is shown
# too. Robots: the sample quadruped and humanoid (soles as points) and, from CDYN_SHARED
# (default ../shared beside the source tree; skipped when absent), solo12's four feet and
# talos with the four corners of each sole: talos_full_v2.urdf has no corner frames, so a
# copy of it in a temporary folder gets eight fixed, massless corner links under
# left_sole_link and right_sole_link (x +-0.1 m, y +-0.065 m); both sides read that copy.
# Every program is pinned to one core (taskset -c 1); per robot, ROUNDS rounds (default 2)
# each run gcc, clang and Pinocchio one after the other; each side's time is the smallest
# of its rounds' medians.
#   gcc:   -std=gnu99 -O3 -march=native (as the emitted CMakeLists.txt builds it)
#   clang: -std=c99 -O3 -march=native
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,29p' "$0" >&2
    exit 2
fi
cdyngen=$1 pinocchio=$2 out=$3 batches=${4:-20} rounds=${5:-2}
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${CDYN_SHARED:-$src/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pin="taskset -c 1"
command -v taskset >/dev/null || pin=""
gcc_flags="-O3 -march=native"
clang_flags="-std=c99 -O3 -march=native"

# name|urdf|contact frames
robots=(
    "quadruped12|$src/robots/quadruped12.urdf|lf_foot,rf_foot,lh_foot,rh_foot"
    "humanoid|$src/robots/humanoid.urdf|left_sole,right_sole"
)
if [ -d "$shared/reference/urdf" ]; then
    r=$shared/reference/urdf
    corners=""
    {
        sed '/<\/robot>/d' "$r/talos_full_v2.urdf"
        for side in left right; do
            k=0
            for x in 0.1 -0.1; do
                for y in 0.065 -0.065; do
                    k=$((k + 1))
                    corners="$corners${corners:+,}${side}_sole_corner_$k"
                    printf '  <link name="%s_sole_corner_%d"/>\n' "$side" "$k"
                    printf '  <joint name="%s_sole_corner_%d_joint" type="fixed">\n' "$side" "$k"
                    printf '    <parent link="%s_sole_link"/>\n    <child link="%s_sole_corner_%d"/>\n' \
                        "$side" "$side" "$k"
                    printf '    <origin rpy="0 0 0" xyz="%s %s 0"/>\n  </joint>\n' "$x" "$y"
                done
            done
        done
        echo "</robot>"
    } > "$work/talos_corners.urdf"
    robots+=("solo12|$r/solo12.urdf|FL_FOOT,FR_FOOT,HL_FOOT,HR_FOOT"
             "talos|$work/talos_corners.urdf|$corners")
fi

# bench_round CC CFLAGS: one round of cdyngen bench's contact rows built by CC, appended to
# $work/CC.csv (robot,algorithm,generated_us,...,generic_us,...).
bench_round() {
    # shellcheck disable=SC2086  # the options are words
    $pin "$cdyngen" bench "$urdf" --name "$name" --floating-base $contacts --batches "$batches" \
        --algorithms contact_problem,admm,contact_step --cc "$1" --cflags "$2" \
        --csv "$work/round.csv" >/dev/null
    tail -n +2 "$work/round.csv" >> "$work/$1.csv"
}

{
    echo "| robot | contacts | rows m | Pinocchio µs | gcc µs | Pinocchio ÷ gcc | clang µs | Pinocchio ÷ clang | generic (gcc) µs | gcc step µs |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$work/table.md"
for entry in "${robots[@]}"; do
    IFS='|' read -r name urdf frames <<< "$entry"
    contacts=""
    for f in ${frames//,/ }; do
        contacts="$contacts --contact $f:friction"
    done
    ncontacts=$(echo "$frames" | tr ',' '\n' | wc -l)
    : > "$work/gcc.csv"; : > "$work/clang.csv"; : > "$work/pinocchio.txt"
    for round in $(seq "$rounds"); do
        echo "contact_peers.sh: $name, round $round of $rounds" >&2
        bench_round gcc "$gcc_flags"
        bench_round clang "$clang_flags"
        $pin "$pinocchio" "$urdf" ff "$frames" 20 "$batches" >> "$work/pinocchio.txt"
    done
    grep -q "20 iterations, 2[01] iterations run" "$work/pinocchio.txt" || {
        echo "contact_peers.sh: Pinocchio did not run 20 iterations: $(cat "$work/pinocchio.txt")" >&2
        exit 1
    }
    # pinocchio.txt: "... m = 12: median 41.920 us, min ..."; the csv rows:
    # robot,algorithm,generated_us,min,max,generic_us,min,max,speedup,mul,add,code_bytes,rel_diff
    sed -n 's/.*median \([0-9.]*\) us.*/pinocchio,\1/p' "$work/pinocchio.txt" > "$work/pinocchio.csv"
    awk -F, -v robot="$name" -v nc="$ncontacts" '
        function least(arr, k, v) { if (!(k in arr) || v < arr[k]) arr[k] = v }
        FILENAME ~ /pinocchio/ { least(pin, "t", $2); next }
        FILENAME ~ /gcc/ { least(g, $2, $3); least(gg, $2, $6); if ($13 > diff) diff = $13; next }
        { least(c, $2, $3); if ($13 > diff) diff = $13 }
        END {
            if (diff > 1e-7) { print "contact_peers.sh: generated and generic differ by " diff > "/dev/stderr"; exit 1 }
            gp = g["contact_problem"] + g["admm"]; cp = c["contact_problem"] + c["admm"]
            gen = gg["contact_problem"] + gg["admm"]
            printf "| %s | %d | %d | %.1f | %.2f | %.2f× | %.2f | %.2f× | %.2f | %.2f |\n",
                robot, nc, 3 * nc, pin["t"], gp, pin["t"] / gp, cp, pin["t"] / cp, gen, g["contact_step"]
        }' "$work/pinocchio.csv" "$work/gcc.csv" "$work/clang.csv" >> "$work/table.md"
done
{
    echo "The frictional contact step's problem and ADMM solve, 20 iterations, every contact active:"
    echo "generated (gcc -std=gnu99 and clang -std=c99, -O3 -march=native) and the generic runtime"
    echo "(gcc) against Pinocchio 3.7's peer (computeDelassusMatrix, aba, J v_f, ADMMContactSolverTpl;"
    echo "clang++ -O3 -march=native), one run, $rounds rounds per robot of $batches batches of 1000"
    echo "calls per side, each side's time the smallest of its rounds' medians, pinned to one core."
    echo "Ours is contact_problem + admm (two rows of \`cdyngen bench\`); \"÷\" is how many times"
    echo "faster it is; \"step\" is the whole contact_step (also v+ and q+)."
    echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')."
    echo "$(gcc --version | head -1); $(clang --version | head -1)."
    echo "Of $(git -C "$src" describe --always --dirty 2>/dev/null || echo "an unknown commit"):" \
        "\`tests/bench/contact_peers.sh CDYNGEN PINOCCHIO_ADMM OUT.md $batches $rounds\`."
    echo
    cat "$work/table.md"
} > "$work/out.md"
if [ -f "$out" ] && grep -qxF '<!-- contact-peers:begin -->' "$out"; then
    sh "$src/tests/bench/doc_section.sh" contact-peers "$out" "$work/out.md"
else
    cp "$work/out.md" "$out"
    echo "contact_peers.sh: wrote $out" >&2
fi
