/* match.c - one game between bot processes: the contract of match.h.
 *
 * A match goes through three phases. PLAYING: every bot is spawned (while
 * the bots' executables are hashed for the record on libuv's thread pool:
 * file I/O never runs on the loop, where other games' clocks may be
 * running, and the game does not wait for it), the
 * forced opening is played, then the seat the game names (tx_game.seat:
 * after a pie swap, a cut's choice or a privilege it is not simply the
 * other one) gets its turn (seat.h: the input, the clock, the answer and
 * its verdict), and the seat's verdict either plays the answer or ends the
 * game, lost by that bot's side (its team in Double TwixT). ENDING: every
 * seat is stopped (bot.c: stdin closed, SIGTERM, SIGKILL, reaped, pipes
 * closed). DONE: when the last handle has closed, the record is built
 * (match-record.c) and handed to done_cb, and the match frees itself.
 *
 * A bot that misbehaves only ever produces a result: nothing fails because
 * of a bot.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "command.h"
#include "hole.h"
#include "match-private.h"
#include "sandbox.h"

/* ---- the end ---- */

/* A bot that crashed because its sandbox could not be set up did not
 * lose: the game is interrupted (README "When a sandbox cannot be built"),
 * without the turn it could not play. */
static void fault_to_interrupted(struct tx_match *m)
{
    int p = m->crashed;
    if (p < 0 || !m->seats[p].bot.fault)
        return;
    const char *name = m->spec->bots[p]->name ? m->spec->bots[p]->name : "bot";
    m->fault = p;
    m->crashed = -1;
    m->winner = -1;
    m->reason = TX_REASON_INTERRUPTED;
    /* The detail has room for a name and most of an error: cut, not overflowed. */
    snprintf(m->detail, sizeof m->detail, "bot '%.63s' could not be started: %.160s", name,
             m->seats[p].bot.start_error);
    if (m->nturns > 0 && m->turns[m->nturns - 1].player == p &&
        !m->turns[m->nturns - 1].has_token) {
        m->nturns--;
        free(m->turns[m->nturns].edits);
        m->turns[m->nturns].edits = NULL;
    }
}

int tx_match_fault(const struct tx_match *m)
{
    return m->fault;
}

static void free_match(struct tx_match *m)
{
    for (int p = 0; p < m->nseats; p++) {
        tx_command_free(m->argv[p]);
        tx_command_free(m->others[p]);
        free(m->commands[p]);
        free(m->env[p]);
    }
    free(m->seats);
    for (int i = 0; i < m->nturns; i++)
        free(m->turns[i].edits);
    free(m->turns);
    tx_game_free(m->game);
    free(m);
}

static void done(struct tx_match *m)
{
    m->phase = TX_MATCH_DONE;
    fault_to_interrupted(m);
    struct tx_record *record = tx_match_build_record(m);
    for (int p = 0; p < m->nseats; p++)
        tx_seat_release(&m->seats[p]);
    for (int p = 0; m->pinned && p < m->nseats; p++)
        tx_sandbox_give_cores(&m->cores[p]);
    m->done_cb(m, record, m->data);
    free_match(m);
}

static void finished_one(struct tx_match *m)
{
    if (--m->open == 0)
        done(m);
}

static void on_seat_closed(struct tx_seat *seat)
{
    finished_one(seat->data);
}

/* Ends the game with this result (once; later calls do nothing): stops
 * every seat; the record goes out when the last handle has closed. */
static void finish(struct tx_match *m, int winner, enum tx_reason reason, const char *detail)
{
    if (m->phase >= TX_MATCH_ENDING)
        return;
    m->phase = TX_MATCH_ENDING;
    m->winner = winner;
    m->reason = reason;
    snprintf(m->detail, sizeof m->detail, "%s", detail);
    for (int p = 0; p < m->nseats; p++)
        tx_seat_stop(&m->seats[p]);
}

/* ---- the turns ---- */

static const char *player_name(int p)
{
    static const char *const names[TX_SEATS_MAX] = {"player 1", "player 2", "player 3", "player 4"};
    return names[p];
}

/* The game names a winning colour; the record a winning seat, or with
 * teams a winning team: both are the colour, exchanged when the sides were
 * (a seat plays colour (seat & 1) ^ exchanged). */
