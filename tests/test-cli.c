/* test-cli.c - snapshots of twixt-arena's usage errors and help, through
 * the real program (TX_ARENA).
 *
 * One table of command lines, for every subcommand, with the exact text
 * the program must write to stderr and its exit status: every mistake in a
 * command line is one "twixt-arena COMMAND: MESSAGE" line and the same hint,
 * exit status 2, nothing on stdout and nothing started. The program runs
 * with argv[0] "twixt-arena" (as typed from PATH) in a scratch directory
 * holding a directory, a file that is not executable and a script whose
 * interpreter is missing. Then `help COMMAND` and `COMMAND --help` must
 * print the same.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TX_ARENA
#error "TX_ARENA must be the path of twixt-arena"
#endif

#define ARGS_MAX 14
#define HINT(cmd) "(twixt-arena " cmd " --help lists the options)\n"
#define CANNOT(cmd, what) "twixt-arena " cmd ": " what "\n" HINT(cmd)
#define NOT_EXECUTABLE                                                                             \
    "not executable: chmod +x it, or name its interpreter (e.g. \"python3 ./plain.py\")"
#define PLACEHOLDERS                                                                               \
    "(the placeholders are {seed}, {size}, {rules}, {width}, {height}, {opening} and {teams})"

static char dir[64];

struct run {
    int status;
    char *out, *err;
};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

/* Runs twixt-arena with args (NULL-terminated) in the scratch directory. */
static struct run run(const char *const *args)
{
    char *argv[ARGS_MAX + 2] = {(char *)"twixt-arena"};
    int argc = 1;
    for (int i = 0; i < ARGS_MAX && args[i]; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int out = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(99);
        execv(TX_ARENA, argv);
        _exit(98);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return (struct run){WEXITSTATUS(status), slurp("out.txt"), slurp("err.txt")};
}

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

static void write_mode(const char *name, const char *text, mode_t mode)
{
    FILE *f = fopen(name, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_int_eq(chmod(name, mode), 0);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/test-cli-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(chdir(dir), 0);
    ck_assert_int_eq(mkdir("botdir", 0755), 0);
    write_mode("plain.py", "print('F6')\n", 0644);
    write_mode("orphan", "#!/no/such/python3 -u\nprint('F6')\n", 0755);
    write_mode("teams.json",
               "[{\"team\": \"x\", \"bots\": [{\"name\": \"a\", \"command\": \"true\"},\n"
               "                       {\"name\": \"b\", \"command\": \"true\"}]},\n"
               " {\"team\": \"y\", \"bots\": [{\"name\": \"c\", \"command\": \"true\"},\n"
               "                       {\"name\": \"d\", \"command\": \"true\"}]}]\n",
               0644);
    write_mode("handicap.json",
               "[{\"name\": \"a\", \"command\": \"true\"},\n"
               " {\"name\": \"b\", \"command\": \"true\", \"handicap\": true}]\n",
               0644);
}

static void teardown(void)
{
    char command[128];
    ck_assert_int_eq(chdir("/"), 0);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(command), 0);
}

static const struct {
    const char *args[ARGS_MAX + 1];
    int status;
    const char *err;
} usage_errors[] = {
    /* play */
    {{"play", "true", "true", "--frobnicate"}, 2, CANNOT("play", "unknown option '--frobnicate'")},
    {{"play", "true", "true", "--games-per-pair", "2"},
     2,
     CANNOT("play", "unknown option '--games-per-pair' (an option of tournament)")},
    {{"play", "true", "true", "--turn-ms"}, 2, CANNOT("play", "--turn-ms: missing value (MS)")},
    {{"play", "true", "true", "--turn-ms=0"},
     2,
     CANNOT("play", "--turn-ms: expected milliseconds from 1 to 3600000, got '0'")},
    {{"play", "true", "true", "--concurrency", "300"},
     2,
     CANNOT("play", "--concurrency: expected a number of games from 1 to 256, got '300'")},
    {{"play", "true", "true", "--bot-writable", "no-such-dir"},
     2,
     "twixt-arena play: --bot-writable: no such directory 'no-such-dir' (make it first: mkdir -p "
     "no-such-dir)\n"},
    {{"play", "true", "true", "--bot-writable", "/dev/null"},
     2,
     "twixt-arena play: --bot-writable: '/dev/null' is not a directory\n"},
    {{"play", "true"}, 2, CANNOT("play", "expected 2 BOT arguments, got 1")},
    {{"play", "./no-such-bot", "true"},
     2,
     CANNOT("play", "BOT 'no-such-bot': cannot run './no-such-bot': no such file")},
    {{"play", "true", "mybot=no-such-bot --x"},
     2,
     CANNOT("play", "BOT 'mybot': cannot run 'no-such-bot': not found in PATH (for a file "
                    "here, write ./no-such-bot)")},
    {{"play", "./botdir", "true"},
     2,
     CANNOT("play", "BOT 'botdir': cannot run './botdir': is a directory")},
    {{"play", "true", "me=./plain.py"},
     2,
     CANNOT("play", "BOT 'me': cannot run './plain.py': " NOT_EXECUTABLE)},
    {{"play", "./orphan", "true"},
     2,
     CANNOT("play", "BOT 'orphan': cannot run './orphan': its interpreter '/no/such/python3' (on "
                    "its #! line) was not found")},
    {{"play", "python3 missing.py", "true"},
     2,
     CANNOT("play", "BOT 'missing': cannot run 'python3 missing.py': no such file 'missing.py'")},
    {{"validate", "python3 -u nope/bot.py"},
     2,
     CANNOT("validate", "BOT 'bot': cannot run 'python3 nope/bot.py': no such file "
                        "'nope/bot.py'")},
    {{"play", "true --seed {sed}", "true"},
     2,
     CANNOT("play", "BOT 'true': unknown placeholder {sed} " PLACEHOLDERS)},
    /* rule sets and boards */
    {{"play", "true", "me=true --size {size}", "--board", "30x24"},
     2,
     CANNOT("play", "BOT 'me': {size} in the command, but the board is 30x24: use {width} and "
                    "{height}")},
    {{"tournament", "a=true", "b=true {size}", "--board=8x9"},
     2,
     CANNOT("tournament", "BOT 'b': {size} in the command, but the board is 8x9: use {width} "
                          "and {height}")},
    {{"validate", "me=true {size}", "--board", "8x9", "--rules", "classic"},
     2,
     CANNOT("validate", "BOT 'me': {size} in the command, but the board is 8x9: use {width} and "
                        "{height}")},
    {{"league", "a=true", "b=true {size}", "-o", "l.jsonl", "--board", "8x9"},
     2,
     CANNOT("league", "BOT 'b': {size} in the command, but the board is 8x9: use {width} and "
                      "{height}")},
    {{"play", "true", "true", "--size", "12", "--board", "30x24"},
     2,
     CANNOT("play", "--board: --size and --board both give the board: use one")},
    {{"tournament", "true", "true", "--board=9x9", "--size=9"},
     2,
     CANNOT("tournament", "--size: --board and --size both give the board: use one")},
    {{"play", "true", "true", "--rules", "cl"},
     2,
     CANNOT("play", "--rules: expected pp or classic, got 'cl'")},
    {{"validate", "true", "--rules=PP"},
     2,
     CANNOT("validate", "--rules: expected pp or classic, got 'PP'")},
    {{"league", "a=true", "b=true", "-o", "l.jsonl", "--rules"},
     2,
     CANNOT("league", "--rules: missing value (pp|classic)")},
    {{"play", "true", "true", "--board", "4x10"},
     2,
     CANNOT("play", "--board: expected WIDTHxHEIGHT, each from 5 to 100, e.g. 30x24, got '4x10'")},
    {{"tournament", "true", "true", "--board", "30"},
     2,
     CANNOT("tournament", "--board: expected WIDTHxHEIGHT, each from 5 to 100, e.g. 30x24, got "
                          "'30'")},
    {{"play", "true", "true", "--size", "101"},
     2,
     CANNOT("play", "--size: expected a board size from 5 to 100, got '101'")},
    {{"standings", "a.jsonl", "--rules", "classic"},
     2,
     CANNOT("standings",
            "unknown option '--rules' (an option of play, tournament, validate, league, referee)")},
    /* openings, handicap matches, Double TwixT (RULES.md) */
    {{"play", "true", "true", "--opening", "pie2"},
     2,
     CANNOT("play", "--opening: expected swap, pie, cut or none, got 'pie2'")},
    {{"replay", "games.jsonl", "--opening", "pie"},
     2,
     CANNOT("replay", "unknown option '--opening' (an option of play, tournament, validate, "
                      "league, referee)")},
    {{"play", "true", "true", "--opening", "cut", "--openings", "2"},
     2,
     CANNOT("play", "--opening cut and forced openings: the cut is player 1's first answer, so "
                    "no forced move can come before it (RULES.md \"Openings\")")},
    {{"tournament", "a=true", "b=true", "--openings-file", "f.txt", "--opening=cut"},
     2,
     CANNOT("tournament", "--opening cut and forced openings: the cut is player 1's first "
                          "answer, so no forced move can come before it (RULES.md \"Openings\")")},
    {{"play", "a=true", "b=true", "--handicap", "a"},
     2,
     CANNOT("play", "--handicap needs a board that is not square (e.g. --board 24x20): on a "
                    "square board both sides have the same distance")},
    {{"tournament", "a=true", "b=true", "--board", "24x20", "--handicap=a", "--opening", "pie"},
     2,
     CANNOT("tournament", "--handicap and --opening pie: the pie's swap hands a side over with "
                          "its distance, so the handicapped bot could take the shorter one")},
    {{"play", "a=true", "b=true", "--board", "24x20", "--handicap", "a", "--opening", "cut"},
     2,
     CANNOT("play", "--handicap and --opening cut: the choice after the cut takes a side with its "
                    "distance, so the handicapped bot could take the shorter one")},
    {{"play", "a=true", "b=true", "--board", "24x20", "--handicap", "a", "--openings-file", "f"},
     2,
     CANNOT("play", "--handicap and --openings-file: each game's board is turned for the "
                    "handicapped bot, and the file's holes would not turn with it (give "
                    "--openings K)")},
    {{"play", "a=true {width}", "b=true {height}", "--board", "24x20", "--handicap", "c"},
     2,
     "twixt-arena play: --handicap c: no bot of the run is named c\n"},
    {{"league", "a=true", "b=true", "-o", "l.jsonl", "--handicap", "a"},
     2,
     CANNOT("league", "unknown option '--handicap' (an option of play, tournament)")},
    {{"play", "a=true", "b=true", "c=true", "d=true"},
     2,
     CANNOT("play", "expected 2 BOT arguments, got 4 (four with --teams: Double TwixT)")},
    {{"play", "a=true", "b=true", "c=true", "--teams", "x=a,b", "--teams", "y=c,d"},
     2,
     CANNOT("play", "--teams: two teams of two are 4 BOT arguments, got 3")},
    {{"play", "a=true", "b=true", "c=true", "d=true", "--teams", "x=a,b"},
     2,
     CANNOT("play", "--teams: play is one match of two teams, got 1")},
    {{"play", "a=true", "b=true", "c=true", "d=true", "--teams", "x=a,b,c"},
     2,
     CANNOT("play", "--teams: expected NAME=BOT1,BOT2: the team's name, then its two bots' "
                    "names, got 'x=a,b,c'")},
    {{"tournament", "a=true", "b=true", "--teams", "x=a"},
     2,
     CANNOT("tournament", "--teams: expected NAME=BOT1,BOT2: the team's name, then its two "
                          "bots' names, got 'x=a'")},
    {{"play", "a=true", "b=true", "c=true", "d=true", "--teams", "x=a,a"},
     2,
     CANNOT("play", "--teams: a twice in team x: a team is two bots (give the command twice, "
                    "under two names)")},
    {{"play", "a=true", "b=true", "c=true", "d=true", "--teams", "x=a,b", "--teams", "x=c,d"},
     2,
     CANNOT("play", "--teams: team x given twice")},
    {{"play", "a=true", "b=true", "c=true", "d=true", "--teams", "x=a,b", "--teams", "y=c,e"},
     2,
     "twixt-arena play: --teams y=c,e: no bot is named e (a BOT given as e=COMMAND)\n"},
    {{"play", "a=true", "b=true", "c=true", "d=true", "--teams", "x=a,b", "--teams", "y=b,c"},
     2,
     "twixt-arena play: --teams y=b,c: b plays for team x already: a bot is in one team\n"},
    {{"tournament", "a=true", "b=true", "c=true", "d=true", "e=true", "--teams", "x=a,b", "--teams",
      "y=c,d"},
     2,
     "twixt-arena tournament: bot 'e' plays in no team: with teams (Double TwixT) every bot is in "
     "one (--teams NAME=BOT1,BOT2)\n"},
    {{"play", "a=true {width}", "b=true {width}", "c=true {width}", "d=true {width}", "--teams",
      "x=a,b", "--teams", "y=c,d", "--board", "24x20", "--handicap", "a"},
     2,
     "twixt-arena play: --handicap a: no team of the run is named a\n"},
    {{"validate", "true", "--teams", "x=a,b"},
     2,
     CANNOT("validate", "unknown option '--teams' (an option of play, tournament)")},
    {{"league", "-o", "l.jsonl", "--bots", "teams.json"},
     2,
     "twixt-arena league: teams.json:1: team 'x': a league plays bots, not teams (Double TwixT is "
     "for play and tournament)\n"},
    {{"tournament", "--bots", "handicap.json", "--board", "24x20", "--opening", "cut"},
     2,
     "twixt-arena tournament: handicap.json: the handicap cannot go with --opening cut: the choice "
     "after the cut takes a side with its distance\n"},
    {{"league", "-o", "l.jsonl", "--bots", "handicap.json", "--board", "24x20"},
     2,
     "twixt-arena league: handicap.json:2: bot 'b': handicap: a league plays even games (handicap "
     "matches are for play and tournament)\n"},
    /* tournament */
    {{"tournament", "true", "true", "--frobnicate=3"},
     2,
     CANNOT("tournament", "unknown option '--frobnicate'")},
    {{"tournament", "true", "true", "--games", "4"},
     2,
     CANNOT("tournament", "unknown option '--games' (an option of play, validate)")},
    {{"tournament", "true", "true", "-o"}, 2, CANNOT("tournament", "-o: missing value (FILE)")},
    {{"tournament", "true", "true", "--games-per-pair=3"},
     2,
     CANNOT("tournament", "--games-per-pair: expected an even number of games from 2 to "
                          "1000000000 (colours are exchanged), got '3'")},
    {{"tournament", "true", "true", "--concurrency=0"},
     2,
     CANNOT("tournament", "--concurrency: expected a number of games from 1 to 256, got '0'")},
    {{"tournament", "true"}, 2, CANNOT("tournament", "expected 2 to 64 BOT arguments, got 1")},
    {{"tournament", "true", "typo=./no-such-bot"},
     2,
     CANNOT("tournament", "BOT 'typo': cannot run './no-such-bot': no such file")},
    {{"tournament", "true", "botdir/"},
     2,
     CANNOT("tournament", "BOT 'bot': cannot run 'botdir/': is a directory")},
    {{"tournament", "true", "./plain.py"},
     2,
     CANNOT("tournament", "BOT 'plain': cannot run './plain.py': " NOT_EXECUTABLE)},
    {{"tournament", "true", "true {board}"},
     2,
     CANNOT("tournament", "BOT 'true-2': unknown placeholder {board} " PLACEHOLDERS)},
    /* validate */
    {{"validate", "true", "--frobnicate"}, 2, CANNOT("validate", "unknown option '--frobnicate'")},
    {{"validate", "true", "--opponent"}, 2, CANNOT("validate", "--opponent: missing value (CMD)")},
    {{"validate", "true", "--games=1001"},
     2,
     CANNOT("validate", "--games: expected a number of rounds from 1 to 1000, got '1001'")},
    {{"validate", "true", "--concurrency", "0"},
     2,
     CANNOT("validate", "--concurrency: expected a number of games from 1 to 256, got '0'")},
    {{"validate"}, 2, CANNOT("validate", "expected 1 BOT argument, got 0")},
    {{"validate", "true", "true"}, 2, CANNOT("validate", "expected 1 BOT argument, got 2")},
    {{"validate", "./no-such-bot"},
     2,
     CANNOT("validate", "BOT 'no-such-bot': cannot run './no-such-bot': no such file")},
    {{"validate", "botdir"},
     2,
     CANNOT("validate", "BOT 'botdir': cannot run 'botdir': not found in PATH (for a file here, "
                        "write ./botdir)")},
    {{"validate", "./botdir"},
     2,
     CANNOT("validate", "BOT 'botdir': cannot run './botdir': is a directory")},
    {{"validate", "./plain.py"},
     2,
     CANNOT("validate", "BOT 'plain': cannot run './plain.py': " NOT_EXECUTABLE)},
    {{"validate", "true", "--opponent", "./no-such-bot"},
     2,
     CANNOT("validate", "--opponent './no-such-bot': cannot run './no-such-bot': no such file")},
    {{"validate", "true", "--opponent=./botdir"},
     2,
     CANNOT("validate", "--opponent './botdir': cannot run './botdir': is a directory")},
    {{"validate", "true {sed}"},
     2,
     CANNOT("validate", "BOT 'true': unknown placeholder {sed} " PLACEHOLDERS)},
    /* replay (FILE is not read before the command line is checked) */
    {{"replay", "games.jsonl", "--frobnicate"},
     2,
     CANNOT("replay", "unknown option '--frobnicate'")},
    {{"replay", "games.jsonl", "--game"}, 2, CANNOT("replay", "--game: missing value (K)")},
    {{"replay", "games.jsonl", "--game=x"},
     2,
     CANNOT("replay", "--game: expected a game number, 1 or more, got 'x'")},
    {{"replay", "games.jsonl", "--format", "png"},
     2,
     CANNOT("replay", "--format: expected text, svg or html, got 'png'")},
    {{"replay"}, 2, CANNOT("replay", "expected 1 FILE argument, got 0")},
    {{"replay", "a.jsonl", "b.jsonl"}, 2, CANNOT("replay", "expected 1 FILE argument, got 2")},
    {{"replay", "games.jsonl", "--game", "1", "--bot", "1=./no-such-bot"},
     2,
     CANNOT("replay", "--bot '1=./no-such-bot': cannot run './no-such-bot': no such file")},
    {{"replay", "games.jsonl", "--game", "1", "--bot=2=./botdir"},
     2,
     CANNOT("replay", "--bot '2=./botdir': cannot run './botdir': is a directory")},
    {{"replay", "games.jsonl", "--game", "1", "--bot", "me=./plain.py"},
     2,
     CANNOT("replay", "--bot 'me=./plain.py': cannot run './plain.py': " NOT_EXECUTABLE)},
    {{"replay", "games.jsonl", "--line", "1", "--bot", "1=true {sed}"},
     2,
     CANNOT("replay", "--bot '1=true {sed}': unknown placeholder {sed} " PLACEHOLDERS)},
    /* league */
    {{"league", "true", "true"},
     2,
     CANNOT("league", "-o FILE is required: a league runs until stopped, and resumes from its "
                      "records")},
    {{"league", "true", "true", "-o", "l.jsonl", "--shard", "1/2"},
     2,
     CANNOT("league", "unknown option '--shard' (an option of play, tournament)")},
    {{"league", "true", "-o", "l.jsonl"},
     2,
     CANNOT("league", "expected 2 to 64 BOT arguments, got 1")},
    {{"league", "true", "true", "--games-per-pair", "2"},
     2,
     CANNOT("league", "unknown option '--games-per-pair' (an option of tournament)")},
    {{"league", "true", "true", "--standings-every", "0"},
     2,
     CANNOT("league", "--standings-every: expected a number of games, 1 or more, got '0'")},
    {{"standings", "a.jsonl", "--since", "yesterday"},
     2,
     CANNOT("standings", "--since: expected a UTC date, 2026-11-21 or 2026-11-21T21:00:00Z, got "
                         "'yesterday'")},
    {{"tournament", "true", "true", "--gauntlet", "0"},
     2,
     CANNOT("tournament", "--gauntlet: expected a number of bots from 1 to 63, got '0'")},
    {{"replay", "games.jsonl", "--turn", "3"},
     2,
     CANNOT("replay", "--turn goes with --bot PLAYER=COMMAND")},
    /* the sandbox's options are about the re-fed bot, as --turn is */
    {{"replay", "games.jsonl", "--sandbox", "off"},
     2,
     CANNOT("replay", "--sandbox goes with --bot PLAYER=COMMAND")},
    {{"replay", "games.jsonl", "--bot-network"},
     2,
     CANNOT("replay", "--bot-network goes with --bot PLAYER=COMMAND")},
    {{"replay", "games.jsonl", "--pin-cores", "--game", "1"},
     2,
     CANNOT("replay", "--pin-cores goes with --bot PLAYER=COMMAND")},
    {{"replay", "games.jsonl", "--bot-env=X=1", "--sandbox", "on"},
     2,
     CANNOT("replay", "--bot-env goes with --bot PLAYER=COMMAND")},
    /* standings */
    {{"standings", "a.jsonl", "--frobnicate"},
     2,
     CANNOT("standings", "unknown option '--frobnicate'")},
    {{"standings", "a.jsonl", "--json=yes"},
     2,
     CANNOT("standings", "--json: takes no value, got 'yes'")},
    {{"standings", "a.jsonl", "--seed", "3"},
     2,
     CANNOT("standings",
            "unknown option '--seed' (an option of play, tournament, validate, league, referee)")},
    {{"standings", "--json"}, 2, CANNOT("standings", "expected at least 1 FILE argument, got 0")},
    {{"standings", "a.jsonl", "--format", "html"},
     2,
     CANNOT("standings", "--format html writes a page: give -o FILE")},
    {{"standings", "a.jsonl", "-o", "s.html"},
     2,
     CANNOT("standings", "-o FILE goes with --format html")},
    /* referee */
    {{"referee", "-p1", "true"},
     2,
     CANNOT("referee", "the bots are -p1 CMD and -p2 CMD: give both")},
    {{"referee", "-p1", "true", "-p2", "./no-such-bot"},
     2,
     CANNOT("referee", "BOT 'no-such-bot': cannot run './no-such-bot': no such file")},
    {{"referee", "-p1", "true", "-p2", "true", "-d", "seed=x"},
     2,
     CANNOT("referee", "-d: expected seed=N, N a whole number, got 'seed=x'")},
    {{"referee", "-p1", "true", "-p2", "true", "-l", "/no/such/dir/log.json"},
     2,
     "twixt-arena referee: -l: cannot write /no/such/dir/log.json: No such file or directory\n"},
    /* the program itself */
    {{"frobnicate"},
     2,
     "twixt-arena: unknown command 'frobnicate'\n(twixt-arena --help lists the commands)\n"},
    {{"--frobnicate"},
     2,
     "twixt-arena: unknown option '--frobnicate'\n(twixt-arena --help lists the commands)\n"},
    {{"help", "frobnicate"},
     2,
     "twixt-arena: unknown command 'frobnicate'\n(twixt-arena --help lists the commands)\n"},
    {{"help", "play", "tournament"},
     2,
     "twixt-arena: help takes one COMMAND, got 'tournament'\n(twixt-arena --help lists the "
     "commands)\n"},
    /* --size without {size}: one warning before the run (here the run
     * stops at the openings file, an input error, without the hint) */
    {{"play", "true", "true {size}", "--size", "8", "--openings-file", "none.txt"},
     2,
     "twixt-arena play: warning: --size 8, but no {size} in the command of BOT 'true': a bot that "
     "assumes 12 x 12 (and reads no TWIXT_WIDTH) will lose\n"
     "twixt-arena play: --openings-file: cannot read none.txt: No such file or directory\n"},
    {{"tournament", "a=true", "b=true", "--size=8", "--openings-file", "none.txt"},
     2,
     "twixt-arena tournament: warning: --size 8, but no {size} in the command of BOT 'a', BOT "
     "'b': a bot that assumes 12 x 12 (and reads no TWIXT_WIDTH) will lose\n"
     "twixt-arena tournament: --openings-file: cannot read none.txt: No such file or directory\n"},
    {{"play", "true", "true {width}", "--board", "8x9", "--openings-file", "none.txt"},
     2,
     "twixt-arena play: warning: --board 8x9, but no {width} or {height} in the command of BOT "
     "'true': a bot that assumes 12 x 12 (and reads no TWIXT_WIDTH) will lose\n"
     "twixt-arena play: --openings-file: cannot read none.txt: No such file or directory\n"},
};

START_TEST(cli_usage_error)
{
    struct run r = run(usage_errors[_i].args);
    ck_assert_msg(!strcmp(r.err, usage_errors[_i].err), "case %d (%s %s):\n got %s\nwant %s", _i,
                  usage_errors[_i].args[0],
                  usage_errors[_i].args[1] ? usage_errors[_i].args[1] : "", r.err,
                  usage_errors[_i].err);
    ck_assert_int_eq(r.status, usage_errors[_i].status);
    ck_assert_msg(r.out[0] == '\0', "case %d wrote on stdout: %s", _i, r.out);
    run_free(&r);
}
END_TEST

static const char *const commands[] = {"play",   "tournament", "validate",
                                       "replay", "standings",  "league"};

START_TEST(cli_help_command_is_command_help)
{
    const char *name = commands[_i];
    const char *help_args[] = {"help", name, NULL}, *option_args[] = {name, "--help", NULL},
               *short_args[] = {name, "-h", NULL};
    struct run a = run(help_args), b = run(option_args), c = run(short_args);
    ck_assert_int_eq(a.status, 0);
    ck_assert_int_eq(b.status, 0);
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(a.err, "");
    ck_assert_str_eq(b.err, "");
    char usage[64];
    snprintf(usage, sizeof usage, "usage: twixt-arena %s ", name);
    ck_assert_msg(!strncmp(a.out, usage, strlen(usage)), "%s", a.out);
    ck_assert_str_eq(a.out, b.out);
    ck_assert_str_eq(a.out, c.out);
    run_free(&a);
    run_free(&b);
    run_free(&c);
}
END_TEST

START_TEST(cli_help_lists_every_command)
{
    const char *help_args[] = {"help", NULL}, *option_args[] = {"--help", NULL},
               *none_args[] = {NULL}, *help_help_args[] = {"help", "--help", NULL};
    struct run a = run(help_args), b = run(option_args), c = run(none_args),
               d = run(help_help_args);
    ck_assert_int_eq(a.status, 0);
    ck_assert_int_eq(b.status, 0);
    ck_assert_int_eq(d.status, 0);
    ck_assert_str_eq(a.out, b.out);
    ck_assert_str_eq(a.out, d.out);
    /* no command at all: the same text, on stderr, as a usage error */
    ck_assert_int_eq(c.status, 2);
    ck_assert_str_eq(c.out, "");
    ck_assert_str_eq(c.err, a.out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n  %s ", commands[i]);
        ck_assert_msg(strstr(a.out, line), "%s missing from\n%s", commands[i], a.out);
    }
    run_free(&a);
    run_free(&b);
    run_free(&c);
    run_free(&d);
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, cli_usage_error, 0,
                        (int)(sizeof usage_errors / sizeof usage_errors[0]));
    tcase_add_loop_test(tc, cli_help_command_is_command_help, 0,
                        (int)(sizeof commands / sizeof commands[0]));
    tcase_add_test(tc, cli_help_lists_every_command);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
