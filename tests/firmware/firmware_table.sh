#!/bin/sh
# firmware_table.sh — docs/firmware.md's firmware table, from what the firmware tests built and
# measured (run `ctest -R firmware_` first), plus an -O2 build of each robot's code:
#   firmware_table.sh SOURCE_DIR FIRMWARE_BUILD_DIR CROSS_GCC > table.md
# (`cmake --build build --target firmware_table` writes build/tests/firmware/table.md;
# tests/bench/doc_section.sh firmware docs/firmware.md TABLE.md puts it in the document).
# Per robot of generated/manifest.txt and per function, M4F (float) and M7 (double): the
# machine code it links (code_size.awk) at -Os and -O2, its worst-case stack at -Os
# (stack_check.awk), its instructions under QEMU and, in float, its largest error against
# the double runtime as a fraction of the bound (fw_host.c).
set -eu
src=$1 fw=$2 cc=$3
here=$(cd "$(dirname "$0")" && pwd)
nm=$(echo "$cc" | sed 's/gcc$/nm/')
size=$(echo "$cc" | sed 's/gcc$/size/')
objdump=$(echo "$cc" | sed 's/gcc$/objdump/')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m4f="-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
m7="-mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard"
common="-std=c99 -ffunction-sections -fdata-sections"

# sizes NAME OBJ: "function bytes" lines
sizes() {
    "$nm" -S --defined-only "$2" > "$tmp/nm.txt"
    "$objdump" -r "$2" > "$tmp/rel.txt"
    awk -v PREFIX="$1_" -f "$here/code_size.awk" "$tmp/nm.txt" "$tmp/rel.txt"
}
text() { "$size" "$1" | awk 'NR == 2 {print $1}'; }
kb() { awk -v b="$1" 'BEGIN { if (b >= 10240) printf "%.0f KB", b / 1024; else printf "%.1f KB", b / 1024 }'; }

# measure NAME CORE CPU SRC: $tmp/NAME.CORE: "function os o2 stack insns err ratio" lines;
# $tmp/NAME.CORE.totals: "os o2 data_bytes"
measure() {
    name=$1 core=$2 cpu=$3 gen=$4 run="$fw/$1/$2"
    sizes "$name" "$run/robot/$name.o" | sort > "$tmp/os"
    "$cc" $cpu -O2 $common -I"$gen" -c "$gen/$name.c" -o "$tmp/$name.o"
    sizes "$name" "$tmp/$name.o" | sort > "$tmp/o2"
    awk -v P="$name" '$1 == "stack" && index($2, P "_") == 1 {print $2, $3}' "$run/stack.txt" | sort > "$tmp/stack"
    # (jacobian_world is frame_jacobian's other reference frame: one row)
    awk -v P="$name" '$1 != "data_bytes" && $1 != "jacobian_world" {f = $1 == "jacobian" ? "frame_jacobian" : $1; print P "_" f, $4, $2, $3}' \
        "$run/summary.txt" | sort > "$tmp/summary"
    # -a2: the functions run but not in NAME.o (integrate_derivatives and
    # difference_derivatives wrap the runtime's, in NAME_model.c) get a row without code
    join -a1 -e - -o 0,1.2,2.2 "$tmp/os" "$tmp/o2" \
        | join -a1 -a2 -e - -o 0,1.2,1.3,2.2,2.3,2.4 - "$tmp/summary" \
        | join -a1 -e - -o 0,1.2,1.3,2.2,1.4,1.5,1.6 - "$tmp/stack" > "$tmp/$name.$core"
    echo "$(text "$run/robot/$name.o") $(text "$tmp/$name.o") $(awk '$1 == "data_bytes" {print $2}' "$run/summary.txt")" \
        > "$tmp/$name.$core.totals"
}

# deepest FILE: the largest worst-case stack of the robot's functions (the runtime's are
# not linked by a firmware that calls only generated functions)
deepest() { awk '$4 != "-" && $4 + 0 > m {m = $4 + 0} END {print m + 0}' "$1"; }

