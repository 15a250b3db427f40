/* prefix.c — see prefix.h. */
#include "util/prefix.h"

#include <stdio.h>
#include <string.h>

static int is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

void prefix_from_path(const char *path, char *name, size_t n)
{
    const char *base = strrchr(path, '/');
    size_t i, k = 0;
    base = base ? base + 1 : path;
    if ((base[0] >= '0' && base[0] <= '9') || base[0] == '_')
        k = (size_t)snprintf(name, n, "robot_");
    for (i = 0; base[i] && base[i] != '.' && k + 1 < n; i++)
        name[k++] = is_alnum(base[i]) ? base[i] : '_';
    name[k < n ? k : n - 1] = '\0';
    if (k == 0)
        snprintf(name, n, "robot");
}

/* Does name, ignoring case, equal word, or (prefix) begin with it? */
static int matches(const char *name, const char *word, int prefix)
{
    size_t i;
    for (i = 0; word[i]; i++)
        if (lower(name[i]) != word[i])
            return 0;
    return prefix || name[i] == '\0';
}

/* Target names CMake's generators define themselves (policy CMP0037, and the Makefile, Ninja,
 * Visual Studio, Xcode and CTest dashboard targets), compared ignoring case. */
static const char *const cmake_targets[] = {
    "all",
    "clean",
    "help",
    "install",
    "test",
    "package",
    "package_source",
    "depend",
    "edit_cache",
    "rebuild_cache",
    "preinstall",
    "list_install_components",
    "all_build",
    "zero_check",
    "run_tests",
    "experimental",
    "nightly",
    "continuous",
    "nightlymemorycheck",
};

/* The C standard headers: NAME.h sits in the library's public include folder, where it
 * would shadow <NAME.h> for the runtime and for every program that links the library. */
static const char *const c_headers[] = {
    "assert",  "complex", "ctype",  "errno",  "fenv",   "float",       "inttypes", "iso646",
    "limits",  "locale",  "math",   "setjmp", "signal", "stdalign",    "stdarg",   "stdatomic",
    "stdbool", "stddef",  "stdint", "stdio",  "stdlib", "stdnoreturn", "string",   "tgmath",
    "threads", "time",    "uchar",  "wchar",  "wctype",
};

const char *prefix_problem(const char *name)
{
    size_t i, n = strlen(name);
    if (n == 0 || (name[0] >= '0' && name[0] <= '9'))
        return "is not a C identifier";
    for (i = 0; i < n; i++)
        if (!is_alnum(name[i]) && name[i] != '_')
            return "is not a C identifier";
    if (n > PREFIX_MAX)
        return "is longer than 64 characters";
    if (name[0] == '_')
        return "begins with '_': C reserves such names at file scope";
    /* cdyn.h, cdyn_*.c, cdyn_* symbols, CDYN_* macros and header guards; ignoring case, as
     * the file names meet on case-insensitive file systems */
    if (matches(name, "cdyn", 0) || matches(name, "cdyn_", 1))
        return "collides with the runtime's files and names (cdyn.h, cdyn_*.c, cdyn_*, CDYN_*)";
    if (matches(name, "cmake_", 1))
        return "is a name CMake reserves (cmake_*)";
    for (i = 0; i < sizeof c_headers / sizeof c_headers[0]; i++)
        if (matches(name, c_headers[i], 0))
            return "names a C standard header, which NAME.h would shadow";
    for (i = 0; i < sizeof cmake_targets / sizeof cmake_targets[0]; i++)
        if (matches(name, cmake_targets[i], 0))
            return "is a target name CMake reserves for itself";
    return NULL;
}
