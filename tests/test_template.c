/* test_template.c — golden and error tests for the template engine (generator/template.h).
 *
 * Every expected output and message below is written by hand. All cases share one context
 * (see make_context) and one loader (see templates[]). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/template.h"

/* ------------------------------------------------------------ fixtures */

static tpl_value *list_of_strings(const char *const *s)
{
    tpl_value *l = tpl_list();
    for (; *s; s++)
        tpl_list_push(l, tpl_string(*s));
    return l;
}

static tpl_value *list_of_ints(long from, long count)
{
    tpl_value *l = tpl_list();
    long i;
    for (i = 0; i < count; i++)
        tpl_list_push(l, tpl_int(from + i));
    return l;
}

static tpl_value *joint(const char *name, const char *type)
{
    tpl_value *j = tpl_dict();
    tpl_dict_set(j, "name", tpl_string(name));
    tpl_dict_set(j, "type", tpl_string(type));
    return j;
}

static tpl_value *row(const char *name, tpl_value *cols)
{
    tpl_value *r = tpl_dict();
    tpl_dict_set(r, "name", tpl_string(name));
    tpl_dict_set(r, "cols", cols);
    return r;
}

static void add_lists(tpl_value *ctx, long big)
{
    static const char *const xs[] = { "a", "b", "c", NULL };
    tpl_value *mixed = tpl_list(), *joints = tpl_list(), *rows = tpl_list();
    tpl_dict_set(ctx, "xs", list_of_strings(xs));
    tpl_dict_set(ctx, "nums", list_of_ints(1, 3));
    tpl_dict_set(ctx, "nolist", tpl_list());
    tpl_dict_set(ctx, "big", list_of_ints(0, big));
    tpl_list_push(mixed, tpl_string("a"));
    tpl_list_push(mixed, tpl_int(1));
    tpl_dict_set(ctx, "mixed", mixed);
    tpl_list_push(joints, joint("j1", "revolute"));
    tpl_list_push(joints, joint("j2", "prismatic"));
    tpl_dict_set(ctx, "joints", joints);
    tpl_list_push(rows, row("r0", list_of_ints(1, 2)));
    tpl_list_push(rows, row("r1", list_of_ints(3, 1)));
    tpl_dict_set(ctx, "rows", rows);
}

static void add_dicts(tpl_value *ctx)
{
    tpl_value *robot = tpl_dict(), *a = tpl_dict(), *b = tpl_dict(), *nested = tpl_dict();
    tpl_value *d = tpl_dict();
    tpl_dict_set(robot, "name", tpl_string("iiwa"));
    tpl_dict_set(robot, "nq", tpl_int(7));
    tpl_dict_set(robot, "nq", tpl_int(7)); /* replacing keeps one entry */
    tpl_dict_set(ctx, "robot", robot);
    tpl_dict_set(b, "c", tpl_string("deep"));
    tpl_dict_set(a, "b", b);
    tpl_dict_set(nested, "a", a);
    tpl_dict_set(ctx, "nested", nested);
    tpl_dict_set(d, "k", tpl_string("v"));
    tpl_dict_set(ctx, "d", d);
}

/* `big` counts 0, 1, ... in the list of that name. */
static tpl_value *make_context(long big)
{
    tpl_value *ctx = tpl_dict();
    tpl_dict_set(ctx, "name", tpl_string("lbr iiwa-14"));
    tpl_dict_set(ctx, "empty", tpl_string(""));
    tpl_dict_set(ctx, "numstr", tpl_string("42"));
    tpl_dict_set(ctx, "badnum", tpl_string("4x"));
    tpl_dict_set(ctx, "body", tpl_string("x = 1;\n\ny = 2;\n"));
    tpl_dict_set(ctx, "ws", tpl_string("a\n  \nb"));
    tpl_dict_set(ctx, "zero", tpl_int(0));
    tpl_dict_set(ctx, "yes", tpl_bool(1));
    tpl_dict_set(ctx, "no", tpl_bool(0));
    add_lists(ctx, big);
    add_dicts(ctx);
    return ctx;
}

