/* xml_input.c — the untrusted bytes of a URDF file made an XML tree, safely: the file read
 * within a size bound, libxml2 run with no network and no DTD, any entity declaration
 * stopping the parser before an entity can be expanded, and a xacro file recognised as
 * such. urdf.c reads the robot from the tree this returns. */
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/xml_input.h"

/* ---------------------------------------------------------------- messages */

static void report_v(const parse_report *r, long line, const char *fmt, va_list ap)
{
    int used;
    if (r->err == NULL || r->errlen == 0)
        return;
    used = line > 0 ? snprintf(r->err, r->errlen, "%s:%ld: ", r->file, line)
                    : snprintf(r->err, r->errlen, "%s: ", r->file);
    if (used >= 0 && (size_t)used < r->errlen)
        vsnprintf(r->err + used, r->errlen - (size_t)used, fmt, ap);
}

void parse_report_line(const parse_report *r, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_v(r, line, fmt, ap);
    va_end(ap);
}

int xml_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* libxml2 keeps element lines in an unsigned short; past 65535 the line recorded by
 * on_start_element in the (otherwise unused) psvi field is the exact one. */
long xml_node_line(const xmlNode *n)
{
    if (n->line < 65535 || n->type != XML_ELEMENT_NODE)
        return xmlGetLineNo(n);
    return (long)(ptrdiff_t)n->psvi;
}

/* ---------------------------------------------------------------- XML */

/* What the libxml2 callbacks saw during one parse. */
typedef struct {
    int xml_error_line; /* first libxml2 error, 0 if none */
    char xml_error[256];
    int entity_line; /* first entity declaration, 0 if none */
    char entity_name[64];
    startElementNsSAX2Func start_element; /* libxml2's own, which builds the tree */
} parse_watch;

static void on_start_element(void *data, const xmlChar *localname, const xmlChar *prefix,
                             const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                             int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    xmlParserCtxtPtr ctxt = data;
    parse_watch *w = ctxt->_private;
    xmlNodePtr parent = ctxt->node;
    w->start_element(data, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                     nb_defaulted, attributes);
    if (ctxt->node != NULL && ctxt->node != parent)
        ctxt->node->psvi = (void *)(ptrdiff_t)xmlSAX2GetLineNumber(ctxt);
}

static void on_xml_error(void *data, xmlErrorPtr e)
{
    xmlParserCtxtPtr ctxt = data;
    parse_watch *w = ctxt->_private;
    char *c;
    size_t n;
    /* Undeclared prefixes (<xacro:property> without xmlns:xacro) are namespace errors,
     * not XML ones; ROS tools accept them, and such elements are never URDF's own. */
    if (w->xml_error_line != 0 || e->level < XML_ERR_ERROR || e->domain == XML_FROM_NAMESPACE)
        return;
    w->xml_error_line = e->line > 0 ? e->line : 1;
    snprintf(w->xml_error, sizeof w->xml_error, "%s", e->message ? e->message : "error");
    n = strlen(w->xml_error);
    while (n > 0 && xml_is_space(w->xml_error[n - 1])) /* libxml2 ends it with '\n' */
        w->xml_error[--n] = '\0';
    for (c = w->xml_error; *c != '\0'; c++) /* and may break it over lines */
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    /* its advice on lifting a limit is for programmers, not for the user */
    if ((c = strstr(w->xml_error, " use XML_PARSE_HUGE")) != NULL)
        *c = '\0';
}

/* Any entity declaration stops the parser before it can be expanded. */
static void on_entity_decl(void *data, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content)
{
    xmlParserCtxtPtr ctxt = data;
    parse_watch *w = ctxt->_private;
    (void)type, (void)public_id, (void)system_id, (void)content;
    if (w->entity_line == 0) {
        w->entity_line = xmlSAX2GetLineNumber(ctxt);
        snprintf(w->entity_name, sizeof w->entity_name, "%s", (const char *)name);
    }
    xmlStopParser(ctxt);
}

static void on_unparsed_entity_decl(void *data, const xmlChar *name, const xmlChar *public_id,
                                    const xmlChar *system_id, const xmlChar *notation)
{
    (void)notation;
    on_entity_decl(data, name, 0, public_id, system_id, NULL);
}

/* libxml2's generic messages (encoding errors) would reach stderr raw; the structured error
 * handler already reports the first error with its line. */
static void ignore_generic_error(void *data, const char *fmt, ...)
{
    (void)data, (void)fmt;
}

