/* cmd-replay.c - `twixt-arena replay`: verify recorded games and render them.
 *
 * Without --format every record of FILE is replayed through libtwixt
 * (verify.c) and gets a one-line verdict; a record that does not follow from
 * its moves, or does not load at all, is reported with FILE:LINE and makes
 * the exit status 1. With --format the chosen game(s) are rendered as text,
 * SVG or a self-contained HTML viewer, and verified on the way.
 *
 * Records are read one line at a time and dropped after use, so a file of
 * any size replays in constant memory (only the game being rendered is
 * kept).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "record.h"
#include "refeed.h"
#include "render-html.h"
#include "render-svg.h"
#include "render-text.h"
#include "sandbox.h"
#include "verify.h"

enum format { FORMAT_VERIFY, FORMAT_TEXT, FORMAT_SVG, FORMAT_HTML };
enum colour { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER };

struct options {
    const char *file;
    long long game; /* --game K, or -1 */
    long line;      /* --line N, or -1 */
    int move;       /* --move M, or -1: every move (text) or the final one */
    enum format format;
    enum colour colour;
    const char *output;                /* -o OUT, or NULL for stdout */
    const char *bot;                   /* --bot PLAYER=COMMAND: re-feed (refeed.h), or NULL */
    int turn;                          /* --turn T: re-feed up to move T, 0 for all */
    struct tx_sandbox_request sandbox; /* with --bot: --sandbox, --bot-network, --bot-env */
};

static const char usage_text[] =
    "usage: twixt-arena replay FILE [--game K | --line N] [--format text|svg|html]\n"
    "                          [--move M] [-o OUT] [--color auto|always|never]\n"
    "\n"
    "Without --format, replays every record of FILE (JSON Lines) through the rules\n"
    "and prints one verdict per game: exit 0 when all follow from their moves, 1\n"
    "when one does not (named with FILE:LINE, the move and what differs).\n"
    "\n"
    "  --game K       only the game with index K (\"game\": K in the record)\n"
    "  --line N       only the record on line N of FILE\n"
    "  --format text  the board after every move (or after --move M) for a terminal\n"
    "  --format svg   a picture of the final position (or after --move M)\n"
    "  --format html  one self-contained page that plays every game of FILE\n"
    "                 (or the chosen one); open it in any browser, no network needed\n"
    "  --move M       the position after move M (0 is the empty board)\n"
    "  -o OUT         write to OUT instead of standard output\n"
    "  --color WHEN   colour in text output: auto (a terminal), always, never\n"
    "  --bot PLAYER=COMMAND  re-feed: start COMMAND and feed it the inputs PLAYER\n"
    "                 (1, 2 or a player's name) received in the chosen game, with the\n"
    "                 same time limits, and show its answers next to the recorded ones\n"
    "  --turn T       with --bot: stop after move T (default: the last recorded move)\n"
    "  --sandbox auto|on|off  with --bot: isolate the bot (default auto: where the\n"
    "                 machine can); --bot-network, --bot-env NAME=VALUE as for play\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("twixt-arena replay: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n(twixt-arena replay --help for the options)\n", stderr);
    return TX_EXIT_USAGE;
}

static bool parse_number(const char *s, long long min, long long max, long long *ret)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return false;
    *ret = v;
    return true;
}

