/* test_output.c — the output stage (generator/output.h): all or nothing, never a file
 * cdyngen did not write.
 *
 * Each test works in a fresh folder under $TMPDIR (default /tmp) and compares the folder's
 * whole listing and every file's bytes with what they must be. The failure test makes each
 * file-system step fail in turn (output_fail_step) and checks that the folder is exactly as
 * before every time; the signal test lets SIGXFSZ (a file-size limit) cut a write short. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/check_main.h"
#include "write/output.h"

static char dir[512];

static void make_folder(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cdyn_output_XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_folder(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (rmdir(path) != 0)
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void put(const char *name, const char *text)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* The file's bytes, or "" when missing (static buffer). */
static const char *get(const char *name)
{
    static char text[4096];
    char path[1024];
    size_t n = 0;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "rb");
    if (f) {
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[n] = '\0';
    return text;
}

/* Every entry of the folder, sorted, joined by spaces (hidden ones too). */
static const char *listing(void)
{
    static char out[2048];
    char names[64][256];
    int n = 0, i, j;
    DIR *d = opendir(dir);
    struct dirent *e;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL && n < 64)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    closedir(d);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[256];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
        }
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        strcat(out, i ? " " : "");
        strcat(out, names[i]);
    }
    return out;
}

#define OLD_A "/* " OUTPUT_MARKER " */\nold a\n"
#define OLD_B "/* " OUTPUT_MARKER " */\nold b\n"
static const output_file NEW[] = { { "a.c", "new a\n" },
                                   { "b.h", "new b\n" },
                                   { "c.c", "new c\n" } };
#define NNEW 3

/* keep.txt (someone's), a.c and b.h (an earlier run's). */
static void earlier_run(void)
{
    put("keep.txt", "someone's notes\n");
    put("a.c", OLD_A);
    put("b.h", OLD_B);
}

static void assert_as_before(void)
{
    ck_assert_str_eq(listing(), "a.c b.h keep.txt");
    ck_assert_str_eq(get("keep.txt"), "someone's notes\n");
    ck_assert_str_eq(get("a.c"), OLD_A);
    ck_assert_str_eq(get("b.h"), OLD_B);
}

START_TEST(writes_every_file_with_the_marker_and_the_umask)
{
    char err[512], path[1024];
    struct stat st;
    mode_t old = umask(027);
    make_folder();
    earlier_run();
    ck_assert_int_eq(output_write_all(dir, NEW, NNEW, 0, err, sizeof err), 0);
    umask(old);
    ck_assert_str_eq(listing(), "a.c b.h c.c keep.txt");
    ck_assert_str_eq(get("a.c"),
                     "/* " OUTPUT_MARKER ": a later run replaces this file. */\nnew a\n");
    ck_assert_str_eq(get("keep.txt"), "someone's notes\n");
    snprintf(path, sizeof path, "%s/c.c", dir);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
    remove_folder();
}
END_TEST

START_TEST(a_failure_at_any_step_leaves_the_folder_as_it_was)
{
    char err[512];
    int steps, k;
    make_folder();
    earlier_run();
    output_fail_step(-1);
    ck_assert_int_eq(output_write_all(dir, NEW, NNEW, 0, err, sizeof err), 0);
    steps = output_fail_step(-1);
    ck_assert_int_ge(steps, 3 * NNEW); /* at least create, write and rename each */
    for (k = 0; k < steps; k++) {
        remove_folder();
        make_folder();
        earlier_run();
        output_fail_step(k);
        err[0] = '\0';
        ck_assert_msg(output_write_all(dir, NEW, NNEW, 0, err, sizeof err) != 0,
                      "step %d of %d did not fail", k, steps);
        ck_assert_msg(strstr(err, dir) != NULL, "step %d: message \"%s\" names no path", k, err);
        assert_as_before();
    }
    output_fail_step(-1);
    remove_folder();
}
END_TEST

