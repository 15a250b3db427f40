/* xml_input.h — the parse stage's first half: a URDF file's untrusted bytes made an XML
 * tree, and the one shape of its messages ("file:line: ..."). */
#ifndef CDYNGEN_XML_INPUT_H
#define CDYNGEN_XML_INPUT_H

#include <stddef.h>
#include <libxml/tree.h>

#define URDF_MAX_FILE_BYTES ((size_t)64 << 20)

/* Where a message goes: the file it names, and the caller's buffer. */
typedef struct {
    const char *file;
    char *err;
    size_t errlen;
} parse_report;

/* Writes "file:line: " (or "file: " when line <= 0) and the message into r->err. */
void parse_report_line(const parse_report *r, long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The whole file, at most URDF_MAX_FILE_BYTES (an oversized file is never held): a
 * malloc'd buffer and its length, or NULL with the reason reported. */
char *xml_read_file(const char *path, size_t *len, const parse_report *r);

/* The XML tree of buf (xmlFreeDoc it), or NULL with the reason reported: malformed XML
 * at its line, or an entity declaration. The internal DTD is dropped, so attribute
 * look-ups see only what each element writes (never an <!ATTLIST> default). */
xmlDocPtr xml_read_untrusted(const char *buf, size_t len, const parse_report *r);

/* The element's line, exact past libxml2's 65535 limit. */
long xml_node_line(const xmlNode *n);

/* XML white space: space, tab, newline, carriage return. */
int xml_is_space(char c);

/* When the tree under root shows xacro (a macro element or a ${...}/$(...) value): reports
 * that the file must be expanded first, naming the first such place, and returns -1.
 * Otherwise 0, with r untouched. */
int xml_explain_xacro(const parse_report *r, const xmlNode *root);

#endif
