/* test-game.h - games in test code.
 *
 * A struct tx_game is sized for its board (game.h), so a test cannot keep
 * one in a plain variable. test_game gives the game in *slot room for geo
 * and starts it empty under pp; slots are static pointers in the tests, so
 * the memory stays reachable and leak checkers (ASan's, in CI) see no leak.
 */
#ifndef TX_TEST_GAME_H
#define TX_TEST_GAME_H

#include "alloc.h"
#include "game.h"

static inline struct tx_game *test_game(struct tx_game **slot, const struct tx_geometry *geo)
{
    *slot = tx_xrealloc(*slot, tx_game_size(geo));
    tx_game_init(*slot, geo, TX_RULES_PP);
    return *slot;
}

#endif
