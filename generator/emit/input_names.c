/* input_names.c — what the printer (symbolic/expr_print.h) learns of a robot: the emitted
 * temporaries that read q[], v[], a[] and tau[] carry their joint's name (q_knee = q[7]), so
 * a reader of straight-line code finds a joint, and the joint angles' sin and cos are
 * batched, reading q in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"
#include "symbolic/expr.h"

#define IDENT_LEN 80

/* Components of a multi-coordinate joint, in q and in v (a and tau pair with v). */
static const char *const q_parts[][7] = {
    [TREE_REVOLUTE_UNBOUNDED] = { "cos", "sin" },
    [TREE_PLANAR] = { "x", "y", "cos", "sin" },
    [TREE_FREEFLYER] = { "x", "y", "z", "qx", "qy", "qz", "qw" },
};
static const char *const v_parts[][6] = {
    [TREE_PLANAR] = { "x", "y", "rz" },
    [TREE_FREEFLYER] = { "x", "y", "z", "rx", "ry", "rz" },
};
static const char *const arrays[] = { "q", "v", "a", "tau" };

/* The joint's name as C: letters, digits and '_' (others become '_'), at most 48 bytes. */
static void joint_ident(const char *name, char *out)
{
    size_t i;
    for (i = 0; name[i] && i < 48; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        out[i] = ok ? c : '_';
    }
    out[i] = '\0';
}

/* The identifier of DoF k of the body in array a ("q_knee", "v_root_joint_rz"). */
static void ident_of(const tree_body *b, int a, int k, const char *joint, char *out)
{
    int multi = a == 0 ? b->nq > 1 : b->nv > 1;
    const char *part = !multi ? NULL : a == 0 ? q_parts[b->kind][k] : v_parts[b->kind][k];
    snprintf(out, IDENT_LEN, "%s_%.56s%s%s", arrays[a], joint, part ? "_" : "", part ? part : "");
}

/* The identifiers given so far, in an open-addressing hash set (a tree of 1000 DoFs has
 * 4000 of them, named again for each of some 40 programs). */
typedef struct {
    char (*names)[IDENT_LEN];
    int n;
    int *slot;  /* indices into names, -1 empty */
    size_t cap; /* a power of two, more than twice the names */
} ident_set;

static size_t ident_hash(const char *s)
{
    size_t h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

static int ident_find(const ident_set *u, const char *id)
{
    size_t k = ident_hash(id) & (u->cap - 1);
    for (; u->slot[k] >= 0; k = (k + 1) & (u->cap - 1))
        if (strcmp(u->names[u->slot[k]], id) == 0)
            return 1;
    return 0;
}

static void ident_add(ident_set *u, const char *id)
{
    size_t k = ident_hash(id) & (u->cap - 1);
    while (u->slot[k] >= 0)
        k = (k + 1) & (u->cap - 1);
    snprintf(u->names[u->n], IDENT_LEN, "%s", id);
    u->slot[k] = u->n++;
}

/* Whether any of the body's identifiers is already used: by an earlier body (joint names
 * that differ only in characters C cannot spell, "hip-1" and "hip_1", or "hip" with part
 * "x" and a joint "hip_x") or by a parameter or local of templates/robot.c.tpl. */
static int clashes(const tree_body *b, const char *joint, const ident_set *u)
{
    static const char *const params[] = { "q_next",  "v_before", "v_after", "a_i", "a_p",
                                          "a_world", "tau_i",    "v_i",     "v_p" };
    char id[IDENT_LEN];
    int a, k, x;
    for (a = 0; a < 4; a++)
        for (k = 0; k < (a == 0 ? b->nq : b->nv); k++) {
            ident_of(b, a, k, joint, id);
            for (x = 0; x < (int)(sizeof params / sizeof params[0]); x++)
                if (strcmp(id, params[x]) == 0)
                    return 1;
            if (ident_find(u, id))
                return 1;
        }
    return 0;
}

const expr_print_rules emit_print_rules = { "cdyn_sincos_n", "q" };

void emit_name_joint_inputs(expr_prog *p, const kin_tree *t)
{
    ident_set u;
    size_t total = (size_t)t->nq + 3 * (size_t)t->nv + 1;
    int i, a, k;
    expr_set_print_rules(p, &emit_print_rules);
    u.n = 0;
    for (u.cap = 16; u.cap < 2 * total; u.cap *= 2)
        ;
    u.names = malloc(total * sizeof *u.names);
    u.slot = malloc(u.cap * sizeof *u.slot);
    if (!u.names || !u.slot) {
        free(u.names); /* the temporaries keep their numbers */
        free(u.slot);
        return;
    }
    memset(u.slot, 0xff, u.cap * sizeof *u.slot); /* all -1 */
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        char joint[IDENT_LEN];
        joint_ident(b->joint_name, joint);
        while (clashes(b, joint, &u) && strlen(joint) < IDENT_LEN - 24)
            snprintf(joint + strlen(joint), 16, "_%d", i);
        for (a = 0; a < 4; a++)
            for (k = 0; k < (a == 0 ? b->nq : b->nv); k++) {
                char input[32], id[IDENT_LEN];
                ident_of(b, a, k, joint, id);
                ident_add(&u, id);
                snprintf(input, sizeof input, "%s[%d]", arrays[a],
                         (a == 0 ? b->idx_q : b->idx_v) + k);
                expr_name_input(p, input, id);
            }
    }
    free(u.names);
    free(u.slot);
}
