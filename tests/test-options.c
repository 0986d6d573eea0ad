/* test-options.c - the option table (referee/options.h) of every
 * subcommand: tables of command lines and what they parse to, tables of
 * mistakes and their exact messages, and the shape of the generated --help
 * that shell completions and the man-page check rely on.
 *
 * A parse is compared through describe(), which prints every field that
 * differs from its default as "name=value", so one string says everything
 * a command line set (and that it set nothing else).
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "options.h"

#define PLAY (&tx_cmd_play_line)
#define TOURNAMENT (&tx_cmd_tournament_line)
#define VALIDATE (&tx_cmd_validate_line)
#define REPLAY (&tx_cmd_replay_line)
#define STANDINGS (&tx_cmd_standings_line)
#define REFEREE (&tx_cmd_referee_line)
#define ARGS_MAX 12

static const struct tx_options_command *const all_commands[] = {PLAY,   TOURNAMENT, VALIDATE,
                                                                REPLAY, STANDINGS,  REFEREE};

static int parse(struct tx_options *o, const struct tx_options_command *cmd,
                 const char *const *args, char *err, size_t errcap)
{
    char *argv[ARGS_MAX + 2] = {(char *)cmd->name};
    int argc = 1;
    for (int i = 0; i < ARGS_MAX && args[i]; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    err[0] = '\0';
    return tx_options_parse(o, cmd, argc, argv, err, errcap);
}

static void add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* Every field that differs from its default, in a fixed order. */
static void describe(const struct tx_options *o, char *buf, size_t cap)
{
    buf[0] = '\0';
    add(buf, cap, "operands=");
    for (int i = 0; i < o->noperands; i++)
        add(buf, cap, "%s%s", i ? "," : "", o->operands[i]);
    for (int i = 0; i < o->nbots; i++)
        add(buf, cap, " bot=%s:%s", o->bots[i].name, o->bots[i].command);
    const struct tx_limits *l = &o->limits;
    if (l->first_turn_ms != 1000 || l->turn_ms != 300 || l->margin_ms != 0 || l->soft ||
        l->memory_mb != 768 || l->cpu_s != 0)
        add(buf, cap, " limits=%d/%d/%d%s/%d", l->first_turn_ms, l->turn_ms, l->margin_ms,
            l->soft ? "/soft" : "", l->memory_mb);
    if (o->variant.width != 12 || o->variant.height != 12) {
        if (o->variant.width == o->variant.height)
            add(buf, cap, " size=%d", o->variant.width);
        else
            add(buf, cap, " board=%dx%d", o->variant.width, o->variant.height);
    }
    if (o->variant.rules != TX_RULES_PP)
        add(buf, cap, " rules=%s", tx_ruleset(o->variant.rules)->name);
    if (o->seed != 1)
        add(buf, cap, " seed=%llu", (unsigned long long)o->seed);
    if (o->games)
        add(buf, cap, " games=%lld", (long long)o->games);
    if (o->concurrency)
        add(buf, cap, " concurrency=%d", o->concurrency);
    if (o->openings)
        add(buf, cap, " openings=%d", o->openings);
    if (o->openings_file)
        add(buf, cap, " openings-file=%s", o->openings_file);
    if (o->shard != 1 || o->shards != 1)
        add(buf, cap, " shard=%d/%d", o->shard, o->shards);
    if (o->sprt.enabled)
        add(buf, cap, " sprt=%g,%g,%g,%g%s", o->sprt.elo0, o->sprt.elo1, o->sprt.alpha,
            o->sprt.beta, o->sprt.logistic ? ",logistic" : "");
    for (int i = 0; i < o->opponents.count; i++)
        add(buf, cap, " opponent=%s", o->opponents.values[i]);
    if (o->output)
        add(buf, cap, " output=%s", o->output);
    if (o->json)
        add(buf, cap, " json");
    if (o->help)
        add(buf, cap, " help");
    if (o->game)
        add(buf, cap, " game=%lld", (long long)o->game);
    if (o->line)
        add(buf, cap, " line=%lld", (long long)o->line);
    if (o->move != -1)
        add(buf, cap, " move=%d", o->move);
    if (o->turn)
        add(buf, cap, " turn=%d", o->turn);
    if (o->format)
        add(buf, cap, " format=%d", o->format);
    if (o->color)
        add(buf, cap, " color=%d", o->color);
    if (o->bot)
        add(buf, cap, " refeed=%s", o->bot);
    if (o->game_seed_given)
        add(buf, cap, " game-seed=%lld", (long long)o->game_seed);
    if (o->log)
        add(buf, cap, " log=%s", o->log);
    if (o->referee_format)
        add(buf, cap, " referee-format=%d", o->referee_format);
    if (o->standings_format)
        add(buf, cap, " standings-format=%d", o->standings_format);
}

