/* fuzz_urdf.c — libFuzzer target over the generator's stages on untrusted bytes: parse,
 * tree, scalar range, inertia validation, and for small trees the whole rendering of the
 * output files and the range check of their constants.
 *
 * The last byte picks the options (bit 0: floating base, bit 1: float scalar); the bytes
 * before it are the URDF, so a URDF file is a seed as it is (its final newline the
 * options). Every stage must either accept or refuse with a message that names the file;
 * nothing may crash, leak or read out of bounds (built with ASan and UBSan). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "check/scalar_range.h"
#include "model/tree.h"
#include "pipeline.h"
#include "parse/urdf.h"
#include "check/validate.h"

#define RENDER_MAX_DOFS 4 /* rendering costs ~10 ms per DoF: keep the fuzzer fast */

static void refuse_unless_named(int rc, const char *err)
{
    if (rc < 0 && strncmp(err, "fuzz.urdf", 9) != 0 && strstr(err, "out of memory") == NULL)
        abort(); /* a refusal must name the file */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    urdf_model u;
    kin_tree t;
    tree_options opt;
    int rc, scalar_float, i;
    if (size < 1)
        return 0;
    scalar_float = (data[size - 1] >> 1) & 1;
    memset(&opt, 0, sizeof opt);
    opt.floating_base = data[size - 1] & 1;
    rc = urdf_parse_memory((const char *)data, size - 1, "fuzz.urdf", &u, err, sizeof err);
    refuse_unless_named(rc, err);
    if (rc < 0)
        return 0;
    rc = pipeline_tree(&u, &opt, &t, err, sizeof err);
    urdf_free(&u);
    refuse_unless_named(rc, err);
    if (rc < 0)
        return 0;
    rc = scalar_range_check_tree(&t, scalar_float, "fuzz.urdf", err, sizeof err);
    if (rc == 0)
        rc = validate_inertia(&t, "fuzz.urdf", err, sizeof err);
    refuse_unless_named(rc, err);
    if (rc == 0 && t.nv <= RENDER_MAX_DOFS) {
        render_options ro;
        render_output out;
        memset(&ro, 0, sizeof ro);
        ro.name = "fuzz";
        ro.urdf_file = "fuzz.urdf";
        ro.options = "";
        ro.scalar_float = scalar_float;
        ro.python = 1; /* the Python module's template too */
        if (render_robot(&t, &ro, &out, err, sizeof err) == 0) {
            for (i = 0, rc = 0; i < out.nfiles && rc == 0; i++) {
                rc = scalar_range_check_text(&t, scalar_float, "fuzz.urdf", out.files[i].content,
                                             err, sizeof err);
                refuse_unless_named(rc, err);
            }
            render_output_free(&out);
        }
    }
    tree_free(&t);
    return 0;
}
