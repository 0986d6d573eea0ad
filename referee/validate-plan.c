/* validate-plan.c - the battery's games: scenarios, opponents, openings.
 *
 * Every scenario of the default battery is a situation CodinGame produces:
 * its opponent plays it (twixt-random opens where told, swaps or, under
 * classic rules, edits its links; twixt-blocker makes the game long or its
 * links cross, under classic flips a link of its own back and forth). Only the
 * arena-only scenarios (forced_openings) force moves, made with libtwixt
 * from a seeded generator so that a seed always gives the same battery and
 * no opening ends the game. The bundled opponents' commands are made here
 * too, with the scenarios' options (one way to add options to a command).
 * The plan lays out every game of every round as
 * a slot, the tx_game_spec the match plays and everything it points to,
 * and hands them to the runner as its source of games.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "game.h"
#include "hole.h"
#include "paths.h"
#include "schedule.h"
#include "splitmix.h"
#include "validate-private.h"

#define SCENARIO_TRIES 64 /* seeds tried for an opening before the scenario is dropped */

/* ---- openings ---- */

/* A first peg for player 1, on the diagonal (x == y) or off it. */
static int first_peg(const struct tx_geometry *geo, struct tx_splitmix *rng, bool diagonal,
                     int16_t *out)
{
    int16_t holes[TX_HOLES_MAX];
    int n = 0;
    for (int h = 0; h < geo->holes; h++)
        if (tx_geometry_playable(geo, 0, h) &&
            (tx_geometry_x(geo, h) == tx_geometry_y(geo, h)) == diagonal)
            holes[n++] = (int16_t)h;
    if (n == 0)
        return -1;
    out[0] = holes[tx_splitmix_below(rng, (uint32_t)n)];
    return 1;
}

/* forced-late: random legal moves (never a swap, never one that ends the
 * game) until the bot is on move with at most TX_VALIDATE_LATE_HOLES legal
 * holes. */
static int late_opening(const struct tx_validate_config *c, struct tx_splitmix *rng, int player,
                        int16_t *out)
{
    struct tx_game *g = tx_game_new(c->geo, c->rules), *next = tx_game_new(c->geo, c->rules);
    int16_t *moves = tx_xmalloc(sizeof(int16_t[TX_MOVES_MAX]));
    int rc = -1;
    for (;;) {
        if (g->to_move == player && g->vacant_ok[player] <= TX_VALIDATE_LATE_HOLES) {
            rc = g->nmoves;
            break;
        }
        int n = tx_game_legal_moves(g, moves), played = 0;
        for (int tries = 0; tries < n && !played; tries++) {
            int m = moves[tx_splitmix_below(rng, (uint32_t)n)];
            tx_game_copy(next, g);
            if (m != TX_MOVE_SWAP && tx_game_play(next, m) == TX_LEGAL &&
                next->status == TX_ONGOING) {
                out[g->nmoves] = (int16_t)m;
                tx_game_copy(g, next);
                played = 1;
            }
        }
        if (!played)
            break; /* every move tried ends the game: another seed */
    }
    tx_game_free(g);
    tx_game_free(next);
    free(moves);
    return rc;
}

/* forced-crossing: the opponent's pegs in a bow tie (x0,y0) (x0+1,y0+2) (x0+1,y0) (x0,y0+2):
 * its 2nd and 4th pegs make two links that cross each other. The bot's
 * forced pegs go at random, at least 3 holes away from the bow tie. */
static int crossing_opening(const struct tx_validate_config *c, struct tx_splitmix *rng, int player,
                            int16_t *out)
{
    const struct tx_geometry *geo = c->geo;
    int x0 = geo->width / 2 - 1, y0 = geo->height / 2 - 2, opp = 1 - player;
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
    struct tx_game *g = tx_game_new(geo, c->rules);
    int rc = 0;
    for (int k = 0; k < 4 && rc == 0; k++) {
        for (int side = 0; side < 2 && rc == 0; side++) {
            if (g->to_move == opp) {
                out[n++] = (int16_t)tie[k];
            } else if (k < 3 || player == 0) {
                int h;
                do
                    h = far[tx_splitmix_below(rng, (uint32_t)nfar)];
                while (tx_game_cell(g, h) != TX_EMPTY);
                out[n++] = (int16_t)h;
            } else {
                continue; /* the bot, player 2, is on move after the 4th tie peg */
            }
            if (tx_game_play(g, out[n - 1]) != TX_LEGAL || g->status != TX_ONGOING)
                rc = -1;
        }
    }
    if (rc == 0 && (g->to_move != player || !tx_game_linked(g, tie[0], tie[1]) ||
                    !tx_game_linked(g, tie[2], tie[3])))
        rc = -1;
    tx_game_free(g);
    return rc < 0 ? -1 : n;
}

