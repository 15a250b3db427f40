/* text.h — string helpers the generator stages share (host side, heap allowed). */
#ifndef CDYNGEN_TEXT_H
#define CDYNGEN_TEXT_H

/* A malloc'd copy of s, or NULL when out of memory (strdup is POSIX, not C99). */
char *text_dup(const char *s);

#endif
