/* rules.h - the rule sets of the TwixT family, as data.
 *
 * One rules engine (game.c) plays every rule set; what differs between them
 * is written here, as the few facts the engine consults, not as a copy of
 * the engine. RULES.md "Rule sets" is the contract:
 * - pp: CodinGame's Twixt-PP. A link may cross links of its own colour,
 *   links are made automatically and never removed, the answer is a hole.
 * - classic: Alex Randolph's rules. A link may cross no link at all, not
 *   even one's own; the answer may also remove one's own links, add links
 *   between one's pegs and decline automatic links (link edits).
 */
#ifndef TX_RULES_H
#define TX_RULES_H

#include <stdbool.h>

enum tx_rules {
    TX_RULES_PP = 0, /* the default: what CodinGame plays */
    TX_RULES_CLASSIC,
    TX_RULES_COUNT,
};

struct tx_ruleset {
    const char *name;     /* "pp", "classic": the option value, the record's, {rules} */
    bool own_links_block; /* a link may not cross a link of its own colour either */
    bool link_edits;      /* answers may carry -A:B, +A:B and ~A:B after the hole */
};

/* How the game opens, its opening rule (RULES.md "Openings"; not the forced
 * openings of --openings, which are moves). */
enum tx_opening_rule {
    TX_OPENING_SWAP = 0, /* the default: CodinGame's mirror swap at move 2 */
    TX_OPENING_PIE,      /* SWAP at move 2 exchanges the sides; the peg stays */
    TX_OPENING_CUT,      /* seed 004: player 1 cuts (CUT R1 R2 B1), player 2 chooses */
    TX_OPENING_NONE,     /* no swap at all */
    TX_OPENING_COUNT,
};

/* The game a run plays: a rule set, a board, an opening, two bots or two
 * teams of two. What every part of the arena that starts, records or reads
 * a game passes along. Zero fields beyond the board are the defaults. */
struct tx_variant {
    enum tx_rules rules;
    int width, height; /* columns and rows (geometry.h) */
    enum tx_opening_rule opening;
    bool teams; /* Double TwixT: four bots in two teams */
};

/* pp on 12 x 12 with the mirror swap, two bots: CodinGame's game. */
#define TX_VARIANT_DEFAULT ((struct tx_variant){TX_RULES_PP, 12, 12, TX_OPENING_SWAP, false})

/* "swap", "pie", "cut", "none"; and back, -1 for another name. */
const char *tx_opening_rule_name(enum tx_opening_rule opening);
int tx_opening_rule_from_name(const char *name);

/* The rule set rules names (rules < TX_RULES_COUNT). */
const struct tx_ruleset *tx_ruleset(enum tx_rules rules);

/* The rule set named name ("pp", "classic"), or -1. */
int tx_rules_from_name(const char *name);

#endif