/* ---- the plan ---- */

/* "COMMAND EXTRA" (malloc'ed). */
static char *with_options(const char *command, const char *extra)
{
    size_t len = strlen(command) + strlen(extra) + 2;
    char *s = tx_xmalloc(len);
    snprintf(s, len, "%s %s", command, extra);
    return s;
}

char *tx_validate_bundled_command(const char *name, const struct tx_variant *variant,
                                  const char *extra)
{
    char path[PATH_MAX], command[PATH_MAX + 64];
    if (tx_paths_bundled_bot(name, path, sizeof path, NULL) < 0 || strchr(path, '\''))
        return NULL;
    /* {size} on a square board, as the commands of pp games always said. */
    snprintf(command, sizeof command, "'%s' --seed {seed} %s%s", path,
             variant->width == variant->height ? "--size {size}" : "--board {width}x{height}",
             variant->rules == TX_RULES_PP ? "" : " --rules {rules}");
    return extra ? with_options(command, extra) : tx_strdup(command);
}

/* Adds the game of scenario for the bot as player against opponent (NULL:
 * the scenario cannot be played, for the reason `missing`). */
static void plan(struct tx_validate_battery *v, enum tx_validate_scenario scenario, int player,
                 const char *opponent, const char *missing)
{
    const struct tx_validate_config *c = v->c;
    struct tx_validate_slot *s = &v->slots[v->nslots];
    int64_t index = v->nslots + 1;
    uint64_t seed = tx_splitmix_mix(c->seed * 1000003u + (uint64_t)index) & TX_SCHEDULE_SEED_MASK;
    int16_t first[1];
    char extra[64] = "", name[TX_HOLE_NAME_MAX];
    int n = 0;

    if (!opponent) {
        v->rep->skipped[scenario] = missing;
        return;
    }
    for (int t = 0; t < SCENARIO_TRIES; t++) {
        struct tx_splitmix rng = {seed + (uint64_t)t};
        if (scenario == TX_SCENARIO_DIAGONAL || scenario == TX_SCENARIO_OFF_DIAGONAL)
            n = first_peg(c->geo, &rng, scenario == TX_SCENARIO_DIAGONAL, first);
        else if (scenario == TX_SCENARIO_FORCED_LATE)
            n = late_opening(c, &rng, player, s->opening);
        else if (scenario == TX_SCENARIO_FORCED_CROSSING)
            n = crossing_opening(c, &rng, player, s->opening);
        if (n >= 0)
            break;
    }
    if (n < 0) {
        v->rep->skipped[scenario] = "no such opening on this board";
        return;
    }
    /* The opponent plays the scenario: it opens where told, swaps, or
     * makes its links cross. */
    if (scenario == TX_SCENARIO_DIAGONAL || scenario == TX_SCENARIO_OFF_DIAGONAL) {
        snprintf(extra, sizeof extra, "--first %s", tx_hole_name(c->geo, first[0], name));
        n = 0;
    } else if (scenario == TX_SCENARIO_SWAP) {
        snprintf(extra, sizeof extra, "--swap-prob 1");
    } else if (scenario == TX_SCENARIO_CROSSING) {
        snprintf(extra, sizeof extra, "--cross");
    } else if (scenario == TX_SCENARIO_EDITS) {
        snprintf(extra, sizeof extra, "--edit-prob 1");
    }
    s->scenario = scenario;
    s->player = player;
    s->nforced = n;
    s->opponent_command = extra[0] ? with_options(opponent, extra) : tx_strdup(opponent);
    tx_command_derive_name(opponent, s->opponent_name);
    s->bots[player] = (struct tx_bot_spec){.name = c->name, .command = c->command};
    s->bots[1 - player] =
        (struct tx_bot_spec){.name = s->opponent_name, .command = s->opponent_command};
    s->spec = (struct tx_game_spec){
        .index = index,
        .seed = seed,
        .bots = {&s->bots[0], &s->bots[1]},
        .nopening = n,
        .opening = s->opening,
    };
    v->nslots++;
}

