/* validate-private.h - the inside of the validate battery, shared by its three files.
 *
 * validate-plan.c lays out the battery (its scenarios, their opponents and
 * forced openings) and is the runner's game source, validate.c runs it
 * through the runner and the re-feed probe, validate-findings.c reads the
 * findings and answer times off each record and the probe. Nothing outside
 * these three includes this header: the contract for everyone else is
 * validate.h.
 */
#ifndef TX_VALIDATE_PRIVATE_H
#define TX_VALIDATE_PRIVATE_H

#include <stdint.h>

#include "command.h"
#include "game.h"
#include "match.h"
#include "record.h"
#include "runner.h"
#include "validate.h"

/* One planned game and everything its spec points to. */
struct tx_validate_slot {
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
struct tx_validate_samples {
    int64_t *us;
    int n, cap;
};

struct tx_validate_battery {
    const struct tx_validate_config *c;
    struct tx_validate_report *rep;
    struct tx_validate_slot *slots;
    int nslots, finished;
    int started, done; /* the runner's source: slots handed out, games ended with a result */
    struct tx_validate_samples first, later;
    int64_t probe_game;     /* the game the probe re-feeds, 0 for none */
    struct tx_record probe; /* its first moves, copied as it ended */
};

/* validate-plan.c: every game of config->rounds rounds into v->slots (the
 * skipped scenarios into the report). */
void tx_validate_plan_battery(struct tx_validate_battery *v);
/* The runner's source of games (runner.h): v's slots in order, game K of
 * the file being slot K (the file is new or empty: validate.c). */
void tx_validate_plan_games(struct tx_validate_battery *v, struct tx_runner_games *games);

/* validate-findings.c */
/* Everything record r of slot s says about the bot: findings, answer times,
 * stderr and the game's line in the report. */
void tx_validate_analyse(struct tx_validate_battery *v, const struct tx_validate_slot *s,
                         const struct tx_record *r);
/* The findings of the re-feed probe, once it has run. */
void tx_validate_probe_findings(struct tx_validate_battery *v);
/* Once every game is in: the answer times summarised, the findings in
 * order (failures first, then by first game) with their games sorted, the
 * counts and the verdict. */
void tx_validate_conclude(struct tx_validate_battery *v);

#endif