START_TEST(a_file_cdyngen_did_not_write_is_refused_unless_forced)
{
    char err[512];
    make_folder();
    earlier_run();
    put("b.h", "a header someone wrote\n");
    ck_assert_int_ne(output_write_all(dir, NEW, NNEW, 0, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "/b.h: exists and was not written by cdyngen"));
    ck_assert_str_eq(listing(), "a.c b.h keep.txt");
    ck_assert_str_eq(get("a.c"), OLD_A);
    ck_assert_str_eq(get("b.h"), "a header someone wrote\n");
    ck_assert_int_eq(output_write_all(dir, NEW, NNEW, 1, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(get("b.h"), "new b\n"));
    ck_assert_str_eq(listing(), "a.c b.h c.c keep.txt");
    remove_folder();
}
END_TEST

START_TEST(a_folder_in_the_way_is_refused_even_forced)
{
    char err[512], path[1024];
    make_folder();
    earlier_run();
    snprintf(path, sizeof path, "%s/c.c", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    ck_assert_int_ne(output_write_all(dir, NEW, NNEW, 1, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "/c.c: is a folder"));
    ck_assert_str_eq(listing(), "a.c b.h c.c keep.txt");
    ck_assert_str_eq(get("a.c"), OLD_A);
    remove_folder();
}
END_TEST

START_TEST(a_symlink_in_the_way_is_refused_and_its_target_never_written)
{
    char err[512], path[1024];
    make_folder();
    earlier_run();
    snprintf(path, sizeof path, "%s/c.c", dir);
    ck_assert_int_eq(symlink("keep.txt", path), 0);
    ck_assert_int_ne(output_write_all(dir, NEW, NNEW, 0, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "/c.c: exists and was not written by cdyngen"));
    ck_assert_int_eq(output_write_all(dir, NEW, NNEW, 1, err, sizeof err), 0);
    ck_assert_str_eq(get("keep.txt"), "someone's notes\n");
    ck_assert_ptr_nonnull(strstr(get("c.c"), "new c\n"));
    remove_folder();
}
END_TEST

START_TEST(leftovers_of_an_interrupted_run_are_cleaned_or_put_back)
{
    char err[512];
    make_folder();
    earlier_run();
    put(".a.c.Xy12Z9", "half a temporary");
    put(".b.h.bak.Qw34Er", OLD_B); /* b.h's backup, b.h itself gone */
    {
        char path[1024];
        snprintf(path, sizeof path, "%s/b.h", dir);
        unlink(path);
    }
    put(".a.c.notours", "someone's hidden file");
    /* a run refused by a foreign c.c still cleans up first */
    put("c.c", "someone's c file\n");
    ck_assert_int_ne(output_write_all(dir, NEW, NNEW, 0, err, sizeof err), 0);
    ck_assert_str_eq(listing(), ".a.c.notours a.c b.h c.c keep.txt");
    ck_assert_str_eq(get("b.h"), OLD_B);
    remove_folder();
}
END_TEST

START_TEST(a_signal_during_the_write_leaves_no_temporary)
{
    static char big[200000];
    output_file files[2];
    int status;
    pid_t pid;
    make_folder();
    earlier_run();
    memset(big, 'x', sizeof big - 1);
    files[0].name = "a.c";
    files[0].content = "new a\n";
    files[1].name = "b.h";
    files[1].content = big;
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit lim = { 100000, 100000 }; /* b.h's write gets SIGXFSZ */
        char err[512];
        setrlimit(RLIMIT_FSIZE, &lim);
        output_write_all(dir, files, 2, 0, err, sizeof err);
        _exit(0);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status));
    ck_assert_int_eq(WTERMSIG(status), SIGXFSZ);
    assert_as_before();
    remove_folder();
}
END_TEST

static Suite *output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("folder");
    tcase_add_test(tc, writes_every_file_with_the_marker_and_the_umask);
    tcase_add_test(tc, a_failure_at_any_step_leaves_the_folder_as_it_was);
    tcase_add_test(tc, a_file_cdyngen_did_not_write_is_refused_unless_forced);
    tcase_add_test(tc, a_folder_in_the_way_is_refused_even_forced);
    tcase_add_test(tc, a_symlink_in_the_way_is_refused_and_its_target_never_written);
    tcase_add_test(tc, leftovers_of_an_interrupted_run_are_cleaned_or_put_back);
    tcase_add_test(tc, a_signal_during_the_write_leaves_no_temporary);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run(output_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