/* Returns 0, 1 when --help was printed, or TX_EXIT_USAGE (message printed). */
static int parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){.game = -1, .line = -1, .move = -1};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        long long n;

        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            fputs(usage_text, stdout);
            return 1;
        }
        if (!strcmp(arg, "--bot-network")) {
            o->sandbox.network = true;
            continue;
        }
        if (arg[0] != '-' || !arg[1]) {
            if (o->file)
                return usage_error("one FILE only; '%s' is a second one", arg);
            o->file = arg;
            continue;
        }
        if (strcmp(arg, "--game") && strcmp(arg, "--line") && strcmp(arg, "--format") &&
            strcmp(arg, "--move") && strcmp(arg, "-o") && strcmp(arg, "--color") &&
            strcmp(arg, "--bot") && strcmp(arg, "--turn") && strcmp(arg, "--sandbox") &&
            strcmp(arg, "--bot-env"))
            return usage_error("unknown option '%s'", arg);
        if (i + 1 >= argc)
            return usage_error("%s needs a value", arg);
        value = argv[++i];
        if (!strcmp(arg, "--game")) {
            if (!parse_number(value, 0, LLONG_MAX, &n))
                return usage_error("--game: expected a game index, got '%s'", value);
            o->game = n;
        } else if (!strcmp(arg, "--line")) {
            if (!parse_number(value, 1, LONG_MAX, &n))
                return usage_error("--line: expected a line number from 1, got '%s'", value);
            o->line = (long)n;
        } else if (!strcmp(arg, "--move")) {
            if (!parse_number(value, 0, INT_MAX, &n))
                return usage_error("--move: expected a move number from 0, got '%s'", value);
            o->move = (int)n;
        } else if (!strcmp(arg, "--turn")) {
            if (!parse_number(value, 1, INT_MAX, &n))
                return usage_error("--turn: expected a move number from 1, got '%s'", value);
            o->turn = (int)n;
        } else if (!strcmp(arg, "--bot")) {
            o->bot = value;
        } else if (!strcmp(arg, "--sandbox")) {
            if (tx_sandbox_mode_parse(value, &o->sandbox.mode) < 0)
                return usage_error("--sandbox: expected auto, on or off, got '%s'", value);
        } else if (!strcmp(arg, "--bot-env")) {
            if (o->sandbox.nenv == TX_SANDBOX_ENV_MAX)
                return usage_error("--bot-env: at most %d", TX_SANDBOX_ENV_MAX);
            o->sandbox.env[o->sandbox.nenv++] = value;
        } else if (!strcmp(arg, "--format")) {
            if (!strcmp(value, "text"))
                o->format = FORMAT_TEXT;
            else if (!strcmp(value, "svg"))
                o->format = FORMAT_SVG;
            else if (!strcmp(value, "html"))
                o->format = FORMAT_HTML;
            else
                return usage_error("--format: expected text, svg or html, got '%s'", value);
        } else if (!strcmp(arg, "--color")) {
            if (!strcmp(value, "auto"))
                o->colour = COLOUR_AUTO;
            else if (!strcmp(value, "always"))
                o->colour = COLOUR_ALWAYS;
            else if (!strcmp(value, "never"))
                o->colour = COLOUR_NEVER;
            else
                return usage_error("--color: expected auto, always or never, got '%s'", value);
        } else {
            o->output = value;
        }
    }
    if (!o->file)
        return usage_error("%s", "missing FILE (a JSON Lines file of game records)");
    if (o->turn > 0 && !o->bot)
        return usage_error("%s", "--turn goes with --bot PLAYER=COMMAND");
    if (o->bot && (o->format != FORMAT_VERIFY || (o->game < 0 && o->line < 0)))
        return usage_error("%s",
                           "--bot re-feeds one game: give --game K or --line N, and no --format");
    if (o->game >= 0 && o->line >= 0)
        return usage_error("%s", "--game and --line both choose a game: give one");
    if (o->move >= 0 && (o->format == FORMAT_VERIFY || o->format == FORMAT_HTML))
        return usage_error("%s", "--move goes with --format text or svg (the HTML viewer opens at "
                                 "#game=K&move=M in its URL)");
    return 0;
}

static bool chosen(const struct options *o, long lineno, const struct tx_record *r)
{
    if (o->line >= 0)
        return lineno == o->line;
    if (o->game >= 0)
        return r && r->game == o->game;
    return true;
}

static const char *winner_name(const struct tx_record *r)
{
    return r->result.winner == 0 || r->result.winner == 1 ? r->players[r->result.winner].name
                                                          : NULL;
}

