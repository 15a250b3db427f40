/* constraints.c — stage 2b: constraint rows, supports and the sparsity they imply. */
#include "model/constraints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int constraint_spec_parse(constraint_spec *s, const char *arg, int is_loop, char *text, size_t n)
{
    char *dim, *mid;
    if (strlen(arg) >= n)
        return -1;
    strcpy(text, arg);
    dim = strrchr(text, ':');
    if (!dim)
        return -1;
    *dim++ = '\0';
    if (strcmp(dim, "3d") == 0 || strcmp(dim, "3D") == 0)
        s->dim = 3;
    else if (strcmp(dim, "6d") == 0 || strcmp(dim, "6D") == 0)
        s->dim = 6;
    else if (strcmp(dim, "friction") == 0 && !is_loop)
        s->dim = 3;
    else
        return -1;
    s->friction = strcmp(dim, "friction") == 0;
    s->frame_a = text;
    s->frame_b = NULL;
    if (is_loop) {
        mid = strchr(text, ':');
        if (!mid)
            return -1;
        *mid = '\0';
        s->frame_b = mid + 1;
    }
    return s->frame_a[0] && (!is_loop || s->frame_b[0]) ? 0 : -1;
}

static int con_fail(char *err, size_t errlen, const char *file, const constraint_spec *s,
                    const char *reason)
{
    if (s->frame_b)
        snprintf(err, errlen, "%s: --loop %.200s:%.200s:%dd: %s", file, s->frame_a, s->frame_b,
                 s->dim, reason);
    else
        snprintf(err, errlen, "%s: --contact %.200s:%s: %s", file, s->frame_a,
                 s->friction ? "friction" : s->dim == 3 ? "3d" : "6d", reason);
    return -1;
}

/* Marks the DoFs of body b and its ancestors. */
static void mark_chain(const kin_tree *t, int b, unsigned char *mark)
{
    for (; b >= 0; b = t->bodies[b].parent) {
        int k;
        for (k = 0; k < t->bodies[b].nv; k++)
            mark[t->bodies[b].idx_v + k] = 1;
    }
}

static int set_support(const kin_tree *t, tree_constraint *c)
{
    unsigned char *mark = calloc((size_t)(t->nv > 0 ? t->nv : 1), 1);
    int k, n = 0;
    c->dof_pos = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *c->dof_pos);
    c->support = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *c->support);
    if (!mark || !c->dof_pos || !c->support) {
        free(mark);
        return -1;
    }
    mark_chain(t, t->frames[c->frame_a].body, mark);
    if (c->frame_b >= 0)
        mark_chain(t, t->frames[c->frame_b].body, mark);
    for (k = 0; k < t->nv; k++) {
        c->dof_pos[k] = mark[k] ? n : -1;
        if (mark[k])
            c->support[n++] = k;
    }
    c->nsupport = n;
    free(mark);
    return 0;
}

static int check_spec(const kin_tree *t, const constraint_spec *s, int a, int b, const char *file,
                      char *err, size_t errlen)
{
    char why[300];
    const char *missing = a < 0 ? s->frame_a : (s->frame_b && b < 0) ? s->frame_b : NULL;
    if (s->dim != 3 && s->dim != 6)
        return con_fail(err, errlen, file, s, "the dimension must be 3d or 6d");
    if (missing) {
        snprintf(why, sizeof why, "no link named \"%.200s\"", missing);
        return con_fail(err, errlen, file, s, why);
    }
    if (!s->frame_b && t->frames[a].body < 0)
        return con_fail(err, errlen, file, s,
                        "the frame is fixed to the world, so nothing it constrains can move");
    if (s->frame_b && t->frames[a].body == t->frames[b].body)
        return con_fail(err, errlen, file, s,
                        t->frames[a].body < 0 ? "both frames are fixed to the world"
                                              : "both frames are on the same rigid body");
    return 0;
}

