/* validate.c - the battery of `twixt-arena validate`: the contract of validate.h.
 *
 * Three parts. Openings: the forced moves of the scenarios, made with
 * libtwixt from a seeded generator so that a seed always gives the same
 * battery and no opening ends the game. Games: every game of the battery
 * is a tx_match on one loop, at most config->concurrency at once; each
 * record is written to the records file and read for findings the moment
 * it ends, then dropped (a battery of any length runs in constant memory,
 * answer times aside). Probe: one game is re-fed (refeed.h) to time the
 * start-up and watch what the bot does when its stdin closes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "command.h"
#include "game.h"
#include "input.h"
#include "match.h"
#include "record.h"
#include "schedule.h"
#include "validate.h"
#include "verify.h"

_Static_assert(TX_VALIDATE_STDERR_MAX == TX_BOT_STDERR_KEPT, "the stderr finding is about what the referee keeps");

#define SCENARIO_TRIES 64 /* seeds tried for an opening before the scenario is dropped */

/* One planned game and everything its spec points to. */
struct slot {
    struct tx_game_spec spec;
    struct tx_bot_spec bots[2];
    char opponent_name[TX_COMMAND_NAME_MAX];
    char *opponent_command;
    enum tx_validate_scenario scenario;
    int player;
    int nforced;
    int16_t opening[TX_MOVES_MAX];
};

/* A growing array of answer times. */
struct times {
    int64_t *us;
    int n, cap;
};

struct validate {
    const struct tx_validate_config *c;
    struct tx_validate_report *rep;
    struct tx_match_config match;
    uv_loop_t loop;
    FILE *records;
    struct slot *slots;
    int nslots, started, running, finished;
    struct times first, later;
    int write_errno;
    int start_error; /* tx_match_start's error, 0 if none */
};

const char *tx_validate_check_name(enum tx_validate_check check)
{
    static const char *const names[] = {"illegal", "timeout", "crash", "extra-lines",
                                        "long-message", "stderr", "no-exit", "children"};
    return (unsigned)check < sizeof names / sizeof names[0] ? names[check] : "?";
}

const char *tx_validate_scenario_name(enum tx_validate_scenario scenario)
{
    static const char *const names[] = {"against", "swap", "diagonal", "off-diagonal", "late", "crossing"};
    return (unsigned)scenario < sizeof names / sizeof names[0] ? names[scenario] : "?";
}

int tx_validate_find_bundled(const char *name, char *buf, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -ENOENT;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -ENOENT;
    *slash = '\0';
    if ((size_t)snprintf(buf, cap, "%s/../bots/%s", self, name) >= cap || access(buf, X_OK) < 0)
        return -ENOENT;
    return 0;
}

/* ---- openings ---- */

static uint64_t next_random(uint64_t *state)
{
    *state += UINT64_C(0x9e3779b97f4a7c15);
    return tx_schedule_mix(*state);
}

static int random_below(uint64_t *state, int n)
{
    return (int)(next_random(state) % (uint64_t)n);
}

/* Player 1's first peg, on the diagonal (x == y) or off it. */
static int first_peg(const struct tx_geometry *geo, uint64_t *rng, bool diagonal, int16_t *out)
{
    int16_t holes[TX_HOLES_MAX];
    int n = 0;
    for (int h = 0; h < geo->holes; h++)
        if (tx_geometry_playable(geo, 0, h) &&
            (tx_geometry_x(geo, h) == tx_geometry_y(geo, h)) == diagonal)
            holes[n++] = (int16_t)h;
    if (n == 0)
        return -1;
    out[0] = holes[random_below(rng, n)];
    return 1;
}

/* Random legal moves (never a swap, never one that ends the game) until the
 * bot is on move with at most TX_VALIDATE_LATE_HOLES legal holes. */
static int late_opening(const struct tx_geometry *geo, uint64_t *rng, int player, int16_t *out)
{
    struct tx_game g, next;
    int16_t moves[TX_MOVES_MAX];
    tx_game_init(&g, geo);
    for (;;) {
        if (g.to_move == player && g.vacant_ok[player] <= TX_VALIDATE_LATE_HOLES)
            return g.nmoves;
        int n = tx_game_legal_moves(&g, moves), played = 0;
        for (int tries = 0; tries < n && !played; tries++) {
            int m = moves[random_below(rng, n)];
            next = g;
            if (m != TX_MOVE_SWAP && tx_game_play(&next, m) == TX_LEGAL && next.status == TX_ONGOING) {
                out[g.nmoves] = (int16_t)m;
                g = next;
                played = 1;
            }
        }
        if (!played)
            return -1; /* every move tried ends the game: another seed */
    }
}