START_TEST(parse_table)
{
    static const struct {
        const struct tx_options_command *cmd;
        const char *args[ARGS_MAX + 1];
        const char *want;
    } cases[] = {
        /* defaults; names derived, told apart, or given */
        {PLAY,
         {"./a", "b=python3 b.py --x=1"},
         "operands=./a,b=python3 b.py --x=1 bot=a:./a "
         "bot=b:python3 b.py --x=1"},
        {TOURNAMENT,
         {"./a", "x/a", "./a"},
         "operands=./a,x/a,./a bot=a:./a bot=a-2:x/a bot=a-3:./a"},
        /* both value forms, for every kind of value */
        {PLAY,
         {"a", "b", "--games", "4", "--seed=18446744073709551615"},
         "operands=a,b bot=a:a bot=b:b seed=18446744073709551615 games=4"},
        {PLAY,
         {"a", "b", "--games=4", "--seed", "0"},
         "operands=a,b bot=a:a bot=b:b seed=0 games=4"},
        {PLAY,
         {"--turn-ms=50", "a", "--first-turn-ms", "200", "b", "--time-margin-ms=5",
          "--soft-timeouts", "--bot-memory-mb", "0"},
         "operands=a,b bot=a:a bot=b:b limits=200/50/5/soft/0"},
        {TOURNAMENT,
         {"a", "b", "--games-per-pair=6", "--shard", "2/3", "--openings=4", "--concurrency", "256",
          "--size=8"},
         "operands=a,b bot=a:a bot=b:b size=8 games=6 concurrency=256 openings=4 shard=2/3"},
        /* the referee: CodinGame's single-dash words, brutaltester's order,
         * cgarena's negative seeds; the game options of play */
        {REFEREE,
         {"-p1", "./a --x", "-p2", "b=./b", "-d", "seed=42", "-l", "logs/game1.json"},
         "operands= bot=a:./a --x bot=b:./b game-seed=42 log=logs/game1.json"},
        {REFEREE,
         {"--turn-ms", "50", "-p2", "./b", "-p1", "./a", "-seed", "-9223372036854775808",
          "--format", "cgarena"},
         "operands= bot=a:./a bot=b:./b limits=1000/50/0/768 game-seed=-9223372036854775808 "
         "referee-format=2"},
        {REFEREE,
         {"--player1=./a", "--player2=./a", "--seed=7", "-d", "seed=7", "--format=psyleague", "-o",
          "r.jsonl", "--size", "8", "--openings", "2"},
         "operands= bot=a:./a bot=a-2:./a size=8 openings=2 output=r.jsonl game-seed=7 "
         "referee-format=1"},
        {STANDINGS,
         {"a.jsonl", "--format", "html", "-o", "d.html"},
         "operands=a.jsonl output=d.html standings-format=1"},
        {TOURNAMENT,
         {"a", "b", "--openings-file=o.txt", "--json"},
         "operands=a,b bot=a:a bot=b:b openings-file=o.txt json"},
        {PLAY,
         {"a", "b", "--sprt", "elo1=5,alpha=0.1,model=logistic"},
         "operands=a,b bot=a:a bot=b:b sprt=0,5,0.1,0.05,logistic"},
        {PLAY, {"a", "b", "--sprt=elo0=-2"}, "operands=a,b bot=a:a bot=b:b sprt=-2,10,0.05,0.05"},
        /* the short alias, its value joined or apart, and the long name */
        {PLAY, {"a", "b", "-o", "x.jsonl"}, "operands=a,b bot=a:a bot=b:b output=x.jsonl"},
        {PLAY, {"a", "b", "-ox.jsonl"}, "operands=a,b bot=a:a bot=b:b output=x.jsonl"},
        {PLAY, {"a", "b", "--output=x.jsonl"}, "operands=a,b bot=a:a bot=b:b output=x.jsonl"},
        /* a value may start with '-'; the last of a repeated option wins */
        {REPLAY, {"f", "-o", "-"}, "operands=f output=-"},
        {PLAY, {"a", "b", "--games", "2", "--games", "6"}, "operands=a,b bot=a:a bot=b:b games=6"},
        /* repeatable: every value, in order */
        {VALIDATE,
         {"./me", "--opponent", "./x", "--opponent=./y --fast", "--concurrency=3", "--games",
          "1000"},
         "operands=./me bot=me:./me games=1000 concurrency=3 opponent=./x opponent=./y --fast"},
        /* enumerations: the value is the choice's */
        {REPLAY, {"f", "--format", "svg", "--move=0"}, "operands=f move=0 format=2"},
        {REPLAY, {"f", "--format=html", "--color", "never"}, "operands=f format=3 color=2"},
        {REPLAY, {"f", "--format=text", "--color=always"}, "operands=f format=1 color=1"},
        {REPLAY,
         {"--game", "17", "f", "--bot", "2=./me --x=1", "--turn=40"},
         "operands=f game=17 turn=40 refeed=2=./me --x=1"},
        {REPLAY,
         {"f", "--line=3", "--bot=me=python3 me.py"},
         "operands=f line=3 refeed=me=python3 me.py"},
        /* operands: "-" is one, "--" ends the options */
        {STANDINGS, {"-", "--json", "a.jsonl"}, "operands=-,a.jsonl json"},
        {STANDINGS, {"--", "--json", "-x"}, "operands=--json,-x"},
        {REPLAY, {"--", "--game"}, "operands=--game"},
        /* --help stops the parse: no operand needed, later mistakes not seen */
        {PLAY, {"--help"}, "operands= help"},
        {VALIDATE, {"-h", "--frobnicate"}, "operands= help"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tx_options o;
        char err[512], got[2048];
        int rc = parse(&o, cases[i].cmd, cases[i].args, err, sizeof err);
        ck_assert_msg(rc == 0, "case %zu: %s", i, err);
        describe(&o, got, sizeof got);
        ck_assert_msg(!strcmp(got, cases[i].want), "case %zu:\n got %s\nwant %s", i, got,
                      cases[i].want);
        tx_options_free(&o);
    }
}
END_TEST

START_TEST(error_table)
{
    static const struct {
        const struct tx_options_command *cmd;
        const char *args[ARGS_MAX + 1];
        const char *message;
    } cases[] = {
        /* unknown options, and who has them */
        {PLAY, {"a", "b", "--frobnicate"}, "unknown option '--frobnicate'"},
        {PLAY, {"a", "b", "--frobnicate=1"}, "unknown option '--frobnicate'"},
        {PLAY, {"a", "b", "-x"}, "unknown option '-x'"},
        {TOURNAMENT,
         {"a", "b", "--games", "4"},
         "unknown option '--games' (an option of play, validate)"},
        {STANDINGS,
         {"f", "--concurrency", "2"},
         "unknown option '--concurrency' (an option of play, tournament, validate, league)"},
        {PLAY, {"a", "b", "-p1", "x"}, "unknown option '-p1' (an option of referee)"},
        {PLAY, {"a", "b", "-q1"}, "unknown option '-q'"},
        {REFEREE,
         {"-p1", "a", "-p2", "b", "c"},
         "unexpected argument 'c' (referee takes options only)"},
        {REFEREE,
         {"-p1", "a", "-p2", "b", "--seed", "1e3"},
         "--seed: expected a whole number from -9223372036854775808 to 9223372036854775807, got "
         "'1e3'"},
        {REFEREE,
         {"-p1", "a", "-p2", "b", "-d", "seed=1", "-seed", "2"},
         "-seed: the seed is given twice, as 1 and 2"},
        {REFEREE,
         {"-p1", "a", "-p2", "b", "-d", "size=8"},
         "-d: unknown game parameter 'size=8' (Twixt-PP takes seed=N)"},
        {REFEREE,
         {"-p1", "a", "-p2", "b", "--games", "2"},
         "unknown option '--games' (an option of play, validate)"},
        {REPLAY, {"f", "--game-", "1"}, "unknown option '--game-'"}, /* no abbreviations */
        {REPLAY, {"f", "--gam", "1"}, "unknown option '--gam'"},
        /* values: missing, given to a flag, empty, out of range */
        {PLAY, {"a", "b", "--turn-ms"}, "--turn-ms: missing value (MS)"},
        {PLAY, {"a", "b", "-o"}, "-o: missing value (FILE)"},
        {REPLAY, {"f", "--format"}, "--format: missing value (text|svg|html)"},
        {PLAY, {"a", "b", "--soft-timeouts=yes"}, "--soft-timeouts: takes no value, got 'yes'"},
        {STANDINGS, {"f", "--json="}, "--json: takes no value, got ''"},
        {PLAY, {"a", "b", "--output="}, "--output: expected a file name, got ''"},
        {PLAY,
         {"a", "b", "--turn-ms", "abc"},
         "--turn-ms: expected milliseconds from 1 to 3600000, got 'abc'"},
        {PLAY,
         {"a", "b", "--turn-ms=0"},
         "--turn-ms: expected milliseconds from 1 to 3600000, got '0'"},
        {PLAY,
         {"a", "b", "--time-margin-ms=-1"},
         "--time-margin-ms: expected milliseconds from 0 to 3600000, got '-1'"},
        {PLAY,
         {"a", "b", "--first-turn-ms", "+5"},
         "--first-turn-ms: expected milliseconds from 1 to 3600000, got '+5'"},
        {PLAY,
         {"a", "b", "--bot-memory-mb=8"},
         "--bot-memory-mb: expected megabytes from 16 to 1048576, or 0 for no limit, got '8'"},
        {PLAY, {"a", "b", "--size", "4"}, "--size: expected a board size from 5 to 100, got '4'"},
        {PLAY,
         {"a", "b", "--size", "101"},
         "--size: expected a board size from 5 to 100, got '101'"},
        {PLAY,
         {"a", "b", "--board", "4x10"},
         "--board: expected WIDTHxHEIGHT, each from 5 to 100, e.g. 30x24, got '4x10'"},
        {PLAY,
         {"a", "b", "--board", "12"},
         "--board: expected WIDTHxHEIGHT, each from 5 to 100, e.g. 30x24, got '12'"},
        {PLAY,
         {"a", "b", "--board", "12x12x3"},
         "--board: expected WIDTHxHEIGHT, each from 5 to 100, e.g. 30x24, got '12x12x3'"},
        {TOURNAMENT,
         {"a", "b", "--size", "12", "--board", "10x8"},
         "--board: --size and --board both give the board: use one"},
        {PLAY, {"a", "b", "--rules", "pp2"}, "--rules: expected pp or classic, got 'pp2'"},
        {PLAY,
         {"a", "b", "--seed", "-1"},
         "--seed: expected a whole number from 0 to 18446744073709551615, got '-1'"},
        {PLAY,
         {"a", "b", "--seed", "18446744073709551616"},
         "--seed: expected a whole number from 0 to 18446744073709551615, got "
         "'18446744073709551616'"},
        {PLAY,
         {"a", "b", "--games=0"},
         "--games: expected a number of games from 1 to 1000000000, "
         "got '0'"},
        {VALIDATE,
         {"a", "--games", "1001"},
         "--games: expected a number of rounds from 1 to 1000, got '1001'"},
        {TOURNAMENT,
         {"a", "b", "--games-per-pair", "3"},
         "--games-per-pair: expected an even number of games from 2 to 1000000000 (colours are "
         "exchanged), got '3'"},
        {TOURNAMENT,
         {"a", "b", "--shard", "0/2"},
         "--shard: expected K/M with 1 <= K <= M, e.g. 1/4, or auto, got '0/2'"},
        {TOURNAMENT,
         {"a", "b", "--shard=3/2"},
         "--shard: expected K/M with 1 <= K <= M, e.g. 1/4, or auto, got '3/2'"},
        {TOURNAMENT,
         {"a", "b", "--openings", "65"},
         "--openings: expected a number of moves from 0 to 64, got '65'"},
        /* one range and one wording wherever --concurrency appears */
        {PLAY,
         {"a", "b", "--concurrency", "0"},
         "--concurrency: expected a number of games from 1 to 256, got '0'"},
        {TOURNAMENT,
         {"a", "b", "--concurrency=257"},
         "--concurrency: expected a number of games from 1 to 256, got '257'"},
        {VALIDATE,
         {"a", "--concurrency", "x"},
         "--concurrency: expected a number of games from 1 to 256, got 'x'"},
        {PLAY,
         {"a", "b", "--sprt", "elo0=5,elo1=1"},
         "--sprt: elo1 must be greater than elo0 (both within +-1000)"},
        {PLAY,
         {"a", "b", "--sprt=gamma=1"},
         "--sprt: unknown key 'gamma' (expected elo0, elo1, alpha, beta or model)"},
        {PLAY,
         {"a", "b", "--sprt", "model=bayes"},
         "--sprt: model must be normalized or logistic, got 'bayes'"},
        {PLAY,
         {"a", "b", "--sprt", "alpha=0.5"},
         "--sprt: alpha and beta must be between 0 and 0.5"},
        {REPLAY, {"f", "--format", "png"}, "--format: expected text, svg or html, got 'png'"},
        {REPLAY,
         {"f", "--color=sometimes"},
         "--color: expected auto, always or never, got 'sometimes'"},
        {REPLAY, {"f", "--game", "x"}, "--game: expected a game number, 1 or more, got 'x'"},
        {REPLAY, {"f", "--line=0"}, "--line: expected a line number, 1 or more, got '0'"},
        {REPLAY, {"f", "--move", "-1"}, "--move: expected a move number, 0 or more, got '-1'"},
        {REPLAY,
         {"f", "--game", "1", "--bot", "./me"},
         "--bot: expected PLAYER=COMMAND, PLAYER being 1, 2 or a player's name, got './me'"},
        {REPLAY,
         {"f", "--game", "1", "--bot=1="},
         "--bot: expected PLAYER=COMMAND, PLAYER being 1, 2 or a player's name, got '1='"},
        {VALIDATE, {"a", "--opponent", ""}, "--opponent: expected a command line, got ''"},
        {VALIDATE,
         {"a", "--opponent=1", "--opponent=2", "--opponent=3", "--opponent=4", "--opponent=5",
          "--opponent=6", "--opponent=7", "--opponent=8", "--opponent=9"},
         "--opponent: at most 8 of them"},
        /* operands: counted, with the right plural */
        {PLAY, {"a"}, "expected 2 BOT arguments, got 1"},
        {PLAY, {"a", "b", "c"}, "expected 2 BOT arguments, got 3"},
        {VALIDATE, {NULL}, "expected 1 BOT argument, got 0"},
        {VALIDATE, {"a", "b"}, "expected 1 BOT argument, got 2"},
        {TOURNAMENT, {"a"}, "expected 2 to 64 BOT arguments, got 1"},
        {REPLAY, {NULL}, "expected 1 FILE argument, got 0"},
        {REPLAY, {"f", "g"}, "expected 1 FILE argument, got 2"},
        {STANDINGS, {"--json"}, "expected at least 1 FILE argument, got 0"},
        {PLAY, {"a", "--", "b", "--games"}, "expected 2 BOT arguments, got 3"},
        /* bots: syntax and placeholders */
        {PLAY,
         {"a", "x='unbalanced"},
         "BOT 'x='unbalanced': bad command line \"'unbalanced\": "
         "unbalanced single quote"},
        {PLAY, {"a", "x="}, "BOT 'x=': bad command line \"\": empty command"},
        {PLAY,
         {"a", "b --seed {sed}"},
         "BOT 'b': unknown placeholder {sed} (the placeholders are {seed}, {size}, {rules}, "
         "{width}, {height}, {opening} and {teams})"},
        {VALIDATE,
         {"a", "--opponent", "./x --size {board}"},
         "--opponent './x --size {board}': unknown placeholder {board} (the placeholders are "
         "{seed}, {size}, {rules}, {width}, {height}, {opening} and {teams})"},
        {REPLAY,
         {"f", "--game", "1", "--bot", "1=./me {Seed}"},
         "--bot '1=./me {Seed}': unknown placeholder {Seed} (the placeholders are {seed}, "
         "{size}, {rules}, {width}, {height}, {opening} and {teams})"},
        /* rules between options */
        {PLAY,
         {"a", "b", "--openings", "2", "--openings-file", "f"},
         "--openings and --openings-file: give one or the other"},
        {REPLAY, {"f", "--turn", "3"}, "--turn goes with --bot PLAYER=COMMAND"},
        {REPLAY,
         {"f", "--bot", "1=./me"},
         "--bot re-feeds one game: give --game K or --line N, and no --format"},
        {REPLAY,
         {"f", "--game", "1", "--format", "text", "--bot", "1=./me"},
         "--bot re-feeds one game: give --game K or --line N, and no --format"},
        {REPLAY,
         {"f", "--game", "1", "--line", "2"},
         "--game and --line both choose a game: give one"},
        {REPLAY,
         {"f", "--move", "3"},
         "--move goes with --format text or svg (the HTML viewer opens at #game=K&move=M in its "
         "URL)"},
        {REPLAY,
         {"f", "--format", "html", "--move", "3"},
         "--move goes with --format text or svg (the HTML viewer opens at #game=K&move=M in its "
         "URL)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tx_options o;
        char err[512];
        ck_assert_msg(parse(&o, cases[i].cmd, cases[i].args, err, sizeof err) == -EINVAL,
                      "case %zu accepted", i);
        ck_assert_msg(!strcmp(err, cases[i].message), "case %zu:\n got %s\nwant %s", i, err,
                      cases[i].message);
        tx_options_free(&o);
    }
}
END_TEST

/* Prints cmd's --help into a string (malloc'ed). */
static char *help_text(const struct tx_options_command *cmd)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    tx_options_help(f, cmd);
    fclose(f);
    return text;
}

/* The shape options.h documents, for completions and the man-page check. */
START_TEST(help_lines_have_the_documented_shape)
{
    regex_t line;
    ck_assert_int_eq(
        regcomp(&line,
                "^  (-[a-z][a-z0-9]*, )?--[a-z][a-z0-9-]*"
                "( ([A-Z][A-Z0-9/=,._-]*(x[A-Z][A-Z0-9]*)?|[a-z0-9-]+(\\|[a-z0-9-]+)+))?"
                "  +[^ ].*$",
                REG_EXTENDED | REG_NOSUB),
        0);
    for (size_t c = 0; c < sizeof all_commands / sizeof all_commands[0]; c++) {
        const struct tx_options_command *cmd = all_commands[c];
        char *text = help_text(cmd), *save = NULL, usage[128];
        snprintf(usage, sizeof usage, "usage: twixt-arena %s %s [OPTIONS]", cmd->name,
                 cmd->operands);
        char *first = strtok_r(text, "\n", &save);
        ck_assert_str_eq(first, usage);
        int options = 0;
        bool in_options = false;
        const char *last = NULL;
        for (char *l = strtok_r(NULL, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            if (!strcmp(l, "Options:")) {
                in_options = true;
                continue;
            }
            if (!in_options)
                continue;
            ck_assert_msg(regexec(&line, l, 0, NULL, 0) == 0, "%s: '%s'", cmd->name, l);
            options++;
            last = l;
        }
        ck_assert_msg(options >= 2, "%s", cmd->name);
        ck_assert_msg(!strncmp(last, "  -h, --help  ", 14), "%s: '%s'", cmd->name, last);
        free(text);
    }
    regfree(&line);
}
END_TEST

/* Each subcommand's --help lists exactly the options it parses. */
START_TEST(help_lists_what_the_parser_takes)
{
    static const struct {
        const struct tx_options_command *cmd;
        const char *has[8], *lacks[4];
    } cases[] = {
        {PLAY,
         {"--games N", "--sprt KEY=VALUE,...", "-o, --output FILE", "--concurrency N",
          "--soft-timeouts  ", "--json  "},
         {"--games-per-pair", "--opponent"}},
        {TOURNAMENT,
         {"--games-per-pair N", "--shard K/M", "--json  ", "--openings-file FILE"},
         {"--games ", "--sprt", "--format"}},
        {VALIDATE,
         {"--opponent CMD", "--concurrency N", "--games N", "--json  ", "--size N"},
         {"--shard", "--sprt", "--openings"}},
        {REPLAY,
         {"--format text|svg|html", "--color auto|always|never", "--bot PLAYER=COMMAND", "--game K",
          "--turn T", "-o, --output FILE"},
         {"--seed", "--json", "--size"}},
        {STANDINGS, {"--json  ", "-o, --output FILE", "--format text|html"}, {"--seed", "--size"}},
        {REFEREE,
         {"-p1, --player1 CMD", "-seed, --seed N", "-d, --data KEY=VALUE", "-l, --log FILE",
          "--turn-ms MS", "--size N", "--sandbox auto|on|off", "--openings K"},
         {"--games", "--concurrency", "--shard", "--json"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = help_text(cases[i].cmd);
        for (int k = 0; k < 8 && cases[i].has[k]; k++)
            ck_assert_msg(strstr(text, cases[i].has[k]), "%s lacks %s", cases[i].cmd->name,
                          cases[i].has[k]);
        for (int k = 0; k < 4 && cases[i].lacks[k]; k++)
            ck_assert_msg(!strstr(text, cases[i].lacks[k]), "%s has %s", cases[i].cmd->name,
                          cases[i].lacks[k]);
        free(text);
    }
}
END_TEST

START_TEST(apply_copies_the_limits)
{
    static const char *const args[] = {"a",
                                       "b",
                                       "--first-turn-ms=900",
                                       "--turn-ms=90",
                                       "--time-margin-ms=9",
                                       "--soft-timeouts",
                                       "--bot-memory-mb=99",
                                       NULL};
    struct tx_options o;
    struct tx_match_config config = {0};
    char err[256];
    ck_assert_int_eq(parse(&o, PLAY, args, err, sizeof err), 0);
    tx_options_apply(&o, &config);
    ck_assert_int_eq(config.limits.first_turn_ms, 900);
    ck_assert_int_eq(config.limits.turn_ms, 90);
    ck_assert_int_eq(config.limits.margin_ms, 9);
    ck_assert(config.limits.soft);
    ck_assert_int_eq(config.limits.memory_mb, 99);
    tx_options_free(&o);
}
END_TEST

START_TEST(options_shell_command_quotes)
{
    char *argv[] = {(char *)"twixt-arena", (char *)"play", (char *)"a=./bot --seed {seed}",
                    (char *)"it's",        (char *)"-o",   (char *)"out.jsonl"};
    char buf[256];
    ck_assert(tx_options_shell_command(6, argv, buf, sizeof buf));
    ck_assert_str_eq(buf, "twixt-arena play 'a=./bot --seed {seed}' 'it'\\''s' -o out.jsonl");
    ck_assert(!tx_options_shell_command(6, argv, buf, 20));
}
END_TEST

static Suite *options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, parse_table);
    tcase_add_test(tc, error_table);
    tcase_add_test(tc, help_lines_have_the_documented_shape);
    tcase_add_test(tc, help_lists_what_the_parser_takes);
    tcase_add_test(tc, apply_copies_the_limits);
    tcase_add_test(tc, options_shell_command_quotes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(options_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
