/* test-command.c - bot command lines (referee/command.h) and SHA-256
 * (referee/sha256.h): shell-like splitting, NAME=COMMAND, derived names,
 * placeholders, the program lookup and its wording, and the hash against
 * the FIPS 180-4 test vectors.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "sha256.h"

static char **split_ok(const char *line, int want_argc)
{
    char **argv = NULL;
    int argc = -1;
    char err[96] = "";
    ck_assert_msg(tx_command_split(line, &argv, &argc, err, sizeof err) == 0, "split '%s': %s",
                  line, err);
    ck_assert_int_eq(argc, want_argc);
    ck_assert_ptr_null(argv[argc]);
    return argv;
}

static void split_fails(const char *line, const char *want_err)
{
    char **argv = (char **)1;
    int argc = -1;
    char err[96] = "";
    ck_assert_int_eq(tx_command_split(line, &argv, &argc, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, want_err);
    ck_assert_ptr_eq(argv, (char **)1); /* untouched on failure */
    ck_assert_int_eq(argc, -1);
}

START_TEST(split_blanks_separate_words)
{
    char **argv = split_ok("  build/bots/twixt-mcts\t--ms  250 \n", 3);
    ck_assert_str_eq(argv[0], "build/bots/twixt-mcts");
    ck_assert_str_eq(argv[1], "--ms");
    ck_assert_str_eq(argv[2], "250");
    tx_command_free(argv);
}
END_TEST

START_TEST(split_quotes_and_backslashes_like_sh)
{
    char **argv = split_ok("a' b 'c \"d \\\"e\\\" \\$f \\g\" h\\ i '' \"\" 'it'\\''s'", 6);
    ck_assert_str_eq(argv[0], "a b c");
    ck_assert_str_eq(argv[1], "d \"e\" $f \\g"); /* \g stays: not special in double quotes */
    ck_assert_str_eq(argv[2], "h i");
    ck_assert_str_eq(argv[3], "");
    ck_assert_str_eq(argv[4], "");
    ck_assert_str_eq(argv[5], "it's");
    tx_command_free(argv);
}
END_TEST

START_TEST(split_expands_nothing)
{
    char **argv = split_ok("./bot $HOME ~ *.py `x` $(y) > out", 8);
    ck_assert_str_eq(argv[1], "$HOME");
    ck_assert_str_eq(argv[2], "~");
    ck_assert_str_eq(argv[3], "*.py");
    ck_assert_str_eq(argv[6], ">");
    tx_command_free(argv);
}
END_TEST

START_TEST(split_refuses_bad_lines_with_a_reason)
{
    split_fails("./bot 'abc", "unbalanced single quote");
    split_fails("./bot \"abc", "unbalanced double quote");
    split_fails("./bot \"a\\\"", "unbalanced double quote");
    split_fails("./bot \\", "trailing backslash");
    split_fails("", "empty command");
    split_fails(" \t ", "empty command");
    char line[2048] = "";
    for (int i = 0; i < TX_COMMAND_WORDS_MAX + 1; i++)
        strcat(line, "w ");
    split_fails(line, "more than 256 words");
}
END_TEST

START_TEST(parse_bot_takes_a_name)
{
    char name[TX_COMMAND_NAME_MAX];
    const char *command = NULL;
    char err[128];
    ck_assert_int_eq(
        tx_command_parse_bot("deep-3=python3 bot.py --depth=3", name, &command, err, sizeof err),
        0);
    ck_assert_str_eq(name, "deep-3");
    ck_assert_str_eq(command, "python3 bot.py --depth=3");
}
END_TEST

START_TEST(parse_bot_derives_a_name)
{
    char name[TX_COMMAND_NAME_MAX];
    const char *command = NULL;
    char err[128];
    ck_assert_int_eq(tx_command_parse_bot("./bots/my-bot --x=1", name, &command, err, sizeof err),
                     0);
    ck_assert_str_eq(name, "my-bot");
    ck_assert_str_eq(command, "./bots/my-bot --x=1");
}
END_TEST