static void print_verdict(FILE *out, const struct options *o, long lineno,
                          const struct tx_record *r, const struct tx_verify_report *rep)
{
    if (!rep->ok) {
        if (rep->move > 0)
            fprintf(out, "%s:%ld: game %lld, move %d: %s\n", o->file, lineno, (long long)r->game,
                    rep->move, rep->what);
        else
            fprintf(out, "%s:%ld: game %lld: %s\n", o->file, lineno, (long long)r->game, rep->what);
        return;
    }
    fprintf(out, "%s:%ld: game %lld: ok, ", o->file, lineno, (long long)r->game);
    if (winner_name(r)) {
        tx_render_text_safe(out, winner_name(r), 64);
        fprintf(out, " (player %d) beats ", r->result.winner + 1);
        tx_render_text_safe(out, r->players[1 - r->result.winner].name, 64);
        fprintf(out, " by %s", tx_reason_name(r->result.reason));
    } else {
        fputs(tx_reason_name(r->result.reason), out);
    }
    if (r->result.detail && *r->result.detail) {
        fputs(" (", out);
        tx_render_text_safe(out, r->result.detail, 120);
        fputc(')', out);
    }
    fprintf(out, ", %d moves\n", r->nmoves);
}

/* Loads and verifies one line. Returns 0 with *r loaded and *rep filled,
 * or -EINVAL when the line is not a record (message printed). */
static int load_line(const struct options *o, long lineno, const char *line, size_t len,
                     struct tx_verify_geometries *cache, struct tx_record *r,
                     struct tx_verify_report *rep, const struct tx_geometry **ret_geo, FILE *msg)
{
    char err[256];
    const struct tx_geometry *geo;

    if (tx_record_from_json(line, len, r, err, sizeof err) < 0) {
        fprintf(msg, "%s:%ld: not a game record: %s\n", o->file, lineno, err);
        return -EINVAL;
    }
    geo = tx_verify_geometry(cache, r->size);
    if (!geo) {
        fprintf(msg, "%s:%ld: size: expected %d to %d, got %d\n", o->file, lineno, TX_SIZE_MIN,
                TX_SIZE_MAX, r->size);
        return -EINVAL;
    }
    tx_verify_record(geo, r, rep);
    *ret_geo = geo;
    return 0;
}

static bool blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\n')
            return false;
    return true;
}

static void render_one(FILE *out, const struct options *o, const struct tx_geometry *geo,
                       const struct tx_record *r)
{
    bool colour = o->colour == COLOUR_ALWAYS || (o->colour == COLOUR_AUTO && !o->output &&
                                                 isatty(fileno(out)) && !getenv("NO_COLOR"));

    if (o->format == FORMAT_SVG)
        tx_render_svg(out, geo, r, o->move >= 0 ? o->move : r->nmoves);
    else if (o->move >= 0)
        tx_render_text_move(out, geo, r, o->move > r->nmoves ? r->nmoves : o->move, colour);
    else
        tx_render_text_game(out, geo, r, colour);
}

