/* validate-findings.c - what the battery found: findings and answer times.
 *
 * Each record is read the moment its game ends: the bot's illegal answers
 * (with the input that provoked them, rebuilt with tx_verify_turn_input),
 * timeouts, crashes, extra lines, cut messages, stderr beyond what the
 * referee keeps, answers close to their limit, the fewest legal holes it
 * had, and its answer times, summarised as percentiles at the end. The
 * re-feed probe adds the start-up, exit and left-behind findings.
 *
 * One problem is one finding: each occurrence has a key, the check and
 * what happened with the particulars of the game left out (holes, numbers
 * and quoted text: "occupied hole D6" and "occupied hole B1" are one bug),
 * plus whether it was the bot's first turn and whether the game was
 * arena-only. Occurrences with the same key add their game to one finding,
 * which keeps the first game's details, whatever order games end in.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bot.h"
#include "input.h"
#include "validate-private.h"
#include "verify.h"

_Static_assert(TX_VALIDATE_STDERR_MAX == TX_BOT_STDERR_KEPT,
               "the stderr finding is about what the referee keeps");

/* key without the particulars of one occurrence: every number and hole
 * name is "#", every quoted text "\"\"". */
static void make_key(char *key, size_t cap, enum tx_validate_check check, const char *what,
                     const char *qualifier)
{
    size_t n = (size_t)snprintf(key, cap, "%s|%s|", tx_validate_check_name(check), qualifier);
    for (const char *p = what; *p && n + 4 < cap;) {
        const char *q = p;
        while (*q >= 'A' && *q <= 'Z')
            q++; /* a hole name is letters then digits */
        if (isdigit((unsigned char)*q)) {
            key[n++] = '#';
            for (p = q; isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]));)
                p++;
        } else if (*p == '"') {
            const char *end = strchr(p + 1, '"');
            memcpy(key + n, "\"\"", 2);
            n += 2;
            p = end ? end + 1 : p + strlen(p);
        } else {
            key[n++] = *p++;
        }
    }
    key[n] = '\0';
}

/* The finding for this occurrence: a new one, or the one with its key
 * (which then counts the game). Returns it when this occurrence is now its
 * first, for the caller to fill in the details; NULL when an earlier game
 * already holds them. */
static struct tx_validate_finding *occurrence(struct tx_validate_battery *v,
                                              enum tx_validate_check check, const char *key,
                                              const struct tx_validate_slot *s, int64_t game,
                                              int move)
{
    struct tx_validate_report *rep = v->rep;
    bool arena = s && !tx_validate_codingame(v->c, s->scenario);
    struct tx_validate_finding *f = NULL;
    for (int i = 0; i < rep->nfindings && !f; i++)
        if (rep->findings[i].check == check && !strcmp(rep->findings[i].key, key))
            f = &rep->findings[i];
    if (!f) {
        f = tx_xrealloc(rep->findings, sizeof *f * (size_t)(rep->nfindings + 1));
        rep->findings = f;
        f = &f[rep->nfindings++];
        memset(f, 0, sizeof *f);
        f->check = check;
        snprintf(f->key, sizeof f->key, "%s", key);
        f->arena_only = true;
    }
    f->games = tx_xrealloc(f->games, sizeof *f->games * (size_t)(f->count + 1));
    f->games[f->count++] = game;
    f->arena_only = f->arena_only && arena;
    if (f->count > 1 && f->game <= game)
        return NULL;
    free(f->input);
    free(f->stderr_text);
    f->input = f->stderr_text = NULL;
    f->game = game;
    f->move = move;
    f->player = s ? s->player : 0;
    return f;
}

static void add_time(struct tx_validate_samples *t, int64_t us)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->us = tx_xrealloc(t->us, sizeof *t->us * (size_t)t->cap);
    }
    t->us[t->n++] = us;
}

