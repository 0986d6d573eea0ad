/* validate-private.h - the inside of the validate battery, shared by its three files.
 *
 * validate-plan.c lays out the battery (its scenarios and their forced
 * openings), validate.c plays its games and the re-feed probe,
 * validate-findings.c reads the findings and answer times off each record
 * and the probe. Nothing outside these three includes this header: the
 * contract for everyone else is validate.h.
 */
#ifndef TX_VALIDATE_PRIVATE_H
#define TX_VALIDATE_PRIVATE_H

#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "bot.h"
#include "command.h"
#include "game.h"
#include "match.h"
#include "record.h"
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
    struct tx_match_config match;
    uv_loop_t loop;
    FILE *records;
    struct tx_validate_slot *slots;
    int nslots, started, running, finished;
    struct tx_validate_samples first, later;
    int write_errno;
    int start_error; /* tx_match_start's error, 0 if none */
};

/* validate-plan.c: every game of config->rounds rounds into v->slots (and
 * the skipped scenarios into the report). */
void tx_validate_plan_battery(struct tx_validate_battery *v);

/* validate-findings.c */
/* Everything record r of slot s says about the bot: findings, answer times,
 * stderr and the game's line in the report. */
void tx_validate_analyse(struct tx_validate_battery *v, const struct tx_validate_slot *s,
                         const struct tx_record *r);
/* The percentiles of t (sorted in place) against limit_ms. */
void tx_validate_summarise(struct tx_validate_samples *t, int limit_ms,
                           struct tx_validate_times *out);
/* The findings in game order (games end in any order when several run at once). */
void tx_validate_sort_findings(struct tx_validate_report *rep);
/* The findings of the re-feed probe, once it has run. */
void tx_validate_probe_findings(struct tx_validate_battery *v);

#endif
