/* options.c - the option table of every subcommand, its parser and --help.
 *
 * One row per option (per meaning: `-o` appends records in play but names
 * the output of replay, so it has a row for each) says everything about it:
 * who takes it, what kind of value goes into which field of struct
 * tx_options, the range, the placeholder and the help line. The parser,
 * the error messages and --help are generated from the rows, so they cannot
 * drift apart, and a range is written once (the rows of an option that
 * several subcommands share use the same constants). Values are checked
 * here, so that a typo is a clear message before any bot is started, never
 * a surprise mid-run.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "commands.h"
#include "geometry.h"
#include "options.h"
#include "pool.h"
#include "record.h"
#include "validate.h"

enum kind {
    FLAG,   /* bool, no value */
    INT,    /* int in [min, max] */
    INT64,  /* int64_t in [min, max] */
    SEED,   /* uint64_t, any */
    TEXT,   /* const char *, not empty (points into argv) */
    CHOICE, /* int: min + the index of the value among the '|'-separated choices */
    LIST,   /* struct tx_options_list, repeatable up to max values, none empty */
    CUSTOM, /* parse() stores it */
};

#define FIELD(f) offsetof(struct tx_options, f)
#define RUNS (TX_CMD_PLAY | TX_CMD_TOURNAMENT | TX_CMD_LEAGUE)
/* Every command that plays games: the referee's one game takes every
 * option of a game (limits, board, sandbox) too. */
#define GAMES (TX_CMD_PLAY | TX_CMD_TOURNAMENT | TX_CMD_LEAGUE | TX_CMD_VALIDATE | TX_CMD_REFEREE)
/* Every command that starts bots (replay: with --bot). */
#define BOTS (GAMES | TX_CMD_REPLAY)
#define NO_MAX INT64_MAX /* INT64 and INT rows: no upper bound ("1 or more") */
/* The defaults and bounds that --help and the errors state, as text made
 * from the constants the code applies (plain numbers for this), so that
 * changing one changes what the user reads. */
#define QUOTE_(x) #x
#define QUOTE(x) QUOTE_(x)
#define GAMES_DEFAULT_TEXT QUOTE(TX_OPTIONS_GAMES_DEFAULT)
#define GAMES_MAX_TEXT QUOTE(TX_RECORD_GAME_MAX)
#define SPRT_GAMES_TEXT QUOTE(TX_OPTIONS_SPRT_GAMES_DEFAULT)
#define SPRT_ELO0_TEXT QUOTE(TX_OPTIONS_SPRT_ELO0)
#define SPRT_ELO1_TEXT QUOTE(TX_OPTIONS_SPRT_ELO1)
#define SPRT_ALPHA_TEXT QUOTE(TX_OPTIONS_SPRT_ALPHA)
#define SPRT_BETA_TEXT QUOTE(TX_OPTIONS_SPRT_BETA)
#define SEED_DEFAULT_TEXT QUOTE(TX_OPTIONS_DEFAULT_SEED)
#define STANDINGS_EVERY_TEXT QUOTE(TX_OPTIONS_STANDINGS_EVERY_DEFAULT)
#define ROUNDS_DEFAULT_TEXT QUOTE(TX_VALIDATE_ROUNDS_DEFAULT)
#define OPPONENTS_MAX_TEXT QUOTE(TX_VALIDATE_OPPONENTS_MAX)
#define VALIDATE_CONCURRENCY_TEXT QUOTE(TX_VALIDATE_CONCURRENCY_DEFAULT)
#define FIRST_TURN_MS_TEXT QUOTE(TX_LIMITS_FIRST_TURN_MS)
#define TURN_MS_TEXT QUOTE(TX_LIMITS_TURN_MS)
#define MARGIN_MS_TEXT QUOTE(TX_LIMITS_MARGIN_MS)
#define SOFT_OVER_MS_TEXT QUOTE(TX_LIMITS_SOFT_OVER_MS)
#define MEMORY_MB_TEXT QUOTE(TX_LIMITS_MEMORY_MB)
#define MEMORY_MB_MIN_TEXT QUOTE(TX_LIMITS_MEMORY_MB_MIN)
#define MEMORY_MB_MAX_TEXT QUOTE(TX_LIMITS_MEMORY_MB_MAX)
#define SIZE_MIN_TEXT QUOTE(TX_SIDE_MIN)
#define SIZE_MAX_TEXT QUOTE(TX_SIDE_MAX)
#define SIZE_DEFAULT_TEXT QUOTE(TX_SIZE_DEFAULT)
#define CPUS_TEXT QUOTE(TX_SANDBOX_CPUS)
#define CPUS_MIN_TEXT QUOTE(TX_SANDBOX_CPUS_MIN)
#define CPUS_MAX_TEXT QUOTE(TX_SANDBOX_CPUS_MAX)

