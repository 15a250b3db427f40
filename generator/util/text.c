/* text.c — string helpers the generator stages share. */
#include <stdlib.h>
#include <string.h>
#include "util/text.h"

char *text_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

int text_list_add(text_list *l, const char *line)
{
    char **grown = realloc(l->items, (size_t)(l->n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    l->items = grown;
    if (!(l->items[l->n] = text_dup(line)))
        return -1;
    l->n++;
    return 0;
}

void text_list_free(text_list *l)
{
    int i;
    for (i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

const char *text_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