void tx_validate_plan_battery(struct tx_validate_battery *v)
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
    const char *random = c->random_command, *blocker = c->blocker_command;
    const char *sparring = random ? random : nplain ? plain[0] : NULL;
    static const char no_random[] = "needs the bundled twixt-random (not found)";
    static const char no_blocker[] = "needs the bundled twixt-blocker (not found)";
    static const char no_swap[] = "no swap on a board that is not square";
    static const char no_cross[] = "no link crosses another under classic rules";
    static const char no_forced[] = "the cut opening has no forced moves (--opening cut)";
    bool square = c->geo->width == c->geo->height, classic = c->rules == TX_RULES_CLASSIC;
    /* The opening (RULES.md "Openings"): the pie exchanges sides on any
     * board; none and the cut have no swap, and the cut no forced peg. */
    bool cut = c->opening == TX_OPENING_CUT, pie = c->opening == TX_OPENING_PIE;
    bool can_swap = c->opening == TX_OPENING_SWAP ? square : pie;
    const char *why_no_swap = !square && c->opening == TX_OPENING_SWAP
                                  ? no_swap
                                  : "no swap in this opening (--opening none or cut)";
    int per_round = 2 * nplain + 13;
    v->slots = tx_xcalloc((size_t)per_round * (size_t)c->rounds, sizeof *v->slots);
    for (int round = 0; round < c->rounds; round++) {
        for (int i = 0; i < nplain; i++)
            for (int p = 0; p < 2; p++)
                plan(v, TX_SCENARIO_OPPONENT, p, plain[i], NULL);
        plan(v, TX_SCENARIO_SWAP, 0, can_swap ? random : NULL, can_swap ? no_random : why_no_swap);
        plan(v, TX_SCENARIO_DIAGONAL, 1, cut ? NULL : random, cut ? no_forced : no_random);
        plan(v, TX_SCENARIO_OFF_DIAGONAL, 1, cut ? NULL : random, cut ? no_forced : no_random);
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_BLOCKED, p, blocker, no_blocker);
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_CROSSING, p, blocker, no_blocker);
        for (int p = 0; p < 2 && classic; p++)
            plan(v, TX_SCENARIO_EDITS, p, random, no_random);
        if (!c->forced_openings)
            continue;
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_FORCED_LATE, p, cut ? NULL : sparring,
                 cut ? no_forced : "needs an opponent");
        for (int p = 0; p < 2; p++)
            plan(v, TX_SCENARIO_FORCED_CROSSING, p, classic || cut ? NULL : sparring,
                 cut       ? no_forced
                 : classic ? no_cross
                           : "needs an opponent");
    }
}

/* ---- the runner's source of games ---- */

static int battery_resumed(void *data, const struct tx_record *r, char *why, size_t cap)
{
    (void)data, (void)r, (void)why, (void)cap;
    return 0; /* its file is new or empty (validate.c): nothing to count */
}

static int battery_next(void *data, int64_t index, struct tx_pool_slot *slot)
{
    struct tx_validate_battery *v = data;
    if (v->started == v->nslots)
        return 0;
    /* The spec's bots and opening live in v's slot for the whole run. */
    memset(slot, 0, sizeof *slot);
    slot->spec = v->slots[v->started++].spec;
    slot->spec.index = index;
    return 1;
}

static void battery_ended(void *data, const struct tx_pool_slot *slot, const struct tx_record *r)
{
    struct tx_validate_battery *v = data;
    (void)slot;
    if (r && r->result.reason != TX_REASON_INTERRUPTED)
        v->done++;
}

static void battery_progress(void *data, int64_t *done, int64_t *total)
{
    const struct tx_validate_battery *v = data;
    *done = v->done;
    *total = v->nslots;
}

void tx_validate_plan_games(struct tx_validate_battery *v, struct tx_runner_games *games)
{
    *games = (struct tx_runner_games){
        .resumed = battery_resumed,
        .next = battery_next,
        .ended = battery_ended,
        .progress = battery_progress,
        .data = v,
        .run = "validate", /* the schema's name for a validate battery's games */
    };
}
