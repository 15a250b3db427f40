/* stash.c — see stash.h. */
#include "symbolic/stash.h"

stash stash_begin(expr_prog *p, const char *array, int load)
{
    stash s;
    s.p = p;
    s.array = array;
    s.load = load;
    s.n = 0;
    return s;
}

ex stash_ex(stash *s, ex e)
{
    if (e.node < 0)
        return e; /* a constant stays one */
    if (s->load)
        return ex_inputf(s->p, "d->%s[%d]", s->array, s->n++);
    expr_storef(s->p, e, "d->%s[%d]", s->array, s->n++);
    return e;
}

smot stash_smot(stash *s, smot m)
{
    int k;
    for (k = 0; k < 6; k++)
        m.v[k] = stash_ex(s, m.v[k]);
    return m;
}

splace stash_splace(stash *s, splace x)
{
    int k;
    for (k = 0; k < 9; k++)
        x.R.m[k] = stash_ex(s, x.R.m[k]);
    for (k = 0; k < 3; k++)
        x.p.v[k] = stash_ex(s, x.p.v[k]);
    return x;
}