xmlDocPtr xml_read_untrusted(const char *buf, size_t len, const parse_report *r)
{
    const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    parse_watch w;
    xmlParserCtxtPtr ctxt;
    xmlDocPtr doc;

    memset(&w, 0, sizeof w);
    xmlInitParser();
    xmlResetLastError();
    ctxt = xmlNewParserCtxt();
    if (ctxt == NULL) {
        parse_report_line(r, 0, "out of memory");
        return NULL;
    }
    xmlSetGenericErrorFunc(NULL, ignore_generic_error);
    ctxt->_private = &w;
    ctxt->sax->serror = on_xml_error;
    ctxt->sax->entityDecl = on_entity_decl;
    ctxt->sax->unparsedEntityDecl = on_unparsed_entity_decl;
    w.start_element = ctxt->sax->startElementNs;
    if (w.start_element != NULL)
        ctxt->sax->startElementNs = on_start_element;
    doc = xmlCtxtReadMemory(ctxt, buf, (int)len, r->file, NULL, options);
    if (w.entity_line != 0)
        parse_report_line(r, w.entity_line,
                          "<!ENTITY>: entity \"%s\" declared; URDF files may not "
                          "declare entities",
                          w.entity_name);
    else if (doc == NULL || w.xml_error_line != 0)
        parse_report_line(r, w.xml_error_line, "malformed XML: %s",
                          w.xml_error[0] ? w.xml_error : "not well-formed");
    if ((w.entity_line != 0 || w.xml_error_line != 0) && doc != NULL) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    if (doc != NULL && xmlGetIntSubset(doc) != NULL) {
        /* without its DTD, attribute look-ups (xmlGetNoNsProp) see only what the file
         * writes on each element, never an <!ATTLIST> default */
        xmlDtdPtr dtd = xmlGetIntSubset(doc);
        xmlUnlinkNode((xmlNodePtr)dtd);
        xmlFreeDtd(dtd);
    }
    xmlFreeParserCtxt(ctxt);
    xmlResetLastError();
    xmlSetGenericErrorFunc(NULL, NULL);
    return doc;
}

/* ---------------------------------------------------------------- xacro */

/* A xacro macro (<xacro:property>, <xacro:include>, ...), with or without its namespace
 * declared (libxml2 keeps an undeclared prefix in the name). */
static int is_xacro_element(const xmlNode *n)
{
    const char *name = (const char *)n->name;
    return (n->ns && n->ns->prefix && strcmp((const char *)n->ns->prefix, "xacro") == 0) ||
           strncmp(name, "xacro:", 6) == 0;
}

static const char *attribute_text(const xmlAttr *a)
{
    return a->children && a->children->content ? (const char *)a->children->content : "";
}

/* The first attribute holding a xacro substitution (${...} or $(...)), or NULL. */
static const xmlAttr *xacro_attribute(const xmlNode *n)
{
    const xmlAttr *a;
    for (a = n->properties; a; a = a->next)
        if (strstr(attribute_text(a), "${") || strstr(attribute_text(a), "$("))
            return a;
    return NULL;
}

/* A xacro file is not a URDF yet: say so, naming its first macro or ${...} value, and how
 * to expand it, rather than report a missing name or a bad number. Depth-first, without
 * recursion (libxml2 bounds the depth, but the walk need not rely on it). Returns -1 when
 * it replaced the message, 0 when the file shows no sign of xacro. */
int xml_explain_xacro(const parse_report *r, const xmlNode *root)
{
    const xmlNode *n = root;
    while (n) {
        const xmlAttr *a = n->type == XML_ELEMENT_NODE ? xacro_attribute(n) : NULL;
        if (n->type == XML_ELEMENT_NODE && (is_xacro_element(n) || a)) {
            char what[160];
            if (is_xacro_element(n))
                snprintf(what, sizeof what, "<%s%s>", n->ns ? "xacro:" : "", (const char *)n->name);
            else
                snprintf(what, sizeof what, "<%s> %s \"%.64s\"", (const char *)n->name,
                         (const char *)a->name, attribute_text(a));
            parse_report_line(r, xml_node_line(n),
                              "%s: this is a xacro file, with macros still to "
                              "expand; expand it first (xacro %s > robot.urdf, from ROS's xacro "
                              "package) and give cdyngen the result",
                              what, r->file);
            return -1;
        }
        if (n->children)
            n = n->children;
        else {
            while (n && n != root && !n->next)
                n = n->parent;
            n = n && n != root ? n->next : NULL;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- the file */

/* Reads at most URDF_MAX_FILE_BYTES + 1 bytes, so an oversized file is never held. */
char *xml_read_file(const char *path, size_t *len, const parse_report *r)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap), *grown;
    FILE *f = fopen(path, "rb");
    if (f == NULL || buf == NULL) {
        parse_report_line(r, 0, "cannot open the file: %s",
                          f == NULL ? strerror(errno) : "out of memory");
        goto fail;
    }
    for (;;) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (cap > URDF_MAX_FILE_BYTES) {
            parse_report_line(r, 0, "larger than %lu MiB",
                              (unsigned long)(URDF_MAX_FILE_BYTES >> 20));
            goto fail;
        }
        cap = cap * 2 > URDF_MAX_FILE_BYTES ? URDF_MAX_FILE_BYTES + 1 : cap * 2;
        if ((grown = realloc(buf, cap)) == NULL) {
            parse_report_line(r, 0, "out of memory");
            goto fail;
        }
        buf = grown;
    }
    if (ferror(f)) {
        parse_report_line(r, 0, "cannot read the file");
        goto fail;
    }
    fclose(f);
    *len = n;
    return buf;
fail:
    if (f != NULL)
        fclose(f);
    free(buf);
    return NULL;
}
