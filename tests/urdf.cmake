# Stage 1, the URDF parser: rejection rules on tests/urdf/bad_*.urdf, every field of
# tests/urdf/ok_*.urdf, size limits, and the reference robots in CDYN_SHARED_DIR.
cdyn_add_check_test(test_urdf test_urdf.c)