/* The opponent's pegs in a bow tie (x0,y0) (x0+1,y0+2) (x0+1,y0) (x0,y0+2):
 * its 2nd and 4th pegs make two links that cross each other. The bot's
 * forced pegs go at random, at least 3 holes away from the bow tie. */
static int crossing_opening(const struct tx_geometry *geo, uint64_t *rng, int player, int16_t *out)
{
    int x0 = geo->size / 2 - 1, y0 = geo->size / 2 - 2, opp = 1 - player;
    int tie[4] = {tx_geometry_hole(geo, x0, y0), tx_geometry_hole(geo, x0 + 1, y0 + 2),
                  tx_geometry_hole(geo, x0 + 1, y0), tx_geometry_hole(geo, x0, y0 + 2)};
    int16_t far[TX_HOLES_MAX];
    int nfar = 0, n = 0;
    for (int h = 0; h < geo->holes; h++) {
        int dx = tx_geometry_x(geo, h) - x0, dy = tx_geometry_y(geo, h) - y0;
        if (tx_geometry_playable(geo, player, h) && (dx < -3 || dx > 4 || dy < -3 || dy > 5))
            far[nfar++] = (int16_t)h;
    }
    for (int i = 0; i < 4; i++)
        if (tie[i] < 0 || !tx_geometry_playable(geo, opp, tie[i]))
            return -1; /* a board too small */
    if (nfar < 8)
        return -1;
    struct tx_game g;
    tx_game_init(&g, geo);
    for (int k = 0; k < 4; k++) {
        for (int side = 0; side < 2; side++) {
            if (g.to_move == opp) {
                out[n++] = (int16_t)tie[k];
            } else if (k < 3 || player == 0) {
                int h;
                do
                    h = far[random_below(rng, nfar)];
                while (g.cell[h] != TX_EMPTY);
                out[n++] = (int16_t)h;
            } else {
                continue; /* the bot, player 2, is on move after the 4th tie peg */
            }
            if (tx_game_play(&g, out[n - 1]) != TX_LEGAL || g.status != TX_ONGOING)
                return -1;
        }
    }
    if (g.to_move != player || !tx_game_linked(&g, tie[0], tie[1]) || !tx_game_linked(&g, tie[2], tie[3]))
        return -1;
    return n;
}

/* ---- the plan ---- */

static void plan(struct validate *v, enum tx_validate_scenario scenario, int player, const char *opponent)
{
    const struct tx_validate_config *c = v->c;
    struct slot *s = &v->slots[v->nslots];
    int64_t index = v->nslots + 1;
    uint64_t seed = tx_schedule_mix(c->seed * 1000003u + (uint64_t)index) & TX_SCHEDULE_SEED_MASK;
    int n = 0;
    for (int t = 0; t < SCENARIO_TRIES; t++) {
        uint64_t rng = seed + (uint64_t)t;
        if (scenario == TX_SCENARIO_DIAGONAL || scenario == TX_SCENARIO_OFF_DIAGONAL)
            n = first_peg(c->geo, &rng, scenario == TX_SCENARIO_DIAGONAL, s->opening);
        else if (scenario == TX_SCENARIO_LATE)
            n = late_opening(c->geo, &rng, player, s->opening);
        else if (scenario == TX_SCENARIO_CROSSING)
            n = crossing_opening(c->geo, &rng, player, s->opening);
        if (n >= 0)
            break;
    }
    if (n < 0) {
        v->rep->skipped |= 1u << scenario; /* this board has no such opening */
        return;
    }
    s->scenario = scenario;
    s->player = player;
    s->nforced = n;
    s->opponent_command = scenario == TX_SCENARIO_SWAP ? NULL : tx_strdup(opponent);
    if (scenario == TX_SCENARIO_SWAP) {
        size_t len = strlen(opponent) + 32;
        s->opponent_command = malloc(len);
        if (!s->opponent_command)
            abort();
        snprintf(s->opponent_command, len, "%s --swap-prob 1", opponent);
    }
    tx_command_derive_name(opponent, s->opponent_name);
    s->bots[player] = (struct tx_bot_spec){.name = c->name, .command = c->command};
    s->bots[1 - player] = (struct tx_bot_spec){.name = s->opponent_name, .command = s->opponent_command};
    s->spec = (struct tx_game_spec){
        .index = index,
        .seed = seed,
        .bots = {&s->bots[0], &s->bots[1]},
        .nopening = n,
        .opening = s->opening,
    };
    v->nslots++;
}

