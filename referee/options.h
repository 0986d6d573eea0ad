/* options.h - the command line of every subcommand: one option table, one
 * parser, one --help, one usage-error format.
 *
 * play, tournament, validate, replay and standings all parse with
 * tx_options_parse, driven by the table of options.c: one row per option
 * (its name, short alias, the subcommands that take it, its value, range
 * and help line). So an option is spelled, checked, refused and documented
 * the same way wherever it appears:
 *   - `--opt value` and `--opt=value`; `-o value` and `-ovalue` for an alias;
 *   - flags take no value; a repeatable option collects its values in order;
 *   - `--` ends the options: everything after it is an operand;
 *   - operands (BOT or FILE arguments) may come anywhere, and their count is
 *     checked against the subcommand's (struct tx_options_command);
 *   - a mistake is one message naming the option as typed and what was
 *     expected, printed as
 *         twixt-arena COMMAND: MESSAGE
 *         (PROGRAM COMMAND --help lists the options)
 *     with exit status 2 (tx_options_usage_error); PROGRAM is the program as
 *     the user typed it, so the hint can be pasted.
 *
 * --help is generated from the table (tx_options_help): the usage line, the
 * subcommand's paragraph, then one line per option, in this fixed shape
 * that scripts (shell completions, the man-page check) may parse:
 *
 *     "  " [ALIAS ", "] NAME [" " VALUE] SPACES HELP
 *
 * ALIAS is "-x" (or a single-dash word, "-p1", where CodinGame's referees
 * spell an option so), NAME is "--long-name", SPACES at least two blanks, HELP
 * the rest of the line (never wrapped). VALUE is either an upper-case
 * placeholder ([A-Z][A-Z0-9/=,._-]*, or two of them joined by 'x': N, MS,
 * MB, S, K/M, FILE, CMD, PLAYER=COMMAND, KEY=VALUE,..., WxH), or literal
 * choices separated by '|'
 * ("text|svg|html"). A line without VALUE is a flag. The last option line
 * of every subcommand is "  -h, --help  ...".
 *
 * Adding an option: a field in struct tx_options below (with its default
 * in options.c's set_defaults when that is not 0), one row in the table of
 * options.c (kind, field, range, value, help: see struct option there),
 * and the code that uses the field. Nothing else: parsing, errors, --help,
 * completions and the man-page check follow the row.
 */
#ifndef TX_OPTIONS_H
#define TX_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bot-limits.h"
#include "match.h"
#include "sandbox.h"
#include "schedule.h"

/* Defaults and bounds of options, as plain decimal numbers: the option
 * table writes them into --help (with bot-limits.h's limits), and the
 * commands apply them, so the two say the same. A number of games is
 * bounded by the record's game index, TX_RECORD_GAME_MAX. */
#define TX_OPTIONS_DEFAULT_SEED 1            /* fixed, so that re-running a command resumes it */
#define TX_OPTIONS_GAMES_DEFAULT 2           /* play --games, tournament --games-per-pair */
#define TX_OPTIONS_SPRT_GAMES_DEFAULT 100000 /* play --sprt: games at most */
#define TX_OPTIONS_SPRT_ELO0 0               /* --sprt's defaults */
#define TX_OPTIONS_SPRT_ELO1 10
#define TX_OPTIONS_SPRT_ALPHA 0.05
#define TX_OPTIONS_SPRT_BETA 0.05
#define TX_OPTIONS_STANDINGS_EVERY_DEFAULT 10 /* league --standings-every */
#define TX_OPTIONS_CONCURRENCY_MAX 256
#define TX_OPTIONS_LIST_MAX 8 /* values of a repeatable option */

/* The subcommands, as bits: a row of the table says which take it. */
enum tx_options_cmd {
    TX_CMD_PLAY = 1 << 0,
    TX_CMD_TOURNAMENT = 1 << 1,
    TX_CMD_VALIDATE = 1 << 2,
    TX_CMD_REPLAY = 1 << 3,
    TX_CMD_STANDINGS = 1 << 4,
    TX_CMD_LEAGUE = 1 << 5,
    TX_CMD_REFEREE = 1 << 6,
};

/* What a subcommand's operands are. */
enum tx_options_operand {
    TX_OPERAND_BOT,  /* bot command lines, NAME=COMMAND (parsed into bots[]) */
    TX_OPERAND_FILE, /* file names ("-": standard input, where the command reads one) */
};

