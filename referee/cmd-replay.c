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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "commands.h"
#include "options.h"
#include "output.h"
#include "proof.h"
#include "record.h"
#include "records.h"
#include "refeed.h"
#include "render-html.h"
#include "render-svg.h"
#include "render-text.h"
#include "sandbox.h"
#include "verify.h"

/* The options as the body reads them, filled from struct tx_options by parse_options. */
enum format {
    FORMAT_VERIFY = TX_FORMAT_VERIFY,
    FORMAT_TEXT = TX_FORMAT_TEXT,
    FORMAT_SVG = TX_FORMAT_SVG,
    FORMAT_HTML = TX_FORMAT_HTML
};
enum colour {
    COLOUR_AUTO = TX_COLOR_AUTO,
    COLOUR_ALWAYS = TX_COLOR_ALWAYS,
    COLOUR_NEVER = TX_COLOR_NEVER
};

struct options {
    const char *file;
    long long game; /* --game K, or -1 */
    long line;      /* --line N, or -1 */
    int move;       /* --move M, or -1: every move (text) or the final one */
    enum format format;
    enum colour colour;
    const char *output; /* -o OUT, or NULL for stdout */
    const char *bot;    /* --bot PLAYER=COMMAND: re-feed (refeed.h), or NULL */
    bool skip_invalid;  /* --skip-invalid: lines that are not records are warnings */
    int turn;           /* --turn T: re-feed up to move T, 0 for all */
    /* With --bot: --sandbox, --bot-network, --pin-cores, --bot-env. */
    struct tx_sandbox_request sandbox;
};

const struct tx_options_command tx_cmd_replay_line = {
    .name = "replay",
    .id = TX_CMD_REPLAY,
    .operands = "FILE",
    .operand = TX_OPERAND_FILE,
    .min_operands = 1,
    .max_operands = 1,
    .summary = "verify recorded games, render them, re-feed a bot",
    .about = "Without --format, replays every record of FILE (JSON Lines) through the rules\n"
             "and prints one verdict per game: exit 0 when all follow from their moves, 1\n"
             "when one does not (named with FILE:LINE, the move and what differs).\n"
             "With --format, renders the chosen game(s): text (the board after every move,\n"
             "or after --move M), svg (a picture of the final position, or after --move M),\n"
             "html (one self-contained page that plays every game of FILE, or the chosen\n"
             "one; no network needed). With --bot PLAYER=COMMAND, re-feeds COMMAND the\n"
             "inputs PLAYER received in the game chosen by --game K or --line N, with the\n"
             "same time limits, and shows its answers next to the recorded ones.\n",
};

/* Reads the command line into *o. Returns TX_OPTIONS_CONTINUE, or the exit
 * status (--help printed, or a usage error). */
static int parse_options(const char *program, int argc, char **argv, struct options *o)
{
    struct tx_options cli;
    int status = tx_options_cli(&cli, &tx_cmd_replay_line, program, argc, argv);
    if (status == TX_OPTIONS_CONTINUE)
        *o = (struct options){
            .file = cli.operands[0],
            .game = cli.game > 0 ? cli.game : -1,
            .line = cli.line > 0 ? (long)cli.line : -1,
            .move = cli.move,
            .format = (enum format)cli.format,
            .colour = (enum colour)cli.color,
            .output = cli.output,
            .bot = cli.bot,
            .turn = cli.turn,
            .skip_invalid = cli.skip_invalid,
            .sandbox = cli.sandbox,
        };
    tx_options_free(&cli);
    return status;
}

static bool chosen(const struct options *o, int64_t lineno, const struct tx_record *r)
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