/* Included templates, looked up by name. "nK" includes "n(K+1)" down to "n16". */
static const struct {
    const char *name, *text;
} templates[] = {
    { "hdr", "/* {{ robot.name }} */\n" },
    { "item", "{{ x }};" },
    { "mid", "[{% include \"item\" %}]" },
    { "sets", "{% set inner = 1 %}{{ inner }}" },
    { "bad", "\n  {{ nope }}" },
    { "self", "x{% include \"self\" %}" },
    { "n0", "{% include \"n1\" %}" },
    { "n1", "{% include \"n2\" %}" },
    { "n2", "{% include \"n3\" %}" },
    { "n3", "{% include \"n4\" %}" },
    { "n4", "{% include \"n5\" %}" },
    { "n5", "{% include \"n6\" %}" },
    { "n6", "{% include \"n7\" %}" },
    { "n7", "{% include \"n8\" %}" },
    { "n8", "{% include \"n9\" %}" },
    { "n9", "{% include \"n10\" %}" },
    { "n10", "{% include \"n11\" %}" },
    { "n11", "{% include \"n12\" %}" },
    { "n12", "{% include \"n13\" %}" },
    { "n13", "{% include \"n14\" %}" },
    { "n14", "{% include \"n15\" %}" },
    { "n15", "{% include \"n16\" %}" },
    { "n16", "deep" },
};

static int load(void *ctx, const char *name, const char **text)
{
    size_t i;
    (void)ctx;
    for (i = 0; i < sizeof templates / sizeof templates[0]; i++)
        if (strcmp(templates[i].name, name) == 0) {
            *text = templates[i].text;
            return 0;
        }
    return -1;
}

static tpl_value *g_ctx;

static void setup(void)
{
    g_ctx = make_context(1000);
}

static void teardown(void)
{
    tpl_free(g_ctx);
    g_ctx = NULL;
}

static char *render_ok(const char *text)
{
    char err[256], *out = NULL;
    int rc = tpl_render("t", text, g_ctx, load, NULL, &out, err, sizeof err);
    ck_assert_msg(rc == 0, "render failed: %s\ntemplate: %s", err, text);
    ck_assert_ptr_nonnull(out);
    return out;
}

/* --------------------------------------------------------- golden cases */

typedef struct {
    const char *text, *expected;
} golden;

static const golden values[] = {
    { "plain text\n", "plain text\n" },
    { "", "" },
    { "{{ name }}", "lbr iiwa-14" },
    { "{{robot.name}}/{{ robot.nq }}", "iiwa/7" },
    { "{{ nested.a.b.c }}", "deep" },
    { "{{ yes }} {{ no }}", "true false" },
    { "{{ \"lit\" }} {{ 'single' }} {{ 42 }} {{ -3 }}", "lit single 42 -3" },
    { "{{ \"a\\\"b\\\\c\\td\\ne\\'\" }}", "a\"b\\c\td\ne'" },
    { "{{ \"}}\" }}{{ '%}' }}", "}}%}" },
    { "{% if \"%}\" %}ok{% endif %}", "ok" },
    { "a { b } {c} x[2] = {{ zero }};", "a { b } {c} x[2] = 0;" },
};

static const golden filters[] = {
    { "{{ name | upper }}", "LBR IIWA-14" },
    { "{{ \"MiXed 1\" | lower }}", "mixed 1" },
    { "{{ xs | length }} {{ d | length }} {{ name | length }} {{ nolist | length }}", "3 1 11 0" },
    { "{{ xs | join(\", \") }}", "a, b, c" },
    { "{{ nums | join(\"+\") }}={{ mixed | join(\"\") }}", "1+2+3=a1" },
    { "[{{ nolist | join(\",\") }}]", "[]" },
    { "{{ nope | default(\"dflt\") }} {{ robot.mass | default(0) }} {{ name | default(\"x\") }}",
      "dflt 0 lbr iiwa-14" },
    { "{{ nope.deeper | default(robot.name) }}", "iiwa" },
    { "{{ nope | default(\"abc\") | upper }}", "ABC" },
    { "{\n    {{ body | indent(4) }}}\n", "{\n    x = 1;\n\n    y = 2;\n}\n" },
    { "{{ ws | indent(2) }}|", "a\n    \n  b|" },
    { "{{ \"one\" | indent(3) }}", "one" },
    { "{{ name | c_ident }} {{ \"3dof\" | c_ident }} {{ \"\" | c_ident }} {{ \"ok_1\" | c_ident }}",
      "lbr_iiwa_14 _3dof _ ok_1" },
    { "{{ 7 | c_ident }} {{ \"-x\" | c_ident }} {{ \"caf\303\251\" | c_ident }}", "_7 _x caf__" },
    { "{{ name | c_ident | upper }}", "LBR_IIWA_14" },
    { "{{ numstr | int }} {{ 5 | int }} {{ \"-12\" | int }} {{ yes | int }}", "42 5 -12 1" },
    { "{% if numstr | int == 42 %}int{% endif %}", "int" },
};

