#!/bin/sh
# doc_section.sh — replace one generated section of a document with a script's output:
#
#   tests/bench/doc_section.sh NAME DOC.md FILE
#
# Everything between the lines `<!-- NAME:begin -->` and `<!-- NAME:end -->` of DOC.md
# becomes FILE's text, with a blank line after the first marker and before the second (so
# a table ends before the marker); the rest of DOC.md is kept byte for byte. Each marker
# must occur exactly once, in that order. DOC.md is replaced by a rename, never half
# written. For the tables the docs hold: docs/benchmarks.md's `peers` (peers.sh) and
# docs/firmware.md's `firmware` (tests/firmware/firmware_table.sh).
set -eu
if [ $# -ne 3 ]; then
    sed -n '2,11p' "$0" >&2
    exit 2
fi
name=$1 doc=$2 file=$3
begin="<!-- $name:begin -->" end="<!-- $name:end -->"
nb=$(grep -cxF -- "$begin" "$doc" || true)
ne=$(grep -cxF -- "$end" "$doc" || true)
if [ "$nb" != 1 ] || [ "$ne" != 1 ]; then
    echo "doc_section.sh: $doc must hold each of '$begin' and '$end' once" >&2
    exit 1
fi
tmp=$(mktemp "$doc.XXXXXX")
trap 'rm -f "$tmp"' EXIT
awk -v BEGIN_LINE="$begin" -v END_LINE="$end" -v FILE="$file" '
    $0 == BEGIN_LINE {
        if (seen_end) { print "doc_section.sh: the end marker comes first" > "/dev/stderr"; exit 1 }
        print; print ""
        n = 0
        while ((getline line < FILE) > 0) text[++n] = line
        close(FILE)
        while (n > 0 && text[n] == "") n--          # no trailing blank lines
        first = 1
        while (first <= n && text[first] == "") first++
        for (i = first; i <= n; i++) print text[i]
        print ""
        inside = 1
        next
    }
    $0 == END_LINE { inside = 0; seen_end = 1; print; next }
    !inside { print }' "$doc" > "$tmp"
chmod --reference="$doc" "$tmp" 2>/dev/null || true
mv "$tmp" "$doc"
trap - EXIT
echo "doc_section.sh: $doc: section $name replaced from $file" >&2
