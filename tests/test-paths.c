/* test-paths.c - the program finds its launcher and bundled bots in the
 * build tree and in an installed prefix, also after the prefix was moved,
 * and never elsewhere.
 *
 * The lookup starts from /proc/self/exe, so the installed cases copy this
 * test program into a fake prefix in /tmp (bin/, the launcher at bin's
 * TX_LIBEXEC_FROM_BINDIR, a bundled bot in bin/) and run the copy with
 * --print-paths, which prints what tx_paths_find saw.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"

#ifndef TX_LIBEXEC_FROM_BINDIR
#error "TX_LIBEXEC_FROM_BINDIR must be the path from bindir to the launcher's directory"
#endif

/* --print-paths: one line each: the return value, the layout, the launcher
 * (or where it looked), the bots' directory, the path of twixt-random or -. */
static int print_paths(void)
{
    struct tx_paths p;
    char bot[PATH_MAX];
    int r = tx_paths_find(&p);
    printf("%d\n%s\n%s\n%s\n", r, tx_paths_layout_name(p.layout), p.launcher, p.bots_dir);
    printf("%s\n", tx_paths_bundled_bot("twixt-random", bot, sizeof bot, NULL) == 0 ? bot : "-");
    return 0;
}

static void mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        ck_assert_msg(mkdir(buf, 0755) == 0 || errno == EEXIST, "mkdir %s", buf);
        *s = '/';
    }
    ck_assert_msg(mkdir(buf, 0755) == 0 || errno == EEXIST, "mkdir %s", buf);
}

/* An executable file at path (its contents do not matter to the lookup). */
static void make_executable(const char *path, const char *source)
{
    int in = open(source ? source : "/dev/null", O_RDONLY);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    ck_assert_int_ge(in, 0);
    ck_assert_msg(out >= 0, "cannot create %s", path);
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        ck_assert_int_eq(write(out, buf, (size_t)n), n);
    ck_assert_int_eq(n, 0);
    close(in);
    ck_assert_int_eq(close(out), 0);
}

/* A fake prefix in /tmp: PREFIX/bin/test-paths (a copy of this program),
 * and with `installed` the launcher at bin/TX_LIBEXEC_FROM_BINDIR and
 * bin/twixt-random. Writes the prefix (symbolic links resolved) into buf. */
static void make_prefix(char buf[PATH_MAX], bool installed)
{
    char tmp[] = "/tmp/tx-paths-XXXXXX", path[PATH_MAX];
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    ck_assert_ptr_nonnull(realpath(tmp, buf));
    snprintf(path, sizeof path, "%s/bin", buf);
    mkdir_p(path);
    snprintf(path, sizeof path, "%s/bin/test-paths", buf);
    make_executable(path, "/proc/self/exe");
    if (installed) {
        snprintf(path, sizeof path, "%s/bin/" TX_LIBEXEC_FROM_BINDIR, buf);
        mkdir_p(path);
        snprintf(path, sizeof path, "%s/bin/" TX_LIBEXEC_FROM_BINDIR "/twixt-launch", buf);
        make_executable(path, NULL);
        snprintf(path, sizeof path, "%s/bin/twixt-random", buf);
        make_executable(path, NULL);
    }
}

static void remove_tree(const char *dir)
{
    char command[PATH_MAX + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}

/* Runs PREFIX/bin/test-paths --print-paths with TX_LAUNCHER set to env (or
 * unset) and reads its five lines into lines. */
static void run_copy(const char *prefix, const char *env, char lines[5][PATH_MAX + 128])
{
    char command[2 * PATH_MAX];
    if (env)
        snprintf(command, sizeof command, "TX_LAUNCHER='%s' '%s/bin/test-paths' --print-paths", env,
                 prefix);
    else
        snprintf(command, sizeof command, "env -u TX_LAUNCHER '%s/bin/test-paths' --print-paths",
                 prefix);
    FILE *f = popen(command, "r");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 5; i++) {
        ck_assert_msg(fgets(lines[i], PATH_MAX + 128, f), "line %d of %s", i + 1, command);
        lines[i][strcspn(lines[i], "\n")] = '\0';
    }
    ck_assert_int_eq(pclose(f), 0);
}

/* The launcher's directory of an installed prefix, resolved. */
static void installed_launcher(char *buf, const char *prefix)
{
    char dir[PATH_MAX + 64], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/bin/" TX_LIBEXEC_FROM_BINDIR, prefix);
    ck_assert_ptr_nonnull(realpath(dir, real));
    snprintf(buf, PATH_MAX + 64, "%s/twixt-launch", real);
}