static bool parse_pairs(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_player1(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_player2(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_game_seed(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_game_data(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_shard(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_sprt(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_memory(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_refeed_bot(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_since(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_sandbox(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_bot_env(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_rules(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_size(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_board(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_opening(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_team(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_bot_cpus(struct tx_options *o, const char *v, char *why, size_t cap);
static bool parse_bot_writable(struct tx_options *o, const char *v, char *why, size_t cap);

/* One option of one or more subcommands. */
static const struct option {
    const char *name;  /* "--turn-ms" */
    const char *alias; /* "-o", or NULL */
    unsigned commands; /* enum tx_options_cmd bits */
    enum kind kind;
    size_t field;      /* FIELD(...): where the value goes */
    int64_t min, max;  /* INT, INT64: the range (max NO_MAX: none); CHOICE: min is the first
                          choice's value; LIST: max is how many values */
    const char *value; /* the placeholder or the choices (options.h's shape); NULL: a flag */
    const char *what;  /* the value in errors: "expected WHAT from MIN to MAX, got 'x'" */
    /* CUSTOM: stores the value, or returns false with a reason in why ("" for "expected WHAT") */
    bool (*parse)(struct tx_options *o, const char *value, char *why, size_t cap);
    const char *help; /* one line */
    bool refeed;      /* replay: only with --bot (it is about the re-fed bot) */
} options[] = {
    {.name = "--games",
     .commands = TX_CMD_PLAY,
     .kind = INT64,
     .field = FIELD(games),
     .min = 1,
     .max = TX_RECORD_GAME_MAX,
     .value = "N",
     .what = "a number of games",
     .help = "games to play (default " GAMES_DEFAULT_TEXT "; with --sprt at most N, "
             "default " SPRT_GAMES_TEXT ")"},
    {.name = "--games",
     .commands = TX_CMD_VALIDATE,
     .kind = INT64,
     .field = FIELD(games),
     .min = 1,
     .max = TX_VALIDATE_ROUNDS_MAX,
     .value = "N",
     .what = "a number of rounds",
     .help = "play the battery N times, with other seeds (default " ROUNDS_DEFAULT_TEXT ")"},
    {.name = "--games-per-pair",
     .commands = TX_CMD_TOURNAMENT,
     .kind = CUSTOM,
     .parse = parse_pairs,
     .value = "N",
     .what = "an even number of games from 2 to " GAMES_MAX_TEXT " (colours are exchanged)",
     .help = "games for each pair of bots, even (default " GAMES_DEFAULT_TEXT ")"},
    {.name = "--opponent",
     .commands = TX_CMD_VALIDATE,
     .kind = LIST,
     .field = FIELD(opponents),
     .max = TX_VALIDATE_OPPONENTS_MAX,
     .value = "CMD",
     .what = "a command line",
     .help = "play the plain games against CMD, not the bundled bots (up to " OPPONENTS_MAX_TEXT
             " times)"},
    {.name = "--seed",
     .commands = GAMES & ~TX_CMD_REFEREE, /* the referee's -seed is the game's, below */
     .kind = SEED,
     .field = FIELD(seed),
     .value = "S",
     .what = "a whole number from 0 to 18446744073709551615",
     .help = "seed of the run: per-game {seed} and openings (default " SEED_DEFAULT_TEXT ")"},
    {.name = "--output",
     .alias = "-o",
     .commands = RUNS,
     .kind = TEXT,
     .field = FIELD(output),
     .value = "FILE",
     .what = "a file name",
     .help = "append one JSON record per game; resumes a run already in FILE"},
    {.name = "--output",
     .alias = "-o",
     .commands = TX_CMD_VALIDATE,
     .kind = TEXT,
     .field = FIELD(output),
     .value = "FILE",
     .what = "a file name",
     .help = "write the battery's records to FILE, new or empty (default: a temporary file, "
             "kept when a finding points into it)"},
    {.name = "--concurrency",
     .commands = RUNS,
     .kind = INT,
     .field = FIELD(concurrency),
     .min = 1,
     .max = TX_OPTIONS_CONCURRENCY_MAX,
     .value = "N",
     .what = "a number of games",
     .help = "games played at once (default: the number of cores)"},
    {.name = "--concurrency",
     .commands = TX_CMD_VALIDATE,
     .kind = INT,
     .field = FIELD(concurrency),
     .min = 1,
     .max = TX_OPTIONS_CONCURRENCY_MAX,
     .value = "N",
     .what = "a number of games",
     .help = "games played at once (default " VALIDATE_CONCURRENCY_TEXT ": the fairest timing)"},
    {.name = "--openings",
     .commands = RUNS | TX_CMD_REFEREE,
     .kind = INT,
     .field = FIELD(openings),
     .min = 0,
     .max = TX_SCHEDULE_OPENING_MAX,
     .value = "K",
     .what = "a number of moves",
     .help = "both games of a pair start from the same K random forced moves"},
    {.name = "--openings-file",
     .commands = RUNS | TX_CMD_REFEREE,
     .kind = TEXT,
     .field = FIELD(openings_file),
     .value = "FILE",
     .what = "a file name",
     .help = "forced openings, one per line (\"F6 G8 D5\")"},
    {.name = "--shard",
     .commands = TX_CMD_PLAY | TX_CMD_TOURNAMENT, /* a league chooses as it goes */
     .kind = CUSTOM,
     .parse = parse_shard,
     .value = "K/M",
     .what = "K/M with 1 <= K <= M, e.g. 1/4, or auto",
     .help = "play only shard K of M (auto: this task of a Slurm, Grid Engine or AWS Batch job "
             "array): each pairing deals its game pairs in turn"},
    {.name = "--sprt",
     .commands = TX_CMD_PLAY,
     .kind = CUSTOM,
     .parse = parse_sprt,
     .value = "KEY=VALUE,...",
     .help = "game pairs until the SPRT decides (elo0=" SPRT_ELO0_TEXT ",elo1=" SPRT_ELO1_TEXT
             ",alpha=" SPRT_ALPHA_TEXT ",beta=" SPRT_BETA_TEXT ",model=normalized|logistic)"},
    {.name = "--first-turn-ms",
     .commands = GAMES,
     .kind = INT,
     .field = FIELD(limits.first_turn_ms),
     .min = 1,
     .max = TX_LIMITS_MS_MAX,
     .value = "MS",
     .what = "milliseconds",
     .help = "limit of each bot's first turn (default " FIRST_TURN_MS_TEXT ")"},
    {.name = "--turn-ms",
     .commands = GAMES,
     .kind = INT,
     .field = FIELD(limits.turn_ms),
     .min = 1,
     .max = TX_LIMITS_MS_MAX,
     .value = "MS",
     .what = "milliseconds",
     .help = "limit of every later turn (default " TURN_MS_TEXT ")"},
    {.name = "--time-margin-ms",
     .commands = GAMES,
     .kind = INT,
     .field = FIELD(limits.margin_ms),
     .min = 0,
     .max = TX_LIMITS_MS_MAX,
     .value = "MS",
     .what = "milliseconds",
     .help = "lateness forgiven before a timeout (default " MARGIN_MS_TEXT ")"},
    {.name = "--soft-timeouts",
     .commands = GAMES,
     .kind = FLAG,
     .field = FIELD(limits.soft),
     .help = "CodinGame mode: up to " SOFT_OVER_MS_TEXT " ms over forgiven twice a game"},
    {.name = "--bot-memory-mb",
     .commands = GAMES,
     .kind = CUSTOM,
     .parse = parse_memory,
     .value = "MB",
     .what = "megabytes from " MEMORY_MB_MIN_TEXT " to " MEMORY_MB_MAX_TEXT ", or 0 for no limit",
     .help = "memory limit of each bot (default " MEMORY_MB_TEXT ", 0 for none)"},
    {.name = "--rules",
     .commands = GAMES,
     .kind = CUSTOM,
     .parse = parse_rules,
     .value = "pp|classic",
     .what = "pp or classic",
     .help = "rule set: CodinGame's Twixt-PP (default) or the classic rules with link edits"},
    {.name = "--size",
     .commands = GAMES,
     .kind = CUSTOM,
     .parse = parse_size,
     .value = "N",
     .what = "a board size from " SIZE_MIN_TEXT " to " SIZE_MAX_TEXT,
     .help = "board size, " SIZE_MIN_TEXT " to " SIZE_MAX_TEXT " (default " SIZE_DEFAULT_TEXT
             "; {size} in commands)"},
    {.name = "--board",
     .commands = GAMES,
     .kind = CUSTOM,
     .parse = parse_board,
     .value = "WxH",
     .what = "WIDTHxHEIGHT, each from " SIZE_MIN_TEXT " to " SIZE_MAX_TEXT ", e.g. 30x24",
     .help = "a W x H board: player 1 joins its H rows (default " SIZE_DEFAULT_TEXT
             "x" SIZE_DEFAULT_TEXT "; {width}, {height})"},
    {.name = "--opening",
     .commands = GAMES,
     .kind = CUSTOM,
     .parse = parse_opening,
     .value = "swap|pie|cut|none",
     .what = "swap, pie, cut or none",
     .help = "how player 2 answers the first move: CodinGame's mirror swap (default), the pie "
             "rule, the cut, or no swap ({opening})"},
    {.name = "--teams",
     .commands = TX_CMD_PLAY | TX_CMD_TOURNAMENT,
     .kind = CUSTOM,
     .parse = parse_team,
     .value = "NAME=BOT1,BOT2",
     .what = "NAME=BOT1,BOT2: the team's name, then its two bots' names",
     .help = "Double TwixT: a team of two bots, BOT1 first for its side (repeat it: two teams for "
             "play)"},
    {.name = "--handicap",
     .commands = TX_CMD_PLAY | TX_CMD_TOURNAMENT,
     .kind = TEXT,
     .field = FIELD(handicap),
     .value = "NAME",
     .what = "a bot's (or a team's) name",
     .help = "on a --board W x H, NAME has the longer distance in every game, whatever its colour"},
    {.name = "--game",
     .commands = TX_CMD_REPLAY,
     .kind = INT64,
     .field = FIELD(game),
     .min = 1,
     .max = NO_MAX,
     .value = "K",
     .what = "a game number",
     .help = "only the game with index K (\"game\": K in the record)"},
    {.name = "--line",
     .commands = TX_CMD_REPLAY,
     .kind = INT64,
     .field = FIELD(line),
     .min = 1,
     .max = NO_MAX,
     .value = "N",
     .what = "a line number",
     .help = "only the record on line N of FILE"},
    {.name = "--format",
     .commands = TX_CMD_REPLAY,
     .kind = CHOICE,
     .field = FIELD(format),
     .min = TX_FORMAT_TEXT,
     .value = "text|svg|html",
     .help = "render: the board after each move, a picture, or a self-contained web page"},
    {.name = "--move",
     .commands = TX_CMD_REPLAY,
     .kind = INT,
     .field = FIELD(move),
     .min = 0,
     .max = NO_MAX,
     .value = "M",
     .what = "a move number",
     .help = "text and svg: the position after move M (0 is the empty board)"},
    {.name = "--color",
     .commands = TX_CMD_REPLAY,
     .kind = CHOICE,
     .field = FIELD(color),
     .min = TX_COLOR_AUTO,
     .value = "auto|always|never",
     .help = "colour in text output (default auto: on a terminal, unless NO_COLOR is set)"},
    {.name = "--output",
     .alias = "-o",
     .commands = TX_CMD_REPLAY,
     .kind = TEXT,
     .field = FIELD(output),
     .value = "FILE",
     .what = "a file name",
     .help = "write to FILE instead of standard output"},
    {.name = "--bot",
     .commands = TX_CMD_REPLAY,
     .kind = CUSTOM,
     .parse = parse_refeed_bot,
     .value = "PLAYER=COMMAND",
     .what = "PLAYER=COMMAND, PLAYER being 1, 2 or a player's name",
     .help = "re-feed COMMAND what PLAYER (1, 2 or a name) received in the chosen game"},
    {.name = "--turn",
     .commands = TX_CMD_REPLAY,
     .kind = INT,
     .field = FIELD(turn),
     .min = 1,
     .max = NO_MAX,
     .value = "T",
     .what = "a move number",
     .help = "with --bot: stop after move T (default: the last recorded move)",
     .refeed = true},
    {.name = "--sandbox",
     .commands = BOTS,
     .kind = CUSTOM,
     .parse = parse_sandbox,
     .value = "auto|on|off",
     .what = "auto, on or off",
     .help = "isolate each bot (own namespaces, read-only files, limits); auto: where the "
             "machine can",
     .refeed = true},
    {.name = "--bot-network",
     .commands = BOTS,
     .kind = FLAG,
     .field = FIELD(sandbox.network),
     .help = "sandboxed bots keep the network",
     .refeed = true},
    {.name = "--pin-cores",
     .commands = BOTS,
     .kind = FLAG,
     .field = FIELD(sandbox.pin_cores),
     .help = "pin each bot to cores of its own, away from its opponent's where there are enough",
     .refeed = true},
    {.name = "--bot-env",
     .commands = BOTS,
     .kind = CUSTOM,
     .parse = parse_bot_env,
     .value = "NAME=VALUE",
     .what = "NAME=VALUE or NAME (letters, digits and _, not starting with a digit)",
     .help = "add to every bot's environment (repeatable; NAME alone: its value here)",
     .refeed = true},
    {.name = "--bot-cpus",
     .commands = BOTS,
     .kind = CUSTOM,
     .parse = parse_bot_cpus,
     .value = "N",
     .what = "a number of CPUs from " CPUS_MIN_TEXT " to " CPUS_MAX_TEXT ", or 0 for no quota",
     .help =
         "CPUs each sandboxed bot may use, its children included (cgroup quota; default " CPUS_TEXT
         ", 0 for none)",
     .refeed = true},
    {.name = "--bot-writable",
     .commands = BOTS,
     .kind = CUSTOM,
     .parse = parse_bot_writable,
     .value = "DIR",
     .what = "a directory",
     .help = "a directory sandboxed bots may write to, at the same path (repeatable)",
     .refeed = true},
    {.name = "--skip-invalid",
     .commands = RUNS,
     .kind = FLAG,
     .field = FIELD(skip_invalid),
     .help = "on resume, move lines of FILE that are not records into FILE.rejected"},
    {.name = "--skip-invalid",
     .commands = TX_CMD_REPLAY | TX_CMD_STANDINGS,
     .kind = FLAG,
     .field = FIELD(skip_invalid),
     .help = "report lines that are not records and go on (not failures)"},
    {.name = "--bots",
     .commands = TX_CMD_TOURNAMENT | TX_CMD_LEAGUE,
     .kind = TEXT,
     .field = FIELD(bots_file),
     .value = "FILE",
     .what = "a file name",
     .help = "more bots from a JSON file (name, command, dir, env, memory_mb)"},
    {.name = "--gauntlet",
     .commands = TX_CMD_TOURNAMENT | TX_CMD_LEAGUE,
     .kind = INT,
     .field = FIELD(gauntlet),
     .min = 1,
     .max = TX_SCHEDULE_BOTS_MAX - 1,
     .value = "N",
     .what = "a number of bots",
     .help = "the first N bots play every other bot; the others do not play each other"},
    {.name = "--standings-every",
     .commands = TX_CMD_LEAGUE,
     .kind = INT,
     .field = FIELD(standings_every),
     .min = 1,
     .max = NO_MAX,
     .value = "N",
     .what = "a number of games",
     .help =
         "write the standings files and the dashboard every N games (default " STANDINGS_EVERY_TEXT
         ")"},
    {.name = "--standings-out",
     .commands = TX_CMD_LEAGUE,
     .kind = TEXT,
     .field = FIELD(standings_out),
     .value = "PREFIX",
     .what = "a file name without its extension",
     .help = "standings in PREFIX.txt, PREFIX.json and PREFIX.html (default: -o FILE's name "
             ".standings)"},
    {.name = "--since",
     .commands = TX_CMD_STANDINGS,
     .kind = CUSTOM,
     .parse = parse_since,
     .value = "DATE",
     .what = "a UTC date, 2026-11-21 or 2026-11-21T21:00:00Z",
     .help = "only games started at DATE or later (UTC)"},
    {.name = "--bots",
     .commands = TX_CMD_STANDINGS,
     .kind = TEXT,
     .field = FIELD(only_bots),
     .value = "A,B,...",
     .what = "bot names separated by commas",
     .help = "only games between these bots"},
    {.name = "--bot",
     .commands = TX_CMD_STANDINGS,
     .kind = TEXT,
     .field = FIELD(focus),
     .value = "NAME",
     .what = "a bot's name",
     .help = "show NAME against each opponent (default: the bot seen last)"},
    {.name = "--merge-builds",
     .commands = TX_CMD_STANDINGS,
     .kind = FLAG,
     .field = FIELD(merge_builds),
     .help = "count one name as one bot even when its records show different sha256"},
    {.name = "--forced-openings",
     .commands = TX_CMD_VALIDATE,
     .kind = FLAG,
     .field = FIELD(forced_openings),
     .help = "also the arena-only games: forced pegs of your colour"},
    {.name = "--player1",
     .alias = "-p1",
     .commands = TX_CMD_REFEREE,
     .kind = CUSTOM,
     .parse = parse_player1,
     .value = "CMD",
     .what = "a command line",
     .help = "player 1's bot (it receives FIRST): a command line, or NAME=COMMAND"},
    {.name = "--player2",
     .alias = "-p2",
     .commands = TX_CMD_REFEREE,
     .kind = CUSTOM,
     .parse = parse_player2,
     .value = "CMD",
     .what = "a command line",
     .help = "player 2's bot"},
    {.name = "--seed",
     .alias = "-seed",
     .commands = TX_CMD_REFEREE,
     .kind = CUSTOM,
     .parse = parse_game_seed,
     .value = "N",
     .what = "a whole number from -9223372036854775808 to 9223372036854775807",
     .help = "the game's seed: its forced opening and {seed} (default: a random one, printed)"},
    {.name = "--data",
     .alias = "-d",
     .commands = TX_CMD_REFEREE,
     .kind = CUSTOM,
     .parse = parse_game_data,
     .value = "KEY=VALUE",
     .what = "seed=N",
     .help = "game parameters as brutaltester passes them: seed=N (the same as -seed N)"},
    {.name = "--log",
     .alias = "-l",
     .commands = TX_CMD_REFEREE,
     .kind = TEXT,
     .field = FIELD(log),
     .value = "FILE",
     .what = "a file name",
     .help = "write the game's log to FILE in the CodinGame SDK's result format"},
    {.name = "--format",
     .commands = TX_CMD_REFEREE,
     .kind = CHOICE,
     .field = FIELD(referee_format),
     .min = TX_REFEREE_SCORES,
     .value = "scores|psyleague|cgarena",
     .help = "stdout: the scores and seed=N (default), or psyleague's or cgarena's JSON"},
    {.name = "--output",
     .alias = "-o",
     .commands = TX_CMD_REFEREE,
     .kind = TEXT,
     .field = FIELD(output),
     .value = "FILE",
     .what = "a file name",
     .help = "append the game's record to FILE (referees running at once may share it)"},
    {.name = "--format",
     .commands = TX_CMD_STANDINGS,
     .kind = CHOICE,
     .field = FIELD(standings_format),
     .min = TX_STANDINGS_TEXT,
     .value = "text|html",
     .help = "text tables (default), or with -o FILE a web page: the dashboard"},
    {.name = "--output",
     .alias = "-o",
     .commands = TX_CMD_STANDINGS,
     .kind = TEXT,
     .field = FIELD(output),
     .value = "FILE",
     .what = "a file name",
     .help = "with --format html: the dashboard's page (its games' viewer pages go beside it)"},
    {.name = "--json",
     .commands =
         TX_CMD_PLAY | TX_CMD_TOURNAMENT | TX_CMD_LEAGUE | TX_CMD_VALIDATE | TX_CMD_STANDINGS,
     .kind = FLAG,
     .field = FIELD(json),
     .help = "print the result as one JSON object"},
};
#define NOPTIONS (sizeof options / sizeof options[0])
_Static_assert(TX_LIMITS_SOFT_FORGIVEN == 2, "--soft-timeouts' help says twice");
_Static_assert(TX_VALIDATE_OPPONENTS_MAX <= TX_OPTIONS_LIST_MAX, "--opponent fits in a list");

/* The defaults that are not 0. */
static void set_defaults(struct tx_options *o)
{
    memset(o, 0, sizeof *o);
    tx_limits_default(&o->limits);
    o->variant = TX_VARIANT_DEFAULT;
    o->seed = TX_OPTIONS_DEFAULT_SEED;
    o->shard = o->shards = 1;
    o->sprt = (struct tx_sprt_options){.elo0 = TX_OPTIONS_SPRT_ELO0,
                                       .elo1 = TX_OPTIONS_SPRT_ELO1,
                                       .alpha = TX_OPTIONS_SPRT_ALPHA,
                                       .beta = TX_OPTIONS_SPRT_BETA};
    o->move = -1;
    o->standings_every = TX_OPTIONS_STANDINGS_EVERY_DEFAULT;
}

/* ---- values ---- */

/* Parses a whole decimal integer in [min, max]; false on anything else. */
static bool parse_int64(const char *s, int64_t min, int64_t max, int64_t *ret)
{
    char *end;
    if (*s == '\0' || *s == ' ' || *s == '+')
        return false;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end != '\0' || v < min || v > max)
        return false;
    *ret = v;
    return true;
}

static bool parse_int(const char *s, int min, int max, int *ret)
{
    int64_t v;
    if (!parse_int64(s, min, max, &v))
        return false;
    *ret = (int)v;
    return true;
}

static bool parse_u64(const char *s, uint64_t *ret)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != '\0')
        return false;
    *ret = v;
    return true;
}

static bool parse_double(const char *s, double *ret)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0')
        return false;
    *ret = v;
    return true;
}

static bool parse_pairs(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    int64_t n;
    if (!parse_int64(v, 2, TX_RECORD_GAME_MAX, &n) || n % 2)
        return false;
    o->games = n;
    return true;
}

static const char *lookup_env(const char *name, void *data)
{
    (void)data;
    return getenv(name);
}

static bool parse_player1(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    o->players[0] = v;
    return *v != '\0';
}

static bool parse_player2(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    o->players[1] = v;
    return *v != '\0';
}

/* The referee's game seed: any 64-bit integer, negative included (cgarena
 * draws a random i64); given once, by -seed N or -d seed=N. */
static bool set_game_seed(struct tx_options *o, const char *v, char *why, size_t cap)
{
    int64_t n;
    if (!parse_int64(v, INT64_MIN, INT64_MAX, &n))
        return false;
    if (o->game_seed_given && o->game_seed != n) {
        snprintf(why, cap, "the seed is given twice, as %lld and %s", (long long)o->game_seed, v);
        return false;
    }
    o->game_seed = n;
    o->game_seed_given = true;
    return true;
}

static bool parse_game_seed(struct tx_options *o, const char *v, char *why, size_t cap)
{
    return set_game_seed(o, v, why, cap);
}

/* "seed=N": a CodinGame referee's game parameters, KEY=VALUE items
 * separated by spaces or lines; Twixt-PP has one. */
static bool parse_game_data(struct tx_options *o, const char *v, char *why, size_t cap)
{
    char buf[256];
    bool any = false;
    if (strlen(v) >= sizeof buf) {
        snprintf(why, cap, "value too long");
        return false;
    }
    strcpy(buf, v);
    for (char *save = NULL, *item = strtok_r(buf, " \t\r\n", &save); item;
         item = strtok_r(NULL, " \t\r\n", &save)) {
        if (strncmp(item, "seed=", 5)) {
            snprintf(why, cap, "unknown game parameter '%s' (Twixt-PP takes seed=N)", item);
            return false;
        }
        if (!set_game_seed(o, item + 5, why, cap)) {
            if (!why[0])
                snprintf(why, cap, "expected seed=N, N a whole number, got '%s'", item);
            return false;
        }
        any = true;
    }
    return any;
}

static bool parse_shard(struct tx_options *o, const char *v, char *why, size_t cap)
{
    if (!strcmp(v, "auto")) /* the job array's task (pool.h) */
        return tx_pool_shard_auto(lookup_env, NULL, &o->shard, &o->shards, why, cap) == 0;
    const char *slash = strchr(v, '/');
    char k[24];
    if (!slash || (size_t)(slash - v) >= sizeof k)
        return false;
    memcpy(k, v, (size_t)(slash - v));
    k[slash - v] = '\0';
    return parse_int(k, 1, TX_POOL_SHARDS_MAX, &o->shard) &&
           parse_int(slash + 1, 1, TX_POOL_SHARDS_MAX, &o->shards) && o->shard <= o->shards;
}

static bool parse_memory(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    /* 0: no limit, e.g. for bots built with sanitizers, which cannot start under RLIMIT_DATA */
    if (!strcmp(v, "0")) {
        o->limits.memory_mb = 0;
        return true;
    }
    return parse_int(v, TX_LIMITS_MEMORY_MB_MIN, TX_LIMITS_MEMORY_MB_MAX, &o->limits.memory_mb);
}

static bool parse_rules(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    int rules = tx_rules_from_name(v);
    if (rules < 0)
        return false;
    o->variant.rules = (enum tx_rules)rules;
    return true;
}

static bool parse_opening(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    int opening = tx_opening_rule_from_name(v);
    if (opening < 0)
        return false;
    o->variant.opening = (enum tx_opening_rule)opening;
    return true;
}

/* A name as a BOT's NAME= or a bots file's: letters, digits and "_.+-". */
static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || len >= TX_OPTIONS_NAME_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || strchr("_.+-", s[i])))
            return false;
    return true;
}

/* "NAME=BOT1,BOT2": repeatable, each team a name of its own. */
static bool parse_team(struct tx_options *o, const char *v, char *why, size_t cap)
{
    const char *eq = strchr(v, '='), *comma = eq ? strchr(eq, ',') : NULL;
    if (!eq || !comma || strchr(comma + 1, ',') || !valid_name(v, (size_t)(eq - v)) ||
        !valid_name(eq + 1, (size_t)(comma - eq - 1)) || !valid_name(comma + 1, strlen(comma + 1)))
        return false;
    if (o->nteams == TX_OPTIONS_LIST_MAX) {
        snprintf(why, cap, "at most %d teams (a bots file holds more)", TX_OPTIONS_LIST_MAX);
        return false;
    }
    struct tx_options_team *t = &o->teams[o->nteams];
    snprintf(t->name, sizeof t->name, "%.*s", (int)(eq - v), v);
    snprintf(t->bots[0], sizeof t->bots[0], "%.*s", (int)(comma - eq - 1), eq + 1);
    snprintf(t->bots[1], sizeof t->bots[1], "%s", comma + 1);
    if (!strcmp(t->bots[0], t->bots[1])) {
        snprintf(why, cap,
                 "%s twice in team %s: a team is two bots (give the command twice, "
                 "under two names)",
                 t->bots[0], t->name);
        return false;
    }
    for (int i = 0; i < o->nteams; i++)
        if (!strcmp(o->teams[i].name, t->name)) {
            snprintf(why, cap, "team %s given twice", t->name);
            return false;
        }
    o->nteams++;
    o->variant.teams = true;
    return true;
}

/* --size and --board say the same thing two ways: one of them, once. */
static bool board_given(struct tx_options *o, const char *name, char *why, size_t cap)
{
    if (o->board_option && strcmp(o->board_option, name) != 0) {
        snprintf(why, cap, "%s and %s both give the board: use one", o->board_option, name);
        return false;
    }
    o->board_option = name;
    return true;
}

static bool parse_size(struct tx_options *o, const char *v, char *why, size_t cap)
{
    int n;
    if (!parse_int(v, TX_SIDE_MIN, TX_SIDE_MAX, &n))
        return false;
    if (!board_given(o, "--size", why, cap))
        return false;
    o->variant.width = o->variant.height = n;
    return true;
}

static bool parse_board(struct tx_options *o, const char *v, char *why, size_t cap)
{
    const char *x = strchr(v, 'x');
    char width[16];
    int w, h;
    if (!x || (size_t)(x - v) >= sizeof width)
        return false;
    memcpy(width, v, (size_t)(x - v));
    width[x - v] = '\0';
    if (!parse_int(width, TX_SIDE_MIN, TX_SIDE_MAX, &w) ||
        !parse_int(x + 1, TX_SIDE_MIN, TX_SIDE_MAX, &h))
        return false;
    if (!board_given(o, "--board", why, cap))
        return false;
    o->variant.width = w;
    o->variant.height = h;
    return true;
}

/* "2026-11-21" or "2026-11-21T21:00:00Z": compared with records' started
 * times as text, so the date alone means from its midnight. */
static bool parse_since(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    const char *shape = "0000-00-00T00:00:00Z";
    size_t n = strlen(v);
    if (n != 10 && n != 20)
        return false;
    for (size_t i = 0; i < n; i++)
        if (shape[i] == '0' ? v[i] < '0' || v[i] > '9' : v[i] != shape[i])
            return false;
    o->since = v;
    return true;
}

/* "PLAYER=COMMAND"; which players exist is the record's business. */
static bool parse_refeed_bot(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    const char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1])
        return false;
    o->bot = v;
    return true;
}

static bool parse_sandbox(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    return tx_sandbox_mode_parse(v, &o->sandbox.mode) == 0;
}

/* Repeatable, up to TX_SANDBOX_ENV_MAX: more than a list row holds. */
static bool parse_bot_env(struct tx_options *o, const char *v, char *why, size_t cap)
{
    if (o->sandbox.nenv == TX_SANDBOX_ENV_MAX) {
        snprintf(why, cap, "at most %d of them", TX_SANDBOX_ENV_MAX);
        return false;
    }
    if (!tx_sandbox_env_valid(v))
        return false;
    o->sandbox.env[o->sandbox.nenv++] = v;
    return true;
}

/* A decimal number of CPUs; 0: no quota. */
static bool parse_bot_cpus(struct tx_options *o, const char *v, char *why, size_t cap)
{
    (void)why, (void)cap;
    char *end;
    errno = 0;
    double n = strtod(v, &end);
    if (errno || *end || end == v ||
        !(n == 0 || (n >= TX_SANDBOX_CPUS_MIN && n <= TX_SANDBOX_CPUS_MAX)))
        return false;
    o->sandbox.cpus = n == 0 ? TX_SANDBOX_CPUS_NONE : n;
    return true;
}

/* Repeatable, up to TX_SANDBOX_WRITABLE_MAX; whether it is a directory is
 * the sandbox's to check (tx_sandbox_init), when the run starts. */
static bool parse_bot_writable(struct tx_options *o, const char *v, char *why, size_t cap)
{
    if (o->sandbox.nwritable == TX_SANDBOX_WRITABLE_MAX) {
        snprintf(why, cap, "at most %d of them", TX_SANDBOX_WRITABLE_MAX);
        return false;
    }
    o->sandbox.writable[o->sandbox.nwritable++] = v;
    return true;
}

/* "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic": any subset, any order. */
static bool parse_sprt(struct tx_options *o, const char *value, char *why, size_t cap)
{
    struct tx_sprt_options *sprt = &o->sprt;
    char buf[256];
    if (strlen(value) >= sizeof buf) {
        snprintf(why, cap, "value too long");
        return false;
    }
    strcpy(buf, value);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        double v;
        if (eq && !strncmp(item, "model=", 6)) {
            if (!strcmp(eq + 1, "normalized") || !strcmp(eq + 1, "logistic")) {
                sprt->logistic = !strcmp(eq + 1, "logistic");
                continue;
            }
            snprintf(why, cap, "model must be normalized or logistic, got '%s'", eq + 1);
            return false;
        }
        if (!eq || !parse_double(eq + 1, &v)) {
            snprintf(why, cap, "expected KEY=NUMBER (elo0, elo1, alpha, beta), got '%s'", item);
            return false;
        }
        *eq = '\0';
        if (!strcmp(item, "elo0"))
            sprt->elo0 = v;
        else if (!strcmp(item, "elo1"))
            sprt->elo1 = v;
        else if (!strcmp(item, "alpha"))
            sprt->alpha = v;
        else if (!strcmp(item, "beta"))
            sprt->beta = v;
        else {
            snprintf(why, cap, "unknown key '%s' (expected elo0, elo1, alpha, beta or model)",
                     item);
            return false;
        }
    }
    if (!(sprt->alpha > 0 && sprt->alpha < 0.5 && sprt->beta > 0 && sprt->beta < 0.5)) {
        snprintf(why, cap, "alpha and beta must be between 0 and 0.5");
        return false;
    }
    if (!(sprt->elo1 > sprt->elo0) || sprt->elo0 < -1000 || sprt->elo1 > 1000) {
        snprintf(why, cap, "elo1 must be greater than elo0 (both within +-1000)");
        return false;
    }
    sprt->enabled = true;
    return true;
}

/* "text, svg or html" from "text|svg|html". */
static void choices_text(const char *choices, char *buf, size_t cap)
{
    size_t n = 0, count = 1;
    for (const char *p = choices; *p; p++)
        count += *p == '|';
    buf[0] = '\0';
    for (const char *p = choices; *p && n + 8 < cap; p++) {
        if (*p != '|') {
            buf[n++] = *p;
            continue;
        }
        const char *sep = --count == 1 ? " or " : ", ";
        n += (size_t)snprintf(buf + n, cap - n, "%s", sep);
    }
    buf[n < cap ? n : cap - 1] = '\0';
}

/* The index of value among "a|b|c", or -1. */
static int choice_index(const char *choices, const char *value)
{
    size_t len = strlen(value);
    int index = 0;
    for (const char *p = choices;; index++) {
        size_t n = strcspn(p, "|");
        if (n == len && !strncmp(p, value, len) && len)
            return index;
        if (!p[n])
            return -1;
        p += n + 1;
    }
}

/* Stores one option's value, checking it. as_typed names the option in
 * messages ("-o" or "--output"). */
static int set_option(struct tx_options *o, const struct option *opt, const char *as_typed,
                      const char *v, char *err, size_t errcap)
{
    void *field = (char *)o + opt->field;
    char why[256] = "", expected[320];
    bool ok = true;
    int64_t n;

    switch (opt->kind) {
    case FLAG:
        *(bool *)field = true;
        return 0;
    case INT:
    case INT64:
        ok = parse_int64(v, opt->min, opt->kind == INT && opt->max > INT_MAX ? INT_MAX : opt->max,
                         &n);
        if (ok && opt->kind == INT)
            *(int *)field = (int)n;
        else if (ok)
            *(int64_t *)field = n;
        if (opt->max == NO_MAX)
            snprintf(expected, sizeof expected, "%s, %lld or more", opt->what, (long long)opt->min);
        else
            snprintf(expected, sizeof expected, "%s from %lld to %lld", opt->what,
                     (long long)opt->min, (long long)opt->max);
        break;
    case SEED:
        ok = parse_u64(v, (uint64_t *)field);
        snprintf(expected, sizeof expected, "%s", opt->what);
        break;
    case TEXT:
        ok = *v != '\0';
        *(const char **)field = v;
        snprintf(expected, sizeof expected, "%s", opt->what);
        break;
    case CHOICE: {
        int index = choice_index(opt->value, v);
        ok = index >= 0;
        *(int *)field = ok ? (int)opt->min + index : *(int *)field;
        choices_text(opt->value, expected, sizeof expected);
        break;
    }
    case LIST: {
        struct tx_options_list *list = field;
        if (list->count == opt->max) {
            snprintf(err, errcap, "%s: at most %lld of them", as_typed, (long long)opt->max);
            return -EINVAL;
        }
        ok = *v != '\0';
        if (ok)
            list->values[list->count++] = v;
        snprintf(expected, sizeof expected, "%s", opt->what);
        break;
    }
    case CUSTOM:
        ok = opt->parse(o, v, why, sizeof why);
        snprintf(expected, sizeof expected, "%s", opt->what ? opt->what : "");
        break;
    }
    if (ok)
        return 0;
    if (why[0])
        snprintf(err, errcap, "%s: %s", as_typed, why);
    else
        snprintf(err, errcap, "%s: expected %s, got '%s'", as_typed, expected, v);
    return -EINVAL;
}

/* ---- operands ---- */

static bool name_taken(const struct tx_options *o, const char *name)
{
    for (int i = 0; i < o->nbots; i++)
        if (!strcmp(o->bots[i].name, name))
            return true;
    return false;
}

/* Adds a BOT operand; names must be unique because standings count by
 * name, so a repeated derived name gets "-2", "-3" appended. */
static int add_bot(struct tx_options *o, const char *arg, char *err, size_t errcap)
{
    char name[TX_COMMAND_NAME_MAX];
    const char *command;
    char why[256];

    if (tx_command_parse_bot(arg, name, &command, why, sizeof why) < 0) {
        snprintf(err, errcap, "BOT '%s': %s", arg, why);
        return -EINVAL;
    }
    char unique[TX_COMMAND_NAME_MAX + 16];
    snprintf(unique, sizeof unique, "%s", name);
    for (int suffix = 2; name_taken(o, unique); suffix++)
        snprintf(unique, sizeof unique, "%s-%d", name, suffix);
    o->bots[o->nbots].name = tx_strdup(unique);
    o->bots[o->nbots].command = tx_strdup(command);
    o->nbots++;
    return 0;
}

static int check_operand_count(const struct tx_options *o, const struct tx_options_command *cmd,
                               char *err, size_t errcap)
{
    int n = o->noperands, min = cmd->min_operands, max = cmd->max_operands;
    if (o->bots_file && cmd->operand == TX_OPERAND_BOT)
        min = 0; /* the bots file may hold them all: setup counts the whole pool */
    if (cmd->id == TX_CMD_PLAY && o->nteams && n != 4) {
        snprintf(err, errcap, "--teams: two teams of two are 4 BOT arguments, got %d", n);
        return -EINVAL;
    }
    if (cmd->id == TX_CMD_PLAY && o->nteams)
        min = max = 4; /* Double TwixT */
    const char *what = cmd->operand == TX_OPERAND_BOT ? "BOT" : "FILE";
    if (n >= min && n <= max)
        return 0;
    if (cmd->id == TX_CMD_PLAY && n == 4) {
        snprintf(err, errcap, "expected 2 BOT arguments, got 4 (four with --teams: Double TwixT)");
        return -EINVAL;
    }
    if (max == 0) {
        snprintf(err, errcap, "unexpected argument '%s' (%s takes options only)", o->operands[0],
                 cmd->name);
        return -EINVAL;
    }
    if (min == max)
        snprintf(err, errcap, "expected %d %s argument%s, got %d", min, what, min == 1 ? "" : "s",
                 n);
    else if (max == INT_MAX)
        snprintf(err, errcap, "expected at least %d %s argument%s, got %d", min, what,
                 min == 1 ? "" : "s", n);
    else
        snprintf(err, errcap, "expected %d to %d %s arguments, got %d", min, max, what, n);
    return -EINVAL;
}

/* ---- the bots' command lines ---- */

/* Every command line a subcommand will run, named as the user gave it. */
struct command_line {
    char label[TX_COMMAND_NAME_MAX + 300]; /* "BOT 'greedy'", "--opponent './x'" */
    const char *command;
};

static int command_lines(const struct tx_options *o, struct command_line *lines)
{
    int n = 0;
    for (int i = 0; i < o->nbots; i++) {
        snprintf(lines[n].label, sizeof lines[n].label, "BOT '%s'", o->bots[i].name);
        lines[n++].command = o->bots[i].command;
    }
    for (int i = 0; i < o->opponents.count; i++) {
        snprintf(lines[n].label, sizeof lines[n].label, "--opponent '%.256s'",
                 o->opponents.values[i]);
        lines[n++].command = o->opponents.values[i];
    }
    if (o->bot) {
        snprintf(lines[n].label, sizeof lines[n].label, "--bot '%.256s'", o->bot);
        lines[n++].command = strchr(o->bot, '=') + 1;
    }
    return n;
}
#define COMMAND_LINES_MAX (TX_SCHEDULE_BOTS_MAX + TX_OPTIONS_LIST_MAX + 1)

/* ---- parsing ---- */

/* Rules between options, and between options and operands. */
static int check_combinations(const struct tx_options *o, const struct tx_options_command *cmd,
                              char *err, size_t errcap)
{
    const char *why = NULL;
    const struct tx_variant *v = &o->variant;
    if (o->openings && o->openings_file)
        why = "--openings and --openings-file: give one or the other";
    else if (v->opening == TX_OPENING_CUT && (o->openings || o->openings_file))
        why = "--opening cut and forced openings: the cut is player 1's first answer, so no "
              "forced move can come before it (RULES.md \"Openings\")";
    else if (o->handicap && v->width == v->height)
        why = "--handicap needs a board that is not square (e.g. --board 24x20): on a square "
              "board both sides have the same distance";
    else if (o->handicap && v->opening == TX_OPENING_PIE)
        why = "--handicap and --opening pie: the pie's swap hands a side over with its distance, "
              "so the handicapped bot could take the shorter one";
    else if (o->handicap && v->opening == TX_OPENING_CUT)
        why = "--handicap and --opening cut: the choice after the cut takes a side with its "
              "distance, so the handicapped bot could take the shorter one";
    else if (o->handicap && o->openings_file)
        why = "--handicap and --openings-file: each game's board is turned for the handicapped "
              "bot, and the file's holes would not turn with it (give --openings K)";
    else if (cmd->id == TX_CMD_PLAY && o->nteams && o->nteams != 2) {
        snprintf(err, errcap, "--teams: play is one match of two teams, got %d", o->nteams);
        return -EINVAL;
    } else if (o->refeed_option && !o->bot) {
        snprintf(err, errcap, "%s goes with --bot PLAYER=COMMAND", o->refeed_option);
        return -EINVAL;
    } else if (o->bot && (o->format != TX_FORMAT_VERIFY || (!o->game && !o->line)))
        why = "--bot re-feeds one game: give --game K or --line N, and no --format";
    else if (o->game && o->line)
        why = "--game and --line both choose a game: give one";
    else if (o->move >= 0 && o->format != TX_FORMAT_TEXT && o->format != TX_FORMAT_SVG)
        why = "--move goes with --format text or svg (the HTML viewer opens at #game=K&move=M in "
              "its URL)";
    if (why)
        snprintf(err, errcap, "%s", why);
    return why ? -EINVAL : 0;
}

static const struct option *find_option(const char *name, size_t len, unsigned command)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct option *opt = &options[i];
        bool named = (strlen(opt->name) == len && !strncmp(name, opt->name, len)) ||
                     (opt->alias && strlen(opt->alias) == len && !strncmp(name, opt->alias, len));
        if (named && (opt->commands & command))
            return opt;
    }
    return NULL;
}

/* "unknown option '--games'", and who has it when another subcommand does. */
static void unknown_option(const char *name, size_t len, char *err, size_t errcap)
{
    static const char *const names[] = {"play",      "tournament", "validate", "replay",
                                        "standings", "league",     "referee"};
    unsigned others = 0;
    for (size_t i = 0; i < NOPTIONS; i++)
        if ((strlen(options[i].name) == len && !strncmp(name, options[i].name, len)) ||
            (options[i].alias && strlen(options[i].alias) == len &&
             !strncmp(name, options[i].alias, len)))
            others |= options[i].commands;
    int n = snprintf(err, errcap, "unknown option '%.*s'", (int)len, name);
    for (int i = 0, k = 0;
         others && i < (int)(sizeof names / sizeof names[0]) && n > 0 && (size_t)n < errcap; i++)
        if (others & 1u << i)
            n += snprintf(err + n, errcap - (size_t)n, "%s%s", k++ ? ", " : " (an option of ",
                          names[i]);
    if (others && n > 0 && (size_t)n + 1 < errcap)
        strcat(err, ")");
}

int tx_options_parse(struct tx_options *o, const struct tx_options_command *cmd, int argc,
                     char **argv, char *err, size_t errcap)
{
    set_defaults(o);
    o->operands = tx_xcalloc((size_t)argc, sizeof *o->operands);

    bool operands_only = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (operands_only || arg[0] != '-' || arg[1] == '\0') {
            o->operands[o->noperands++] = arg;
            continue;
        }
        if (!strcmp(arg, "--")) {
            operands_only = true;
            continue;
        }
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            o->help = true;
            return 0;
        }
        /* --name=value, --name, -x, -xVALUE */
        bool is_long = arg[1] == '-';
        const char *eq = is_long ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : is_long ? strlen(arg) : 2;
        /* A single-dash word (-p1, -seed), as CodinGame's referees take
         * them: the whole word when it is one, else -x and its value. */
        if (!is_long && arg[2] && find_option(arg, strlen(arg), cmd->id))
            len = strlen(arg);
        const struct option *opt = find_option(arg, len, cmd->id);
        if (!opt) {
            /* -p1 outside the referee: named whole, with who takes it */
            unknown_option(arg, !is_long && find_option(arg, strlen(arg), ~0u) ? strlen(arg) : len,
                           err, errcap);
            return -EINVAL;
        }
        char as_typed[64];
        snprintf(as_typed, sizeof as_typed, "%.*s", (int)len, arg);
        const char *value = eq ? eq + 1 : !is_long && arg[len] ? arg + len : NULL;
        if (!opt->value) {
            if (value) {
                snprintf(err, errcap, "%s: takes no value, got '%s'", as_typed, value);
                return -EINVAL;
            }
        } else if (!value) {
            if (i + 1 == argc) {
                snprintf(err, errcap, "%s: missing value (%s)", as_typed, opt->value);
                return -EINVAL;
            }
            value = argv[++i];
        }
        if (set_option(o, opt, as_typed, value, err, errcap) < 0)
            return -EINVAL;
        if (opt->refeed && cmd->id == TX_CMD_REPLAY && !o->refeed_option)
            o->refeed_option = opt->name;
    }
    if (check_operand_count(o, cmd, err, errcap) < 0)
        return -EINVAL;
    if (cmd->operand == TX_OPERAND_BOT) {
        if (o->noperands > TX_SCHEDULE_BOTS_MAX) { /* a subcommand's max_operands says more */
            snprintf(err, errcap, "at most %d BOT arguments", TX_SCHEDULE_BOTS_MAX);
            return -EINVAL;
        }
        for (int i = 0; i < o->noperands; i++)
            if (add_bot(o, o->operands[i], err, errcap) < 0)
                return -EINVAL;
    }
    /* The referee's -p1 and -p2, in seat order, after any operand. */
    for (int p = 0; p < 2; p++)
        if (o->players[p] && add_bot(o, o->players[p], err, errcap) < 0)
            return -EINVAL;
    struct command_line lines[COMMAND_LINES_MAX];
    int nlines = command_lines(o, lines);
    for (int i = 0; i < nlines; i++) {
        char why[256];
        if (tx_command_check_placeholders(lines[i].command, why, sizeof why) < 0) {
            snprintf(err, errcap, "%s: %s", lines[i].label, why);
            return -EINVAL;
        }
    }
    return check_combinations(o, cmd, err, errcap);
}

/* ---- the command line interface ---- */

/* The program as typed, quoted for a shell when it needs to be. */
static void program_word(const char *program, char *buf, size_t cap)
{
    char *argv[] = {(char *)program};
    if (!tx_options_shell_command(1, argv, buf, cap))
        snprintf(buf, cap, "twixt-arena");
}

int tx_options_usage_error(const struct tx_options_command *cmd, const char *program,
                           const char *fmt, ...)
{
    char word[512];
    va_list ap;
    program_word(program, word, sizeof word);
    fprintf(stderr, "twixt-arena %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(%s %s --help lists the options)\n", word, cmd->name);
    return TX_EXIT_USAGE;
}

/* A board other than 12 x 12, and bots whose command names none of its
 * sides: they may well play 12 x 12 and lose every game by an invalid move
 * (unless they read TWIXT_WIDTH and TWIXT_HEIGHT, as the bundled bots do,
 * which are not named). One line, naming them. */
static void warn_size(const struct tx_options *o, const struct tx_options_command *cmd,
                      const struct command_line *lines, int nlines)
{
    int missing = 0;
    const struct tx_variant *v = &o->variant;
    bool square = v->width == v->height;
    if ((square && v->width == TX_SIZE_DEFAULT) || cmd->id == TX_CMD_REPLAY)
        return;
    for (int i = 0; i < nlines; i++) {
        if (tx_command_knows_board(lines[i].command))
            continue;
        if (!missing++ && square)
            fprintf(stderr, "twixt-arena %s: warning: --size %d, but no {size} in the command of ",
                    cmd->name, v->width);
        else if (missing == 1)
            fprintf(stderr,
                    "twixt-arena %s: warning: --board %dx%d, but no {width} or {height} in the "
                    "command of ",
                    cmd->name, v->width, v->height);
        else
            fputs(", ", stderr);
        fputs(lines[i].label, stderr);
    }
    if (missing)
        fputs(": a bot that assumes 12 x 12 (and reads no TWIXT_WIDTH) will lose\n", stderr);
}

int tx_options_cli(struct tx_options *o, const struct tx_options_command *cmd, const char *program,
                   int argc, char **argv)
{
    char err[1024];
    if (tx_options_parse(o, cmd, argc, argv, err, sizeof err) < 0)
        return tx_options_usage_error(cmd, program, "%s", err);
    if (o->help) {
        tx_options_help(stdout, cmd);
        fflush(stdout);
        return TX_EXIT_OK;
    }
    struct command_line lines[COMMAND_LINES_MAX];
    int nlines = command_lines(o, lines);
    for (int i = 0; i < nlines; i++) {
        if (o->variant.width != o->variant.height && tx_command_has_size(lines[i].command))
            return tx_options_usage_error(
                cmd, program,
                "%s: {size} in the command, but the board is %dx%d: use {width} and {height}",
                lines[i].label, o->variant.width, o->variant.height);
        if (tx_command_check(lines[i].command, &o->variant, NULL, err, sizeof err) < 0)
            return tx_options_usage_error(cmd, program, "%s: %s", lines[i].label, err);
    }
    warn_size(o, cmd, lines, nlines);
    return TX_OPTIONS_CONTINUE;
}

void tx_options_help(FILE *out, const struct tx_options_command *cmd)
{
    char left[NOPTIONS + 1][96];
    int width = 0, n = 0;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const struct option *opt = &options[i];
        if (!(opt->commands & cmd->id))
            continue;
        int w = snprintf(left[n++], sizeof left[0], "%s%s%s%s%s", opt->alias ? opt->alias : "",
                         opt->alias ? ", " : "", opt->name, opt->value ? " " : "",
                         opt->value ? opt->value : "");
        width = w > width ? w : width;
    }
    width = width > 28 ? 28 : width;
    fprintf(out, "usage: twixt-arena %s %s [OPTIONS]\n\n%s\nOptions:\n", cmd->name, cmd->operands,
            cmd->about);
    n = 0;
    for (size_t i = 0; i < NOPTIONS; i++)
        if (options[i].commands & cmd->id) {
            fprintf(out, "  %-*s  %s\n", width, left[n++], options[i].help);
        }
    fprintf(out, "  %-*s  %s\n", width, "-h, --help", "print this help and exit");
}

void tx_options_apply(const struct tx_options *o, struct tx_match_config *config)
{
    config->limits = o->limits;
}

void tx_options_free(struct tx_options *o)
{
    for (int i = 0; i < o->nbots; i++) {
        free((char *)o->bots[i].name);
        free((char *)o->bots[i].command);
    }
    o->nbots = 0;
    free(o->operands);
    o->operands = NULL;
    o->noperands = 0;
}

bool tx_options_shell_command(int argc, char **argv, char *buf, size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        bool plain = *w != '\0';
        for (const char *p = w; *p; p++)
            plain &=
                strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%",
                       *p) != NULL;
        if (i > 0 && n + 1 < cap)
            buf[n++] = ' ';
        if (!plain && n + 1 < cap)
            buf[n++] = '\'';
        for (const char *p = w; *p; p++) {
            /* ' inside '...' is written '\'' */
            const char *piece = *p == '\'' && !plain ? "'\\''" : NULL;
            size_t len = piece ? 4 : 1;
            if (n + len >= cap)
                return false;
            memcpy(buf + n, piece ? piece : p, len);
            n += len;
        }
        if (!plain && n + 1 < cap)
            buf[n++] = '\'';
        if (n + 1 >= cap)
            return false;
    }
    buf[n] = '\0';
    return true;
}
