/* refeed.c - one bot fed a recorded player's inputs: the contract of refeed.h.
 *
 * The shape is a match with one seat (seat.h) and no game of its own: the
 * position before each fed entry is the recorded game's (tx_verify_position),
 * the seat writes its input, times and judges the answer exactly as in a
 * match, and each turn's verdict becomes a line of the table: the same
 * answer as recorded, another one, illegal (feeding goes on), or a timeout
 * or a crash (the run ends, as the game did).
 *
 * With probe_exit set, the bot's stdin is closed after its last answer and
 * refeed-probe.c watches its exit; refeed-print.c prints the result.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "game.h"
#include "match.h"
#include "refeed-private.h"
#include "sandbox.h"
#include "seat.h"
#include "text.h"
#include "verify.h"

struct refeed {
    const struct tx_refeed_config *c;
    struct tx_refeed_result *res;
    uv_loop_t loop;
    struct tx_seat seat;
    bool closed;        /* the seat's handles are closed */
    int *entries;       /* 0-based indexes in record->moves of the fed turns */
    int nentries, next; /* next: the entry being fed */
    bool over;          /* feeding is over (all fed, or a crash / timeout) */
    uint64_t spawned;
    struct tx_game *position; /* before the entry being fed */
    char **env;               /* TWIXT_RULES, ... (tx_match_bot_env) */
    char env_store[TX_MATCH_ENV_VARS][32];
};

static void finish(struct refeed *rf)
{
    if (rf->over)
        return;
    rf->over = true;
    struct tx_bot *bot = &rf->seat.bot;
    if (rf->c->probe_exit && bot->started && !bot->exited && !bot->stopping)
        tx_refeed_probe_exit(bot, rf->res);
    tx_seat_stop(&rf->seat);
}

static void on_seat_closed(struct tx_seat *seat)
{
    struct refeed *rf = seat->data;
    rf->closed = true;
}

static void feed_next(struct refeed *rf)
{
    if (rf->over)
        return;
    if (rf->next >= rf->nentries) {
        finish(rf);
        return;
    }
    /* Checked up front by collect_entries: this cannot fail here. */
    tx_verify_position(rf->c->geo, rf->c->record, rf->entries[rf->next], rf->position);
    tx_seat_play(&rf->seat, rf->position);
}

/* The new answer's edits are the recorded move's, in the same order. */
static bool same_edits(const struct tx_answer *a, const struct tx_record_move *mv)
{
    if (a->nedits != mv->nedits)
        return false;
    for (int i = 0; i < a->nedits; i++) {
        char name[TX_EDIT_NAME_MAX];
        if (strcmp(tx_edit_name(&a->edits[i], name), mv->edits[i]))
            return false;
    }
    return true;
}

/* Edits as the table shows them, " -A6:B4 +C4:D6", cut with " ..." where
 * the next one does not fit or when more follow than names holds. */
static void show_edits(char *buf, const char (*names)[TX_RECORD_EDIT_MAX], int n, bool more)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (at + strlen(names[i]) + 1 + 5 > TX_REFEED_EDITS_SHOWN) { /* " ..." and the NUL */
            more = true;
            break;
        }
        at += (size_t)snprintf(buf + at, TX_REFEED_EDITS_SHOWN - at, " %s", names[i]);
    }
    if (more)
        snprintf(buf + at, TX_REFEED_EDITS_SHOWN - at, " ...");
}

/* The table's verdict: a seat's verdict set against the recorded answer. */
static enum tx_refeed_verdict refeed_verdict(const struct tx_seat_turn *turn,
                                             const struct tx_record_move *mv)
{
    switch (turn->verdict) {
    case TX_VERDICT_MOVE:
        return strcmp(turn->answer.token, mv->move ? mv->move : "") ||
                       !same_edits(&turn->answer, mv) || turn->answer.privilege != mv->privilege
                   ? TX_REFEED_DIFFERENT
                   : TX_REFEED_SAME;
    case TX_VERDICT_TOO_LONG:
    case TX_VERDICT_NOT_A_MOVE:
    case TX_VERDICT_ILLEGAL:
        return TX_REFEED_ILLEGAL;
    case TX_VERDICT_LATE:
    case TX_VERDICT_SILENT:
    case TX_VERDICT_UNREAD:
        return TX_REFEED_TIMEOUT;
    case TX_VERDICT_CRASH:
        break;
    }
    return TX_REFEED_CRASH;
}

