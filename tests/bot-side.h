/* bot-side.h - which colour a test bot plays now, learned as a bot must
 * learn it (RULES.md "Openings", "Double TwixT"): from the first lines of
 * its inputs and its own answers, whatever the opening and the seats.
 * fault-bot.c and tiny-bot.c share it, so both follow one reading of the
 * contract, and tests that drive them check that reading against the
 * referee's.
 *
 * - First input: FIRST is red (player 1, rows). SWAP is red after the
 *   mirror swap (the opponent mirrored our forced first peg) and black
 *   under the pie rule (the other side took red). CUT is black: we are
 *   to choose. CHOOSE 1 or 2 as a first input is black too (the cutter's
 *   partner after CHOOSE 1, the chooser's after CHOOSE 2). A hole is
 *   black.
 * - Later inputs: under pie, SWAP means our first peg went to the other
 *   side with red: black now. After our cut, CHOOSE 1 makes us black and
 *   CHOOSE 2 red (the chooser who took black hears CHOOSE 2 and stays
 *   black).
 * - Our answers: a pie SWAP takes red; CHOOSE 1 red, CHOOSE 2 black.
 */
#ifndef TX_TEST_BOT_SIDE_H
#define TX_TEST_BOT_SIDE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "input.h"
#include "rules.h"

struct bot_side {
    int colour;  /* 0 red (rows), 1 black (columns); -1 before the first input */
    bool cutter; /* our first answer was (or is) the cut */
};

/* The variant the referee says this game is: TWIXT_OPENING and TWIXT_TEAMS
 * over what v holds (its rules and board). */
static inline void bot_side_variant(struct tx_variant *v)
{
    const char *opening = getenv("TWIXT_OPENING"), *teams = getenv("TWIXT_TEAMS");
    int o = opening ? tx_opening_rule_from_name(opening) : -1;
    if (o >= 0)
        v->opening = (enum tx_opening_rule)o;
    if (teams)
        v->teams = !strcmp(teams, "1");
}

/* Reads the first line of an input (in->last). */
static inline void bot_side_input(struct bot_side *s, const struct tx_variant *v,
                                  const struct tx_input *in)
{
    bool pie = v->opening == TX_OPENING_PIE;
    if (s->colour < 0) {
        s->colour = in->last == TX_INPUT_FIRST ? 0 : in->last == TX_MOVE_SWAP ? (pie ? 1 : 0) : 1;
        s->cutter = in->last == TX_INPUT_FIRST && v->opening == TX_OPENING_CUT;
        return;
    }
    if (pie && in->last == TX_MOVE_SWAP)
        s->colour = 1;
    else if (s->cutter && in->last == TX_MOVE_CHOOSE_RED)
        s->colour = 1;
    else if (s->cutter && in->last == TX_MOVE_CHOOSE_BLACK)
        s->colour = 0;
}

/* Our answer move (a hole, TX_MOVE_SWAP, TX_MOVE_CUT, TX_MOVE_CHOOSE_*). */
static inline void bot_side_answer(struct bot_side *s, const struct tx_variant *v, int move)
{
    if (move == TX_MOVE_SWAP && v->opening == TX_OPENING_PIE)
        s->colour = 0;
    else if (move == TX_MOVE_CHOOSE_RED)
        s->colour = 0;
    else if (move == TX_MOVE_CHOOSE_BLACK)
        s->colour = 1;
}

#endif
