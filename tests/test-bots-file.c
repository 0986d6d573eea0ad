/* test-bots-file.c - the bots file: what a good one gives, and each mistake
 * reported at its FILE:LINE with the bot and the field. (That each bot
 * starts in its directory with its environment is tested through the real
 * program in test-pools.c.)
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bots-file.h"

static int parse(const char *path, const char *text, struct tx_bots_file *f, char *err)
{
    return tx_bots_file_parse(path, text, strlen(text), f, err, 512);
}

START_TEST(bots_file_full)
{
    const char *text =
        "[\n"
        "  {\"name\": \"v7\", \"command\": \"./bot --seed {seed}\", \"dir\": \"v7\",\n"
        "   \"env\": {\"OMP_NUM_THREADS\": \"1\", \"MODE\": \"fast=yes\"},\n"
        "   \"memory_mb\": 1024, \"cpus\": 1.5, \"writable\": [\"v7/logs\", \"/var/tmp/v7\"]},\n"
        "  {\"name\": \"greedy\", \"command\": \"twixt-greedy\", \"dir\": \"/opt/g\"},\n"
        "  {\"name\": \"free\", \"command\": \"./x\", \"memory_mb\": 0, \"cpus\": 0}\n"
        "]\n";
    struct tx_bots_file f;
    char err[512] = "";
    ck_assert_msg(parse("conf/bots.json", text, &f, err) == 0, "%s", err);
    ck_assert_int_eq(f.nbots, 3);
    ck_assert_str_eq(f.bots[0].name, "v7");
    ck_assert_str_eq(f.bots[0].command, "./bot --seed {seed}");
    ck_assert_str_eq(f.bots[0].dir, "conf/v7"); /* relative to the file's directory */
    ck_assert_str_eq(f.bots[0].env[0], "OMP_NUM_THREADS=1");
    ck_assert_str_eq(f.bots[0].env[1], "MODE=fast=yes");
    ck_assert_ptr_null(f.bots[0].env[2]);
    ck_assert_int_eq(f.bots[0].memory_mb, 1024);
    ck_assert(f.bots[0].cpus == 1.5);
    ck_assert_str_eq(f.bots[0].writable[0], "conf/v7/logs"); /* like dir */
    ck_assert_str_eq(f.bots[0].writable[1], "/var/tmp/v7");
    ck_assert_ptr_null(f.bots[0].writable[2]);
    ck_assert_int_eq(f.bots[0].line, 2);
    ck_assert_str_eq(f.bots[1].dir, "/opt/g");
    ck_assert_ptr_null(f.bots[1].env);
    ck_assert_int_eq(f.bots[1].memory_mb, 0); /* not given: the run's */
    ck_assert(f.bots[1].cpus == 0);
    ck_assert_ptr_null(f.bots[1].writable);
    ck_assert_int_eq(f.bots[1].line, 5);
    ck_assert_ptr_null(f.bots[2].dir);
    ck_assert_int_eq(f.bots[2].memory_mb, TX_BOTS_FILE_MEMORY_NONE);
    ck_assert(f.bots[2].cpus == TX_BOTS_FILE_CPUS_NONE);
    tx_bots_file_free(&f);

    /* A file in the current directory: dir as given. */
    ck_assert_int_eq(
        parse("bots.json", "[{\"name\":\"a\",\"command\":\"a\",\"dir\":\"d\"}]", &f, err), 0);
    ck_assert_str_eq(f.bots[0].dir, "d");
    tx_bots_file_free(&f);
    ck_assert_int_eq(parse("bots.json", " [ ] ", &f, err), 0);
    ck_assert_int_eq(f.nbots, 0);
    tx_bots_file_free(&f);
}
END_TEST

START_TEST(bots_file_teams)
{
    const char *text = "[\n"
                       "  {\"team\": \"alpha\", \"memory_mb\": 1024, \"handicap\": true,\n"
                       "   \"bots\": [{\"name\": \"a1\", \"command\": \"./a\"},\n"
                       "            {\"name\": \"a2\", \"command\": \"./b\", \"dir\": \"d\"}]},\n"
                       "  {\"team\": \"beta\",\n"
                       "   \"bots\": [{\"name\": \"b1\", \"command\": \"x\"}, {\"name\": \"b2\", "
                       "\"command\": \"y\"}]}\n"
                       "]\n";
    struct tx_bots_file f;
    char err[512] = "";
    ck_assert_msg(parse("conf/teams.json", text, &f, err) == 0, "%s", err);
    ck_assert_int_eq(f.nteams, 2);
    ck_assert_int_eq(f.nbots, 4);
    ck_assert_str_eq(f.teams[0].name, "alpha");
    ck_assert_int_eq(f.teams[0].first, 0);
    ck_assert_int_eq(f.teams[0].line, 2);
    ck_assert(f.teams[0].handicap);
    ck_assert_str_eq(f.teams[1].name, "beta");
    ck_assert_int_eq(f.teams[1].first, 2);
    ck_assert(!f.teams[1].handicap);
    ck_assert_str_eq(f.handicap, "alpha");
    /* the team's bots in order, sharing its memory limit */
    ck_assert_str_eq(f.bots[0].name, "a1");
    ck_assert_str_eq(f.bots[1].name, "a2");
    ck_assert_str_eq(f.bots[1].dir, "conf/d");
    ck_assert_int_eq(f.bots[0].memory_mb, 1024);
    ck_assert_int_eq(f.bots[1].memory_mb, 1024);
    ck_assert_int_eq(f.bots[2].memory_mb, 0);
    ck_assert_str_eq(f.bots[3].name, "b2");
    tx_bots_file_free(&f);
}
END_TEST