/* The game's loss by the bot: illegal, timeout or crash. */
static void lost(struct tx_validate_battery *v, const struct tx_validate_slot *s,
                 const struct tx_record *r, int first)
{
    enum tx_reason reason = r->result.reason;
    enum tx_validate_check check = reason == TX_REASON_INVALID   ? TX_CHECK_ILLEGAL
                                   : reason == TX_REASON_TIMEOUT ? TX_CHECK_TIMEOUT
                                                                 : TX_CHECK_CRASH;
    const struct tx_record_move *last = r->nmoves ? &r->moves[r->nmoves - 1] : NULL;
    const char *detail = r->result.detail ? r->result.detail : "";
    bool at_first = r->nmoves == first || first == 0;
    char what[sizeof((struct tx_validate_finding *)0)->what], key[200];
    int len;

    if (check == TX_CHECK_ILLEGAL && last && last->move)
        len = snprintf(what, sizeof what, "answered \"%.40s\": %.200s", last->move, detail);
    else
        len = snprintf(what, sizeof what, "%.250s", detail);
    make_key(key, sizeof key, check, what,
             at_first ? (s->nforced ? "first turn after a forced opening" : "first turn") : "");
    struct tx_validate_finding *f = occurrence(v, check, key, s, r->game, r->nmoves);
    if (!f)
        return;
    if (at_first && s->nforced && len > 0 && (size_t)len < sizeof what)
        snprintf(what + len, sizeof what - (size_t)len,
                 " (its first turn, after a forced opening: see RULES.md \"Forced openings\")");
    else if (at_first && check == TX_CHECK_TIMEOUT && !strncmp(detail, "no answer", 9) &&
             strstr(v->c->command, "python") && len > 0 && (size_t)len < sizeof what)
        snprintf(what + len, sizeof what - (size_t)len,
                 " (a Python bot that prints without flush=True keeps its answer in a buffer: "
                 "run it with python3 -u)");
    snprintf(f->what, sizeof f->what, "%s", what);
    char *input = tx_xmalloc(TX_INPUT_MAX);
    if (check == TX_CHECK_ILLEGAL &&
        tx_verify_turn_input(v->c->geo, r, r->nmoves - 1, input, TX_INPUT_MAX) >= 0)
        f->input = input;
    else
        free(input);
    /* What it said about itself while failing ("Traceback ...", an assert). */
    if (last && last->stderr_text && last->stderr_text[0]) {
        size_t n = strlen(last->stderr_text);
        f->stderr_text = tx_strdup(
            last->stderr_text + (n > TX_VALIDATE_STDERR_SHOWN ? n - TX_VALIDATE_STDERR_SHOWN : 0));
    }
}

/* A warning or failure of the whole game (not one move's loss). */
static void game_finding(struct tx_validate_battery *v, const struct tx_validate_slot *s,
                         const struct tx_record *r, enum tx_validate_check check,
                         const char *qualifier, int move, const char *what)
{
    char key[200];
    make_key(key, sizeof key, check, "", qualifier);
    struct tx_validate_finding *f = occurrence(v, check, key, s, r->game, move);
    if (f)
        snprintf(f->what, sizeof f->what, "%s", what);
}

/* The fewest legal holes the bot (player p) had at one of its turns. */
static int fewest_holes(const struct tx_geometry *geo, const struct tx_record *r, int p)
{
    struct tx_game *g = tx_game_new(geo, r->rules);
    int fewest = -1;
    for (int i = 0; i < r->nmoves; i++) {
        if (r->moves[i].player == p && !r->moves[i].forced &&
            (fewest < 0 || g->vacant_ok[p] < fewest))
            fewest = g->vacant_ok[p];
        if (!tx_verify_step(r, i, g))
            break;
    }
    free(g);
    return fewest;
}