/* A subcommand's command line, written once in its cmd-*.c. */
struct tx_options_command {
    const char *name;       /* "play" */
    enum tx_options_cmd id; /* its bit */
    const char *operands;   /* for the usage line: "BOT1 BOT2", "FILE..." */
    enum tx_options_operand operand;
    int min_operands, max_operands; /* max: INT_MAX for any number */
    const char *summary;            /* one line for `twixt-arena --help` */
    const char *about;              /* the paragraph of --help (lines end with \n) */
};

/* replay --format; TX_FORMAT_VERIFY when not given. */
enum tx_options_format { TX_FORMAT_VERIFY, TX_FORMAT_TEXT, TX_FORMAT_SVG, TX_FORMAT_HTML };

/* referee --format: what stdout holds. */
enum tx_options_referee_format {
    TX_REFEREE_SCORES,    /* a CodinGame referee's: one score a line, then seed=N */
    TX_REFEREE_PSYLEAGUE, /* psyleague's game JSON */
    TX_REFEREE_CGARENA,   /* cgarena's match JSON */
};

/* standings --format. */
enum tx_options_standings_format { TX_STANDINGS_TEXT, TX_STANDINGS_HTML };

/* replay --color. */
enum tx_options_color { TX_COLOR_AUTO, TX_COLOR_ALWAYS, TX_COLOR_NEVER };

struct tx_sprt_options {
    bool enabled;
    double elo0, elo1;  /* H0: Elo difference elo0, H1: elo1 (TX_OPTIONS_SPRT_*) */
    double alpha, beta; /* error rates (TX_OPTIONS_SPRT_*) */
    bool logistic;      /* elo0/elo1 are logistic Elo (model=logistic), else normalised */
};

/* The values of a repeatable option, in the order given (point into argv). */
struct tx_options_list {
    int count;
    const char *values[TX_OPTIONS_LIST_MAX];
};

/* --teams NAME=BOT1,BOT2: a team of Double TwixT, its bots by name (BOT
 * operands, or bots of the bots file), BOT1 first for its side. */
#define TX_OPTIONS_NAME_MAX 64 /* a name's bytes, NUL included (TX_COMMAND_NAME_MAX) */
struct tx_options_team {
    char name[TX_OPTIONS_NAME_MAX];
    char bots[2][TX_OPTIONS_NAME_MAX];
};

struct tx_options {
    /* Operands, in order (point into argv); BOT operands are also parsed
     * into bots[] (name and command, heap strings: tx_options_free). */
    int noperands;
    const char **operands;
    int nbots;
    struct tx_bot_spec bots[TX_SCHEDULE_BOTS_MAX];

    /* play, tournament, validate */
    struct tx_limits limits;          /* --first-turn-ms --turn-ms --time-margin-ms --soft-timeouts
                                         --bot-memory-mb; tx_limits_default when not given */
    struct tx_variant variant;        /* --rules, --board or --size, --opening, and teams when
                                         --teams is given: TX_VARIANT_DEFAULT */
    const char *board_option;         /* "--board" or "--size" when one was given, else NULL */
    uint64_t seed;                    /* --seed, default TX_OPTIONS_DEFAULT_SEED */
    int64_t games;                    /* --games or --games-per-pair, 0 if not given */
    int concurrency;                  /* --concurrency, 0 if not given */
    int openings;                     /* --openings K, 0 for none */
    const char *openings_file;        /* --openings-file (points into argv) */
    int shard, shards;                /* --shard K/M, 1/1 when not given */
    struct tx_sprt_options sprt;      /* --sprt */
    struct tx_options_list opponents; /* validate --opponent CMD */
    bool forced_openings;             /* validate --forced-openings: the arena-only games too */

    /* play, tournament: Double TwixT and handicap matches (RULES.md) */
    int nteams;                                        /* --teams, in the order given */
    struct tx_options_team teams[TX_OPTIONS_LIST_MAX]; /* (variant.teams is set with them) */
    const char *handicap; /* --handicap NAME (points into argv), NULL for none */

    /* tournament, league (pools.h) */
    const char *bots_file; /* --bots FILE: more bots (bots-file.h), after the BOT operands */
    int gauntlet;          /* --gauntlet N: the first N bots play everyone, the others only them */
    int standings_every;   /* league --standings-every N */
    const char *standings_out; /* league --standings-out PREFIX (default from -o) */