static const golden conditions[] = {
    { "{% if yes %}Y{% endif %}{% if no %}N{% endif %}", "Y" },
    { "{% if zero %}a{% elif empty %}b{% elif nolist %}c{% elif xs %}d{% else %}e{% endif %}",
      "d" },
    { "{% if no %}a{% elif d %}b{% endif %}", "b" },
    { "{% if no %}a{% else %}b{% endif %}", "b" },
    { "{% if no %}a{% endif %}", "" },
    { "{% if not no %}1{% endif %}{% if not not yes %}2{% endif %}", "12" },
    { "{% if robot.name == \"iiwa\" %}eq{% endif %}{% if robot.nq != 7 %}ne{% endif %}"
      "{% if robot.nq == 7 %}7{% endif %}",
      "eq7" },
    { "{% if yes and zero %}a{% endif %}{% if no or robot.nq %}b{% endif %}", "b" },
    { "{% if no and nope %}c{% endif %}{% if yes or nope %}d{% endif %}", "d" },
    { "{% if no and no or yes %}p{% endif %}{% if not no and yes %}q{% endif %}", "pq" },
    { "{% if xs | length == 3 %}three{% endif %}", "three" },
    { "{% if yes == no %}x{% else %}y{% endif %}", "y" },
    { "{% if 'a' != \"a\" %}x{% elif 0 %}y{% else %}z{% endif %}", "z" },
};

static const golden loops[] = {
    { "{% for x in xs %}{{ loop.index }}{{ x }}{% if not loop.last %}, {% endif %}{% endfor %}",
      "1a, 2b, 3c" },
    { "{% for x in xs %}{{ loop.index0 }}/{{ loop.length }}{% if loop.first %}F{% endif %}"
      "{% if loop.last %}L{% endif %} {% endfor %}",
      "0/3F 1/3 2/3L " },
    { "[{% for x in nolist %}x{% endfor %}]", "[]" },
    { "{% for x in nums %}{{ x }}{% endfor %}{% for x in xs %}{{ x }}{% endfor %}", "123abc" },
    /* the inner loop shadows `loop`, the outer one comes back after it */
    { "{% for r in rows %}{{ r.name }}:{% for c in r.cols %}{{ loop.index }}={{ c }}"
      "{% if not loop.last %},{% endif %}{% endfor %};{{ loop.index }}{% endfor %}",
      "r0:1=1,2=2;1r1:1=3;2" },
    /* commas between all items of a nested list, one item per line */
    { "int m[] = {\n"
      "{% for r in rows %}\n"
      "{% set last_row = loop.last %}\n"
      "    /* {{ r.name }} */\n"
      "    {% for c in r.cols %}\n"
      "    {{ c }}{% if not loop.last or not last_row %},{% endif +%}\n"
      "    {% endfor %}\n"
      "{% endfor %}\n"
      "};\n",
      "int m[] = {\n"
      "    /* r0 */\n"
      "    1,\n"
      "    2,\n"
      "    /* r1 */\n"
      "    3\n"
      "};\n" },
    { "{% for j in joints %}\n"
      "  {{ j.name }}: {{ j.type }}\n"
      "{% endfor %}\n"
      "end\n",
      "  j1: revolute\n  j2: prismatic\nend\n" },
    { "void f(void)\n{\n    {% for x in xs %}\n    use({{ x }});\n    {% endfor %}\n}\n",
      "void f(void)\n{\n    use(a);\n    use(b);\n    use(c);\n}\n" },
    { "{% for x in xs %}{% for x in nums %}{{ x }}{% endfor %}{{ x }}{% endfor %}",
      "123a123b123c" },
};

