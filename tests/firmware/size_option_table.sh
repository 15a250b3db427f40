#!/bin/sh
# size_option_table.sh — the figures of docs/firmware.md's `--size` tables: the humanoid of
# generated/manifest.txt (floating base, both soles in 6d contact; and without the contacts)
# generated in full (straight-line) and with --size, measured side by side:
#   - code: the bytes of the robot's own objects (NAME.c, and for --size NAME_model.c and the
#     runtime's cdyn_*.c) that a program taking the address of every function of NAME.h links
#     (-ffunction-sections, --gc-sections; read from the linker map), on the host at -O2
#     (double) and on the Cortex-M4F at -Os (float, newlib's nosys), and sizeof(NAME_data);
#   - on the M4F under QEMU: instructions per call, worst-case stack (run_target.sh, which
#     also checks symbols and every result against the double runtime), and what the carving
#     of the runtime's workspace costs per call (the harness again, timing it alone).
#   size_option_table.sh SOURCE_DIR CDYNGEN FW_HOST WORK HOST_CC CROSS_GCC QEMU > table.md
# FW_HOST is the build's fw_host_humanoid (cmake --build build --target size_option_table
# runs it). Times on the host are `cdyngen bench`'s (docs/firmware.md).
set -eu
src=$1 cdyngen=$2 fw_host=$3 work=$4 hostcc=$5 cc=$6 qemu=$7
here=$(cd "$(dirname "$0")" && pwd)
opts=$(awk '$1 == "humanoid" {for (i = 3; i <= NF; i++) printf "%s ", $i}' "$src/generated/manifest.txt")
nofeet=$(echo "$opts" | sed 's/--contact [^ ]*//g')
m4f="-mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
rm -rf "$work" && mkdir -p "$work"

# robot_bytes MAP OBJDIR: "code rodata data" of the input sections from OBJDIR's objects
# that the link kept (the map's part after "Linker script and memory map").
robot_bytes() {
    awk -v DIR="$2/" '
        /^Linker script and memory map/ { on = 1; next }
        !on { next }
        NF == 1 && $1 ~ /^\./ { pending = $1; next }
        NF == 3 && $1 ~ /^0x/ && pending != "" { add(pending, $2, $3) }
        NF == 4 && $1 ~ /^\./ && $2 ~ /^0x/ { add($1, $3, $4) }
        { pending = "" }
        function add(sec, size, file,    n) {
            if (index(file, DIR) != 1)
                return
            n = hex(size)
            if (sec ~ /^\.text/) code += n
            else if (sec ~ /^\.(rodata|data\.rel\.ro)/) ro += n     # PIE: const tables of pointers
            else if (sec ~ /^\.(data|bss)/) rw += n
        }
        function hex(h,    i, v) {
            v = 0
            for (i = 3; i <= length(h); i++)
                v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
            return v
        }
        END { printf "%d %d %d\n", code, ro, rw }' "$1"
}

# link FORM TAG OPTIONS LABEL SCALAR CC "CFLAGS" "LDFLAGS": generate, compile and link a
# program that takes the address of every function of NAME.h; prints a table row.
link() {
    lform=$1 dir="$work/link_$1_$2" lopts=$3 llabel=$4 scalar=$5 lcc=$6 cflags=$7 ldflags=$8
    flag=""
    [ "$lform" = size ] && flag=--size
    "$cdyngen" "$src/robots/humanoid.urdf" $lopts $flag --scalar "$scalar" --name humanoid \
        -o "$dir/gen" > /dev/null
    mkdir -p "$dir/obj"
    files="$dir/gen/humanoid.c"
    [ "$lform" = size ] && files="$files $dir/gen/humanoid_model.c $dir/gen/cdyn_*.c"
    for f in $files; do
        "$lcc" $cflags -std=c99 -ffunction-sections -fdata-sections -I"$dir/gen" -c "$f" \
            -o "$dir/obj/$(basename "$f" .c).o"
    done
    {
        echo '#include "humanoid.h"'
        echo 'typedef void (*fn)(void);'
        echo 'static const fn used[] = {'
        grep -oE '^(int|void) humanoid_[a-z_]+\(' "$dir/gen/humanoid.h" \
            | sed -E 's/^(int|void) (humanoid_[a-z_]+)\(/    (fn)\2,/'
        echo '};'
        echo 'int main(int argc, char **argv) { const fn *volatile p = used; (void)argv; return p[argc % (int)(sizeof used / sizeof used[0])] == 0; }'
    } > "$dir/main.c"
    "$lcc" $cflags -std=gnu99 -I"$dir/gen" "$dir/main.c" "$dir/obj/"*.o -Wl,--gc-sections \
        -Wl,-Map="$dir/image.map" $ldflags -lm -o "$dir/image"
    printf '#include <stdio.h>\n#include "humanoid.h"\nint main(void) { printf("%%lu", (unsigned long)sizeof(humanoid_data)); return 0; }\n' \
        > "$dir/sizeof.c"
    "$hostcc" -I"$dir/gen" "$dir/sizeof.c" -o "$dir/sizeof"
    set -- $(robot_bytes "$dir/image.map" "$dir/obj")
    echo "| $llabel | $lform | $1 | $2 | $3 | $(( $1 + $2 + $3 )) | $("$dir/sizeof") |"
}

