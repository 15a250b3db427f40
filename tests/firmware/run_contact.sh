#!/bin/sh
# run_contact.sh — the contact step on the Cortex-M4F in float: cross-compiles a folder
# generated with --scalar float and frictional contacts (as run_target.sh does), runs
# fw_contact.h's scenario under QEMU (contact_harness.c.in) and checks it on the host
# against the same scenario in double (fw_contact_host), then the robot's symbols and stack.
#   run_contact.sh SRC_DIR NAME WORK FW_CONTACT_HOST CC QEMU STACK_BUDGET
# Writes WORK/contact.txt: "function code stack instructions largest" for NAME_contact_step,
# NAME_contact_problem and NAME_contact_solve (code: what a firmware calling only that
# function links of the robot's objects, runtime included; library code excluded).
# Exits 0, 1 on a failure, 77 (skip) without the cross compiler or QEMU.
set -u
src=$1 name=$2 work=$3 host=$4 cc=$5 qemu=$6 budget=$7
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v "$cc" > /dev/null || ! command -v "$qemu" > /dev/null; then
    echo "SKIP: $cc or $qemu not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)"
    exit 77
fi
cpu="-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
flags="$cpu -Os -std=c99 -Wall -Wextra -Wpedantic -Werror -Wdouble-promotion -ffunction-sections -fdata-sections"
upper=$(echo "$name" | tr a-z A-Z)
rm -rf "$work" && mkdir -p "$work/robot" "$work/harness" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
nm=$(echo "$cc" | sed 's/gcc$/nm/')
size=$(echo "$cc" | sed 's/gcc$/size/')

# The robot's folder, two files at a time (the machine's two cores).
ls "$src"/*.c | xargs -P 2 -I {} sh -c '"$1" $2 -fstack-usage -fcallgraph-info=su -I"$3" -c "$4" -o "$5/robot/$(basename "$4" .c).o" || { echo "FAIL: compiling $4"; exit 255; }' \
    sh "$cc" "$flags" "$src" {} "$work" || exit 1
sed -e "s/@NAME@/$name/g" -e "s/@NAME_UPPER@/$upper/g" "$here/contact_harness.c.in" > "$work/harness/harness.c"
for f in "$work/harness/harness.c" "$here/startup.c" "$here/semihost.c"; do
    "$cc" $flags -I"$src" -I"$here" -c "$f" -o "$work/harness/$(basename "$f" .c).o" || fail "compiling $f"
done
libs="-Wl,--start-group -lc -lm -lgcc -Wl,--end-group"
"$cc" $cpu -nostdlib -T "$here/link.ld" -Wl,--gc-sections -o "$work/image.elf" \
    "$work/harness/"*.o "$work/robot/"*.o $libs || fail "linking"
"$size" "$work/image.elf" | tail -1

# -icount: SysTick counts instructions (run_target.sh); the semihosting output to a file.
timeout 300 "$qemu" -M mps2-an386 -nographic -monitor none -serial none \
    -chardev file,id=out,path="$work/output.txt" \
    -semihosting-config enable=on,target=native,chardev=out -icount shift=6 \
    -kernel "$work/image.elf"
rc=$?
[ $rc -eq 0 ] || { tail -3 "$work/output.txt"; fail "$qemu exited $rc"; }
status=0
"$host" compare "$work/output.txt" "$work/summary.txt" || { echo "FAIL: results"; status=1; }

awk -v BUDGET="$budget" -f "$here/stack_check.awk" "$work/robot/"*.ci > "$work/stack.txt" \
    || { grep -v '^stack [a-z]' "$work/stack.txt"; echo "FAIL: stack check"; status=1; }
tail -1 "$work/stack.txt"

# Code per function: an image of the robot's objects whose only root is the function
# (--gc-sections), counted over the robot's own text symbols (library code excluded).
"$nm" --defined-only "$work/robot/"*.o | awk '$2 ~ /^[tT]$/ {print $3}' | sort -u > "$work/own.txt"
: > "$work/contact.txt"
for f in contact_step contact_problem contact_solve; do
    fn=${name}_$f
    "$cc" $cpu -nostdlib -T "$here/link.ld" -Wl,--gc-sections -Wl,-e,"$fn" \
        -o "$work/$f.elf" "$work/robot/"*.o $libs || fail "linking $fn alone"
    code=$("$nm" -S --defined-only "$work/$f.elf" | awk 'NR == FNR {own[$1] = 1; next}
        NF == 4 && $3 ~ /^[tT]$/ && ($4 in own) {
            for (i = 1; i <= length($2); i++) x = x * 16 + index("0123456789abcdef", substr(tolower($2), i, 1)) - 1
            b += x; x = 0 } END {print b + 0}' "$work/own.txt" -)
    stack=$(awk -v F="$fn" '$1 == "stack" && $2 == F {print $3}' "$work/stack.txt")
    insns=$(awk -v F="$f" '$1 == F {print $2, $3}' "$work/summary.txt")
    echo "$fn $code ${stack:--} ${insns:-- -}" >> "$work/contact.txt"
done
cat "$work/contact.txt"

# Last, so that a failure here leaves the figures above: what the robot's objects and the
# image reference (sinf, cosf, sqrtf, memset, memcpy; no heap, stdio or double arithmetic).
"$here/check_symbols.sh" float "$nm" "$work/image.elf" "$work/robot/"*.o || { echo "FAIL: symbol check"; status=1; }
exit $status