int tree_add_constraints(kin_tree *t, const constraint_spec *specs, int n, const char *file,
                         char *err, size_t errlen)
{
    int i, row = 0, offset = 0;
    tree_constraint *cs = calloc((size_t)(n > 0 ? n : 1), sizeof *cs);
    if (!cs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (i = 0; i < n; i++) {
        const constraint_spec *s = &specs[i];
        int a = tree_find_frame(t, s->frame_a),
            b = s->frame_b ? tree_find_frame(t, s->frame_b) : -1;
        tree_constraint *c = &cs[i];
        if (check_spec(t, s, a, b, file, err, errlen) != 0)
            goto fail;
        c->frame_a = a;
        c->frame_b = b;
        c->is_loop = s->frame_b != NULL;
        c->dim = s->dim;
        c->friction = s->friction;
        c->row = row;
        if (set_support(t, c) != 0) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        c->offset = offset;
        row += c->dim;
        offset += c->dim * c->nsupport;
    }
    for (i = 0; i < t->nconstraints; i++) {
        free(t->constraints[i].support);
        free(t->constraints[i].dof_pos);
    }
    free(t->constraints);
    t->constraints = cs;
    t->nconstraints = n;
    t->nc = row;
    t->nnz_J = offset;
    return 0;
fail:
    for (i = 0; i < n; i++) {
        free(cs[i].support);
        free(cs[i].dof_pos);
    }
    free(cs);
    return -1;
}

int tree_constraint_of_row(const kin_tree *t, int row)
{
    int c;
    for (c = t->nconstraints - 1; c > 0 && t->constraints[c].row > row; c--)
        ;
    return c;
}

int tree_constraint_index(const kin_tree *t, int row, int dof)
{
    const tree_constraint *c = &t->constraints[tree_constraint_of_row(t, row)];
    int pos = c->dof_pos[dof];
    return pos < 0 ? -1 : c->offset + (row - c->row) * c->nsupport + pos;
}

/* Two constraints' supports meet (both ascending). */
static int supports_meet(const tree_constraint *a, const tree_constraint *b)
{
    int i = 0, j = 0;
    while (i < a->nsupport && j < b->nsupport) {
        if (a->support[i] == b->support[j])
            return 1;
        if (a->support[i] < b->support[j])
            i++;
        else
            j++;
    }
    return 0;
}

/* G's pattern, then the fill of Featherstone's order (row k = nc-1 .. 0 eliminated onto
 * the rows i < k it touches: (i, j) for j <= i both in row k's pattern). */
/* Featherstone's fill of an n x n lower pattern, eliminated from the last row up. */
static long symbolic_fill(unsigned char *pat, int n)
{
    long nnz = 0;
    int i, j, k;
    for (k = n - 1; k >= 0; k--)
        for (i = 0; i < k; i++)
            if (pat[k * n + i])
                for (j = 0; j <= i; j++)
                    if (pat[k * n + j])
                        pat[i * n + j] = 1;
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++)
            nnz += pat[i * n + j];
    return nnz;
}

long tree_augmented_pattern(const kin_tree *t, unsigned char *pattern)
{
    int nv = t->nv, i, j, k;
    long nnz;
    unsigned char *pat = pattern ? pattern : calloc((size_t)(nv > 0 ? nv * nv : 1), 1);
    if (!pat)
        return -1;
    for (i = 0; i < nv * nv; i++)
        pat[i] = 0;
    for (i = 0; i < nv; i++)
        for (j = i; j >= 0; j = t->dof_parent[j])
            pat[i * nv + j] = 1;
    for (k = 0; k < t->nconstraints; k++) {
        const tree_constraint *c = &t->constraints[k];
        for (i = 0; i < c->nsupport; i++)
            for (j = 0; j <= i; j++)
                pat[c->support[i] * nv + c->support[j]] = 1; /* support is ascending */
    }
    nnz = symbolic_fill(pat, nv);
    if (!pattern)
        free(pat);
    return nnz;
}

long tree_constraint_factor_pattern(const kin_tree *t, unsigned char *pattern)
{
    int nc = t->nc, i, j;
    long nnz;
    unsigned char *pat = pattern ? pattern : calloc((size_t)(nc > 0 ? nc * nc : 1), 1);
    if (!pat)
        return -1;
    for (i = 0; i < nc; i++)
        for (j = 0; j <= i; j++)
            pat[i * nc + j] =
                (unsigned char)supports_meet(&t->constraints[tree_constraint_of_row(t, i)],
                                             &t->constraints[tree_constraint_of_row(t, j)]);
    nnz = symbolic_fill(pat, nc);
    if (!pattern)
        free(pat);
    return nnz;
}

int tree_contacts_only(const kin_tree *t)
{
    int k;
    for (k = 0; k < t->nconstraints; k++)
        if (t->constraints[k].is_loop)
            return 0;
    return t->nconstraints > 0;
}

int tree_limited_joints(const kin_tree *t, int *bodies)
{
    int b, n = 0;
    for (b = 0; b < t->nbodies; b++) {
        const tree_body *j = &t->bodies[b];
        if ((j->kind == TREE_REVOLUTE || j->kind == TREE_PRISMATIC) && j->nq == 1 &&
            j->lower < j->upper) {
            if (bodies)
                bodies[n] = b;
            n++;
        }
    }
    return n;
}