static const golden whitespace[] = {
    { "a\n  {% if yes %}\n  b\n  {% endif %}\nc\n", "a\n  b\nc\n" },
    { "x{% if yes %}y{% endif %}\nz", "xyz" },
    { "  {% if yes %}y{% endif %}  \nz", "y  \nz" },
    { "{{ zero }}  {% if yes %}\nz{% endif %}", "0  z" },
    { "a\n  {# note #}\nb\n", "a\nb\n" },
    { "a\n{# one\ntwo #}\nb", "a\nb" },
    { "a\n\t{# tab #}\n  b {# inline #}c", "a\n  b c" },
    { "a  {#- c -#}  \n z", "az" },
    { "a\n  {{- zero }}\n", "a0\n" },
    { "a {%- if yes %}\n b\n{% endif -%}  \n\n c", "a b\nc" },
    { "{%- for x in xs -%} {{ x }} {%- endfor %}|", "abc|" },
    { "\n {{- zero -}} \n", "0" },
    { "{% if yes %}a{% endif +%}\nb", "a\nb" },
    { "  {%+ if yes %}a{% endif %}", "  a" },
    { "  {#+ c +#}\nb", "  \nb" },
    { "  \t{% if yes %}\r\nz{% endif %}", "z" },
    { "  {% if yes %}  {% if yes %}\nx{% endif %}{% endif %}", "  x" },
    { "{% if yes %}\n\n{% endif %}", "\n" },
    { "a\n  {% if yes -%}\n  b{% endif %}", "a\nb" },
    { "{% if yes %}\n{% if no %}\nx\n{% else %}\ny\n{% endif %}\n{% endif %}\n", "y\n" },
    { "a\n{% set q = 1 %}\n{{ q }}\n", "a\n1\n" },
};

static const golden sets[] = {
    { "{% set n = robot.nq %}{{ n }}{% set n = \"s\" | upper %}{{ n }}", "7S" },
    { "{% set y = \"top\" %}{% for x in xs %}{% if loop.first %}{% set y = x %}{% endif %}"
      "{{ y }}{% endfor %}{{ y }}",
      "atoptoptop" },
    { "{% set l = xs %}{% for x in l %}{{ x }}{% endfor %}", "abc" },
    { "{% set b = robot.nq == 7 %}{{ b }}", "true" },
    { "{% set name = \"shadow\" %}{{ name }}", "shadow" },
    { "{% if yes %}{% set s = 1 %}{% endif %}{{ s }}", "1" },
};

static const golden includes[] = {
    { "{% include \"hdr\" %}\nint a;\n", "/* iiwa */\nint a;\n" },
    { "int a;\n    {% include \"hdr\" %}\nint b;\n", "int a;\n/* iiwa */\nint b;\n" },
    { "{% for x in xs %}{% include \"item\" %}{% endfor %}", "a;b;c;" },
    { "{% for x in xs %}{% include \"mid\" %}{% endfor %}", "[a;][b;][c;]" },
    { "{% set t = \"item\" %}{% set x = 5 %}{% include t %}", "5;" },
    { "{% include \"sets\" %}{{ inner | default(\"gone\") }}", "1gone" },
    { "<{% include \"n1\" %}>", "<deep>" }, /* exactly TPL_MAX_INCLUDE_DEPTH deep */
};

