/* name_table.h — names to ints in expected constant time: the URDF's link and joint look-ups
 * and the unique identifiers of the frame enum, over up to 100,000 names. */
#ifndef CDYNGEN_NAME_TABLE_H
#define CDYNGEN_NAME_TABLE_H

#include <stddef.h>

/* Open addressing over (name, value); the caller owns the strings, which must outlive the
 * table. Sized once for at most n names. */
typedef struct {
    const char **keys;
    int *values;
    size_t mask;
} name_table;

int name_table_init(name_table *t, int n); /* 0, or -1 out of memory */
void name_table_free(name_table *t);
int name_table_find(const name_table *t, const char *key); /* its value, or -1 */
/* Inserts key -> value; returns the earlier value when the key is already there, else -1. */
int name_table_insert(name_table *t, const char *key, int value);
/* Sets key's value, inserting it if absent. */
void name_table_set(name_table *t, const char *key, int value);

#endif
