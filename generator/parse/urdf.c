/* urdf.c — stage 1: read a URDF's XML tree (xml_input.c makes it, safely) and validate
 * it into urdf_model.
 *
 * The input is untrusted: no network, no DTD loading, no entity substitution, and any
 * entity declaration stops the parser before an entity can be expanded. Sizes are
 * bounded. Every rejection is one line "file:line: element "name": reason"; when the
 * offending element carries no name it reads "file:line: <element>: reason". */
#include "parse/urdf.h"
#include "parse/xml_input.h"
#include "util/name_table.h"
#include "util/text.h"

#include <libxml/tree.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define URDF_MAX_NAME_BYTES 255
#define URDF_MAX_ELEMENTS 100000
#define URDF_AXIS_EPS 1e-12
/* The heaviest body accepted, kg: far above any machine (a ship is ~1e8 kg), far below
 * where m l^2 w^2 overflows even in float (3e38) for lengths and rates up to 1e3. */
#define URDF_MAX_MASS 1e12

/* ---------------------------------------------------------------- messages */

/* Unprefixed elements only: <xacro:include> is not an <include>. */
static int is_element(const xmlNode *n, const char *tag)
{
    return n->type == XML_ELEMENT_NODE && (n->ns == NULL || n->ns->prefix == NULL) &&
           strcmp((const char *)n->name, tag) == 0;
}

/* "link "base"" for a named element, "<inertia>" otherwise. */
static void element_label(char *out, size_t outlen, const xmlNode *n)
{
    xmlChar *name = xmlGetNoNsProp(n, BAD_CAST "name");
    if (name != NULL && strlen((const char *)name) <= URDF_MAX_NAME_BYTES)
        snprintf(out, outlen, "%s \"%s\"", (const char *)n->name, (const char *)name);
    else
        snprintf(out, outlen, "<%s>", (const char *)n->name);
    xmlFree(name);
}

/* The link or joint a nested element belongs to, for the message's tail. */
static const xmlNode *owner_of(const xmlNode *n)
{
    const xmlNode *owner = NULL;
    while (n->parent != NULL && n->parent->type == XML_ELEMENT_NODE && n->parent->parent != NULL &&
           n->parent->parent->type == XML_ELEMENT_NODE) {
        n = n->parent;
        owner = n;
    }
    return owner;
}

/* Writes "file:line: label: reason[ (in owner)]" and returns -1. */
static int vfail(const parse_report *r, const xmlNode *n, const char *fmt, va_list ap)
{
    char label[URDF_MAX_NAME_BYTES + 64], owner[URDF_MAX_NAME_BYTES + 64] = "";
    char reason[512];
    const xmlNode *o = owner_of(n);
    vsnprintf(reason, sizeof reason, fmt, ap);
    element_label(label, sizeof label, n);
    if (o != NULL) {
        char olabel[sizeof owner - 8];
        element_label(olabel, sizeof olabel, o);
        snprintf(owner, sizeof owner, " (in %s)", olabel);
    }
    parse_report_line(r, xml_node_line(n), "%s: %s%s", label, reason, owner);
    return -1;
}