int tx_cmd_replay(int argc, char **argv)
{
    struct options o;
    struct tx_verify_geometries cache = {{0}};
    struct tx_record keep = {0};
    const struct tx_geometry *keep_geo = NULL;
    long keep_line = 0, lineno = 0, selected = 0, malformed = 0, mismatched = 0, failed;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    FILE *in, *out = stdout;
    int rc = parse_options(argc, argv, &o);

    if (rc)
        return rc == 1 ? TX_EXIT_OK : TX_EXIT_USAGE;
    if (o.bot) {
        char err[512];
        o.sandbox.output = o.file; /* the bot does not read the records it is fed from */
        if (tx_sandbox_configure(&o.sandbox, "twixt-arena replay", err, sizeof err) < 0) {
            fprintf(stderr, "twixt-arena replay: %s\n", err);
            return TX_EXIT_USAGE;
        }
    }
    in = fopen(o.file, "re");
    if (!in) {
        fprintf(stderr, "twixt-arena replay: cannot read %s: %s\n", o.file, strerror(errno));
        return TX_EXIT_USAGE;
    }
    if (o.output && !(out = fopen(o.output, "we"))) {
        fprintf(stderr, "twixt-arena replay: cannot write %s: %s\n", o.output, strerror(errno));
        fclose(in);
        return TX_EXIT_USAGE;
    }
    if (o.format == FORMAT_HTML)
        tx_render_html_begin(out);
    while ((len = getline(&line, &cap, in)) >= 0) {
        struct tx_record r = {0};
        struct tx_verify_report rep;
        const struct tx_geometry *geo = NULL;
        bool render = o.format != FORMAT_VERIFY || o.bot;

        lineno++;
        if (blank(line, (size_t)len) || (o.line >= 0 && lineno != o.line))
            continue;
        if (load_line(&o, lineno, line, (size_t)len, &cache, &r, &rep, &geo,
                      render ? stderr : stdout) < 0) {
            /* A damaged line fails verification whatever the filter (we
             * cannot tell whose record it was); a renderer only warns. */
            if (!render || o.line >= 0)
                malformed++;
            tx_record_free(&r);
            continue;
        }
        if (!chosen(&o, lineno, &r)) {
            tx_record_free(&r);
            continue;
        }
        selected++;
        if (!rep.ok)
            mismatched++;
        if (!render || !rep.ok)
            print_verdict(render ? stderr : stdout, &o, lineno, &r, &rep);
        if (o.format == FORMAT_HTML) {
            char source[PATH_MAX + 32];
            snprintf(source, sizeof source, "%s:%ld", o.file, lineno);
            if (tx_render_html_game(out, geo, &r, &rep, source) < 0)
                abort();
        } else if (render && selected == 1) {
            keep = r;
            keep_geo = geo;
            keep_line = lineno;
            continue; /* keep owns the strings now */
        } else if (render && selected == 2) {
            fprintf(stderr,
                    "twixt-arena replay: %s has several %s; rendering line %ld (choose one "
                    "with --game K or --line N)\n",
                    o.file, o.game >= 0 ? "records of that game" : "games", keep_line);
        }
        tx_record_free(&r);
    }
    free(line);
    fclose(in);
    if (o.format == FORMAT_HTML)
        tx_render_html_end(out);
    if ((o.format == FORMAT_TEXT || o.format == FORMAT_SVG) && keep_geo)
        render_one(out, &o, keep_geo, &keep);
    int refed = TX_EXIT_OK;
    if (o.bot && keep_geo)
        refed = tx_refeed_replay(out, keep_geo, &keep, o.bot, o.turn);
    tx_record_free(&keep);
    tx_verify_geometries_free(&cache);
    if (out != stdout ? fclose(out) != 0 : fflush(out) != 0) {
        fprintf(stderr, "twixt-arena replay: writing %s: %s\n", o.output ? o.output : "output",
                strerror(errno));
        return TX_EXIT_USAGE;
    }
    failed = malformed + mismatched;
    if (selected == 0) {
        if (o.game >= 0)
            fprintf(stderr, "twixt-arena replay: %s has no record of game %lld\n", o.file, o.game);
        else if (o.line >= 0)
            fprintf(stderr, "twixt-arena replay: %s line %ld is not a game record\n", o.file,
                    o.line);
        else if (malformed == 0)
            fprintf(stderr, "twixt-arena replay: %s has no game records\n", o.file);
        if (o.format != FORMAT_VERIFY || malformed == 0)
            return TX_EXIT_USAGE;
    }
    if (o.bot && selected > 0)
        return mismatched ? TX_EXIT_FAILED : refed;
    if (o.format == FORMAT_VERIFY)
        printf("%s: %ld record%s, %ld ok, %ld failed\n", o.file, selected + malformed,
               selected + malformed == 1 ? "" : "s", selected - mismatched, failed);
    return failed ? TX_EXIT_FAILED : TX_EXIT_OK;
}
