# code_size.awk — the machine code each public function of a robot brings into a linked
# image: its own plus every function of the object it reaches through relocations (calls,
# tail calls, a function gcc folded into an identical one), so a helper shared by two
# functions counts in both. With -ffunction-sections and --gc-sections, that is what a
# firmware that calls only this function links (library code excluded).
#   awk -v PREFIX=NAME_ -f code_size.awk SIZES RELOCATIONS
# SIZES: `nm -S --defined-only ROBOT.o` (hex sizes); RELOCATIONS: `objdump -r ROBOT.o`.
# Prints "function bytes" per public function (NAME_*, not the NAME__* helpers).
FNR == NR {
    if (NF == 4 && $3 ~ /^[tT]$/) {
        base = $4; sub(/\..*/, "", base)        # gcc's clones: name.isra.0, name.part.0
        size[base] += strtonum_hex($2)
    }
    next
}
/^RELOCATION RECORDS FOR/ {
    from = $0; sub(/.*\[/, "", from); sub(/\].*/, "", from)
    if (sub(/^\.text\./, "", from))
        sub(/\..*/, "", from)
    else
        from = ""
    next
}
from != "" && NF == 3 && $2 ~ /^R_ARM_/ {
    to = $3; sub(/[+-]0x.*/, "", to); sub(/\..*/, "", to)
    callees[from] = callees[from] " " to
}
function strtonum_hex(h,    i, v) {
    v = 0
    for (i = 1; i <= length(h); i++)
        v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
    return v
}
function reach(f,    n, i, list) {
    if (f in seen || !(f in size))
        return
    seen[f] = 1
    total += size[f]
    n = split(callees[f], list, " ")
    for (i = 1; i <= n; i++)
        reach(list[i])
}
END {
    for (f in size) {
        if (index(f, PREFIX) != 1 || substr(f, length(PREFIX) + 1, 1) == "_")
            continue
        split("", seen)
        total = 0
        reach(f)
        print f, total
    }
}