static void print_verdict(FILE *out, const char *file, int64_t lineno, const struct tx_record *r,
                          const struct tx_verify_report *rep)
{
    if (!rep->ok) {
        if (rep->move > 0)
            fprintf(out, "%s:%lld: game %lld, move %d: %s\n", file, (long long)lineno,
                    (long long)r->game, rep->move, rep->what);
        else
            fprintf(out, "%s:%lld: game %lld: %s\n", file, (long long)lineno, (long long)r->game,
                    rep->what);
        return;
    }
    fprintf(out, "%s:%lld: game %lld: ok, ", file, (long long)lineno, (long long)r->game);
    if (winner_name(r) && r->nplayers == 4) { /* the winner is a team (Double TwixT) */
        for (int k = 0; k < 2; k++) {
            int t = k ? 1 - r->result.winner : r->result.winner;
            fputs(k ? " beats team " : "team ", out);
            tx_render_text_safe(out, r->teams[t] ? r->teams[t] : "?", 64);
            fputs(" (", out);
            tx_render_text_safe(out, r->players[t].name, 64);
            fputs(", ", out);
            tx_render_text_safe(out, r->players[t + 2].name, 64);
            fputs(")", out);
        }
        fprintf(out, " by %s", tx_reason_name(r->result.reason));
    } else if (winner_name(r)) {
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
    fprintf(out, ", %d move%s\n", r->nmoves, r->nmoves == 1 ? "" : "s");
}

static void render_one(FILE *out, const struct options *o, const struct tx_geometry *geo,
                       const struct tx_record *r)
{
    bool colour = o->colour == COLOUR_ALWAYS || (o->colour == COLOUR_AUTO && !o->output &&
                                                 isatty(fileno(out)) && !getenv("NO_COLOR"));

    if (o->format == FORMAT_SVG)
        tx_render_svg(out, geo, r, o->move >= 0 ? o->move : r->nmoves);
    else if (o->move >= 0)
        tx_render_text_move(out, geo, r, o->move, colour);
    else
        tx_render_text_game(out, geo, r, colour);
}

/* What one pass over the file found. */
struct tally {
    long selected;     /* records chosen (--game, --line or all) */
    long malformed;    /* chosen lines that are not records */
    long mismatched;   /* records that do not follow from their moves */
    long conflicts;    /* records of a game already seen that differ from it */
    long skipped;      /* lines left out by --skip-invalid */
    long duplicates;   /* records of a game already seen, the same game */
    int64_t keep_line; /* the line of the record kept for a render */
};

/* The loop over the file's records, in constant memory: each is loaded,
 * verified, reported or rendered, and dropped, except the one kept for a
 * text or SVG render (*keep). Returns 0, or an exit status to leave with
 * (a message printed). */
static int replay_file(const struct options *o, struct tx_records_reader *rd, FILE *out,
                       const char *out_name, struct tx_verify_geometries *cache,
                       struct tx_record *keep, const struct tx_geometry **keep_geo, struct tally *t)
{
    bool render = o->format != FORMAT_VERIFY || o->bot;
    FILE *verdicts = render ? stderr : stdout;
    struct tx_records_seen seen;
    struct tx_proof proof; /* identity and place in the file's chain (proof.h) */
    char why[1024];
    int status = 0;

    tx_records_seen_init(&seen);
    tx_proof_init(&proof);
    while (status == 0) {
        struct tx_record r;
        struct tx_verify_report rep;
        struct tx_records_earlier earlier;
        const struct tx_geometry *geo;
        int item = tx_records_next(rd, &r, why, sizeof why);

        if (item == TX_RECORDS_END)
            break;
        if (item < 0 || item == TX_RECORDS_NOT_RECORDS) {
            fprintf(stderr, "twixt-arena replay: %s\n", why);
            status = TX_EXIT_USAGE;
            break;
        }
        /* Every line is placed in the chain, chosen or not: a record's
         * place is judged against the line before it. */
        char place[600] = "";
        bool placed = item != TX_RECORDS_RECORD ||
                      tx_proof_place(&proof, rd->text, rd->len, place, sizeof place) == 0;
        if (item == TX_RECORDS_INVALID)
            tx_proof_other(&proof, rd->text, rd->len);
        if (o->line >= 0 && rd->line != o->line) {
            tx_record_free(&r);
            continue;
        }
        if (item == TX_RECORDS_TORN) {
            fprintf(stderr, "twixt-arena replay: warning: %s; skipped\n", why);
            continue;
        }
        if (item == TX_RECORDS_INVALID) {
            /* A damaged line fails verification whatever the filter (we
             * cannot tell whose record it was); a renderer only warns. */
            if (o->skip_invalid) {
                fprintf(stderr, "twixt-arena replay: warning: %s; skipped\n", why);
                t->skipped++;
            } else {
                fprintf(render ? stderr : stdout, "%s\n", why);
                if (!render || o->line >= 0)
                    t->malformed++;
            }
            continue;
        }
        if (!chosen(o, rd->line, &r)) {
            tx_record_free(&r);
            continue;
        }
        geo = tx_verify_geometry(cache, r.width, r.height);
        if (!geo) {
            fprintf(verdicts, "%s:%lld: board: expected sides from %d to %d, got %d x %d\n",
                    rd->name, (long long)rd->line, TX_SIDE_MIN, TX_SIDE_MAX, r.width, r.height);
            t->malformed++;
            tx_record_free(&r);
            continue;
        }
        /* Is it the game its pairing scheduled (first: that says the most,
         * "players swapped?"), do the rules hold, and is it in its place in
         * the file (proof.h)? */
        char identity[600];
        tx_verify_record(geo, &r, &rep);
        if (tx_proof_identity(&proof, &r, identity, sizeof identity) < 0) {
            rep.ok = false;
            rep.move = 0;
            snprintf(rep.what, sizeof rep.what, "%.*s", (int)sizeof rep.what - 1, identity);
        } else if (rep.ok && !placed) {
            rep.ok = false;
            rep.move = 0;
            snprintf(rep.what, sizeof rep.what, "%.*s", (int)sizeof rep.what - 1, place);
        }
        switch (tx_records_seen_add(&seen, &r, rd->name, rd->line, &earlier)) {
        case TX_RECORDS_SAME:
            if (++t->duplicates <= TX_RECORDS_DUPLICATE_WARNINGS)
                fprintf(stderr,
                        "twixt-arena replay: warning: %s:%lld: game %lld is recorded again (the "
                        "same game as %s:%lld)\n",
                        rd->name, (long long)rd->line, (long long)r.game, earlier.file,
                        (long long)earlier.line);
            break;
        case TX_RECORDS_CONFLICT:
            /* Two different games under one index: at most one is what the
             * run played, and standings would not know which to count. */
            fprintf(verdicts,
                    "%s:%lld: game %lld: also recorded on %s:%lld, and the two differ in %s\n",
                    rd->name, (long long)rd->line, (long long)r.game, earlier.file,
                    (long long)earlier.line, earlier.differs);
            t->conflicts++;
            break;
        case TX_RECORDS_NEW:
            break;
        }
        t->selected++;
        if (!rep.ok)
            t->mismatched++;
        if (!render || !rep.ok)
            print_verdict(verdicts, rd->name, rd->line, &r, &rep);
        if (o->format == FORMAT_HTML) {
            char source[PATH_MAX + 32];
            snprintf(source, sizeof source, "%s:%lld", rd->name, (long long)rd->line);
            tx_render_html_game(out, geo, &r, &rep, source);
        } else if (render && t->selected == 1) {
            *keep = r;
            *keep_geo = geo;
            t->keep_line = rd->line;
            continue; /* keep owns the strings now */
        } else if (render && t->selected == 2) {
            fprintf(stderr,
                    "twixt-arena replay: %s has several %s; rendering line %lld (choose one "
                    "with --game K or --line N)\n",
                    rd->name, o->game >= 0 ? "records of that game" : "games",
                    (long long)t->keep_line);
        }
        tx_record_free(&r);
        /* A reader that went away (| head) or a full disk: stop now. */
        int e = tx_output_check(out);
        if (e < 0)
            tx_output_fail(e, out_name, "twixt-arena replay");
        else if (out != stdout && (e = tx_output_check(stdout)) < 0)
            tx_output_fail(e, "standard output", "twixt-arena replay");
        if (e < 0)
            status = TX_EXIT_USAGE;
    }
    if (t->duplicates > TX_RECORDS_DUPLICATE_WARNINGS)
        fprintf(stderr, "twixt-arena replay: warning: %s: %ld more games recorded again\n",
                rd->name, t->duplicates - TX_RECORDS_DUPLICATE_WARNINGS);
    tx_records_seen_free(&seen);
    tx_proof_free(&proof);
    return status;
}

int tx_cmd_replay(const char *program, int argc, char **argv)
{
    struct options o;
    struct tx_verify_geometries cache = {0};
    struct tx_record keep = {0};
    const struct tx_geometry *keep_geo = NULL;
    struct tx_records_reader rd;
    struct tally t = {0};
    FILE *out = stdout;
    const char *out_name = "standard output";
    char err[1024];
    int rc = parse_options(program, argc, argv, &o);

    if (rc != TX_OPTIONS_CONTINUE)
        return rc;
    if (o.bot) {
        /* The re-fed bot does not read the records it is fed from. */
        o.sandbox.output = strcmp(o.file, "-") ? o.file : NULL;
        if (tx_sandbox_configure(&o.sandbox, "twixt-arena replay", err, sizeof err) < 0) {
            fprintf(stderr, "twixt-arena replay: %s\n", err);
            return TX_EXIT_USAGE;
        }
    }
    if (tx_records_open(&rd, o.file, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena replay: %s\n", err);
        return TX_EXIT_USAGE;
    }
    if (o.output && !(out = fopen(o.output, "we"))) {
        fprintf(stderr, "twixt-arena replay: cannot write %s: %s\n", o.output, strerror(errno));
        tx_records_close(&rd);
        return TX_EXIT_USAGE;
    }
    if (o.output)
        out_name = o.output;
    if (o.format == FORMAT_HTML)
        tx_render_html_begin(out);
    int status = replay_file(&o, &rd, out, out_name, &cache, &keep, &keep_geo, &t);
    if (status == 0 && o.format == FORMAT_HTML)
        tx_render_html_end(out);
    if (status == 0 && keep_geo && o.move > keep.nmoves) {
        fprintf(stderr,
                "twixt-arena replay: %s:%lld: game %lld has %d move%s: --move takes 0 to %d\n",
                rd.name, (long long)t.keep_line, (long long)keep.game, keep.nmoves,
                keep.nmoves == 1 ? "" : "s", keep.nmoves);
        status = TX_EXIT_USAGE;
    }
    if (status == 0 && (o.format == FORMAT_TEXT || o.format == FORMAT_SVG) && keep_geo)
        render_one(out, &o, keep_geo, &keep);
    int refed = TX_EXIT_OK;
    if (status == 0 && o.bot && keep_geo)
        refed = tx_refeed_replay(out, keep_geo, &keep, o.bot, o.turn);
    tx_record_free(&keep);
    tx_verify_geometries_free(&cache);
    long failed = t.malformed + t.mismatched + t.conflicts;
    const char *name = rd.name;
    if (status == 0 && t.selected == 0) {
        if (o.game >= 0)
            fprintf(stderr, "twixt-arena replay: %s has no record of game %lld\n", name, o.game);
        else if (o.line >= 0)
            fprintf(stderr, "twixt-arena replay: %s line %ld is not a game record\n", name, o.line);
        else if (t.malformed == 0)
            fprintf(stderr, "twixt-arena replay: %s has no game records\n", name);
        if (o.format != FORMAT_VERIFY || t.malformed == 0)
            status = TX_EXIT_USAGE;
    }
    if (status == 0 && o.format == FORMAT_VERIFY && !o.bot)
        printf("%s: %ld record%s, %ld ok, %ld failed%s\n", name, t.selected + t.malformed,
               t.selected + t.malformed == 1 ? "" : "s", t.selected - t.mismatched, failed,
               t.skipped ? " (lines left out by --skip-invalid not counted)" : "");
    /* Every output checked: a render lost to a full disk is not a success. */
    if (tx_output_finish(out, out_name, "twixt-arena replay") < 0 && !status)
        status = TX_EXIT_USAGE;
    if (out != stdout && tx_output_finish(stdout, "standard output", "twixt-arena replay") < 0 &&
        !status)
        status = TX_EXIT_USAGE;
    tx_records_close(&rd);
    if (status)
        return status;
    if (o.bot && t.selected > 0)
        return t.mismatched ? TX_EXIT_FAILED : refed;
    return failed ? TX_EXIT_FAILED : TX_EXIT_OK;
}