static void plan_battery(struct validate *v)
{
    const struct tx_validate_config *c = v->c;
    const char *plain[TX_VALIDATE_OPPONENTS_MAX + 2];
    int nplain = 0;
    if (c->nopponents > 0) {
        for (int i = 0; i < c->nopponents; i++)
            plain[nplain++] = c->opponents[i];
    } else {
        if (c->random_command)
            plain[nplain++] = c->random_command;
        if (c->strong_command)
            plain[nplain++] = c->strong_command;
    }
    const char *sparring = c->random_command ? c->random_command : nplain ? plain[0] : NULL;
    int per_round = 2 * nplain + 7;
    v->slots = calloc((size_t)per_round * (size_t)c->rounds, sizeof *v->slots);
    if (!v->slots)
        abort();
    for (int round = 0; round < c->rounds; round++) {
        for (int i = 0; i < nplain; i++)
            for (int p = 0; p < 2; p++)
                plan(v, TX_SCENARIO_OPPONENT, p, plain[i]);
        if (!sparring)
            continue;
        if (c->random_command)
            plan(v, TX_SCENARIO_SWAP, 0, c->random_command);
        plan(v, TX_SCENARIO_DIAGONAL, 1, sparring);
        plan(v, TX_SCENARIO_OFF_DIAGONAL, 1, sparring);
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_LATE, p, sparring);
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_CROSSING, p, sparring);
    }
    v->rep->swap_skipped = !c->random_command;
}

/* ---- findings ---- */

static struct tx_validate_finding *add_finding(struct validate *v, enum tx_validate_check check, int64_t game,
                                               int move, int player)
{
    struct tx_validate_report *rep = v->rep;
    struct tx_validate_finding *f = realloc(rep->findings, sizeof *f * (size_t)(rep->nfindings + 1));
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

static void add_time(struct times *t, int64_t us)
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
static void analyse(struct validate *v, const struct slot *s, const struct tx_record *r)
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
            snprintf(f->what, sizeof f->what, "answered \"%.40s\": %.200s", last->move, r->result.detail);
        else
            snprintf(f->what, sizeof f->what, "%.300s", r->result.detail);
        char *input = malloc(TX_INPUT_MAX);
        if (!input)
            abort();
        if (check == TX_CHECK_ILLEGAL && tx_verify_turn_input(v->c->geo, r, r->nmoves - 1, input, TX_INPUT_MAX) >= 0)
            f->input = input;
        else
            free(input);
        /* What it said about itself while failing ("Traceback ...", an assert). */
        if (last && last->stderr_text && last->stderr_text[0]) {
            size_t len = strlen(last->stderr_text);
            f->stderr_text = tx_strdup(last->stderr_text + (len > TX_VALIDATE_STDERR_SHOWN ? len - TX_VALIDATE_STDERR_SHOWN : 0));
        }
    }
    if (me->extra_lines > 0) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_EXTRA_LINES, r->game, 0, p);
        snprintf(f->what, sizeof f->what, "%d line%s printed beyond one per turn (they are read as the next "
                 "answers)", me->extra_lines, me->extra_lines == 1 ? "" : "s");
        v->rep->extra_lines += me->extra_lines;
    }
    if (cut > 0) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_LONG_MESSAGE, r->game, first_cut, p);
        snprintf(f->what, sizeof f->what, "%d message%s longer than %d characters (cut), first at move %d", cut,
                 cut == 1 ? "" : "s", TX_MESSAGE_CHARS, first_cut);
        v->rep->long_messages += cut;
    }
    if (me->stderr_bytes > TX_VALIDATE_STDERR_MAX) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_STDERR, r->game, 0, p);
        snprintf(f->what, sizeof f->what, "%" PRId64 " bytes of stderr in one game; the referee keeps %d, the "
                 "rest is lost", me->stderr_bytes, TX_VALIDATE_STDERR_MAX);
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