static bool game_over(struct tx_match *m)
{
    const struct tx_geometry *geo = m->geo;
    char detail[64];
    if (m->game->status == TX_WON) {
        int16_t chain[TX_HOLES_MAX];
        int n = tx_game_winning_chain(m->game, chain);
        char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX];
        if (n > 0)
            snprintf(detail, sizeof detail, "%s-%s", tx_hole_name(geo, chain[0], a),
                     tx_hole_name(geo, chain[n - 1], b));
        else
            snprintf(detail, sizeof detail, "connected");
        finish(m, m->game->winner ^ m->game->exchanged, TX_REASON_CONNECTION, detail);
        return true;
    }
    if (m->game->status == TX_DRAWN) {
        snprintf(detail, sizeof detail, "no legal hole for %s", player_name(m->game->seat));
        finish(m, -1, TX_REASON_DRAW, detail);
        return true;
    }
    return false;
}

/* The seat to move gets its turn. */
static void next_turn(struct tx_match *m)
{
    if (m->phase != TX_MATCH_PLAYING || game_over(m))
        return;
    tx_seat_play(&m->seats[m->game->seat], m->game);
}

/* A seat's turn is over: the entry of record.moves, then the answer is
 * played or the game ends, lost by the seat's side (its team). */
static void on_turn(struct tx_seat *seat, const struct tx_seat_turn *turn)
{
    struct tx_match *m = seat->data;
    int p = (int)(seat - m->seats);
    struct tx_match_turn *t = &m->turns[m->nturns++];
    memset(t, 0, sizeof *t);
    t->player = (int8_t)p;
    t->us = turn->us;
    t->err_from = turn->err_from;
    if (turn->answered) {
        t->has_token = true;
        snprintf(t->token, sizeof t->token, "%s", turn->answer.token);
        snprintf(t->message, sizeof t->message, "%s", turn->answer.message);
        t->message_cut = turn->answer.message_cut;
        t->privilege = turn->answer.privilege;
        if (turn->answer.nedits > 0) {
            t->nedits = turn->answer.nedits;
            t->edits = tx_xcalloc((size_t)t->nedits, sizeof *t->edits);
            for (int i = 0; i < t->nedits; i++)
                tx_edit_name(&turn->answer.edits[i], t->edits[i]);
        }
    }
    if (turn->verdict == TX_VERDICT_MOVE) {
        struct tx_move move;
        tx_answer_move(&turn->answer, &move);
        tx_game_apply(m->game, &move, NULL);
        next_turn(m);
        return;
    }
    if (turn->verdict == TX_VERDICT_CRASH)
        m->crashed = p; /* the detail is known only once the bot is reaped */
    finish(m, (p & 1) ^ 1, (enum tx_reason)tx_verdict_reason(turn->verdict), turn->detail);
}

/* ---- the start ---- */

static void hash_programs(uv_work_t *work)
{
    struct tx_match *m = work->data;
    for (int p = 0; p < m->nseats; p++) {
        if (!m->argv[p])
            continue;
        /* A relative path in a bot's own directory is found from there. */
        const char *program = m->argv[p][0], *dir = m->spec->bots[p]->dir;
        char path[PATH_MAX];
        if (dir && program[0] != '/' && strchr(program, '/') &&
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, program) < sizeof path)
            program = path;
        m->have_sha256[p] = tx_sha256_program(program, m->sha256[p]) == 0;
    }
}

/* word as seen from our working directory when it names a path from dir
 * (a bot's working directory); the word itself otherwise. Malloc'ed. */
static char *from_here(const char *word, const char *dir)
{
    if (!dir || word[0] == '/' || !strchr(word, '/'))
        return tx_strdup(word);
    size_t n = strlen(dir) + strlen(word) + 2;
    char *path = tx_xmalloc(n);
    snprintf(path, n, "%s/%s", dir, word);
    return path;
}

/* With teams, the words of the three other bots' commands in one list, as
 * the sandbox reads an opponent's (paths from our working directory; a
 * program found in PATH is everybody's and left out), so that each bot
 * sees none of the others' files, its partner's included. */
static char **others_words(const struct tx_match *m, int p)
{
    size_t n = 1, k = 0;
    for (int q = 0; q < m->nseats; q++)
        for (int i = 0; q != p && m->argv[q] && m->argv[q][i]; i++)
            n++;
    char **words = tx_xcalloc(n + 1, sizeof *words);
    words[k++] = tx_strdup("/"); /* the program of the list: a directory, never hidden */
    for (int q = 0; q < m->nseats; q++)
        for (int i = 0; q != p && m->argv[q] && m->argv[q][i]; i++)
            if (i > 0 || strchr(m->argv[q][0], '/'))
                words[k++] = from_here(m->argv[q][i], m->spec->bots[q]->dir);
    words[k] = NULL;
    return words;
}

