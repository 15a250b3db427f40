/* embedded.c — look-up in the table that embed.cmake writes at build time. */
#include <string.h>
#include "render/embedded.h"

const char *embedded_text(const char *path)
{
    const embedded_file *f;
    for (f = embedded_files; f->path; f++)
        if (strcmp(f->path, path) == 0)
            return f->text;
    return NULL;
}