void tx_validate_analyse(struct tx_validate_battery *v, const struct tx_validate_slot *s,
                         const struct tx_record *r)
{
    const struct tx_validate_config *c = v->c;
    int p = s->player, first = tx_verify_first_turn(r, p), cut = 0, first_cut = 0;
    const struct tx_record_player *me = &r->players[p];
    char what[320];
    bool slow[2] = {false, false}; /* a slow answer found in this game: [1] a first turn's */

    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->player != p || m->forced)
            continue;
        /* Every answer counts, a late one too (its time is the news); a turn
         * with no answer at all (killed, crashed) has no answer time. */
        bool at_first = i + 1 == first;
        int limit_ms = at_first ? c->limits.first_turn_ms : c->limits.turn_ms;
        if (m->move && m->us >= 0) {
            add_time(at_first ? &v->first : &v->later, m->us);
            bool lost_here = i + 1 == r->nmoves && r->result.winner == 1 - p;
            if (!lost_here && !slow[at_first] &&
                m->us > (int64_t)limit_ms * 10 * TX_VALIDATE_TIGHT_PERCENT) {
                slow[at_first] = true; /* one occurrence per game: the first */
                snprintf(what, sizeof what, "answered in %.1f ms, %d%% of the %d ms limit%s",
                         (double)m->us / 1000.0, (int)(m->us / 10 / limit_ms), limit_ms,
                         at_first ? " of a first turn" : "");
                game_finding(v, s, r, TX_CHECK_SLOW_ANSWERS, at_first ? "first turn" : "", i + 1,
                             what);
            }
        }
        if (m->message_cut && cut++ == 0)
            first_cut = i + 1;
    }
    enum tx_reason reason = r->result.reason;
    if (r->result.winner == 1 - p &&
        (reason == TX_REASON_INVALID || reason == TX_REASON_TIMEOUT || reason == TX_REASON_CRASH))
        lost(v, s, r, first);
    if (me->extra_lines > 0) {
        snprintf(what, sizeof what,
                 "%lld line%s printed beyond one per turn: they are read as the next answers, "
                 "on CodinGame too",
                 (long long)me->extra_lines, me->extra_lines == 1 ? "" : "s");
        game_finding(v, s, r, TX_CHECK_EXTRA_LINES, "", 0, what);
        v->rep->extra_lines += me->extra_lines;
    }
    if (cut > 0) {
        snprintf(what, sizeof what,
                 "%d message%s longer than %d characters, first at move %d: cut (not a loss)", cut,
                 cut == 1 ? "" : "s", TX_MESSAGE_CHARS, first_cut);
        game_finding(v, s, r, TX_CHECK_LONG_MESSAGE, "", first_cut, what);
        v->rep->long_messages += cut;
    }
    if (me->stderr_bytes > TX_VALIDATE_STDERR_MAX) {
        snprintf(what, sizeof what,
                 "%" PRId64 " bytes of stderr in one game; the referee keeps %d, the rest is "
                 "lost (not a loss)",
                 me->stderr_bytes, TX_VALIDATE_STDERR_MAX);
        game_finding(v, s, r, TX_CHECK_STDERR, "", 0, what);
    }
    v->rep->stderr_bytes += me->stderr_bytes;
    if (me->stderr_bytes > v->rep->stderr_max)
        v->rep->stderr_max = me->stderr_bytes;

    struct tx_validate_game *g = &v->rep->games[s->spec.index - 1];
    g->winner = r->result.winner;
    g->reason = (int)reason;
    snprintf(g->detail, sizeof g->detail, "%.150s", r->result.detail ? r->result.detail : "");
    g->nmoves = r->nmoves;
    g->fewest_holes = fewest_holes(c->geo, r, p);
}