static void spawn_bots(struct tx_match *m)
{
    /* --pin-cores: each bot on cores of its own, away from the bot before
     * it (its opponent) where the machine has enough. */
    const struct tx_sandbox *sb = tx_sandbox_current();
    for (int p = 0; p < m->nseats; p++)
        m->pinned = tx_sandbox_take_cores(tx_sandbox_bot_cpus(sb, m->spec->bots[p]->cpus),
                                          p ? &m->cores[p - 1] : NULL, &m->cores[p]);
    for (int p = 0; p < m->nseats; p++) {
        if (!m->argv[p])
            continue;
        struct tx_seat *seat = &m->seats[p];
        /* its opponents' files are hidden from this bot */
        if (m->nseats == 2) {
            seat->opponent_argv = m->argv[1 - p];
            seat->opponent_dir = m->spec->bots[1 - p]->dir;
        } else {
            m->others[p] = others_words(m, p);
            seat->opponent_argv = m->others[p];
        }
        seat->pinned = m->pinned;
        seat->cores = m->cores[p];
        /* A failure is the bot's crash, at its turn. */
        tx_seat_start(seat, m->argv[p], m->launcher, m->geo);
    }
}

/* A forced opening move: the referee's, so no time and no stderr. */
static void play_opening(struct tx_match *m)
{
    for (int i = 0; i < m->spec->nopening && m->game->status == TX_ONGOING; i++) {
        struct tx_match_turn *t = &m->turns[m->nturns++];
        memset(t, 0, sizeof *t);
        t->player = (int8_t)m->game->seat;
        t->us = -1;
        t->forced = true;
        t->has_token = true;
        tx_hole_name(m->geo, m->spec->opening[i], t->token);
        tx_game_play(m->game, m->spec->opening[i]);
    }
}

/* The programs' hashes are for the record, built once this has run: the
 * game does not wait for them (a round trip through the thread pool is a
 * few hundred microseconds on a VM, on every game's start). */
static void after_hash(uv_work_t *work, int status)
{
    (void)status; /* never cancelled */
    finished_one(work->data);
}

void tx_match_config_init(struct tx_match_config *config, const struct tx_geometry *geo,
                          enum tx_rules rules)
{
    memset(config, 0, sizeof *config);
    config->geo = geo;
    config->rules = rules;
    tx_limits_default(&config->limits);
    config->run = NULL;
}

/* The forced opening must be legal and never a swap (nor in the cut
 * opening, whose first answer is the cut): a schedule bug, not a game
 * result, so it is refused before anything starts. */
static int check_opening(const struct tx_geometry *geo, const struct tx_variant *v,
                         const struct tx_game_spec *spec)
{
    if (spec->nopening < 0 || (spec->nopening > 0 && !spec->opening))
        return -EINVAL;
    struct tx_game *g = tx_game_new(geo, v->rules);
    tx_game_start(g, geo, v);
    int r = 0;
    for (int i = 0; i < spec->nopening && r == 0; i++)
        if (spec->opening[i] == TX_MOVE_SWAP || tx_game_play(g, spec->opening[i]) != TX_LEGAL)
            r = -EINVAL;
    free(g);
    return r;
}

char **tx_match_bot_env(const struct tx_variant *v, char store[TX_MATCH_ENV_VARS][32],
                        char *const *own)
{
    snprintf(store[0], 32, "TWIXT_RULES=%s", tx_ruleset(v->rules)->name);
    snprintf(store[1], 32, "TWIXT_WIDTH=%d", v->width);
    snprintf(store[2], 32, "TWIXT_HEIGHT=%d", v->height);
    snprintf(store[3], 32, "TWIXT_OPENING=%s", tx_opening_rule_name(v->opening));
    snprintf(store[4], 32, "TWIXT_TEAMS=%d", v->teams ? 1 : 0);
    size_t n = 0, k = 0;
    while (own && own[n])
        n++;
    char **env = tx_xcalloc(n + TX_MATCH_ENV_VARS + 1, sizeof *env);
    for (size_t i = 0; i < n; i++) {
        bool ours = false; /* a bot's own cannot change the arena's */
        for (int j = 0; j < TX_MATCH_ENV_VARS && !ours; j++)
            ours = !strncmp(own[i], store[j], (size_t)(strchr(store[j], '=') - store[j] + 1));
        if (!ours)
            env[k++] = own[i];
    }
    for (int i = 0; i < TX_MATCH_ENV_VARS; i++)
        env[k++] = store[i];
    env[k] = NULL;
    return env;
}

