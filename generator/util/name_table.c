/* name_table.c — an open-addressing hash table of names (FNV-1a, linear probing). */
#include <stdlib.h>
#include <string.h>
#include "util/name_table.h"

static unsigned long hash_name(const char *s)
{
    unsigned long h = 2166136261ul; /* FNV-1a */
    while (*s != '\0')
        h = (h ^ (unsigned char)*s++) * 16777619ul;
    return h;
}

/* At most half full, so probes stay short and an empty slot always ends them. */
int name_table_init(name_table *t, int n)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)(n > 0 ? n : 0))
        cap *= 2;
    t->keys = calloc(cap, sizeof *t->keys);
    t->values = calloc(cap, sizeof *t->values);
    t->mask = cap - 1;
    return t->keys != NULL && t->values != NULL ? 0 : -1;
}

void name_table_free(name_table *t)
{
    free(t->keys);
    free(t->values);
    t->keys = NULL;
    t->values = NULL;
}

static size_t slot_of(const name_table *t, const char *key)
{
    size_t i = hash_name(key) & t->mask;
    while (t->keys[i] != NULL && strcmp(t->keys[i], key) != 0)
        i = (i + 1) & t->mask;
    return i;
}

int name_table_find(const name_table *t, const char *key)
{
    size_t i = slot_of(t, key);
    return t->keys[i] != NULL ? t->values[i] : -1;
}

int name_table_insert(name_table *t, const char *key, int value)
{
    size_t i = slot_of(t, key);
    if (t->keys[i] != NULL)
        return t->values[i];
    t->keys[i] = key;
    t->values[i] = value;
    return -1;
}

void name_table_set(name_table *t, const char *key, int value)
{
    size_t i = slot_of(t, key);
    t->keys[i] = key;
    t->values[i] = value;
}