void tx_validate_probe_findings(struct tx_validate_battery *v)
{
    struct tx_validate_report *rep = v->rep;
    const struct tx_validate_config *c = v->c;
    const struct tx_refeed_result *p = &rep->probe;
    char what[320];
    if (!rep->probe_game)
        return;
    const struct tx_validate_slot *s = &v->slots[rep->probe_game - 1];
    struct tx_record game = {.game = rep->probe_game};
    if (p->startup_us > (int64_t)c->limits.first_turn_ms * 10 * TX_VALIDATE_SLOW_START_PERCENT) {
        snprintf(what, sizeof what,
                 "%.1f ms from its start to its first answer, %d%% of the %d ms first turn: a "
                 "busy machine may time it out",
                 (double)p->startup_us / 1000.0,
                 (int)(p->startup_us / 10 / c->limits.first_turn_ms), c->limits.first_turn_ms);
        game_finding(v, s, &game, TX_CHECK_SLOW_START, "", 0, what);
    }
    if (!p->probed)
        return;
    if (!p->exited) {
        snprintf(what, sizeof what,
                 "still running %d ms after its stdin closed (the referee then kills it; a bot "
                 "should exit when its input ends)",
                 TX_REFEED_EXIT_WAIT_MS);
        game_finding(v, s, &game, TX_CHECK_NO_EXIT, "", 0, what);
    }
    /* Processes of a bot still running are its own business; only those
     * that outlive it are left behind. */
    if (p->exited && p->nleft > 0) {
        int len = snprintf(what, sizeof what,
                           "%d process%s it started still running after it exited:", p->nleft,
                           p->nleft == 1 ? "" : "es");
        for (int i = 0;
             i < p->nleft && i < TX_REFEED_LEFT_MAX && len > 0 && (size_t)len < sizeof what; i++)
            len += snprintf(what + len, sizeof what - (size_t)len, " %d (%s)", p->left_pids[i],
                            p->left_names[i]);
        game_finding(v, s, &game, TX_CHECK_CHILDREN, "", 0, what);
    }
}

static int compare_us(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Failures first, then by check, then by first game. */
static int compare_findings(const void *a, const void *b)
{
    const struct tx_validate_finding *x = a, *y = b;
    bool fx = tx_validate_check_fails(x->check), fy = tx_validate_check_fails(y->check);
    if (fx != fy)
        return fx ? -1 : 1;
    if (x->check != y->check)
        return (int)x->check - (int)y->check;
    return x->game < y->game ? -1 : x->game > y->game;
}

/* Nearest-rank percentile q (0..100) of n sorted values. */
static int64_t percentile(const int64_t *us, int n, int q)
{
    int rank = (q * n + 99) / 100;
    return us[rank < 1 ? 0 : rank - 1];
}

static void summarise(struct tx_validate_samples *t, int limit_ms, struct tx_validate_times *out)
{
    out->count = t->n;
    out->limit_ms = limit_ms;
    out->p50 = out->p95 = out->p99 = out->max = -1;
    if (t->n == 0)
        return;
    qsort(t->us, (size_t)t->n, sizeof *t->us, compare_us);
    out->p50 = percentile(t->us, t->n, 50);
    out->p95 = percentile(t->us, t->n, 95);
    out->p99 = percentile(t->us, t->n, 99);
    out->max = t->us[t->n - 1];
}

void tx_validate_conclude(struct tx_validate_battery *v)
{
    struct tx_validate_report *rep = v->rep;
    summarise(&v->first, v->c->limits.first_turn_ms, &rep->first);
    summarise(&v->later, v->c->limits.turn_ms, &rep->later);
    if (rep->nfindings > 1)
        qsort(rep->findings, (size_t)rep->nfindings, sizeof *rep->findings, compare_findings);
    rep->nfailures = rep->nwarnings = 0;
    for (int i = 0; i < rep->nfindings; i++) {
        struct tx_validate_finding *f = &rep->findings[i];
        qsort(f->games, (size_t)f->count, sizeof *f->games, compare_us);
        if (tx_validate_check_fails(f->check))
            rep->nfailures++;
        else
            rep->nwarnings++;
    }
    rep->passed = rep->nfailures == 0;
}
