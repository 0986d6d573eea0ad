/* match-record.c - a finished game as a struct tx_record.
 *
 * Runs once per game, after every handle of the match has closed: so the
 * bots' exits are known (crash details are written here), and building
 * strings and sanitising bot text never delays a running clock of this
 * game. Every byte a bot wrote passes through tx_text_sanitize.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hole.h"
#include "match-private.h"
#include "text.h"

static void crash_detail(struct tx_match *m, int p, char *buf, size_t cap)
{
    if (m->split_error[p][0])
        snprintf(buf, cap, "bad command line: %s", m->split_error[p]);
    else
        tx_seat_describe_crash(&m->seats[p], buf, cap);
}

static char *dup_or_null(const char *s)
{
    return s && s[0] ? tx_strdup(s) : NULL;
}

/* A valid UTF-8 copy of len bytes (records are JSON): every byte may
 * become U+FFFD, three bytes. */
static char *sanitized(const char *s, size_t len)
{
    size_t cap = len * 3 + 1;
    char *text = tx_xcalloc(cap, 1);
    tx_text_sanitize(text, cap, s, len, SIZE_MAX);
    return text;
}

static char *stderr_text(const struct tx_bot *bot, uint32_t from, uint32_t to)
{
    if (to <= from || !bot->stderr_kept)
        return NULL;
    return sanitized(bot->stderr_kept + from, to - from);
}

struct tx_record *tx_match_build_record(struct tx_match *m)
{
    const struct tx_match_config *c = m->config;
    const struct tx_geometry *geo = m->geo;
    struct tx_record *r = tx_xcalloc(1, sizeof *r);
    char version[64];
    snprintf(version, sizeof version, "twixt-arena %s", TX_VERSION);

    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = m->spec->index;
    r->seed = m->spec->seed;
    r->width = geo->width;
    r->height = geo->height;
    r->rules = c->rules;
    r->opening = c->opening;
    r->handicap = dup_or_null(m->spec->handicap);
    r->nplayers = m->nseats;
    for (int i = 0; i < 2 && m->nseats == 4; i++)
        r->teams[i] = sanitized(m->spec->teams[i], strlen(m->spec->teams[i]));
    r->limits = c->limits;
    r->referee = tx_strdup(version);
    r->started = tx_strdup(m->started);
    r->run = dup_or_null(c->run);
    const struct tx_record_pairing *id = m->spec->identity;
    if (id) {
        r->pairing = *id;
        r->pairing.key = tx_strdup(id->key);
        r->pairing.openings_file = tx_strdup(id->openings_file);
        for (int i = 0; i < 2; i++) {
            r->pairing.bots[i].name = tx_strdup(id->bots[i].name);
            r->pairing.bots[i].command = tx_strdup(id->bots[i].command);
        }
    }
    /* Sandboxed: every bot that was started ran in the sandbox. */
    bool any = false, all = true;
    for (int p = 0; p < m->nseats; p++) {
        const struct tx_bot *b = &m->seats[p].bot;
        any |= b->started;
        all &= !b->started || b->sandboxed;
    }
    r->sandbox = any && all;

    for (int p = 0; p < m->nseats; p++) {
        struct tx_record_player *pl = &r->players[p];
        const struct tx_bot *bot = &m->seats[p].bot;
        /* Names and commands come from the user, details may quote them
         * (a program's path): bytes that are not UTF-8 are possible. */
        const char *name = m->spec->bots[p]->name ? m->spec->bots[p]->name : "bot";
        pl->name = sanitized(name, strlen(name));
        pl->command = sanitized(m->commands[p], strlen(m->commands[p]));
        pl->sha256 = m->have_sha256[p] ? tx_strdup(m->sha256[p]) : NULL;
        pl->stderr_bytes = bot->stderr_bytes;
        pl->extra_lines = m->seats[p].extra_lines;
        /* The links of the colour it plays at the end (partners the same). */
        int16_t *links = tx_xcalloc(2 * (size_t)geo->link_ids, sizeof *links);
        pl->nlinks = tx_game_links(m->game, tx_game_seat_colour(m->game, p), links);
        pl->links = tx_xcalloc((size_t)pl->nlinks, sizeof *pl->links);
        for (int i = 0; i < pl->nlinks; i++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(pl->links[i], sizeof pl->links[i], "%s %s", tx_hole_name(geo, links[2 * i], a),
                     tx_hole_name(geo, links[2 * i + 1], b));
        }
        free(links);
    }

    /* A turn's stderr runs to the next turn of the same bot; the last one
     * to the end of the game (what it wrote while losing, or dying, is
     * there too). So the moves are filled from the last. */
    uint32_t err_to[TX_SEATS_MAX];
    for (int p = 0; p < m->nseats; p++)
        err_to[p] = (uint32_t)m->seats[p].bot.stderr_len;
    r->nmoves = m->nturns;
    r->moves = tx_xcalloc((size_t)m->nturns, sizeof *r->moves);
    for (int i = m->nturns - 1; i >= 0; i--) {
        const struct tx_match_turn *t = &m->turns[i];
        struct tx_record_move *mv = &r->moves[i];
        mv->player = t->player;
        mv->move = t->has_token ? tx_strdup(t->token) : NULL;
        mv->us = t->us;
        mv->forced = t->forced;
        mv->privilege = t->privilege;
        mv->message = dup_or_null(t->message);
        mv->message_cut = t->message_cut;
        if (t->nedits > 0) {
            mv->nedits = t->nedits;
            mv->edits = tx_xcalloc((size_t)t->nedits, sizeof *mv->edits);
            memcpy(mv->edits, t->edits, (size_t)t->nedits * sizeof *mv->edits);
        }
        if (!t->forced) {
            mv->stderr_text = stderr_text(&m->seats[t->player].bot, t->err_from, err_to[t->player]);
            err_to[t->player] = t->err_from;
        }
    }

    if (m->crashed >= 0)
        crash_detail(m, m->crashed, m->detail, sizeof m->detail);
    r->result.winner = m->winner;
    r->result.reason = m->reason;
    r->result.detail = sanitized(m->detail, strlen(m->detail));
    return r;
}