echo "| robot | code, all functions: M4F float -Os / -O2 | M7 double -Os / -O2 | \`sizeof(R_data)\` float / double | deepest stack float / double |"
echo "| --- | --- | --- | --- | --- |"
robots=$(grep -v '^#' "$src/generated/manifest.txt" | awk 'NF {print $1}')
for r in $robots; do
    measure "$r" m4f "$m4f" "$fw/$r/float"
    measure "$r" m7 "$m7" "$src/generated/$r"
    set -- $(cat "$tmp/$r.m4f.totals") $(cat "$tmp/$r.m7.totals")
    sf=$(deepest "$tmp/$r.m4f")
    sd=$(deepest "$tmp/$r.m7")
    echo "| $r | $(kb $1) / $(kb $2) | $(kb $4) / $(kb $5) | $3 / $6 B | $sf / $sd B |"
done
for r in $robots; do
    echo
    echo "**$r** (code in bytes, stack in bytes at -Os, instructions per call under QEMU, float error as max |y - x| / max |x| over the states, and as a fraction of its bound):"
    echo
    echo "| function | M4F .text -Os | -O2 | stack | instructions | float error | / bound | M7 .text -Os | -O2 | stack | instructions |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    join -a1 -e - -o 0,1.2,1.3,1.4,1.5,1.6,1.7,2.2,2.3,2.4,2.5 "$tmp/$r.m4f" "$tmp/$r.m7" \
        | awk '{printf "| `%s` |", $1; for (i = 2; i <= NF; i++) printf " %s |", $i; printf "\n"}'
done

# Which part fits which robot: its code (-O2 or -Os) in flash, R_data and the deepest stack
# in RAM; failing that, whether ABA alone fits.
echo
echo "| part (example) | core, scalar | flash / RAM |$(for r in $robots; do printf ' %s |' "$r"; done)"
echo "| --- | --- | --- |$(for r in $robots; do printf ' --- |'; done)"
fit() {   # fit PART CORE FLASH_KB RAM_KB
    printf '| %s | %s | %s KB / %s KB |' "$1" "$([ $2 = m4f ] && echo 'M4F, float' || echo 'M7, double')" "$3" "$4"
    for r in $robots; do
        set -- "$1" "$2" "$3" "$4" $(cat "$tmp/$r.$2.totals")
        stack=$(deepest "$tmp/$r.$2")
        aba=$(awk -v f="${r}_aba" '$1 == f {print $2}' "$tmp/$r.$2")
        printf ' %s |' "$(awk -v F=$(($3 * 1024)) -v R=$(($4 * 1024)) -v os=$5 -v o2=$6 \
            -v ram=$(($7 + stack)) -v aba="$aba" 'BEGIN {
                if (ram > R) print "no (RAM)"
                else if (o2 <= F) print "all, -O2"
                else if (os <= F) print "all at -Os"
                else if (aba <= F) print "ABA only"
                else print "no" }')"
    done
    echo
}
fit "STM32G431" m4f 128 32
fit "STM32G474" m4f 512 128
fit "STM32F405" m4f 1024 192
fit "STM32F746" m7 1024 320
fit "STM32H743" m7 2048 1024

# The contact step (firmware_quadruped12_contact_m4f, run_contact.sh), where it has run.
c="$fw/contact/quadruped12/m4f"
if [ -f "$c/contact.txt" ]; then
    echo
    echo "**quadruped12 with frictional feet, contact step** (M4F float, \`--contact FOOT:friction\` on the four feet; ADMM at a fixed 20 iterations; code: what a firmware calling only that function links of the robot's objects, the runtime's cone solver and assembly included, at -Os; instructions per call over the $(awk '$1 == "step" && $2 != 0' "$c/output.txt" | wc -l) steps with a foot in the problem; \`sizeof(R_data)\` $(awk '$1 == "data_bytes" {print $2}' "$c/summary.txt") B):"
    echo
    echo "| function | M4F .text -Os | stack | instructions, mean | largest |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    awk '{printf "| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}' "$c/contact.txt"
fi