/* Each mistake, and the start of the message it gives. */
static const struct {
    const char *text;
    const char *message;
} mistakes[] = {
    {"[\n{\"name\": \"a\",\n \"command\": \"a\"\n", "b.json:3: not valid JSON"},
    {"[{\"name\": \"a\", \"command\": \"a\",}]", "b.json:1: not valid JSON"},
    {"\n{\"name\": \"a\", \"command\": \"a\"}", "b.json:2: expected an array of bots"},
    {"[{\"name\": \"a\", \"command\": \"a\"}] x", "b.json:1: text after the array of bots"},
    {"[\n  \"a\"\n]", "b.json:2: bot 1: expected an object"},
    {"[{\"name\":\"a\",\"command\":\"a\"},\n\n {\"command\": \"b\"}]",
     "b.json:3: bot 2: name: missing"},
    {"[{\n\"name\": 3, \"command\": \"a\"}]", "b.json:2: bot 1: name: expected a string"},
    {"[{\"command\": \"a\",\n\"name\": \"my bot\"}]",
     "b.json:2: bot 1: name: expected letters, digits and _.+- (at most 63 characters), got 'my "
     "bot'"},
    {"[{\"name\": \"a\"}]", "b.json:1: bot 'a': command: missing"},
    {"[{\"name\": \"a\",\n\"command\": \"'./a\"}]", "b.json:2: bot 'a': command: unbalanced"},
    {"[{\"name\": \"a\",\n\"command\": [\"./a\"]}]",
     "b.json:2: bot 'a': command: expected a string"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"dir\": \"\"}]", "b.json:2: bot 'a': dir: expected"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"env\": [\"X=1\"]}]",
     "b.json:2: bot 'a': env: expected an object"},
    {"[{\"name\": \"a\", \"command\": \"a\", \"env\": {\n\"OK\": \"1\",\n\"2X\": \"1\"}}]",
     "b.json:3: bot 'a': env: '2X' is not a variable name"},
    {"[{\"name\": \"a\", \"command\": \"a\", \"env\": {\n\"X\": 1}}]",
     "b.json:2: bot 'a': env: X: expected a string value"},
    {"[{\"name\": \"a\", \"command\": \"a\", \"env\": {\"X\": \"1\",\n\"X\": \"2\"}}]",
     "b.json:1: bot 'a': env: X given twice"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"memory_mb\": 8}]",
     "b.json:2: bot 'a': memory_mb: expected megabytes, 16 to 1048576, or 0 for no limit"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"memory_mb\": 100.5}]",
     "b.json:2: bot 'a': memory_mb"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"memory_mb\": \"512\"}]",
     "b.json:2: bot 'a': memory_mb"},
    {"[{\"name\": \"a\",\n\"comand\": \"a\"}]",
     "b.json:2: bot 1: unknown field 'comand' (expected name, command, dir, env, memory_mb, "
     "cpus, writable, handicap)"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"cpus\": 0.05}]",
     "b.json:2: bot 'a': cpus: expected a number of CPUs, 0.1 to 1024, or 0 for no quota"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"cpus\": \"2\"}]", "b.json:2: bot 'a': cpus"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"writable\": \"logs\"}]",
     "b.json:2: bot 'a': writable: expected at most 8 directories"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"writable\": [\"logs\", \"\"]}]",
     "b.json:2: bot 'a': writable: expected"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"name\": \"b\"}]",
     "b.json:1: bot 1: name given twice"},
    /* The rule set and the board are the run's: the message says where they go. */
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"rules\": \"classic\"}]",
     "b.json:2: bot 1: rules: the rule set and the board are the run's, not a bot's (give "
     "--rules to the command; {rules}, {width} and {height} tell the bot)"},
    {"[{\"name\": \"a\", \"command\": \"a\",\n\"board\": \"30x24\"}]",
     "b.json:2: bot 1: board: the rule set and the board are the run's, not a bot's (give "
     "--board to the command"},
    {"[{\"name\": \"a\", \"command\": \"a\"},\n{\"name\": \"b\", \"command\": \"b\"},\n"
     "{\"name\": \"a\", \"command\": \"c\"}]",
     "b.json:3: bot 'a': name: already used by the bot at line 1"},
