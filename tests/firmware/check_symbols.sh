#!/bin/sh
# check_symbols.sh — what a linked firmware image and the robot's objects reference:
#   check_symbols.sh float|double NM IMAGE.elf ROBOT_OBJECTS...
# The robot's code (generated code, model table, runtime) may take from outside itself
# only sqrt, sin and cos (sqrtf, sinf, cosf in float), memset and memcpy. The whole image
# may hold no heap and no stdio, and in float no double-precision helper (__aeabi_d*) nor
# the double forms of the three. Prints what it found; exits 1 on a forbidden symbol.
set -u
scalar=$1 nm=$2 image=$3
shift 3
if [ "$scalar" = float ]; then math="sinf cosf sqrtf"; else math="sin cos sqrt"; fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$nm" -u "$@" | awk 'NF == 2 {print $2}' | sort -u > "$tmp/undefined"
"$nm" --defined-only "$@" | awk 'NF == 3 {print $3}' | sort -u > "$tmp/defined"
printf '%s\n' $math memset memcpy | sort > "$tmp/allowed"
comm -23 "$tmp/undefined" "$tmp/defined" > "$tmp/external"
bad=$(comm -23 "$tmp/external" "$tmp/allowed")
status=0
if [ -n "$bad" ]; then
    echo "symbols: the robot's code references $(echo $bad)"
    status=1
else
    echo "symbols: the robot's code references only: $(echo $(cat "$tmp/external"))"
fi
forbid='^(malloc|calloc|realloc|free|_sbrk|_malloc_r|_free_r|printf|fprintf|sprintf|snprintf|puts|fputs|fwrite|fopen|_write|__sfvwrite_r|_vfprintf_r)$'
[ "$scalar" = float ] && forbid="$forbid|^__aeabi_d|^__aeabi_[a-z0-9]*2d$|^(sin|cos|sqrt)$"
bad=$("$nm" "$image" | awk '{print $NF}' | grep -E "$forbid" | sort -u)
if [ -n "$bad" ]; then
    echo "symbols: the image links $(echo $bad)"
    status=1
else
    echo "symbols: the image has no heap, no stdio$([ "$scalar" = float ] && echo ', no double arithmetic')"
fi
exit $status
