#!/bin/sh
# callgrind.sh BENCH [CALLS [ROBOT...]] — instructions per call of every algorithm, generated
# and generic, from valgrind's callgrind: exact and repeatable on a shared machine, where
# times drift by 20%. BENCH is the built benchmark (BUILD/tests/bench); CALLS (default 200)
# calls are collected inside bench_measured_calls only (the set-up is not counted); the
# count includes the benchmark loop's few instructions per call, the same on both sides.
# Valgrind 3.19 cannot run AVX-512 code: on such a machine build the benchmark for it with
#   cmake -S . -B build-cg -DCDYN_BENCH_MARCH=x86-64-v3 && cmake --build build-cg --target bench
set -eu
if [ $# -lt 1 ]; then
    echo "usage: callgrind.sh BENCH [CALLS [ROBOT...]]" >&2
    exit 2
fi
bench=$1
calls=${2:-200}
[ $# -ge 2 ] && shift 2 || shift 1
robots=${*:-$("$bench" --list)}
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT

# instructions per call of one robot, algorithm and side
count() {
    if ! valgrind --tool=callgrind --toggle-collect=bench_measured_calls \
        --callgrind-out-file="$out" "$bench" --callgrind-one "$1" "$2" "$3" --calls "$calls" \
        >"$out.log" 2>&1; then
        echo "callgrind.sh: valgrind failed on $1 $2 $3:" >&2
        tail -n 20 "$out.log" >&2
        exit 1
    fi
    awk -v n="$calls" '/^totals:/ { printf "%.0f", $2 / n }' "$out"
}

printf "%-14s %-9s %14s %14s %8s\n" robot algorithm "generated Ir" "generic Ir" ratio
for robot in $robots; do
    for algo in fk jacobian rnea nle gravity crba ltl minv aba; do
        gen=$(count "$robot" "$algo" generated)
        ref=$(count "$robot" "$algo" generic)
        printf "%-14s %-9s %14s %14s %7.2fx\n" "$robot" "$algo" "$gen" "$ref" \
            "$(echo "$ref $gen" | awk '{ print $1 / $2 }')"
    done
done