echo "Code a firmware calling every function links (bytes):"
echo
echo "| robot | form | code (.text) | tables (.rodata) | .data/.bss | total | sizeof(humanoid_data) |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for set in soles nofeet; do
    o=$opts label="humanoid, 2 soles 6d"
    [ $set = nofeet ] && o=$nofeet label="humanoid, no contacts"
    for form in full size; do
        link $form "host_$set" "$o" "$label, x86-64 -O2 double" double "$hostcc" -O2 ""
    done
    for form in full size; do
        link $form "m4f_$set" "$o" "$label, Cortex-M4F -Os float" float "$cc" "$m4f -Os" \
            -specs=nosys.specs
    done
done

# The M4F under QEMU: run_target.sh builds at -Os, checks symbols, stack and results, and
# counts instructions per call.
for form in full size; do
    flag=""
    [ "$form" = size ] && flag=--size
    "$cdyngen" "$src/robots/humanoid.urdf" $opts $flag --name humanoid --scalar float \
        -o "$work/m4f_$form/gen" > /dev/null
    sh "$here/run_target.sh" m4f "$work/m4f_$form/gen" humanoid "$work/m4f_$form/run" \
        "$fw_host" "$cc" "$qemu" 20480 > "$work/m4f_$form/run.log" 2>&1 \
        || { cat "$work/m4f_$form/run.log" >&2; exit 1; }
done

echo
echo "On the Cortex-M4F (-Os, float; QEMU instructions per call, as the firmware table):"
echo
echo "| function | full: instructions | --size: instructions | ratio |"
echo "| --- | ---: | ---: | ---: |"
awk 'FNR == NR {full[$1] = $4; next}
     $1 != "data_bytes" && full[$1] > 0 {printf "| `%s` | %d | %d | %.1fx |\n", $1, full[$1], $4, $4 / full[$1]}' \
    "$work/m4f_full/run/summary.txt" "$work/m4f_size/run/summary.txt"
for form in full size; do
    run="$work/m4f_$form/run"
    printf '%s: sizeof(humanoid_data) %s B, %s\n' "$form" \
        "$(awk '$1 == "data_bytes" {print $2}' "$run/summary.txt")" "$(tail -1 "$run/stack.txt")"
done

# What --size pays on every call before the runtime's algorithm: the harness again, timing
# the carving alone (cdyn_data_attach, cdyn_constraint_data_attach, cdyn_data_view) after each
# state's functions, in instructions.
run="$work/m4f_size/run"
awk '/^#define NQ / && !done {
        print "#include \"humanoid_model.h\""
        print "static void attach_cost(humanoid_data *d)"
        print "{"
        print "    cdyn_data g;"
        print "    cdyn_constraint_data c;"
        print "    uint32_t t;"
        print "    TIMED(t, cdyn_data_attach(&g, &humanoid_model, d->work, sizeof d->work));"
        print "    emit(\"cdyn_data_attach\", 0, t, 0, 0);"
        print "    TIMED(t, cdyn_constraint_data_attach(&c, &humanoid_model, humanoid_constraints,"
        print "                                         HUMANOID_NCONSTRAINTS, d->cwork, sizeof d->cwork));"
        print "    emit(\"cdyn_constraint_data_attach\", 0, t, 0, 0);"
        print "    TIMED(t, cdyn_data_view(&g, &humanoid_model, d->work, sizeof d->work));"
        print "    emit(\"cdyn_data_view\", 0, t, 0, 0);"
        print "}"
        done = 1
     }
     { print }
     /unconstrained\(&d, fw_q\[s\]/ { print "        attach_cost(&d);" }' \
    "$run/harness/harness.c" > "$work/attach_cost.c"
"$cc" $m4f -Os -std=c99 -ffunction-sections -fdata-sections -I"$work/m4f_size/gen" \
    -I"$run/harness" -I"$here" -c "$work/attach_cost.c" -o "$work/attach_cost.o"
"$cc" $m4f -nostdlib -T "$here/link.ld" -Wl,--gc-sections -o "$work/attach_cost.elf" \
    "$work/attach_cost.o" "$run/harness/startup.o" "$run/harness/semihost.o" "$run/robot/"*.o \
    -Wl,--start-group -lc -lm -lgcc -Wl,--end-group
timeout 600 "$qemu" -M mps2-an386 -nographic -monitor none -serial none \
    -chardev file,id=out,path="$work/attach_cost.txt" \
    -semihosting-config enable=on,target=native,chardev=out -icount shift=6 \
    -kernel "$work/attach_cost.elf"
awk '$1 == "calibrate" {scale = $2 / $3}
     $1 ~ /^cdyn_/ {n[$1]++; t[$1] += $3}
     END {for (k in n) printf "%s: %.0f instructions per call\n", k, t[k] / n[k] * scale}' \
    "$work/attach_cost.txt" | sort