static int fail(const parse_report *r, const xmlNode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Adds "file:line: label: warning: reason[ (in owner)]" to m's warnings: something the
 * dynamics do not need, said instead of refusing the file. 0, or -1 out of memory. */
static int warn(const parse_report *r, urdf_model *m, const xmlNode *n, const char *fmt, ...)
{
    char text[1024], format[256];
    parse_report into;
    va_list ap;
    into.file = r->file;
    into.err = text;
    into.errlen = sizeof text;
    snprintf(format, sizeof format, "warning: %s", fmt);
    va_start(ap, fmt);
    vfail(&into, n, format, ap);
    va_end(ap);
    if (text_list_add(&m->warnings, text) < 0)
        return fail(r, n, "out of memory");
    return 0;
}

/* ---------------------------------------------------------------- small helpers */

static const xmlNode *first_child(const xmlNode *n, const char *tag)
{
    const xmlNode *c;
    for (c = n->children; c != NULL; c = c->next)
        if (is_element(c, tag))
            return c;
    return NULL;
}

/* Reads exactly `count` finite numbers from attribute `attr` of `n`. A missing
 * attribute is an error when `required`, otherwise leaves `out` untouched. */
static int read_numbers(const parse_report *r, const xmlNode *n, const char *attr, double *out,
                        int count, int required)
{
    xmlChar *value = xmlGetNoNsProp(n, BAD_CAST attr);
    const char *s = (const char *)value;
    double tmp[3];
    int got = 0, status = 0;

    if (value == NULL)
        return required ? fail(r, n, "missing %s", attr) : 0;
    for (;;) {
        char *end;
        while (xml_is_space(*s))
            s++;
        if (*s == '\0')
            break;
        if (got == count) {
            status = fail(r, n, "%s \"%.64s\" has more than %d number%s", attr, (const char *)value,
                          count, count > 1 ? "s" : "");
            break;
        }
        tmp[got] = strtod(s, &end);
        if (end == s || (*end != '\0' && !xml_is_space(*end))) {
            status = fail(r, n, "%s \"%.64s\" is not a number", attr, (const char *)value);
            break;
        }
        if (!isfinite(tmp[got])) {
            status = fail(r, n, "%s \"%.64s\" is not finite", attr, (const char *)value);
            break;
        }
        got++;
        s = end;
    }
    if (status == 0 && got != count)
        status = fail(r, n, "%s \"%.64s\" must hold %d number%s, not %d", attr, (const char *)value,
                      count, count > 1 ? "s" : "", got);
    if (status == 0)
        memcpy(out, tmp, (size_t)count * sizeof *out);
    xmlFree(value);
    return status;
}

/* Copies a required name-like attribute (name, link, joint), bounded in length. */
static int read_name(const parse_report *r, const xmlNode *n, const char *attr, char **out)
{
    xmlChar *value = xmlGetNoNsProp(n, BAD_CAST attr);
    int status = 0;
    if (value == NULL)
        status = fail(r, n, "missing %s", attr);
    else if (value[0] == '\0')
        status = fail(r, n, "empty %s", attr);
    else if (strlen((const char *)value) > URDF_MAX_NAME_BYTES)
        status = fail(r, n, "%s is longer than %d bytes", attr, URDF_MAX_NAME_BYTES);
    else if ((*out = text_dup((const char *)value)) == NULL)
        status = fail(r, n, "out of memory");
    xmlFree(value);
    return status;
}

static int read_origin(const parse_report *r, const xmlNode *parent, urdf_origin *o)
{
    const xmlNode *n = first_child(parent, "origin");
    memset(o, 0, sizeof *o);
    if (n == NULL)
        return 0;
    if (read_numbers(r, n, "xyz", o->xyz, 3, 0) || read_numbers(r, n, "rpy", o->rpy, 3, 0))
        return -1;
    return 0;
}

/* ---------------------------------------------------------------- links */

static int read_inertial(const parse_report *r, const xmlNode *inertial, urdf_link *l)
{
    const xmlNode *mass = first_child(inertial, "mass");
    const xmlNode *inertia = first_child(inertial, "inertia");
    static const char *const names[6] = { "ixx", "ixy", "ixz", "iyy", "iyz", "izz" };
    double *fields[6];
    int i;

    fields[0] = &l->ixx, fields[1] = &l->ixy, fields[2] = &l->ixz;
    fields[3] = &l->iyy, fields[4] = &l->iyz, fields[5] = &l->izz;
    l->has_inertial = 1;
    if (read_origin(r, inertial, &l->inertial_origin))
        return -1;
    if (mass == NULL)
        return fail(r, inertial, "missing <mass>");
    if (read_numbers(r, mass, "value", &l->mass, 1, 1))
        return -1;
    if (l->mass < 0)
        return fail(r, mass, "negative mass %g", l->mass);
    if (l->mass > URDF_MAX_MASS)
        return fail(r, mass,
                    "mass %g kg is beyond what the dynamics can carry without "
                    "overflow (at most %g kg)",
                    l->mass, URDF_MAX_MASS);
    if (inertia == NULL)
        return fail(r, inertial, "missing <inertia>");
    for (i = 0; i < 6; i++)
        if (read_numbers(r, inertia, names[i], fields[i], 1, 1))
            return -1;
    return 0;
}

static int read_link(const parse_report *r, const xmlNode *n, urdf_link *l)
{
    const xmlNode *inertial = first_child(n, "inertial");
    l->line = (int)xml_node_line(n);
    if (read_name(r, n, "name", &l->name))
        return -1;
    return inertial != NULL ? read_inertial(r, inertial, l) : 0;
}

/* ---------------------------------------------------------------- joints */

static const char *const joint_type_names[] = { "revolute", "continuous", "prismatic",
                                                "fixed",    "floating",   "planar" };

const char *urdf_joint_type_name(urdf_joint_type t)
{
    if ((int)t < 0 || (size_t)t >= sizeof joint_type_names / sizeof *joint_type_names)
        return "unknown";
    return joint_type_names[t];
}

static int read_joint_type(const parse_report *r, const xmlNode *n, urdf_joint_type *type)
{
    xmlChar *value = xmlGetNoNsProp(n, BAD_CAST "type");
    size_t i, count = sizeof joint_type_names / sizeof *joint_type_names;
    if (value == NULL)
        return fail(r, n, "missing type");
    for (i = 0; i < count; i++)
        if (strcmp((const char *)value, joint_type_names[i]) == 0)
            break;
    if (i == count) {
        fail(r, n, "unknown type \"%.64s\"", (const char *)value);
        xmlFree(value);
        return -1;
    }
    xmlFree(value);
    *type = (urdf_joint_type)i;
    return 0;
}

/* Resolves <parent link> or <child link> to a link index. */
static int read_link_ref(const parse_report *r, const xmlNode *joint, const char *tag,
                         const name_table *links, int *index)
{
    const xmlNode *n = first_child(joint, tag);
    char *name = NULL;
    if (n == NULL)
        return fail(r, joint, "missing <%s>", tag);
    if (read_name(r, n, "link", &name))
        return -1;
    *index = name_table_find(links, name);
    if (*index < 0)
        fail(r, n, "unknown link \"%s\"", name);
    free(name);
    return *index < 0 ? -1 : 0;
}

static int joint_has_axis(urdf_joint_type t)
{
    return t == URDF_REVOLUTE || t == URDF_CONTINUOUS || t == URDF_PRISMATIC || t == URDF_PLANAR;
}

static int read_axis(const parse_report *r, const xmlNode *joint, urdf_joint *j)
{
    const xmlNode *n = first_child(joint, "axis");
    double norm;
    j->axis[0] = 1, j->axis[1] = 0, j->axis[2] = 0;
    if (n == NULL)
        return 0;
    if (read_numbers(r, n, "xyz", j->axis, 3, 1))
        return -1;
    /* scaled by its largest component first, so that no square overflows or underflows */
    norm = fmax(fabs(j->axis[0]), fmax(fabs(j->axis[1]), fabs(j->axis[2])));
    if (norm > URDF_AXIS_EPS) {
        j->axis[0] /= norm, j->axis[1] /= norm, j->axis[2] /= norm;
        norm = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
    }
    if (norm <= URDF_AXIS_EPS) {
        if (joint_has_axis(j->type))
            return fail(r, n, "axis is zero");
        j->axis[0] = 1, j->axis[1] = 0, j->axis[2] = 0; /* fixed, floating: unused */
        return 0;
    }
    j->axis[0] /= norm, j->axis[1] /= norm, j->axis[2] /= norm;
    return 0;
}

static int read_limit(const parse_report *r, const xmlNode *joint, urdf_joint *j)
{
    const xmlNode *n = first_child(joint, "limit");
    int bounded = j->type == URDF_REVOLUTE || j->type == URDF_PRISMATIC;
    if (n == NULL)
        return 0;
    j->has_limit = 1;
    if (read_numbers(r, n, "lower", &j->lower, 1, 0) ||
        read_numbers(r, n, "upper", &j->upper, 1, 0) ||
        read_numbers(r, n, "effort", &j->effort, 1, 0) ||
        read_numbers(r, n, "velocity", &j->velocity, 1, 0))
        return -1;
    if (bounded && xmlHasProp(n, BAD_CAST "lower") && xmlHasProp(n, BAD_CAST "upper") &&
        j->lower > j->upper)
        return fail(r, n, "lower %g is above upper %g", j->lower, j->upper);
    return 0;
}

static int read_mimic(const parse_report *r, const xmlNode *joint, urdf_joint *j)
{
    const xmlNode *n = first_child(joint, "mimic");
    if (n == NULL)
        return 0;
    j->has_mimic = 1;
    j->mimic_multiplier = 1.0;
    j->mimic_offset = 0.0;
    if (read_name(r, n, "joint", &j->mimic_joint) ||
        read_numbers(r, n, "multiplier", &j->mimic_multiplier, 1, 0) ||
        read_numbers(r, n, "offset", &j->mimic_offset, 1, 0))
        return -1;
    return 0;
}

/* Reads one joint; `parent_joint[link]` records which joint has that link as child. */
static int read_joint(const parse_report *r, const xmlNode *n, const name_table *links,
                      const urdf_model *m, int self, int *parent_joint, urdf_joint *j)
{
    j->line = (int)xml_node_line(n);
    if (read_name(r, n, "name", &j->name) || read_joint_type(r, n, &j->type) ||
        read_origin(r, n, &j->origin) || read_link_ref(r, n, "parent", links, &j->parent) ||
        read_link_ref(r, n, "child", links, &j->child))
        return -1;
    if (parent_joint[j->child] >= 0)
        return fail(r, n, "link \"%s\" is already the child of joint \"%s\"",
                    m->links[j->child].name, m->joints[parent_joint[j->child]].name);
    parent_joint[j->child] = self;
    if (read_axis(r, n, j) || read_limit(r, n, j) || read_mimic(r, n, j))
        return -1;
    return 0;
}

/* ---------------------------------------------------------------- robot */

typedef struct {
    const parse_report *r;
    urdf_model *m;
    const xmlNode **link_nodes, **joint_nodes;
    int *parent_joint; /* (nlinks) joint whose child the link is, -1 for none */
    name_table links, joints;
} robot_parse;

static int count_children(const parse_report *r, const xmlNode *robot, const char *tag, int *count)
{
    const xmlNode *c;
    *count = 0;
    for (c = robot->children; c != NULL; c = c->next) {
        if (!is_element(c, tag))
            continue;
        if (*count == URDF_MAX_ELEMENTS)
            return fail(r, c, "more than %d %ss", URDF_MAX_ELEMENTS, tag);
        ++*count;
    }
    return 0;
}

static void collect_children(const xmlNode *robot, const char *tag, const xmlNode **nodes)
{
    const xmlNode *c;
    int k = 0;
    for (c = robot->children; c != NULL; c = c->next)
        if (is_element(c, tag))
            nodes[k++] = c;
}

static int allocate(robot_parse *p, const xmlNode *robot)
{
    urdf_model *m = p->m;
    if (count_children(p->r, robot, "link", &m->nlinks) ||
        count_children(p->r, robot, "joint", &m->njoints))
        return -1;
    if (m->nlinks == 0)
        return fail(p->r, robot, "has no <link>");
    m->links = calloc((size_t)m->nlinks, sizeof *m->links);
    m->joints = calloc((size_t)m->njoints + 1, sizeof *m->joints);
    p->link_nodes = calloc((size_t)m->nlinks, sizeof *p->link_nodes);
    p->joint_nodes = calloc((size_t)m->njoints + 1, sizeof *p->joint_nodes);
    p->parent_joint = malloc((size_t)m->nlinks * sizeof *p->parent_joint);
    if (!m->links || !m->joints || !p->link_nodes || !p->joint_nodes || !p->parent_joint ||
        name_table_init(&p->links, m->nlinks) || name_table_init(&p->joints, m->njoints))
        return fail(p->r, robot, "out of memory");
    memset(p->parent_joint, -1, (size_t)m->nlinks * sizeof *p->parent_joint);
    collect_children(robot, "link", p->link_nodes);
    collect_children(robot, "joint", p->joint_nodes);
    return 0;
}

static int read_links(robot_parse *p)
{
    int i, first;
    for (i = 0; i < p->m->nlinks; i++) {
        urdf_link *l = &p->m->links[i];
        if (read_link(p->r, p->link_nodes[i], l))
            return -1;
        first = name_table_insert(&p->links, l->name, i);
        if (first >= 0)
            return fail(p->r, p->link_nodes[i], "duplicate link name (first at line %d)",
                        p->m->links[first].line);
    }
    return 0;
}

static int read_joints(robot_parse *p)
{
    int i, first;
    for (i = 0; i < p->m->njoints; i++) {
        urdf_joint *j = &p->m->joints[i];
        if (read_joint(p->r, p->joint_nodes[i], &p->links, p->m, i, p->parent_joint, j))
            return -1;
        first = name_table_insert(&p->joints, j->name, i);
        if (first >= 0)
            return fail(p->r, p->joint_nodes[i], "duplicate joint name (first at line %d)",
                        p->m->joints[first].line);
    }
    return 0;
}

static int check_mimics(robot_parse *p)
{
    int i, target;
    for (i = 0; i < p->m->njoints; i++) {
        const urdf_joint *j = &p->m->joints[i];
        if (!j->has_mimic)
            continue;
        target = name_table_find(&p->joints, j->mimic_joint);
        if (target == i)
            return fail(p->r, first_child(p->joint_nodes[i], "mimic"), "joint \"%s\" mimics itself",
                        j->mimic_joint);
        /* cdyngen treats a mimic joint as independent, so a dangling one changes nothing */
        if (target < 0 && warn(p->r, p->m, first_child(p->joint_nodes[i], "mimic"),
                               "unknown joint \"%s\"; the mimic is ignored (cdyngen treats "
                               "every mimic joint as independent)",
                               j->mimic_joint) != 0)
            return -1;
    }
    return 0;
}

/* Called with a link that has no path to the root: follows parents until a link repeats,
 * then names the joint of that cycle that comes last in the file. */
static int report_cycle(robot_parse *p, int link)
{
    const urdf_model *m = p->m;
    int *seen = calloc((size_t)m->nlinks, sizeof *seen);
    int start, l, last_joint = -1;
    if (seen == NULL)
        return fail(p->r, p->link_nodes[link], "out of memory");
    for (l = link; !seen[l]; l = m->joints[p->parent_joint[l]].parent)
        seen[l] = 1;
    start = l;
    do {
        int j = p->parent_joint[l];
        if (j > last_joint)
            last_joint = j;
        l = m->joints[j].parent;
    } while (l != start);
    free(seen);
    return fail(p->r, p->joint_nodes[last_joint], "closes a kinematic cycle through link \"%s\"",
                m->links[m->joints[last_joint].child].name);
}

static int find_root(robot_parse *p)
{
    int i;
    p->m->root = -1;
    for (i = 0; i < p->m->nlinks; i++) {
        if (p->parent_joint[i] >= 0)
            continue;
        if (p->m->root >= 0)
            return fail(p->r, p->link_nodes[i],
                        "a second root (no joint has it as child; link \"%s\" is the first)",
                        p->m->links[p->m->root].name);
        p->m->root = i;
    }
    return p->m->root < 0 ? report_cycle(p, 0) : 0;
}

/* With one root and one parent per link, a link the root does not reach hangs off a
 * cycle. Walks up from each link; state: 0 unknown, 1 on this walk, 2 leads to the root. */
static int check_acyclic(robot_parse *p)
{
    const urdf_model *m = p->m;
    char *state = calloc((size_t)m->nlinks, 1);
    int i, l;
    if (state == NULL)
        return fail(p->r, p->link_nodes[0], "out of memory");
    state[m->root] = 2;
    for (i = 0; i < m->nlinks; i++) {
        for (l = i; state[l] == 0; l = m->joints[p->parent_joint[l]].parent)
            state[l] = 1;
        if (state[l] == 1) {
            free(state);
            return report_cycle(p, i);
        }
        for (l = i; state[l] == 1; l = m->joints[p->parent_joint[l]].parent)
            state[l] = 2;
    }
    free(state);
    return 0;
}

static int read_robot(const parse_report *r, const xmlNode *robot, urdf_model *m)
{
    robot_parse p;
    int status;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.m = m;
    if (robot == NULL) {
        parse_report_line(r, 1, "<robot>: missing");
        return -1;
    }
    if (!is_element(robot, "robot"))
        return fail(r, robot, "the root element must be <robot>");
    status = read_name(r, robot, "name", &m->name);
    if (status == 0)
        status = allocate(&p, robot);
    if (status == 0)
        status = read_links(&p);
    if (status == 0)
        status = read_joints(&p);
    if (status == 0)
        status = check_mimics(&p);
    if (status == 0)
        status = find_root(&p);
    if (status == 0)
        status = check_acyclic(&p);
    free(p.link_nodes), free(p.joint_nodes), free(p.parent_joint);
    name_table_free(&p.links), name_table_free(&p.joints);
    return status;
}

/* ---------------------------------------------------------------- public API */

int urdf_parse_memory(const char *buf, size_t len, const char *name, urdf_model *out, char *err,
                      size_t errlen)
{
    parse_report r;
    xmlDocPtr doc;
    int status;

    r.file = name != NULL ? name : "<memory>";
    r.err = err;
    r.errlen = errlen;
    memset(out, 0, sizeof *out);
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (len == 0) {
        parse_report_line(&r, 1, "<robot>: missing, the file is empty");
        return -1;
    }
    if (len > URDF_MAX_FILE_BYTES) {
        parse_report_line(&r, 0, "larger than %lu MiB", (unsigned long)(URDF_MAX_FILE_BYTES >> 20));
        return -1;
    }
    doc = xml_read_untrusted(buf, len, &r);
    if (doc == NULL)
        return -1;
    out->file = text_dup(r.file);
    status = out->file != NULL ? read_robot(&r, xmlDocGetRootElement(doc), out)
                               : (parse_report_line(&r, 0, "out of memory"), -1);
    /* a refused file that is a xacro file gets that said instead (leftover xacro elements
     * in a file that reads well are ignored, as ROS tools do) */
    if (status != 0 && out->file != NULL)
        xml_explain_xacro(&r, xmlDocGetRootElement(doc));
    xmlFreeDoc(doc);
    if (status != 0)
        urdf_free(out);
    return status;
}

int urdf_parse_file(const char *path, urdf_model *out, char *err, size_t errlen)
{
    parse_report r;
    size_t len = 0;
    char *buf;
    int status;

    r.file = path;
    r.err = err;
    r.errlen = errlen;
    memset(out, 0, sizeof *out);
    buf = xml_read_file(path, &len, &r);
    if (buf == NULL)
        return -1;
    status = urdf_parse_memory(buf, len, path, out, err, errlen);
    free(buf);
    return status;
}

void urdf_free(urdf_model *m)
{
    int i;
    if (m == NULL)
        return;
    for (i = 0; m->links != NULL && i < m->nlinks; i++)
        free(m->links[i].name);
    for (i = 0; m->joints != NULL && i < m->njoints; i++) {
        free(m->joints[i].name);
        free(m->joints[i].mimic_joint);
    }
    text_list_free(&m->warnings);
    free(m->links);
    free(m->joints);
    free(m->name);
    free(m->file);
    memset(m, 0, sizeof *m);
}
