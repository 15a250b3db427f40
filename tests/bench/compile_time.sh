#!/usr/bin/env bash
# compile_time.sh — how long the compilers take on the generated code of big robots: the CPU
# seconds (user + sys) of one `CC FLAGS -c NAME.c` per robot, compiler and flags, and the
# file's size. Not a test: docs/benchmarks.md's compile-time table.
#
#   tests/bench/compile_time.sh CDYNGEN OUT.md
#
# OUT.md is written whole; or, when it already holds the lines <!-- compile:begin --> and
# <!-- compile:end --> (docs/benchmarks.md), only what is between them (doc_section.sh).
# The robots: the sample humanoid with two five-fingered hands (80 DoF, humanoid_hands.py)
# and talos (../shared/reference, CDYN_SHARED; skipped when absent); with COMPILE_SETS=1
# also each with a constraint set, which makes it twice as big or more (the humanoid with
# both soles 6d and five fingertips 3d, seed 001's F6x2 T3x5; talos with both soles 6d).
# Flags: -O2, and -O3 -march=native as the emitted CMakeLists.txt builds it; gcc and clang.
# One compile at a time: the two robots take about 10 minutes, with their sets an hour.
set -Eeuo pipefail
if [ $# -ne 2 ]; then
    sed -n '2,15p' "$0" >&2
    exit 2
fi
cdyngen=$1 out=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${CDYN_SHARED:-$src/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'echo "compile_time.sh: line $LINENO failed (exit $?)" >&2' ERR

python3 "$src/tests/bench/humanoid_hands.py" "$src/robots/humanoid.urdf" "$work/hh.urdf"
tips="--contact left_sole:6d --contact right_sole:6d"
for f in 0 1 2 3 4; do tips="$tips --contact left_f${f}_tip:3d"; done
# name|urdf|options|what
sets=${COMPILE_SETS:-0}
robots=("hh|$work/hh.urdf|--floating-base|humanoid with hands, 80 DoF")
[ "$sets" = 1 ] && robots+=("hh|$work/hh.urdf|--floating-base $tips|humanoid with hands, F6x2 T3x5")
talos=$shared/reference/urdf/talos_full_v2.urdf
if [ -f "$talos" ]; then
    robots+=("talos|$talos|--floating-base|talos, 50 DoF")
    [ "$sets" = 1 ] && robots+=("talos|$talos|--floating-base --contact left_sole_link:6d --contact right_sole_link:6d|talos, F6x2")
fi

# CPU seconds of one command (user + sys, its children's included), to 0.1 s.
cpu_seconds() {
    local TIMEFORMAT='%U %S' times
    if ! times=$({ time "$@" >/dev/null 2>"$work/cc.err"; } 2>&1); then
        cat "$work/cc.err" >&2
        return 1
    fi
    awk -v t="$times" 'BEGIN { split(t, x, " "); printf "%.1f", x[1] + x[2] }'
}

table=$work/table.md
{
    echo "CPU seconds (user + sys) of \`CC FLAGS -c NAME.c\`, one compile at a time, of"
    echo "$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?'): \`$([ "$sets" = 1 ] && echo "COMPILE_SETS=1 ")tests/bench/compile_time.sh CDYNGEN OUT.md\`."
    echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1)."
    echo "$(gcc --version | head -1); $(clang --version | head -1)."
    echo
    echo "| robot | NAME.c | gcc -O2 | gcc -O3 -march=native | clang -O2 | clang -O3 -march=native |"
    echo "|---|---:|---:|---:|---:|---:|"
} >"$table"
for entry in "${robots[@]}"; do
    IFS='|' read -r name urdf options what <<<"$entry"
    dir=$work/$name
    rm -rf "$dir"
    # shellcheck disable=SC2086 # options are words
    "$cdyngen" "$urdf" --name "$name" $options -o "$dir" >/dev/null
    size=$(awk -v b="$(wc -c <"$dir/$name.c")" 'BEGIN { printf "%.1f MB", b / 1e6 }')
    row="| $what | $size"
    for cc in gcc clang; do
        for flags in "-O2" "-O3 -march=native"; do
            echo "compile_time.sh: $what, $cc $flags" >&2
            # shellcheck disable=SC2086 # flags are words
            row="$row | $(cd "$dir" && cpu_seconds $cc -std=gnu99 $flags -c "$name.c" -o "$work/$name.o")"
        done
    done
    echo "$row |" >>"$table"
done
if grep -qxF '<!-- compile:begin -->' "$out" 2>/dev/null; then
    "$src/tests/bench/doc_section.sh" compile "$out" "$table"
else
    cp "$table" "$out"
fi
echo "compile_time.sh: wrote $out" >&2