static void on_turn(struct tx_seat *seat, const struct tx_seat_turn *turn)
{
    struct refeed *rf = seat->data;
    int i = rf->entries[rf->next];
    const struct tx_record_move *mv = &rf->c->record->moves[i];
    struct tx_refeed_turn *t = &rf->res->turns[rf->res->nturns++];
    memset(t, 0, sizeof *t);
    t->move = i + 1;
    t->limit_ms = turn->limit_ms;
    snprintf(t->recorded, sizeof t->recorded, "%s", mv->move ? mv->move : "");
    show_edits(t->recorded_edits, (const char(*)[TX_RECORD_EDIT_MAX])mv->edits, mv->nedits, false);
    t->us = turn->answered || turn->verdict == TX_VERDICT_SILENT ? turn->us : -1;
    if (turn->answered) {
        snprintf(t->answer, sizeof t->answer, "%s", turn->answer.token);
        /* An edit takes 7 bytes or more in the table: the first few are enough. */
        char names[TX_REFEED_EDITS_SHOWN / 7][TX_RECORD_EDIT_MAX];
        int max = (int)(sizeof names / sizeof names[0]);
        int n = turn->answer.nedits < max ? turn->answer.nedits : max;
        for (int k = 0; k < n; k++)
            tx_edit_name(&turn->answer.edits[k], names[k]);
        show_edits(t->answer_edits, (const char(*)[TX_RECORD_EDIT_MAX])names, n,
                   n < turn->answer.nedits);
        snprintf(t->message, sizeof t->message, "%s", turn->answer.message);
        if (rf->res->startup_us < 0)
            rf->res->startup_us =
                turn->at > rf->spawned ? (int64_t)((turn->at - rf->spawned) / 1000) : 0;
    }
    t->verdict = refeed_verdict(turn, mv);
    snprintf(t->detail, sizeof t->detail, "%s", turn->detail);
    if (t->verdict == TX_REFEED_TIMEOUT || t->verdict == TX_REFEED_CRASH) {
        finish(rf);
        return;
    }
    rf->next++;
    feed_next(rf);
}

/* ---- the run ---- */

/* The entries to feed: the player's own answers among moves 1..upto. */
static int collect_entries(struct refeed *rf, char *err, size_t errcap)
{
    const struct tx_refeed_config *c = rf->c;
    const struct tx_record *r = c->record;
    int upto = c->upto > 0 && c->upto < r->nmoves ? c->upto : r->nmoves;
    rf->entries = tx_xcalloc((size_t)r->nmoves + 1, sizeof *rf->entries);
    char *input = tx_xmalloc(TX_INPUT_MAX);
    for (int i = 0; i < upto; i++) {
        if (r->moves[i].player != c->player || r->moves[i].forced)
            continue;
        if (tx_verify_turn_input(c->geo, r, i, input, TX_INPUT_MAX) < 0) {
            snprintf(err, errcap, "game %lld does not replay up to move %d (check it with replay)",
                     (long long)r->game, i + 1);
            free(input);
            return -EINVAL;
        }
        rf->entries[rf->nentries++] = i;
    }
    free(input);
    if (rf->nentries == 0) {
        snprintf(err, errcap, "player %d has no turn in moves 1 to %d of game %lld", c->player + 1,
                 upto, (long long)r->game);
        return -EINVAL;
    }
    return 0;
}

