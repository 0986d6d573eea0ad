/* validate-findings.c - what the battery found: findings and answer times.
 *
 * Each record is read the moment its game ends: the bot's illegal answers
 * (with the input that provoked them, rebuilt with tx_verify_turn_input),
 * timeouts, crashes, extra lines, cut messages, stderr beyond what the
 * referee keeps, and its answer times, summarised as percentiles at the
 * end. The re-feed probe adds the exit and left-behind findings.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "validate-private.h"
#include "verify.h"

_Static_assert(TX_VALIDATE_STDERR_MAX == TX_BOT_STDERR_KEPT,
               "the stderr finding is about what the referee keeps");

static struct tx_validate_finding *add_finding(struct tx_validate_battery *v,
                                               enum tx_validate_check check, int64_t game, int move,
                                               int player)
{
    struct tx_validate_report *rep = v->rep;
    struct tx_validate_finding *f =
        realloc(rep->findings, sizeof *f * (size_t)(rep->nfindings + 1));
    if (!f)
        abort();
    rep->findings = f;
    f = &f[rep->nfindings++];
    memset(f, 0, sizeof *f);
    f->check = check;
    f->game = game;
    f->move = move;
    f->player = player;
    return f;
}

static void add_time(struct tx_validate_samples *t, int64_t us)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->us = realloc(t->us, sizeof *t->us * (size_t)t->cap);
        if (!t->us)
            abort();
    }
    t->us[t->n++] = us;
}

/* Everything the record says about the bot (player p). */
void tx_validate_analyse(struct tx_validate_battery *v, const struct tx_validate_slot *s,
                         const struct tx_record *r)
{
    int p = s->player, first = tx_verify_first_turn(r, p), cut = 0, first_cut = 0;
    const struct tx_record_player *me = &r->players[p];
    bool lost = r->result.winner == 1 - p;
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->player != p || m->forced)
            continue;
        /* Every answer counts, a late one too (its time is the news); a turn
         * with no answer at all (killed, crashed) has no answer time. */
        if (m->move && m->us >= 0)
            add_time(i + 1 == first ? &v->first : &v->later, m->us);
        if (m->message_cut && cut++ == 0)
            first_cut = i + 1;
    }
    if (lost && (r->result.reason == TX_REASON_INVALID || r->result.reason == TX_REASON_TIMEOUT ||
                 r->result.reason == TX_REASON_CRASH)) {
        enum tx_validate_check check = r->result.reason == TX_REASON_INVALID   ? TX_CHECK_ILLEGAL
                                       : r->result.reason == TX_REASON_TIMEOUT ? TX_CHECK_TIMEOUT
                                                                               : TX_CHECK_CRASH;
        const struct tx_record_move *last = r->nmoves ? &r->moves[r->nmoves - 1] : NULL;
        struct tx_validate_finding *f = add_finding(v, check, r->game, r->nmoves, p);
        if (check == TX_CHECK_ILLEGAL && last && last->move)
            snprintf(f->what, sizeof f->what, "answered \"%.40s\": %.200s", last->move,
                     r->result.detail);
        else
            snprintf(f->what, sizeof f->what, "%.300s", r->result.detail);
        char *input = malloc(TX_INPUT_MAX);
        if (!input)
            abort();
        if (check == TX_CHECK_ILLEGAL &&
            tx_verify_turn_input(v->c->geo, r, r->nmoves - 1, input, TX_INPUT_MAX) >= 0)
            f->input = input;
        else
            free(input);
        /* What it said about itself while failing ("Traceback ...", an assert). */
        if (last && last->stderr_text && last->stderr_text[0]) {
            size_t len = strlen(last->stderr_text);
            f->stderr_text =
                tx_strdup(last->stderr_text +
                          (len > TX_VALIDATE_STDERR_SHOWN ? len - TX_VALIDATE_STDERR_SHOWN : 0));
        }
    }
    if (me->extra_lines > 0) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_EXTRA_LINES, r->game, 0, p);
        snprintf(f->what, sizeof f->what,
                 "%d line%s printed beyond one per turn (they are read as the next "
                 "answers)",
                 me->extra_lines, me->extra_lines == 1 ? "" : "s");
        v->rep->extra_lines += me->extra_lines;
    }
    if (cut > 0) {
        struct tx_validate_finding *f =
            add_finding(v, TX_CHECK_LONG_MESSAGE, r->game, first_cut, p);
        snprintf(f->what, sizeof f->what,
                 "%d message%s longer than %d characters (cut), first at move %d", cut,
                 cut == 1 ? "" : "s", TX_MESSAGE_CHARS, first_cut);
        v->rep->long_messages += cut;
    }
    if (me->stderr_bytes > TX_VALIDATE_STDERR_MAX) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_STDERR, r->game, 0, p);
        snprintf(f->what, sizeof f->what,
                 "%" PRId64 " bytes of stderr in one game; the referee keeps %d, the "
                 "rest is lost",
                 me->stderr_bytes, TX_VALIDATE_STDERR_MAX);
    }
    v->rep->stderr_bytes += me->stderr_bytes;
    if (me->stderr_bytes > v->rep->stderr_max)
        v->rep->stderr_max = me->stderr_bytes;

    struct tx_validate_game *g = &v->rep->games[s->spec.index - 1];
    g->winner = r->result.winner;
    g->reason = (int)r->result.reason;
    snprintf(g->detail, sizeof g->detail, "%.150s", r->result.detail ? r->result.detail : "");
    g->nmoves = r->nmoves;
}
static int compare_us(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int compare_findings(const void *a, const void *b)
{
    const struct tx_validate_finding *x = a, *y = b;
    if (x->game != y->game)
        return x->game < y->game ? -1 : 1;
    return (int)x->check - (int)y->check;
}

/* Nearest-rank percentile q (0..100) of n sorted values. */
static int64_t percentile(const int64_t *us, int n, int q)
{
    int rank = (q * n + 99) / 100;
    return us[rank < 1 ? 0 : rank - 1];
}

void tx_validate_summarise(struct tx_validate_samples *t, int limit_ms,
                           struct tx_validate_times *out)
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
void tx_validate_sort_findings(struct tx_validate_report *rep)
{
    if (rep->nfindings > 1)
        qsort(rep->findings, (size_t)rep->nfindings, sizeof *rep->findings, compare_findings);
}

void tx_validate_probe_findings(struct tx_validate_battery *v)
{
    struct tx_validate_report *rep = v->rep;
    const struct tx_refeed_result *p = &rep->probe;
    if (!rep->probe_game || !p->probed)
        return;
    if (!p->exited) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_NO_EXIT, rep->probe_game, 0, 0);
        snprintf(f->what, sizeof f->what,
                 "still running %d ms after its stdin closed (the referee then kills "
                 "it; a bot should exit when its input ends)",
                 TX_REFEED_EXIT_WAIT_MS);
    }
    /* Processes of a bot still running are its own business; only those
     * that outlive it are left behind. */
    if (p->exited && p->nleft > 0) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_CHILDREN, rep->probe_game, 0, 0);
        int len = snprintf(f->what, sizeof f->what,
                           "%d process%s it started still running after it exited:", p->nleft,
                           p->nleft == 1 ? "" : "es");
        for (int i = 0;
             i < p->nleft && i < TX_REFEED_LEFT_MAX && len > 0 && (size_t)len < sizeof f->what; i++)
            len += snprintf(f->what + len, sizeof f->what - (size_t)len, " %d (%s)",
                            p->left_pids[i], p->left_names[i]);
    }
}