    /* several */
    const char *output; /* -o FILE (points into argv), NULL if none */
    bool json;          /* --json */
    bool skip_invalid;  /* --skip-invalid: play/tournament set bad lines of FILE aside into
                           FILE.rejected on resume; replay/standings report them and go on */
    bool help;          /* --help or -h: print the help, exit 0 */

    /* replay */
    int64_t game;              /* --game K, 0 if not given */
    int64_t line;              /* --line N, 0 if not given */
    int move;                  /* --move M, -1 if not given */
    int turn;                  /* --turn T, 0 if not given */
    int format;                /* --format: enum tx_options_format */
    int color;                 /* --color: enum tx_options_color */
    const char *bot;           /* --bot PLAYER=COMMAND (points into argv), NULL if none */
    const char *refeed_option; /* the first option given that goes with --bot (--turn, the
                                  sandbox's), as its table row names it; NULL if none */

    /* standings */
    const char *since;     /* --since DATE: games started then or later */
    const char *only_bots; /* --bots a,b,c: games between these bots only */
    const char *focus;     /* --bot NAME: its results against each opponent */
    bool merge_builds;     /* --merge-builds: one name, one bot, whatever its sha256 */

    /* play, tournament, league, validate, replay --bot: --sandbox,
     * --bot-network, --pin-cores, --bot-env (sandbox.output is the
     * caller's to set) */
    struct tx_sandbox_request sandbox;

    /* referee (the CodinGame referee contract: cmd-referee.c) */
    const char *players[2]; /* -p1 CMD, -p2 CMD (point into argv; also parsed into bots[]) */
    int64_t game_seed;      /* -seed N or -d seed=N: the game's seed */
    bool game_seed_given;   /* one of them was given */
    const char *log;        /* -l FILE: the CodinGame SDK's game log */
    int referee_format;     /* --format: enum tx_options_referee_format */

    /* standings --format html -o FILE */
    int standings_format; /* enum tx_options_standings_format */
};

/* What tx_options_cli returns when the command should go on. */
#define TX_OPTIONS_CONTINUE (-1)

/* Parses argv[1..argc-1] (argv[0] is the subcommand's name) for cmd: the
 * options of the table that cmd takes, the operands and their count, each
 * BOT's syntax and placeholders (TX_COMMAND_PLACEHOLDERS), and the checks
 * between options. Pure: no file is looked at. Returns 0, or -EINVAL with
 * the message in err (without the "twixt-arena COMMAND: " prefix). With
 * --help, stops there and returns 0 with o->help set. Call tx_options_free
 * in both cases. */
int tx_options_parse(struct tx_options *o, const struct tx_options_command *cmd, int argc,
                     char **argv, char *err, size_t errcap);

/* What every subcommand does first: tx_options_parse, then --help (printed
 * on stdout), then every bot's program looked up (BOT operands, validate
 * --opponent, replay --bot: tx_command_check), then a warning on stderr
 * when the board is not 12 x 12 and a bot's command names no side of it
 * ({size}, {width}, {height}); a usage error for {size} on a board that is
 * not square. program is the
 * program as typed (for the hint). Returns TX_OPTIONS_CONTINUE, or the
 * exit status to return: 0 after --help, 2 after a usage error (printed by
 * tx_options_usage_error). Call tx_options_free in every case. */
int tx_options_cli(struct tx_options *o, const struct tx_options_command *cmd, const char *program,
                   int argc, char **argv);

/* Prints "twixt-arena COMMAND: MESSAGE" and the hint line on stderr;
 * returns 2 (TX_EXIT_USAGE). For mistakes in the command line found after
 * parsing. */
int tx_options_usage_error(const struct tx_options_command *cmd, const char *program,
                           const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prints cmd's --help: usage line, paragraph, one line per option. */
void tx_options_help(FILE *out, const struct tx_options_command *cmd);

/* Copies the limits into a match config (tx_match_config_init first). */
void tx_options_apply(const struct tx_options *o, struct tx_match_config *config);

/* Frees what the parse allocated (operands, bots' strings). */
void tx_options_free(struct tx_options *o);

/* Writes argv as a command a POSIX shell runs unchanged (words quoted with
 * '...' when needed) into buf; used to print the command that resumes a
 * run. Returns false when it did not fit. */
bool tx_options_shell_command(int argc, char **argv, char *buf, size_t cap);

#endif