/* ---- running the games ---- */

static void start_next(struct validate *v);

/* What game_done needs: the battery and the game's slot. */
struct done_ctx {
    struct validate *v;
    struct slot *s;
};

static void game_done(struct tx_match *match, struct tx_record *record, void *data)
{
    struct done_ctx *d = data;
    struct validate *v = d->v;
    char *json = NULL;
    (void)match;
    if (tx_record_to_json(record, &json) == 0) {
        if (fputs(json, v->records) == EOF || fputc('\n', v->records) == EOF || fflush(v->records) != 0)
            v->write_errno = errno ? errno : EIO;
        free(json);
    }
    analyse(v, d->s, record);
    if (v->c->progress)
        fprintf(stderr, "\rvalidate: %d of %d games played", ++v->finished, v->nslots);
    tx_record_free(record);
    free(record);
    free(d);
    v->running--;
    start_next(v);
}

static void start_next(struct validate *v)
{
    while (v->running < v->c->concurrency && v->started < v->nslots) {
        struct slot *s = &v->slots[v->started++];
        struct done_ctx *d = malloc(sizeof *d);
        if (!d)
            abort();
        *d = (struct done_ctx){v, s};
        int r = tx_match_start(&v->loop, &v->match, &s->spec, game_done, d, NULL);
        if (r < 0) {
            /* No launcher (openings are legal by construction): nothing can be validated. */
            free(d);
            v->start_error = r;
            v->started = v->nslots;
            break;
        }
        v->running++;
    }
}

/* ---- the report ---- */

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

static void summarise(struct times *t, int limit_ms, struct tx_validate_times *out)
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

/* Re-feeds the bot its first TX_VALIDATE_PROBE_TURNS turns of the first game
 * it played as player 1 (read back from the records file), then closes its
 * stdin: start-up time, exit, processes left. */
static void probe(struct validate *v, char *err, size_t errcap)
{
    const struct tx_validate_config *c = v->c;
    int64_t game = 0;
    for (int i = 0; i < v->nslots && !game; i++)
        if (v->slots[i].player == 0 && v->slots[i].nforced == 0)
            game = v->slots[i].spec.index;
    FILE *in = game ? fopen(c->records, "re") : NULL;
    if (!in)
        return;
    char *line = NULL;
    size_t cap = 0;
    struct tx_record r = {0};
    bool found = false;
    while (!found && getline(&line, &cap, in) > 0) {
        tx_record_free(&r);
        found = tx_record_from_json(line, strlen(line), &r, err, errcap) == 0 && r.game == game;
    }
    fclose(in);
    free(line);
    int upto = 0, turns = 0;
    for (int i = 0; found && i < r.nmoves && turns < TX_VALIDATE_PROBE_TURNS; i++)
        if (r.moves[i].player == 0 && !r.moves[i].forced && r.moves[i].move) {
            turns++;
            upto = i + 1;
        }
    if (upto > 0) {
        struct tx_refeed_config rc = {
            .geo = c->geo,
            .record = &r,
            .player = 0,
            .command = c->command,
            .upto = upto,
            .first_turn_ms = c->first_turn_ms,
            .turn_ms = c->turn_ms,
            .margin_ms = c->margin_ms,
            .soft_timeouts = c->soft_timeouts,
            .bot_memory_mb = c->bot_memory_mb,
            .probe_exit = true,
        };
        if (tx_refeed_run(&rc, &v->rep->probe, err, errcap) == 0)
            v->rep->probe_game = game;
    }
    tx_record_free(&r);
}

