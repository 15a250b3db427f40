/* elf_symbols.c — function sizes from an ELF64 object's symbol table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/elf_symbols.h"

enum { SHT_SYMTAB = 2, STT_FUNC = 2, SYM_BYTES = 24, SECTION_BYTES = 64 };

/* Little-endian fields at p (the file is read as bytes, never cast to structs). */
static unsigned long long le(const unsigned char *p, int n)
{
    unsigned long long x = 0;
    while (n-- > 0)
        x = (x << 8) | p[n];
    return x;
}

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        *len = (size_t)n;
    fclose(f);
    return buf;
}

/* Every bounds check against len: the object is the compiler's, but a truncated or
 * foreign file must not be read past its end. */
static int visit_symbols(const unsigned char *e, size_t len, elf_function_visitor visit, void *ctx)
{
    unsigned long long shoff, k, i;
    unsigned shnum;
    if (len < 64 || memcmp(e, "\177ELF", 4) != 0 || e[4] != 2 || e[5] != 1)
        return -1; /* not ELF64 little-endian */
    shoff = le(e + 40, 8);
    shnum = (unsigned)le(e + 60, 2);
    if (le(e + 58, 2) != SECTION_BYTES || shoff > len || shnum > (len - shoff) / SECTION_BYTES)
        return -1;
    for (k = 0; k < shnum; k++) {
        const unsigned char *sh = e + shoff + k * SECTION_BYTES, *strsh;
        unsigned long long off = le(sh + 24, 8), size = le(sh + 32, 8), link = le(sh + 40, 4);
        unsigned long long stroff, strsize;
        if (le(sh + 4, 4) != SHT_SYMTAB || link >= shnum || off > len || size > len - off)
            continue;
        strsh = e + shoff + link * SECTION_BYTES;
        stroff = le(strsh + 24, 8);
        strsize = le(strsh + 32, 8);
        if (stroff > len || strsize > len - stroff)
            continue;
        for (i = 0; i + SYM_BYTES <= size; i += SYM_BYTES) {
            const unsigned char *sym = e + off + i;
            unsigned long long name = le(sym, 4);
            const char *s = (const char *)e + stroff + name;
            if ((sym[4] & 0xf) != STT_FUNC || name >= strsize ||
                memchr(s, '\0', (size_t)(strsize - name)) == NULL)
                continue;
            visit(s, (unsigned long)le(sym + 16, 8), ctx);
        }
    }
    return 0;
}

int elf_each_function(const char *path, elf_function_visitor visit, void *ctx)
{
    size_t len = 0;
    unsigned char *e = read_all(path, &len);
    int rc;
    if (!e)
        return -1;
    rc = visit_symbols(e, len, visit, ctx);
    free(e);
    return rc;
}