static void check_golden(const golden *g)
{
    char *out = render_ok(g->text);
    ck_assert_msg(strcmp(out, g->expected) == 0, "template: [%s]\nexpected: [%s]\ngot:      [%s]",
                  g->text, g->expected, out);
    free(out);
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(test_values)
{
    check_golden(&values[_i]);
}
END_TEST
START_TEST(test_filters)
{
    check_golden(&filters[_i]);
}
END_TEST
START_TEST(test_conditions)
{
    check_golden(&conditions[_i]);
}
END_TEST
START_TEST(test_loops)
{
    check_golden(&loops[_i]);
}
END_TEST
START_TEST(test_whitespace)
{
    check_golden(&whitespace[_i]);
}
END_TEST
START_TEST(test_sets)
{
    check_golden(&sets[_i]);
}
END_TEST
START_TEST(test_includes)
{
    check_golden(&includes[_i]);
}
END_TEST

START_TEST(test_thousand_items)
{
    char *out = render_ok("{% for i in big %}\nitem[{{ loop.index0 }}] = {{ i }};\n{% endfor %}\n");
    const char *last = "item[998] = 998;\nitem[999] = 999;\n";
    size_t lines = 0, n = strlen(out);
    const char *p;
    for (p = out; *p; p++)
        lines += *p == '\n';
    /* 1000 x "item[] = ;\n" plus each number twice: 10 + 90*2 + 900*3 = 2890 digits */
    ck_assert_uint_eq(n, 1000 * 11 + 2 * 2890);
    ck_assert_uint_eq(lines, 1000);
    ck_assert(strncmp(out, "item[0] = 0;\nitem[1] = 1;\n", 26) == 0);
    ck_assert_ptr_nonnull(strstr(out, "\nitem[500] = 500;\n"));
    ck_assert_str_eq(out + n - strlen(last), last);
    free(out);
}
END_TEST

START_TEST(test_null_context_and_dict_api)
{
    char err[256], *out = NULL;
    tpl_value *d = tpl_dict();
    ck_assert_int_eq(
        tpl_render("t", "static {{ \"x\" }};", NULL, NULL, NULL, &out, err, sizeof err), 0);
    ck_assert_str_eq(out, "static x;");
    free(out);
    tpl_dict_set(d, "k", tpl_string("one"));
    tpl_dict_set(d, "k", tpl_int(2));
    ck_assert_ptr_null(tpl_dict_get(d, "other"));
    ck_assert_int_eq(tpl_render("t", "{{ k }}", d, NULL, NULL, &out, err, sizeof err), 0);
    ck_assert_str_eq(out, "2");
    free(out);
    tpl_free(d);
}
END_TEST

/* What rendering prints of a value, every string once: what cdyngen holds its emitted
 * functions to before it renders them (render.h's max_bytes). */
START_TEST(test_text_bytes)
{
    char err[256], *out = NULL;
    tpl_value *d = tpl_dict(), *list = tpl_list(), *inner = tpl_dict();
    ck_assert_uint_eq(tpl_text_bytes(NULL), 0);
    ck_assert_uint_eq(tpl_text_bytes(d), 0);
    tpl_dict_set(inner, "body", tpl_string("x = 1;\n"));
    tpl_dict_set(inner, "index", tpl_int(12345));
    tpl_list_push(list, inner);
    tpl_list_push(list, tpl_string("abc"));
    tpl_dict_set(d, "functions", list);
    tpl_dict_set(d, "flag", tpl_bool(1));
    tpl_dict_set(d, "empty", tpl_string(""));
    ck_assert_uint_eq(tpl_text_bytes(d), 7 + 3); /* integers, booleans and keys not */
    ck_assert_int_eq(tpl_render("t", "{% for f in functions %}{{ f.body | default(f) }}{% endfor %}",
                                d, NULL, NULL, &out, err, sizeof err), 0);
    ck_assert_uint_eq(strlen(out), tpl_text_bytes(d));
    free(out);
    tpl_free(d);
}
END_TEST

/* ---------------------------------------------------------- error cases */

typedef struct {
    const char *text, *expected;
} failure;

static const failure errors[] = {
    /* unknown variables and attributes */
    { "a\n  {{ nope }}", "t:2:3: unknown variable \"nope\"" },
    { "{{ robot.mass }}", "t:1:1: unknown attribute \"mass\" of \"robot\"" },
    { "{{ nested.a.x.y }}", "t:1:1: unknown attribute \"x\" of \"nested.a\"" },
    { "{{ name.size }}", "t:1:1: unknown attribute \"size\" of \"name\"" },
    { "{% if nope %}{% endif %}", "t:1:1: unknown variable \"nope\"" },
    { "{% if no %}{% elif nope %}{% endif %}", "t:1:12: unknown variable \"nope\"" },
    { "{% for x in xs %}\n{{ x }}{{ y }}\n{% endfor %}", "t:2:8: unknown variable \"y\"" },
    { "{% set v = nope %}", "t:1:1: unknown variable \"nope\"" },
    { "{{ name | default(nope) }}", "t:1:1: unknown variable \"nope\"" },
    { "{% for x in xs %}{% endfor %}{{ loop.index }}", "t:1:30: unknown variable \"loop\"" },
    { "{% for x in xs %}{% set s = 1 %}{% endfor %}{{ s }}", "t:1:45: unknown variable \"s\"" },
    /* filters */
    { "{{ name | shout }}", "t:1:1: unknown filter \"shout\"" },
    { "{% if no %}{{ name | shout }}{% endif %}", "t:1:12: unknown filter \"shout\"" },
    { "{{ xs | join }}", "t:1:1: bad argument to filter \"join\": missing" },
    { "{{ name | upper(1) }}", "t:1:1: bad argument to filter \"upper\": takes none" },
    { "{{ xs | join(1) }}",
      "t:1:1: bad argument to filter \"join\": needs a string, got an integer" },
    { "{{ body | indent(\"x\") }}",
      "t:1:1: bad argument to filter \"indent\": needs an integer from 0 to 1024" },
    { "{{ body | indent(-1) }}",
      "t:1:1: bad argument to filter \"indent\": needs an integer from 0 to 1024" },
    { "{{ nums | upper }}", "t:1:1: filter \"upper\" needs a string, got a list" },
    { "{{ zero | length }}",
      "t:1:1: filter \"length\" needs a string, list or dict, got an integer" },
    { "{{ rows | join(\",\") }}",
      "t:1:1: filter \"join\" needs a list of strings or integers, item, got a dict" },
    { "{{ badnum | int }}", "t:1:1: filter \"int\" cannot convert \"4x\"" },
    { "{{ d | c_ident }}", "t:1:1: filter \"c_ident\" needs a string or integer, got a dict" },
    { "{{ nope | upper }}", "t:1:1: unknown variable \"nope\"" },
    /* values that cannot be used that way */
    { "{{ xs }}", "t:1:1: cannot print a list" },
    { "{% if zero == \"0\" %}{% endif %}", "t:1:1: cannot compare an integer with a string" },
    { "{% if xs == xs %}{% endif %}", "t:1:1: cannot compare a list with a list" },
    { "x\n {% for x in d %}{% endfor %}", "t:2:2: \"for\" needs a list, got a dict" },
    { "{% for c in name %}{% endfor %}", "t:1:1: \"for\" needs a list, got a string" },
    { "{% include zero %}", "t:1:1: \"include\" needs a template name, got an integer" },
    /* blocks */
    { "a\n{% for x in xs %}\n{{ x }}\n", "t:2:1: unclosed \"for\": no matching \"endfor\"" },
    { "{% if yes %}\n{% for x in xs %}{% endfor %}",
      "t:1:1: unclosed \"if\": no matching \"endif\"" },
    { "{% if yes %}{% else %}", "t:1:1: unclosed \"if\": no matching \"endif\"" },
    { "{% for x in xs %}{% if x %}{% endfor %}", "t:1:28: unexpected \"endfor\"" },
    { "ok\n  {% endfor %}", "t:2:3: unexpected \"endfor\"" },
    { "{% endif %}", "t:1:1: unexpected \"endif\"" },
    { "{% else %}", "t:1:1: unexpected \"else\"" },
    { "{% elif yes %}", "t:1:1: unexpected \"elif\"" },
    { "{% for x in xs %}{% else %}{% endfor %}", "t:1:18: unexpected \"else\"" },
    { "{% if no %}{% else %}{% else %}{% endif %}", "t:1:22: unexpected \"else\"" },
    { "{% if no %}{% else %}{% elif yes %}{% endif %}", "t:1:22: unexpected \"elif\"" },
    /* unterminated tags */
    { "ab {{ name ", "t:1:4: unterminated \"{{\"" },
    { "\n\n  {% if yes %", "t:3:3: unterminated \"{%\"" },
    { "{# note", "t:1:1: unterminated \"{#\"" },
    { "{{ \"abc }}", "t:1:1: unterminated string" },
    /* syntax inside tags */
    { "{% for in xs %}{% endfor %}",
      "t:1:1: syntax error: expected a loop variable, found \"in\"" },
    { "{% for x of xs %}{% endfor %}", "t:1:1: syntax error: expected \"in\", found \"of\"" },
    { "{% for x in %}{% endfor %}", "t:1:1: syntax error: expected a value, found end of tag" },
    { "{{ a b }}", "t:1:1: syntax error: expected end of tag, found \"b\"" },
    { "{{ }}", "t:1:1: syntax error: expected a value, found end of tag" },
    { "{{ robot. }}", "t:1:1: syntax error: expected an attribute name, found end of tag" },
    { "{{ name | }}", "t:1:1: syntax error: expected a filter name, found end of tag" },
    { "{{ xs | join(\",\" }}", "t:1:1: syntax error: expected \")\", found end of tag" },
    { "{{ a @ b }}", "t:1:1: syntax error: unexpected \"@\"" },
    { "{{ \"a\\q\" }}", "t:1:1: syntax error: bad escape in \"a\\q\"" },
    { "{{ 99999999999999999999999 }}",
      "t:1:1: syntax error: integer 99999999999999999999999 out of range" },
    { "{% set x %}", "t:1:1: syntax error: expected \"=\", found end of tag" },
    { "{% set 1 = 2 %}", "t:1:1: syntax error: expected a variable name, found \"1\"" },
    { "{% frob %}", "t:1:1: unknown tag \"frob\"" },
    { "{% %}", "t:1:1: syntax error: empty tag" },
    { "{% \"x\" %}", "t:1:1: syntax error: expected a tag name, found \"\"x\"\"" },
    { "{% if yes %}{% endif yes %}", "t:1:13: syntax error: expected end of tag, found \"yes\"" },
    { "{% if yes %}{% else no %}{% endif %}",
      "t:1:13: syntax error: expected end of tag, found \"no\"" },
    { "{% if %}{% endif %}", "t:1:1: syntax error: expected a value, found end of tag" },
    { "{% if not %}{% endif %}", "t:1:1: syntax error: expected a value, found end of tag" },
    { "{% if yes and %}{% endif %}", "t:1:1: syntax error: expected a value, found end of tag" },
    { "{% if yes == %}{% endif %}", "t:1:1: syntax error: expected a value, found end of tag" },
    { "{{ x = 1 }}", "t:1:1: syntax error: expected end of tag, found \"=\"" },
    { "{{+ x }}", "t:1:1: syntax error: unexpected \"+\"" },
    /* includes */
    { "line\n{% include \"missing\" %}", "t:2:1: template \"missing\" not found" },
    { "{% include \"bad\" %}", "bad:2:3: unknown variable \"nope\"" },
    { "{% include \"self\" %}", "self:1:2: include depth exceeds 16" },
    { "{% include \"n0\" %}", "n15:1:1: include depth exceeds 16" },
};

START_TEST(test_errors)
{
    const failure *f = &errors[_i];
    char err[256], *out = (char *)"untouched";
    int rc = tpl_render("t", f->text, g_ctx, load, NULL, &out, err, sizeof err);
    ck_assert_msg(rc == -1, "no error for [%s]", f->text);
    ck_assert_ptr_null(out);
    ck_assert_msg(strcmp(err, f->expected) == 0, "template: [%s]\nexpected: [%s]\ngot:      [%s]",
                  f->text, f->expected, err);
}
END_TEST

START_TEST(test_error_without_loader_or_buffer)
{
    char err[256], small[8], *out = NULL;
    ck_assert_int_eq(
        tpl_render("main.c.tpl", "{% include \"x\" %}", g_ctx, NULL, NULL, &out, err, sizeof err),
        -1);
    ck_assert_str_eq(err, "main.c.tpl:1:1: template \"x\" not found");
    ck_assert_int_eq(tpl_render("t", "{{ nope }}", g_ctx, NULL, NULL, &out, NULL, 0), -1);
    ck_assert_int_eq(tpl_render("t", "{{ nope }}", g_ctx, NULL, NULL, &out, small, sizeof small),
                     -1);
    ck_assert_str_eq(small, "t:1:1: ");
    ck_assert_int_eq(
        tpl_render("t", "x", tpl_dict_get(g_ctx, "xs"), NULL, NULL, &out, err, sizeof err), -1);
    ck_assert_str_eq(err, "t:1:1: the context must be a dict, got a list");
    ck_assert_int_eq(tpl_render(NULL, NULL, NULL, NULL, NULL, &out, err, sizeof err), -1);
    ck_assert_str_eq(err, "<template>:1:1: no template text");
}
END_TEST

/* ------------------------------------------------- allocation failures */

#ifdef TPL_TEST_WRAP_ALLOC
/* Linked with -Wl,--wrap= for malloc, calloc (gcc may turn malloc+memset into it) and
 * realloc: fail exactly the n-th allocation. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static long alloc_countdown = -1; /* -1: never fail */
static int alloc_failed;

static int alloc_should_fail(void)
{
    if (alloc_countdown < 0)
        return 0;
    if (alloc_countdown-- > 0)
        return 0;
    alloc_failed = 1;
    return 1;
}

void *__wrap_malloc(size_t n)
{
    return alloc_should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return alloc_should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return alloc_should_fail() ? NULL : __real_realloc(p, n);
}

static void alloc_fail_at(long n)
{
    alloc_countdown = n;
    alloc_failed = 0;
}

static void alloc_never_fail(void)
{
    alloc_countdown = -1;
}

static const char *const busy_template =
    "{% set k = name | c_ident | upper %}\n"
    "/* {{ k }} {{ nope | default(\"d\") }} */\n"
    "{% for r in rows %}\n"
    "  {% for c in r.cols %}{{ c }}{% if not loop.last %}, {% endif %}{% endfor +%}\n"
    "  {{ xs | join(\", \") }} {{ body | indent(2) }}{{ \"3a\" | c_ident }}\n"
    "  {% set x = \"S\" | lower %}{% include \"mid\" %} {{ x }}\n"
    "{% endfor %}\n";

START_TEST(test_render_out_of_memory)
{
    char err[256], *out, *reference = render_ok(busy_template);
    long n;
    for (n = 0;; n++) {
        int rc;
        out = NULL;
        alloc_fail_at(n);
        rc = tpl_render("t", busy_template, g_ctx, load, NULL, &out, err, sizeof err);
        alloc_never_fail();
        if (!alloc_failed) {
            ck_assert_int_eq(rc, 0);
            break;
        }
        ck_assert_msg(rc == -1, "allocation %ld failed unnoticed", n);
        ck_assert_ptr_null(out);
        ck_assert_msg(strstr(err, ": out of memory") != NULL, "allocation %ld: %s", n, err);
    }
    ck_assert_msg(n > 30, "only %ld allocations", n);
    ck_assert_str_eq(out, reference);
    free(out);
    free(reference);
}
END_TEST

START_TEST(test_context_out_of_memory)
{
    char err[256], *out = NULL;
    long n;
    for (n = 0;; n++) {
        tpl_value *ctx;
        alloc_fail_at(n);
        ctx = make_context(3);
        alloc_never_fail();
        if (!alloc_failed) {
            tpl_free(ctx);
            break;
        }
        if (ctx) {
            ck_assert_int_eq(tpl_render("t", "x", ctx, NULL, NULL, &out, err, sizeof err), -1);
            ck_assert_str_eq(err, "t:1:1: out of memory while the context was built");
        }
        tpl_free(ctx);
    }
    ck_assert_msg(n > 100, "only %ld allocations", n);
}
END_TEST
#endif

/* --------------------------------------------------------------- suite */

static Suite *template_suite(void)
{
    Suite *s = suite_create("template");
    TCase *golden = tcase_create("golden"), *fail = tcase_create("errors");
    tcase_add_checked_fixture(golden, setup, teardown);
    tcase_add_loop_test(golden, test_values, 0, N(values));
    tcase_add_loop_test(golden, test_filters, 0, N(filters));
    tcase_add_loop_test(golden, test_conditions, 0, N(conditions));
    tcase_add_loop_test(golden, test_loops, 0, N(loops));
    tcase_add_loop_test(golden, test_whitespace, 0, N(whitespace));
    tcase_add_loop_test(golden, test_sets, 0, N(sets));
    tcase_add_loop_test(golden, test_includes, 0, N(includes));
    tcase_add_test(golden, test_thousand_items);
    tcase_add_test(golden, test_null_context_and_dict_api);
    tcase_add_test(golden, test_text_bytes);
    suite_add_tcase(s, golden);
    tcase_add_checked_fixture(fail, setup, teardown);
    tcase_add_loop_test(fail, test_errors, 0, N(errors));
    tcase_add_test(fail, test_error_without_loader_or_buffer);
#ifdef TPL_TEST_WRAP_ALLOC
    tcase_add_test(fail, test_render_out_of_memory);
    tcase_add_test(fail, test_context_out_of_memory);
#endif
    suite_add_tcase(s, fail);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(template_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
