#!/bin/sh
# contact_peer_check.sh — the contact step's solution against Pinocchio 3.7's on the same
# problem (contact_peer_check.cpp says which): J^T lambda and lambda within 1e-6 relative,
# solo12 with one foot (a unique solution) and with its four feet, 20 random states each.
#
#   tests/bench/contact_peer_check.sh CDYNGEN PEER_DIR [WORKDIR]
#
# WORKDIR (default: a temporary folder, removed) keeps the build.
# PEER_DIR is where ../shared/peers/pinocchio/build.sh built its harness (its unpacked
# pinocchio-3.7.0/ headers and URDF parser objects are reused; nothing is copied into the
# project). The reference robots are read from CDYN_SHARED (default ../shared beside the
# source tree). Exits 77 (skipped) when either is absent, or clang++ is missing.
set -eu
if [ $# -lt 2 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
cdyngen=$1 peer=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${CDYN_SHARED:-$src/../shared}
urdf=$shared/reference/urdf/solo12.urdf
pin=$peer/pinocchio-3.7.0
if [ ! -f "$urdf" ] || [ ! -d "$pin/include" ] || [ ! -f "$peer/urdf_model.o" ] ||
    [ ! -f "$peer/urdf_utils.o" ] || ! command -v clang++ >/dev/null; then
    echo "contact_peer_check.sh: skipped (no $urdf, no Pinocchio build in $peer, or no clang++)"
    exit 77
fi
if [ $# -ge 3 ]; then
    work=$3
    rm -rf "$work"
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
"$cdyngen" "$urdf" --floating-base --contact FL_FOOT:friction -o "$work/chk1" --name chk1 >/dev/null
"$cdyngen" "$urdf" --floating-base --contact FL_FOOT:friction --contact FR_FOOT:friction \
    --contact HL_FOOT:friction --contact HR_FOOT:friction -o "$work/chk4" --name chk4 >/dev/null
# the generated code and the runtime as C (C99), the harness as C++17 against Pinocchio
# with the flags the peer's URDF parser objects were built with (build.sh: -O3 -march=native
# -DNDEBUG): Eigen's alignment, so Pinocchio's Model's layout, depends on -march
for r in chk1 chk4; do
    for f in "$work/$r/$r.c" "$work/$r/${r}_model.c"; do
        cc -std=c99 -O2 -I "$work/$r" -c "$f" -o "$f.o"
    done
done
for f in "$work"/chk1/cdyn_*.c; do
    cc -std=c99 -O2 -I "$work/chk1" -c "$f" -o "$f.o"
done
echo "contact_peer_check.sh: compiling the Pinocchio side (a minute or two)" >&2
clang++ -std=c++17 -O3 -march=native -DNDEBUG -w -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_LIMIT_VECTOR_SIZE=30 \
    -DPINOCCHIO_WITH_URDFDOM -I "$pin/gen-include" -I "$pin/include" -isystem /usr/include/eigen3 \
    -I "$work/chk1" -I "$work/chk4" -c "$src/tests/bench/contact_peer_check.cpp" -o "$work/check.o"
clang++ "$work/check.o" "$work"/chk1/*.o "$work"/chk4/chk4*.o "$peer/urdf_model.o" \
    "$peer/urdf_utils.o" -o "$work/check" -lurdfdom_model -lm
"$work/check" "$urdf"
