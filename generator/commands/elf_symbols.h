/* elf_symbols.h — the sizes of the functions in an ELF object file (what `nm -S` shows),
 * read directly so `cdyngen bench` can report code size without binutils. */
#ifndef CDYNGEN_ELF_SYMBOLS_H
#define CDYNGEN_ELF_SYMBOLS_H

typedef void (*elf_function_visitor)(const char *name, unsigned long bytes, void *ctx);

/* Calls visit for every function symbol of the 64-bit little-endian ELF object at path.
 * Returns 0, or -1 if the file cannot be read or is not such an object (then nothing is
 * visited). */
int elf_each_function(const char *path, elf_function_visitor visit, void *ctx);

#endif