START_TEST(parse_bot_refuses_bad_commands)
{
    char name[TX_COMMAND_NAME_MAX];
    const char *command = NULL;
    char err[128];
    ck_assert_int_eq(tx_command_parse_bot("x=", name, &command, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "bad command line \"\": empty command");
    ck_assert_int_eq(tx_command_parse_bot("x=./bot 'a", name, &command, err, sizeof err), -EINVAL);
    ck_assert_str_eq(err, "bad command line \"./bot 'a\": unbalanced single quote");
    ck_assert_ptr_null(command);
}
END_TEST

static void derived(const char *command, const char *want)
{
    char name[TX_COMMAND_NAME_MAX];
    tx_command_derive_name(command, name);
    ck_assert_msg(!strcmp(name, want), "'%s' -> '%s', want '%s'", command, name, want);
}

START_TEST(derive_name_skips_interpreters)
{
    derived("build/bots/twixt-greedy", "twixt-greedy");
    derived("python3 -u bots/starter.py --size 12", "starter");
    derived("/usr/bin/python3.11 my_bot.py", "my_bot");
    derived("env FOO=1 node dist/bot.js", "bot");
    derived("nice -n 5 ./fast", "fast");
    derived("java -jar bot.jar", "bot");
    derived("python3", "python3");
    derived("'unbalanced", "bot");
}
END_TEST

START_TEST(expand_replaces_placeholders)
{
    char *s = tx_command_expand(
        "bot --seed {seed} --size {size} {seed}{size} {other}", 18446744073709551615ULL,
        &(struct tx_variant){.rules = TX_RULES_PP, .width = 12, .height = 12});
    ck_assert_str_eq(s, "bot --seed 18446744073709551615 --size 12 1844674407370955161512 {other}");
    free(s);
    s = tx_command_expand("{seed}", 0,
                          &(struct tx_variant){.rules = TX_RULES_PP, .width = 5, .height = 5});
    ck_assert_str_eq(s, "0");
    free(s);
    /* The rule set and each side of a board that is not square. */
    s = tx_command_expand(
        "bot --rules {rules} --board {width}x{height} {sizes}", 7,
        &(struct tx_variant){.rules = TX_RULES_CLASSIC, .width = 30, .height = 24});
    ck_assert_str_eq(s, "bot --rules classic --board 30x24 {sizes}");
    free(s);
    /* The opening and Double TwixT; a brace that starts no placeholder. */
    s = tx_command_expand("bot {opening} {teams} {{opening}} {", 7,
                          &(struct tx_variant){.rules = TX_RULES_PP,
                                               .width = 12,
                                               .height = 12,
                                               .opening = TX_OPENING_PIE,
                                               .teams = true});
    ck_assert_str_eq(s, "bot pie 1 {pie} {");
    free(s);
    s = tx_command_expand("{opening}{teams}", 7,
                          &(struct tx_variant){.rules = TX_RULES_PP, .width = 12, .height = 12});
    ck_assert_str_eq(s, "swap0");
    free(s);
}
END_TEST

static void hash_is(const void *data, size_t len, const char *want)
{
    struct tx_sha256 s;
    char hex[TX_SHA256_HEX];
    tx_sha256_init(&s);
    tx_sha256_update(&s, data, len);
    tx_sha256_final(&s, hex);
    ck_assert_str_eq(hex, want);
    /* The same bytes fed one at a time give the same hash. */
    tx_sha256_init(&s);
    for (size_t i = 0; i < len; i++)
        tx_sha256_update(&s, (const char *)data + i, 1);
    tx_sha256_final(&s, hex);
    ck_assert_str_eq(hex, want);
}

START_TEST(sha256_matches_fips_vectors)
{
    hash_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hash_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hash_is(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *million = malloc(1000000);
    memset(million, 'a', 1000000);
    hash_is(million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
}
END_TEST

START_TEST(placeholders_only_known_ones)
{
#define ALL "{seed}, {size}, {rules}, {width}, {height}, {opening} and {teams}"
    static const struct {
        const char *command;
        const char *err; /* NULL: accepted */
    } cases[] = {
        {"bot --seed {seed} --size {size}", NULL},
        {"bot {seed}{size}", NULL},
        {"python3 -c 'print({})'", NULL}, /* not a placeholder's shape */
        {"bot --json {\"a\": 1}", NULL},  /* nor this */
        {"bot {1} { seed } {size", NULL}, /* nor these */
        {"bot --rules {rules} --board {width}x{height}", NULL},
        {"bot --seed {sed}", "unknown placeholder {sed} (the placeholders are " ALL ")"},
        {"bot {Seed}", "unknown placeholder {Seed} (the placeholders are " ALL ")"},
        {"bot {size} {board-size}",
         "unknown placeholder {board-size} (the placeholders are " ALL ")"},
        {"bot {widths}", "unknown placeholder {widths} (the placeholders are " ALL ")"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[128] = "";
        int rc = tx_command_check_placeholders(cases[i].command, err, sizeof err);
        if (!cases[i].err) {
            ck_assert_msg(rc == 0, "'%s': %s", cases[i].command, err);
        } else {
            ck_assert_int_eq(rc, -EINVAL);
            ck_assert_str_eq(err, cases[i].err);
        }
    }
    ck_assert(tx_command_has_size("bot --size {size}"));
    ck_assert(!tx_command_has_size("bot --size 12"));
}
END_TEST

/* A scratch directory with one file of each kind the lookup tells apart;
 * the test runs inside it (relative paths as users write them). */
static char lookup_dir[64];
static char lookup_cwd[4096];

static void write_mode(const char *name, const char *text, mode_t mode)
{
    FILE *f = fopen(name, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_int_eq(chmod(name, mode), 0);
}

static void lookup_setup(void)
{
    ck_assert_ptr_nonnull(getcwd(lookup_cwd, sizeof lookup_cwd));
    snprintf(lookup_dir, sizeof lookup_dir, "/tmp/test-command-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(lookup_dir));
    ck_assert_int_eq(chdir(lookup_dir), 0);
    ck_assert_int_eq(mkdir("botdir", 0755), 0);
    write_mode("plain.py", "print('F6')\n", 0644);
    write_mode("exec", "#!/bin/sh\necho F6\n", 0755);
    write_mode("orphan", "#!/no/such/python3 -u\nprint('F6')\n", 0755);
}

static void lookup_teardown(void)
{
    ck_assert_int_eq(chdir(lookup_cwd), 0);
    char command[4200];
    snprintf(command, sizeof command, "rm -rf '%s'", lookup_dir);
    ck_assert_int_eq(system(command), 0);
}

START_TEST(find_program_says_why_in_one_wording)
{
    static const struct {
        const char *program;
        int rc;
        const char *err;
    } cases[] = {
        {"./exec", 0, ""},
        {"sh", 0, ""},
        {"./missing", -ENOENT, "no such file"},
        {"./plain.py/x", -ENOTDIR, "no such file"},
        {"./botdir", -EISDIR, "is a directory"},
        {"botdir/", -EISDIR, "is a directory"},
        {"./plain.py", -EACCES,
         "not executable: chmod +x it, or name its interpreter (e.g. \"python3 ./plain.py\")"},
        {"/dev/null", -EACCES,
         "not executable: chmod +x it, or name its interpreter (e.g. \"python3 /dev/null\")"},
        {"exec", -ENOENT, "not found in PATH (for a file here, write ./exec)"},
        {"no-such-program-here", -ENOENT,
         "not found in PATH (for a file here, write ./no-such-program-here)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[4096] = "", err[256] = "";
        int rc = tx_command_find_program(cases[i].program, path, sizeof path, err, sizeof err);
        ck_assert_msg(rc == cases[i].rc, "'%s': %d (%s)", cases[i].program, rc, err);
        ck_assert_str_eq(err, cases[i].err);
        if (rc == 0)
            ck_assert_msg(access(path, X_OK) == 0, "%s", path);
    }
}
END_TEST

START_TEST(find_program_follows_path_like_execvp)
{
    char path[4096], *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    /* An empty entry is the current directory; a directory of the same
     * name is skipped; the first executable file wins. */
    ck_assert_int_eq(setenv("PATH", "/nonexistent::/bin", 1), 0);
    ck_assert_int_eq(tx_command_find_program("exec", path, sizeof path, NULL, 0), 0);
    ck_assert_str_eq(path, "./exec");
    ck_assert_int_eq(tx_command_find_program("botdir", path, sizeof path, NULL, 0), -ENOENT);
    ck_assert_int_eq(tx_command_find_program("plain.py", path, sizeof path, NULL, 0), -ENOENT);
    /* Unset: execvp's default, not the current directory. */
    ck_assert_int_eq(unsetenv("PATH"), 0);
    ck_assert_int_eq(tx_command_find_program("exec", path, sizeof path, NULL, 0), -ENOENT);
    ck_assert_int_eq(tx_command_find_program("sh", path, sizeof path, NULL, 0), 0);
    ck_assert(!strcmp(path, "/bin/sh") || !strcmp(path, "/usr/bin/sh"));
    if (saved)
        setenv("PATH", saved, 1);
    free(saved);
}
END_TEST

START_TEST(check_names_the_program_and_the_reason)
{
    static const struct {
        const char *command;
        const char *err; /* NULL: runs */
    } cases[] = {
        {"./exec --seed {seed}", NULL},
        {"sh -c 'echo F6'", NULL},
        {"./missing --x", "cannot run './missing': no such file"},
        {"'./botdir' --x", "cannot run './botdir': is a directory"},
        {"./plain.py",
         "cannot run './plain.py': not executable: chmod +x it, or name its interpreter (e.g. "
         "\"python3 ./plain.py\")"},
        {"./orphan",
         "cannot run './orphan': its interpreter '/no/such/python3' (on its #! line) was not "
         "found"},
        {"./board-{size}", "cannot run './board-8': no such file"}, /* placeholders replaced */
        {"./exec 'unbalanced", "bad command line: unbalanced single quote"},
        /* an interpreter's script must exist (a typo would lose every game by crash) */
        {"sh ./missing.sh", "cannot run 'sh ./missing.sh': no such file './missing.sh'"},
        {"sh -e -x missing.sh --flag", "cannot run 'sh missing.sh': no such file 'missing.sh'"},
        {"sh ./plain.py", NULL},          /* the script exists: its interpreter's business */
        {"sh -c 'exit 0'", NULL},         /* inline code: no script */
        {"/bin/sh -- missing.sh", NULL},  /* after --: not checked */
        {"./exec missing.sh", NULL},      /* not an interpreter */
        {"python3 -m http.server", NULL}, /* a module, not a file */
        {"python3 -W ignore missing.py",  /* -W takes a value */
         "cannot run 'python3 missing.py': no such file 'missing.py'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        int rc = tx_command_check(
            cases[i].command, &(struct tx_variant){.rules = TX_RULES_PP, .width = 8, .height = 8},
            NULL, err, sizeof err);
        if (!cases[i].err) {
            ck_assert_msg(rc == 0, "'%s': %s", cases[i].command, err);
        } else {
            ck_assert_msg(rc < 0, "'%s' accepted", cases[i].command);
            ck_assert_str_eq(err, cases[i].err);
        }
    }
}
END_TEST

/* A bot with a working directory (a bots file's "dir") has its relative
 * paths there: its program and its interpreter's script. */
START_TEST(check_in_the_bots_directory)
{
    static const struct {
        const char *command, *dir;
        const char *err; /* NULL: runs */
    } cases[] = {
        {"sh ../plain.py", "botdir", NULL},
        {"sh plain.py", "botdir", "cannot run 'sh plain.py' in botdir: no such file 'plain.py'"},
        {"sh plain.py", NULL, NULL},
        {"../exec", "botdir", NULL},
        {"./exec", "botdir", "cannot run './exec' in botdir: no such file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512] = "";
        int rc = tx_command_check(
            cases[i].command, &(struct tx_variant){.rules = TX_RULES_PP, .width = 12, .height = 12},
            cases[i].dir, err, sizeof err);
        if (!cases[i].err) {
            ck_assert_msg(rc == 0, "'%s' in %s: %s", cases[i].command, cases[i].dir, err);
        } else {
            ck_assert_msg(rc < 0, "'%s' in %s accepted", cases[i].command, cases[i].dir);
            ck_assert_str_eq(err, cases[i].err);
        }
    }
}
END_TEST

START_TEST(sha256_program_resolves_through_path)
{
    char hex[TX_SHA256_HEX];
    ck_assert_int_eq(tx_sha256_program("sh", hex), 0); /* found in PATH, as the launcher runs it */
    ck_assert_int_eq(tx_sha256_program("no-such-program-here", hex), -ENOENT);

    char file[] = "/tmp/test-command-XXXXXX";
    int fd = mkstemp(file);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "abc", 3), 3);
    close(fd);
    ck_assert_int_eq(tx_sha256_program(file, hex), 0);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* A rebuilt executable is hashed again, not taken from the cache. */
    fd = open(file, O_WRONLY | O_TRUNC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "", 0), 0);
    close(fd);
    ck_assert_int_eq(tx_sha256_program(file, hex), 0);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    unlink(file);
    ck_assert_int_eq(tx_sha256_program(file, hex), -ENOENT);
}
END_TEST

static Suite *command_suite(void)
{
    Suite *s = suite_create("command");
    TCase *tc = tcase_create("command");
    tcase_add_test(tc, split_blanks_separate_words);
    tcase_add_test(tc, split_quotes_and_backslashes_like_sh);
    tcase_add_test(tc, split_expands_nothing);
    tcase_add_test(tc, split_refuses_bad_lines_with_a_reason);
    tcase_add_test(tc, parse_bot_takes_a_name);
    tcase_add_test(tc, parse_bot_derives_a_name);
    tcase_add_test(tc, parse_bot_refuses_bad_commands);
    tcase_add_test(tc, derive_name_skips_interpreters);
    tcase_add_test(tc, expand_replaces_placeholders);
    tcase_add_test(tc, placeholders_only_known_ones);
    suite_add_tcase(s, tc);
    TCase *tl = tcase_create("lookup");
    tcase_add_checked_fixture(tl, lookup_setup, lookup_teardown);
    tcase_add_test(tl, find_program_says_why_in_one_wording);
    tcase_add_test(tl, find_program_follows_path_like_execvp);
    tcase_add_test(tl, check_names_the_program_and_the_reason);
    tcase_add_test(tl, check_in_the_bots_directory);
    suite_add_tcase(s, tl);
    TCase *th = tcase_create("sha256");
    tcase_set_timeout(th, 30);
    tcase_add_test(th, sha256_matches_fips_vectors);
    tcase_add_test(th, sha256_program_resolves_through_path);
    suite_add_tcase(s, th);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(command_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