int tx_match_start(uv_loop_t *loop, const struct tx_match_config *config,
                   const struct tx_game_spec *spec, tx_match_done_cb done_cb, void *data,
                   struct tx_match **ret_match)
{
    int nseats = config->teams ? 4 : 2;
    for (int p = 0; p < nseats; p++)
        if (!spec->bots[p])
            return -EINVAL;
    if (!config->geo || !done_cb)
        return -EINVAL;
    /* A write to a dead bot must fail with EPIPE, not kill the program:
     * the referee's main() does this too, but tests and other embedders of
     * the match may not have. */
    struct sigaction old_pipe;
    if (sigaction(SIGPIPE, NULL, &old_pipe) == 0 && old_pipe.sa_handler == SIG_DFL)
        signal(SIGPIPE, SIG_IGN);
    const struct tx_geometry *geo = spec->geo ? spec->geo : config->geo;
    struct tx_variant variant = tx_match_variant(config);
    variant.width = geo->width;
    variant.height = geo->height;
    int r = check_opening(geo, &variant, spec);
    if (r < 0)
        return r;
    struct tx_match *m = calloc(1, sizeof *m);
    if (!m)
        return -ENOMEM;
    if (tx_bot_find_launcher(m->launcher, sizeof m->launcher) < 0) {
        free(m);
        return -ENOENT;
    }
    m->loop = loop;
    m->config = config;
    m->spec = spec;
    m->done_cb = done_cb;
    m->data = data;
    m->phase = TX_MATCH_PLAYING;
    m->winner = -1;
    m->crashed = -1;
    m->fault = -1;
    m->nseats = nseats;
    m->geo = geo;
    m->variant = variant;
    m->game = tx_game_new(geo, variant.rules);
    tx_game_start(m->game, geo, &variant);
    m->turns = tx_xcalloc((size_t)geo->holes + 2, sizeof *m->turns);
    m->seats = tx_xcalloc((size_t)nseats, sizeof *m->seats);

    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(m->started, sizeof m->started, "%Y-%m-%dT%H:%M:%SZ", &tm);

    for (int p = 0; p < nseats; p++) {
        m->commands[p] = tx_command_expand(spec->bots[p]->command, spec->seed, &variant);
        int argc;
        if (tx_command_split(m->commands[p], &m->argv[p], &argc, m->split_error[p],
                             sizeof m->split_error[p]) < 0)
            m->argv[p] = NULL;
    }

    m->work.data = m;
    r = uv_queue_work(loop, &m->work, hash_programs, after_hash);
    if (r < 0) {
        free_match(m);
        return r;
    }
    for (int p = 0; p < nseats; p++) {
        struct tx_seat *seat = &m->seats[p];
        seat->data = m;
        seat->turn_cb = on_turn;
        seat->closed_cb = on_seat_closed;
        /* A bot of a bots file may have its own memory limit (pool.h). */
        const struct tx_bot_spec *bot = spec->bots[p];
        m->limits[p] = config->limits;
        if (bot->memory_mb)
            m->limits[p].memory_mb = bot->memory_mb == TX_BOT_MEMORY_NONE ? 0 : bot->memory_mb;
        seat->limits = &m->limits[p];
        seat->dir = bot->dir;
        m->env[p] = tx_match_bot_env(&variant, m->variant_env, bot->env);
        seat->env = m->env[p];
        seat->cpus = bot->cpus;
        seat->writable = bot->writable;
        seat->forced = spec->nopening;
        tx_seat_init(seat, loop);
    }
    m->open = 1 + nseats; /* the hash work, the seats */
    if (ret_match)
        *ret_match = m;
    /* Nothing below ends the match before the hash work has run. */
    spawn_bots(m);
    play_opening(m);
    next_turn(m);
    return 0;
}

struct tx_variant tx_match_variant(const struct tx_match_config *config)
{
    return (struct tx_variant){.rules = config->rules,
                               .width = config->geo->width,
                               .height = config->geo->height,
                               .opening = config->opening,
                               .teams = config->teams};
}

void tx_match_interrupt(struct tx_match *m)
{
    if (m->phase >= TX_MATCH_ENDING || m->interrupted)
        return;
    m->interrupted = true;
    /* The turn in progress (if any) gets no entry: nobody lost it. */
    finish(m, -1, TX_REASON_INTERRUPTED, "the referee was stopped");
}
