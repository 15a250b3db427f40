#!/bin/sh
# checks_fail.sh — the firmware checks can fail: bad_firmware.c, built for the Cortex-M4F
# in float, must be refused by check_symbols.sh (heap, stdio, double helpers) and by
# stack_check.awk (recursion, a variable-length array, a path over the budget).
#   checks_fail.sh CC WORK        Exits 0, 1, or 77 without the cross compiler.
set -u
cc=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v "$cc" > /dev/null || { echo "SKIP: $cc not found"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
cpu="-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
for f in bad_firmware startup semihost; do
    "$cc" $cpu -Os -std=c99 -ffunction-sections -fcallgraph-info=su -I"$here" \
        -c "$here/$f.c" -o "$work/$f.o" || exit 1
done
# libnosys's _sbrk wants the heap's start, `end`.
"$cc" $cpu -nostdlib -T "$here/link.ld" -Wl,--gc-sections,--defsym=end=__bss_end -o "$work/bad.elf" "$work/"*.o \
    -Wl,--start-group -lc -lm -lgcc -lnosys -Wl,--end-group || exit 1
nm=$(echo "$cc" | sed 's/gcc$/nm/')
expect() {   # expect WHAT FILE PATTERN...: every pattern must be in FILE
    what=$1 file=$2
    shift 2
    for p in "$@"; do
        grep -q -- "$p" "$file" || { cat "$file"; echo "FAIL: $what did not report $p"; exit 1; }
    done
}
if "$here/check_symbols.sh" float "$nm" "$work/bad.elf" "$work/bad_firmware.o" > "$work/symbols.txt"; then
    cat "$work/symbols.txt"; echo "FAIL: check_symbols.sh passed bad_firmware"; exit 1
fi
expect check_symbols.sh "$work/symbols.txt" "references .*malloc" "references .*printf" \
    "image links .*__aeabi_d" "image links .*malloc"
if awk -v BUDGET=100000 -f "$here/stack_check.awk" "$work/bad_firmware.ci" > "$work/stack.txt"; then
    cat "$work/stack.txt"; echo "FAIL: stack_check.awk passed bad_firmware"; exit 1
fi
expect stack_check.awk "$work/stack.txt" "recursion through .*depth" "sum_vla has a dynamic"
if awk -v BUDGET=16 -f "$here/stack_check.awk" "$work/bad_firmware.ci" > "$work/budget.txt"; then
    cat "$work/budget.txt"; echo "FAIL: stack_check.awk passed a path over the budget"; exit 1
fi
expect stack_check.awk "$work/budget.txt" "over the budget of 16"
cat "$work/symbols.txt" "$work/stack.txt" "$work/budget.txt" | grep -v "^stack [a-z_]"
echo "every check refused bad_firmware"
