#!/bin/sh
# run_target.sh — one robot on one emulated core: cross-compile its generated folder as a
# firmware project would (the folder's files, our flags, no -D), check what the image
# references and its stack, run it under QEMU and compare every result on the host.
#   run_target.sh CORE SRC_DIR NAME WORK FW_HOST CC QEMU STACK_BUDGET
# CORE is m4f (float: the folder must be generated with --scalar float) or m7 (double).
# Exits 0, 1 on a failure, 77 (skip) without the cross compiler or QEMU.
set -u
core=$1 src=$2 name=$3 work=$4 fw_host=$5 cc=$6 qemu=$7 budget=$8
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v "$cc" > /dev/null || ! command -v "$qemu" > /dev/null; then
    echo "SKIP: $cc or $qemu not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)"
    exit 77
fi
case $core in
m4f) cpu="-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
     machine=mps2-an386 scalar=float
     math="sinf cosf sqrtf" extra="-Wdouble-promotion" ;;
m7)  cpu="-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard"
     machine=mps2-an500 scalar=double
     math="sin cos sqrt" extra="" ;;
*) echo "unknown core $core"; exit 2 ;;
esac
flags="$cpu -Os -std=c99 -Wall -Wextra -Wpedantic -Werror $extra -ffunction-sections -fdata-sections"
upper=$(echo "$name" | tr a-z A-Z)
rm -rf "$work" && mkdir -p "$work/robot" "$work/harness" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# The robot's folder, every .c in it, with -fstack-usage and the call graph for the check.
for f in "$src"/*.c; do
    o="$work/robot/$(basename "$f" .c).o"
    "$cc" $flags -fstack-usage -fcallgraph-info=su -I"$src" -c "$f" -o "$o" || fail "compiling $f"
done
"$fw_host" states $scalar "$work/harness/fw_states.h" || fail "writing the states"
sed -e "s/@NAME@/$name/g" -e "s/@NAME_UPPER@/$upper/g" "$here/harness.c.in" > "$work/harness/harness.c"
for f in "$work/harness/harness.c" "$here/startup.c" "$here/semihost.c"; do
    "$cc" $flags -I"$src" -I"$work/harness" -I"$here" -c "$f" \
        -o "$work/harness/$(basename "$f" .c).o" || fail "compiling $f"
done
"$cc" $cpu -nostdlib -T "$here/link.ld" -Wl,--gc-sections -o "$work/image.elf" \
    "$work/harness/"*.o "$work/robot/"*.o -Wl,--start-group -lc -lm -lgcc -Wl,--end-group \
    || fail "linking"
nm=$(echo "$cc" | sed 's/gcc$/nm/')
size=$(echo "$cc" | sed 's/gcc$/size/')

"$here/check_symbols.sh" $scalar "$nm" "$work/image.elf" "$work/robot/"*.o || fail "symbol check"

awk -v BUDGET="$budget" -f "$here/stack_check.awk" "$work/robot/"*.ci > "$work/stack.txt" \
    || { cat "$work/stack.txt"; fail "stack check"; }
tail -1 "$work/stack.txt"
"$size" "$work/image.elf" | tail -1

# -icount: virtual time advances by 2^6 ns per instruction, so SysTick counts instructions
# (the harness calibrates the ratio); the semihosting output goes to a file.
timeout 600 "$qemu" -M $machine -nographic -monitor none -serial none \
    -chardev file,id=out,path="$work/output.txt" \
    -semihosting-config enable=on,target=native,chardev=out -icount shift=6 \
    -kernel "$work/image.elf"
rc=$?
[ $rc -eq 0 ] || { tail -3 "$work/output.txt"; fail "$qemu exited $rc"; }
"$fw_host" compare $scalar "$work/output.txt" "$work/summary.txt" || fail "results differ"
