# stack_check.awk — worst-case stack of each public function, from gcc's -fcallgraph-info=su
# files (.ci, VCG): its own frame plus the deepest chain of callees. Fails (exit 1) on a
# recursion, on a frame that is not static (a variable-length array or alloca), or on a path
# deeper than BUDGET bytes. Library functions (memset, memcpy, sinf, ...) carry no size in
# the graph and count 0 here.
#   awk -v BUDGET=bytes -f stack_check.awk *.ci
/^node:/ {
    title = $0; sub(/.*title: "/, "", title); sub(/".*/, "", title)
    if ($0 ~ /bytes \(/) {
        n = split($0, parts, "\\\\n")
        size = parts[n]; sub(/ bytes.*/, "", size)
        kind = parts[n]; sub(/.*bytes \(/, "", kind); sub(/\).*/, "", kind)
        frame[title] = size + 0
        if (kind != "static") {
            print "stack: " title " has a " kind " frame (variable-length array or alloca)"
            bad = 1
        }
    }
    next
}
/^edge:/ {
    from = $0; sub(/.*sourcename: "/, "", from); sub(/".*/, "", from)
    to = $0; sub(/.*targetname: "/, "", to); sub(/".*/, "", to)
    if (!((from, to) in seen)) {
        seen[from, to] = 1
        ncallee[from]++
        callee[from, ncallee[from]] = to
    }
}
# depth(f): f's frame plus its deepest callee's depth; state 1 = on the current path.
function depth(f,    i, d, best, c) {
    if (state[f] == 1) {
        print "stack: recursion through " f
        bad = 1
        return 0
    }
    if (state[f] == 2)
        return memo[f]
    state[f] = 1
    best = 0
    for (i = 1; i <= ncallee[f]; i++) {
        c = callee[f, i]
        d = depth(c)
        if (d > best) { best = d; deepest[f] = c }
    }
    state[f] = 2
    memo[f] = frame[f] + best
    return memo[f]
}
END {
    worst = 0; largest = 0
    for (f in frame) {
        if (frame[f] > largest) { largest = frame[f]; largest_name = f }
        if (f ~ /:/)
            continue                     # static helpers: reached through the public ones
        d = depth(f)
        path = f
        for (g = f; g in deepest; g = deepest[g]) {
            h = deepest[g]; sub(/.*:/, "", h); path = path " > " h
        }
        printf "stack %s %d %s\n", f, d, path
        if (d > worst) { worst = d; worst_name = f }
    }
    sub(/.*:/, "", largest_name)
    printf "stack: deepest %d bytes (%s), largest frame %d bytes (%s), budget %d\n", worst, worst_name, largest, largest_name, BUDGET
    if (worst > BUDGET + 0) {
        print "stack: " worst_name " needs " worst " bytes, over the budget of " BUDGET
        bad = 1
    }
    exit bad
}