START_TEST(paths_build_tree_from_the_tests_directory)
{
    const char *build = getenv("TX_BUILD_DIR");
    ck_assert_ptr_nonnull(build);
    char dir[PATH_MAX], launcher[PATH_MAX + 16], bots[PATH_MAX], bot[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/referee", build);
    ck_assert_ptr_nonnull(realpath(dir, launcher));
    strcat(launcher, "/twixt-launch");
    snprintf(dir, sizeof dir, "%s/bots", build);
    ck_assert_ptr_nonnull(realpath(dir, bots));

    struct tx_paths p;
    ck_assert_int_eq(tx_paths_find(&p), 0);
    ck_assert_int_eq(p.layout, TX_PATHS_BUILD);
    ck_assert_str_eq(tx_paths_layout_name(p.layout), "build tree");
    ck_assert_str_eq(p.launcher, launcher);
    ck_assert_str_eq(p.bots_dir, bots);

    char found[PATH_MAX];
    enum tx_paths_layout layout = TX_PATHS_NOT_FOUND;
    snprintf(bot, sizeof bot, "%s/twixt-random", bots);
    ck_assert_int_eq(tx_paths_bundled_bot("twixt-random", found, sizeof found, &layout), 0);
    ck_assert_str_eq(found, bot);
    ck_assert_int_eq(layout, TX_PATHS_BUILD);
}
END_TEST

START_TEST(paths_missing_bundled_bot_is_enoent)
{
    char found[PATH_MAX];
    ck_assert_int_eq(tx_paths_bundled_bot("twixt-no-such-bot", found, sizeof found, NULL), -ENOENT);
}
END_TEST

START_TEST(paths_installed_prefix_launcher_in_libexec_bots_in_bindir)
{
    char prefix[PATH_MAX], launcher[PATH_MAX + 64], want[PATH_MAX + 64];
    char lines[5][PATH_MAX + 128];
    make_prefix(prefix, true);
    installed_launcher(launcher, prefix);
    run_copy(prefix, NULL, lines);
    ck_assert_str_eq(lines[0], "0");
    ck_assert_str_eq(lines[1], "installed");
    ck_assert_str_eq(lines[2], launcher);
    snprintf(want, sizeof want, "%s/bin", prefix);
    ck_assert_str_eq(lines[3], want);
    snprintf(want, sizeof want, "%s/bin/twixt-random", prefix);
    ck_assert_str_eq(lines[4], want);
    remove_tree(prefix);
}
END_TEST

START_TEST(paths_moved_prefix_still_finds_its_parts)
{
    char prefix[PATH_MAX], moved[PATH_MAX + 16], launcher[PATH_MAX + 64], want[PATH_MAX + 64];
    char lines[5][PATH_MAX + 128];
    make_prefix(prefix, true);
    snprintf(moved, sizeof moved, "%s-moved", prefix);
    ck_assert_int_eq(rename(prefix, moved), 0);
    installed_launcher(launcher, moved);
    run_copy(moved, NULL, lines);
    ck_assert_str_eq(lines[1], "installed");
    ck_assert_str_eq(lines[2], launcher);
    snprintf(want, sizeof want, "%s/bin/twixt-random", moved);
    ck_assert_str_eq(lines[4], want);
    remove_tree(moved);
}
END_TEST

START_TEST(paths_installed_layout_comes_before_a_build_tree_shape)
{
    /* PREFIX/referee/twixt-launch looks like a build tree's launcher from
     * bin/; an installed program uses its own. */
    char prefix[PATH_MAX], launcher[PATH_MAX + 64], path[PATH_MAX + 64];
    char lines[5][PATH_MAX + 128];
    make_prefix(prefix, true);
    snprintf(path, sizeof path, "%s/referee", prefix);
    mkdir_p(path);
    strcat(path, "/twixt-launch");
    make_executable(path, NULL);
    installed_launcher(launcher, prefix);
    run_copy(prefix, NULL, lines);
    ck_assert_str_eq(lines[1], "installed");
    ck_assert_str_eq(lines[2], launcher);
    remove_tree(prefix);
}
END_TEST

START_TEST(paths_no_launcher_says_where_it_looked)
{
    char prefix[PATH_MAX], want[PATH_MAX + 64];
    char lines[5][PATH_MAX + 128];
    make_prefix(prefix, false);
    run_copy(prefix, NULL, lines);
    ck_assert_str_eq(lines[0], "-2"); /* -ENOENT */
    ck_assert_str_eq(lines[1], "not found");
    snprintf(want, sizeof want, "%s/bin/" TX_LIBEXEC_FROM_BINDIR " (installed)", prefix);
    ck_assert_msg(strstr(lines[2], want), "'%s' does not name '%s'", lines[2], want);
    ck_assert_ptr_nonnull(strstr(lines[2], "$TX_LAUNCHER"));
    ck_assert_str_eq(lines[4], "-");
    remove_tree(prefix);
}
END_TEST

START_TEST(paths_tx_launcher_is_the_last_resort_without_bundled_bots)
{
    char prefix[PATH_MAX], launcher[PATH_MAX + 64];
    char lines[5][PATH_MAX + 128];
    make_prefix(prefix, false);
    snprintf(launcher, sizeof launcher, "%s/my-launch", prefix);
    make_executable(launcher, NULL);
    run_copy(prefix, launcher, lines);
    ck_assert_str_eq(lines[0], "0");
    ck_assert_str_eq(lines[1], "$TX_LAUNCHER");
    ck_assert_str_eq(lines[2], launcher);
    ck_assert_str_eq(lines[4], "-");
    remove_tree(prefix);
}
END_TEST

static Suite *paths_suite(void)
{
    Suite *s = suite_create("paths");
    TCase *tc = tcase_create("paths");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, paths_build_tree_from_the_tests_directory);
    tcase_add_test(tc, paths_missing_bundled_bot_is_enoent);
    tcase_add_test(tc, paths_installed_prefix_launcher_in_libexec_bots_in_bindir);
    tcase_add_test(tc, paths_moved_prefix_still_finds_its_parts);
    tcase_add_test(tc, paths_installed_layout_comes_before_a_build_tree_shape);
    tcase_add_test(tc, paths_no_launcher_says_where_it_looked);
    tcase_add_test(tc, paths_tx_launcher_is_the_last_resort_without_bundled_bots);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--print-paths"))
        return print_paths();
    SRunner *sr = srunner_create(paths_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