/* Team entries (Double TwixT) and the handicap. */
#define TEAM(t, a, b) "{\"team\": \"" t "\", \"bots\": [" a ", " b "]}"
#define BOT(n) "{\"name\": \"" n "\", \"command\": \"" n "\"}"
    {"[" TEAM("x", BOT("a"), BOT("b")) ",\n" BOT("c") "]",
     "b.json:2: a bot, after the team at line 1: a file holds bots or teams, not both"},
    {"[" BOT("c") ",\n" TEAM("x", BOT("a"), BOT("b")) "]",
     "b.json:2: a team, after the bot at line 1: a file holds bots or teams, not both"},
    {"[{\"team\": \"x\", \"bots\": [" BOT("a") "]}]",
     "b.json:1: team 'x': bots: expected the team's two bots, [{\"name\": ..., \"command\": "
     "...}, {...}], got 1"},
    {"[" TEAM("x y", BOT("a"), BOT("b")) "]",
     "b.json:1: team 1: team: expected the team's name: letters, digits and _.+- (at most 63 "
     "characters)"},
    {"[{\"team\": \"x\", \"botz\": []}]",
     "b.json:1: team 1: unknown field 'botz' in a team (expected team, bots, memory_mb, "
     "handicap)"},
    {"[" TEAM("x", BOT("a"), BOT("b")) ",\n" TEAM("x", BOT("c"), BOT("d")) "]",
     "b.json:2: team 2: team: 'x' already used by the team at line 1"},
    {"[" TEAM("x", BOT("a"), BOT("b")) ",\n" TEAM("y", BOT("a"), BOT("d")) "]",
     "b.json:2: team 'y': bot 'a': name: already used by the bot at line 1"},
    {"[" TEAM("x", BOT("a"), "{\"name\": \"b\", \"command\": \"b\", \"memory_mb\": 100}") "]",
     "b.json:1: team 'x': bot 'b': memory_mb: a team's bots share one memory limit: give "
     "memory_mb on the team"},
    {"[" TEAM("x", BOT("a"), "{\"name\": \"b\", \"command\": \"b\", \"handicap\": true}") "]",
     "b.json:1: team 'x': bot 'b': handicap: a team's bots play one side: give handicap on the "
     "team"},
    {"[{\"name\": \"a\", \"command\": \"a\", \"handicap\": true},\n"
     "{\"name\": \"b\", \"command\": \"b\", \"handicap\": true}]",
     "b.json:2: bot 'b': handicap: already given to 'a' at line 1"},
#undef TEAM
#undef BOT
};

START_TEST(bots_file_mistakes_name_line_bot_and_field)
{
    struct tx_bots_file f = {0};
    char err[512] = "";
    ck_assert_int_eq(parse("b.json", mistakes[_i].text, &f, err), -EINVAL);
    ck_assert_msg(!strncmp(err, mistakes[_i].message, strlen(mistakes[_i].message)),
                  "case %d: got \"%s\", expected \"%s...\"", _i, err, mistakes[_i].message);
    ck_assert_int_eq(f.nbots, 0);
}
END_TEST

START_TEST(bots_file_load_reads_the_file)
{
    char path[] = "/tmp/tx-bots-file-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "[{\"name\": \"a\", \"command\": \"./a\", \"dir\": \"sub\"}]\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct tx_bots_file f;
    char err[512];
    ck_assert_int_eq(tx_bots_file_load(path, &f, err, sizeof err), 0);
    ck_assert_str_eq(f.bots[0].dir, "/tmp/sub");
    tx_bots_file_free(&f);
    unlink(path);
    ck_assert_int_eq(tx_bots_file_load(path, &f, err, sizeof err), -ENOENT);
    ck_assert_msg(strstr(err, "cannot read the bots file: No such file"), "%s", err);
}
END_TEST

static Suite *bots_file_suite(void)
{
    Suite *s = suite_create("bots-file");
    TCase *tc = tcase_create("bots-file");
    tcase_add_test(tc, bots_file_full);
    tcase_add_test(tc, bots_file_teams);
    tcase_add_loop_test(tc, bots_file_mistakes_name_line_bot_and_field, 0,
                        (int)(sizeof mistakes / sizeof mistakes[0]));
    tcase_add_test(tc, bots_file_load_reads_the_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(bots_file_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
