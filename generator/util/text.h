/* text.h — string helpers the generator stages share (host side, heap allowed). */
#ifndef CDYNGEN_TEXT_H
#define CDYNGEN_TEXT_H

/* A malloc'd copy of s, or NULL when out of memory (strdup is POSIX, not C99). */
char *text_dup(const char *s);

/* A growable list of malloc'd lines (warnings, notes), in the order they were added. */
typedef struct {
    char **items;
    int n;
} text_list;

/* Appends a copy of line; 0, or -1 when out of memory (the list is unchanged). */
int text_list_add(text_list *l, const char *line);
void text_list_free(text_list *l);

/* The file name of a path: what follows its last '/'. */
const char *text_base_name(const char *path);

#endif