int tx_refeed_run(const struct tx_refeed_config *c, struct tx_refeed_result *ret, char *err,
                  size_t errcap)
{
    memset(ret, 0, sizeof *ret);
    ret->startup_us = -1;
    if (c->player < 0 || c->player >= (c->record->nplayers == 4 ? 4 : 2) ||
        c->geo->width != c->record->width || c->geo->height != c->record->height) {
        snprintf(err, errcap, "re-feed: bad player or board size");
        return -EINVAL;
    }
    struct refeed *rf = tx_xcalloc(1, sizeof *rf);
    rf->position = tx_game_new(c->geo, c->record->rules);
    rf->c = c;
    rf->res = ret;
    char launcher[PATH_MAX], split_error[96];
    char **argv = NULL;
    struct tx_variant variant = tx_record_variant(c->record); /* {opening}, TWIXT_TEAMS, ... */
    char *command = tx_command_expand(c->command, c->record->seed, &variant);
    int argc, rc = collect_entries(rf, err, errcap);
    if (rc < 0)
        goto out;
    if (tx_command_split(command, &argv, &argc, split_error, sizeof split_error) < 0) {
        snprintf(err, errcap, "bad bot command line: %s", split_error);
        rc = -EINVAL;
        goto out;
    }
    if (tx_bot_find_launcher(launcher, sizeof launcher) < 0) {
        snprintf(err, errcap, "%s", launcher);
        rc = -ENOENT;
        goto out;
    }
    if ((rc = uv_loop_init(&rf->loop)) < 0) {
        snprintf(err, errcap, "cannot start the event loop: %s", uv_strerror(rc));
        goto out;
    }
    ret->turns = tx_xcalloc((size_t)rf->nentries, sizeof *ret->turns);
    int forced = 0;
    while (forced < c->record->nmoves && c->record->moves[forced].forced)
        forced++;
    struct tx_seat *seat = &rf->seat;
    seat->data = rf;
    seat->turn_cb = on_turn;
    seat->closed_cb = on_seat_closed;
    seat->limits = &c->limits;
    seat->forced = forced;
    rf->env = tx_match_bot_env(&variant, rf->env_store, NULL);
    seat->env = rf->env;
    /* --pin-cores: its own core(s) */
    seat->pinned = tx_sandbox_take_cores(tx_sandbox_current()->cpus, NULL, &seat->cores);
    tx_seat_init(seat, &rf->loop);
    rf->spawned = uv_hrtime();
    if (tx_seat_start(seat, argv, launcher, c->geo) < 0)
        snprintf(ret->start_error, sizeof ret->start_error, "%s", seat->bot.start_error);
    feed_next(rf);
    while (!rf->closed)
        uv_run(&rf->loop, UV_RUN_ONCE);
    if (seat->pinned)
        tx_sandbox_give_cores(&seat->cores);
    struct tx_bot *bot = &seat->bot;
    /* The launcher reports a failed exec of the bot only once it is gone. */
    if (!ret->start_error[0] && bot->start_error[0])
        snprintf(ret->start_error, sizeof ret->start_error, "%s", bot->start_error);
    if (ret->exited)
        tx_bot_describe_exit(bot, ret->exit_detail, sizeof ret->exit_detail);
    if (ret->nturns > 0 && ret->turns[ret->nturns - 1].verdict == TX_REFEED_CRASH)
        tx_seat_describe_crash(seat, ret->turns[ret->nturns - 1].detail,
                               sizeof ret->turns[0].detail);
    ret->stderr_bytes = bot->stderr_bytes;
    if (bot->stderr_len > 0) {
        size_t len = bot->stderr_len,
               from = len > TX_REFEED_STDERR_SHOWN ? len - TX_REFEED_STDERR_SHOWN : 0;
        size_t cap = 3 * (len - from) + 1; /* every byte may become U+FFFD */
        ret->stderr_tail = tx_xmalloc(cap);
        tx_text_sanitize(ret->stderr_tail, cap, bot->stderr_kept + from, len - from, SIZE_MAX);
    }
    ret->extra_lines = seat->extra_lines;
    tx_seat_release(seat);
    uv_loop_close(&rf->loop);
out:
    tx_command_free(argv);
    free(command);
    free(rf->entries);
    tx_game_free(rf->position);
    free(rf->env);
    free(rf);
    return rc;
}

void tx_refeed_result_free(struct tx_refeed_result *result)
{
    free(result->turns);
    free(result->stderr_tail);
    result->turns = NULL;
    result->stderr_tail = NULL;
    result->nturns = 0;
}
