/* embedded.h — templates and runtime sources compiled into the cdyngen binary. */
#ifndef CDYNGEN_EMBEDDED_H
#define CDYNGEN_EMBEDDED_H

typedef struct {
    const char *path; /* relative to the source tree: "templates/robot.c.tpl", "runtime/cdyn.h" */
    const char *text;
} embedded_file;

/* Terminated by an entry whose path is NULL. */
extern const embedded_file embedded_files[];

/* The text of an embedded file, or NULL. */
const char *embedded_text(const char *path);

#endif
