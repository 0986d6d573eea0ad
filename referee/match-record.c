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

#include "hole.h"
#include "match-private.h"
#include "text.h"

static void crash_detail(struct tx_match *m, int p, char *buf, size_t cap)
{
    if (m->split_error[p][0])
        snprintf(buf, cap, "bad command line: %s", m->split_error[p]);
    else
        tx_bot_describe_crash(&m->bots[p], buf, cap);
}

static char *dup_or_null(const char *s)
{
    return s && s[0] ? tx_strdup(s) : NULL;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        abort();
    return p;
}

/* A valid UTF-8 copy of len bytes (records are JSON): every byte may
 * become U+FFFD, three bytes. */
static char *sanitized(const char *s, size_t len)
{
    size_t cap = len * 3 + 1;
    char *text = xcalloc(cap, 1);
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
    const struct tx_geometry *geo = c->geo;
    struct tx_record *r = xcalloc(1, sizeof *r);
    char version[64];
    snprintf(version, sizeof version, "twixt-arena %s", TX_VERSION);

    r->format = tx_strdup(TX_RECORD_FORMAT);
    r->game = m->spec->index;
    r->seed = m->spec->seed;
    r->size = geo->size;
    r->limits.first_turn_ms = c->first_turn_ms;
    r->limits.turn_ms = c->turn_ms;
    r->limits.margin_ms = c->margin_ms;
    r->limits.soft = c->soft_timeouts;
    r->referee = tx_strdup(version);
    r->started = tx_strdup(m->started);
    r->run = dup_or_null(c->run);
    /* Sandboxed: every bot that was started ran in the sandbox. */
    r->sandbox = (m->bots[0].started || m->bots[1].started) &&
                 (!m->bots[0].started || m->bots[0].sandboxed) &&
                 (!m->bots[1].started || m->bots[1].sandboxed);

    for (int p = 0; p < 2; p++) {
        struct tx_record_player *pl = &r->players[p];
        const struct tx_bot *bot = &m->bots[p];
        /* Names and commands come from the user, details may quote them
         * (a program's path): bytes that are not UTF-8 are possible. */
        const char *name = m->spec->bots[p]->name ? m->spec->bots[p]->name : "bot";
        pl->name = sanitized(name, strlen(name));
        pl->command = sanitized(m->commands[p], strlen(m->commands[p]));
        pl->sha256 = m->have_sha256[p] ? tx_strdup(m->sha256[p]) : NULL;
        pl->stderr_bytes = bot->stderr_bytes;
        pl->extra_lines = m->extra_lines[p];
        int16_t *links = xcalloc(2 * TX_LINKS_MAX, sizeof *links);
        pl->nlinks = tx_game_links(&m->game, p, links);
        pl->links = xcalloc((size_t)pl->nlinks, sizeof *pl->links);
        for (int i = 0; i < pl->nlinks; i++) {
            char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
            snprintf(pl->links[i], sizeof pl->links[i], "%s %s", tx_hole_name(geo, links[2 * i], a),
                     tx_hole_name(geo, links[2 * i + 1], b));
        }
        free(links);
        /* The last window of each bot runs to the end of the game (what it
         * wrote while losing, or dying, is there too). */
        if (m->last_turn[p] >= 0)
            m->turns[m->last_turn[p]].err_to = (uint32_t)bot->stderr_len;
    }

    r->nmoves = m->nturns;
    r->moves = xcalloc((size_t)m->nturns, sizeof *r->moves);
    for (int i = 0; i < m->nturns; i++) {
        const struct tx_match_turn *t = &m->turns[i];
        struct tx_record_move *mv = &r->moves[i];
        mv->player = t->player;
        mv->move = t->has_token ? tx_strdup(t->token) : NULL;
        mv->us = t->us;
        mv->forced = t->forced;
        mv->message = dup_or_null(t->message);
        mv->message_cut = t->message_cut;
        mv->stderr_text = stderr_text(&m->bots[t->player], t->err_from, t->err_to);
    }

    if (m->crashed >= 0)
        crash_detail(m, m->crashed, m->detail, sizeof m->detail);
    r->result.winner = m->winner;
    r->result.reason = m->reason;
    r->result.detail = sanitized(m->detail, strlen(m->detail));
    return r;
}
