/* match-private.h - the inside of a match, shared by its three files.
 *
 * match.c runs a game's life (start, hashing, spawning, the end), turn.c
 * plays its turns (inputs, clocks, answers, verdicts), match-record.c turns
 * the finished game into a struct tx_record. Nothing outside these three
 * includes this header: the contract for everyone else is match.h.
 */
#ifndef TX_MATCH_PRIVATE_H
#define TX_MATCH_PRIVATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "answer.h"
#include "bot.h"
#include "game.h"
#include "input.h"
#include "match.h"
#include "record.h"
#include "sha256.h"

#define TX_MATCH_KILL_GRACE_MS 50 /* a silent bot is killed this long after its deadline */
#define TX_MATCH_SOFT_OVER_MS 50  /* soft mode: lateness that may be forgiven... */
#define TX_MATCH_SOFT_FORGIVEN 2  /* ...this many times per game per bot */
#define TX_MATCH_NICE 5           /* bots run this much below the referee */

enum tx_match_phase { TX_MATCH_HASHING, TX_MATCH_PLAYING, TX_MATCH_ENDING, TX_MATCH_DONE };

/* One entry of record.moves, kept flat until the game is over. */
struct tx_match_turn {
    int8_t player;
    bool forced, message_cut, has_token;
    int64_t us;
    char token[TX_TOKEN_SHOWN + 8];
    char message[TX_MESSAGE_MAX];
    uint32_t err_from, err_to; /* this turn's stderr: bytes of the bot's stderr_kept */
};

struct tx_match {
    uv_loop_t *loop;
    const struct tx_match_config *config;
    const struct tx_game_spec *spec;
    tx_match_done_cb done_cb;
    void *data;

    enum tx_match_phase phase;
    bool interrupted;
    int open; /* things still to finish before DONE: hash work, timer, bots */
    struct tx_game game;
    struct tx_bot bots[2]; /* bots[p] plays as player p */
    char *commands[2];     /* placeholders expanded */
    char **argv[2];        /* NULL when the command line does not split */
    char split_error[2][96];
    char sha256[2][TX_SHA256_HEX];
    bool have_sha256[2];
    char launcher[PATH_MAX];
    int core; /* the core its bots are pinned to (tx_sandbox_take_core), -1 for none */
    char started[32];
    uv_work_t work;
    uv_timer_t timer; /* the turn's deadline */

    /* The turn in progress. */
    int on_move;                        /* player whose turn it is, -1 between turns */
    bool clock_running;                 /* its input is written, the clock runs */
    uint64_t turn_start;                /* uv_hrtime() when the input was written */
    bool turn_sched;                    /* the two below were sampled at turn_start */
    uint64_t turn_cpu_ns, turn_wait_ns; /* the bot's schedstat then (tx_bot_sched) */
    int limit_ms;
    bool first_done[2];
    int soft_used[2];
    int64_t accounted[2]; /* the bot's lines_received already counted below */
    int window_lines[2];  /* lines since its current turn's input (the first one's: since the start)
                           */
    int extra_lines[2];   /* lines beyond the first of a turn's window */
    int turns_given[2];   /* inputs written */
    uint32_t err_mark[2]; /* stderr_kept bytes already given to a turn */
    int last_turn[2];     /* index in turns of each player's last entry, -1 */

    /* The result. */
    int winner;
    enum tx_reason reason;
    char detail[256];
    int crashed; /* player whose crash detail is written at the end, -1 */

    int nturns;
    struct tx_match_turn turns[TX_MOVES_MAX + 1];
    char input[TX_INPUT_MAX];
};

/* match.c: ends the game with this result (once; later calls do nothing). */
void tx_match_finish(struct tx_match *m, int winner, enum tx_reason reason, const char *detail);

/* turn.c */
void tx_match_next_turn(struct tx_match *m); /* the player to move plays */
void tx_match_on_bot_event(struct tx_bot *bot, enum tx_bot_event event); /* a bot's event_cb */
void tx_match_account_lines(struct tx_match *m, int p); /* count extra lines so far */

/* match-record.c: the record of the finished game (malloc'ed, see match.h). */
struct tx_record *tx_match_build_record(struct tx_match *m);

#endif