static void probe_findings(struct validate *v)
{
    struct tx_validate_report *rep = v->rep;
    const struct tx_refeed_result *p = &rep->probe;
    if (!rep->probe_game || !p->probed)
        return;
    if (!p->exited) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_NO_EXIT, rep->probe_game, 0, 0);
        snprintf(f->what, sizeof f->what, "still running %d ms after its stdin closed (the referee then kills "
                 "it; a bot should exit when its input ends)", TX_REFEED_EXIT_WAIT_MS);
    }
    /* Processes of a bot still running are its own business; only those
     * that outlive it are left behind. */
    if (p->exited && p->nleft > 0) {
        struct tx_validate_finding *f = add_finding(v, TX_CHECK_CHILDREN, rep->probe_game, 0, 0);
        int len = snprintf(f->what, sizeof f->what, "%d process%s it started still running after it exited:",
                           p->nleft, p->nleft == 1 ? "" : "es");
        for (int i = 0; i < p->nleft && i < TX_REFEED_LEFT_MAX && len > 0 && (size_t)len < sizeof f->what; i++)
            len += snprintf(f->what + len, sizeof f->what - (size_t)len, " %d (%s)", p->left_pids[i],
                            p->left_names[i]);
    }
}

int tx_validate_run(const struct tx_validate_config *c, struct tx_validate_report *ret, char *err, size_t errcap)
{
    memset(ret, 0, sizeof *ret);
    ret->probe.startup_us = -1;
    struct validate *v = calloc(1, sizeof *v);
    if (!v)
        abort();
    v->c = c;
    v->rep = ret;
    int rc = 0;
    v->records = fopen(c->records, "we");
    if (!v->records) {
        rc = -errno;
        snprintf(err, errcap, "cannot write the records file %s: %s", c->records, strerror(errno));
        goto out;
    }
    tx_match_config_init(&v->match, c->geo);
    v->match.first_turn_ms = c->first_turn_ms;
    v->match.turn_ms = c->turn_ms;
    v->match.margin_ms = c->margin_ms;
    v->match.soft_timeouts = c->soft_timeouts;
    v->match.bot_memory_mb = c->bot_memory_mb;
    v->match.run = "validate";
    plan_battery(v);
    ret->ngames = v->nslots;
    ret->games = calloc((size_t)v->nslots + 1, sizeof *ret->games);
    if (!ret->games || uv_loop_init(&v->loop) < 0)
        abort();
    for (int i = 0; i < v->nslots; i++) {
        const struct slot *s = &v->slots[i];
        struct tx_validate_game *g = &ret->games[i];
        g->index = s->spec.index;
        g->scenario = s->scenario;
        g->player = s->player;
        g->nforced = s->nforced;
        g->winner = -1;
        g->reason = TX_REASON_INTERRUPTED;
        snprintf(g->opponent, sizeof g->opponent, "%s", s->opponent_name);
    }
    start_next(v);
    uv_run(&v->loop, UV_RUN_DEFAULT);
    uv_loop_close(&v->loop);
    if (c->progress)
        fputs("\r\033[K", stderr);
    if (fclose(v->records) != 0 && !v->write_errno)
        v->write_errno = errno;
    v->records = NULL;
    if (v->start_error) {
        rc = v->start_error;
        snprintf(err, errcap, "cannot start a game: %s%s", strerror(-rc),
                 rc == -ENOENT ? " (twixt-launch not found next to the program)" : "");
        goto out;
    }
    if (v->write_errno) {
        rc = -v->write_errno;
        snprintf(err, errcap, "writing the records file %s: %s", c->records, strerror(v->write_errno));
        goto out;
    }
    summarise(&v->first, c->first_turn_ms, &ret->first);
    summarise(&v->later, c->turn_ms, &ret->later);
    /* Games end in any order when several run at once: report in game order. */
    if (ret->nfindings > 1)
        qsort(ret->findings, (size_t)ret->nfindings, sizeof *ret->findings, compare_findings);
    probe(v, err, errcap);
    probe_findings(v);
    ret->passed = ret->nfindings == 0;
out:
    if (v->records)
        fclose(v->records);
    for (int i = 0; i < v->nslots; i++)
        free(v->slots[i].opponent_command);
    free(v->slots);
    free(v->first.us);
    free(v->later.us);
    free(v);
    return rc;
}

void tx_validate_report_free(struct tx_validate_report *rep)
{
    for (int i = 0; i < rep->nfindings; i++) {
        free(rep->findings[i].input);
        free(rep->findings[i].stderr_text);
    }
    free(rep->findings);
    free(rep->games);
    tx_refeed_result_free(&rep->probe);
    memset(rep, 0, sizeof *rep);
}
