/* text.c — string helpers the generator stages share. */
#include <stdlib.h>
#include <string.h>
#include "text.h"

char *text_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}
