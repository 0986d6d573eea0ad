/* match-private.h - the inside of a match, shared by its two files.
 *
 * match.c runs a game's life (start, hashing, spawning, the turns through
 * its two seats, the end); match-record.c turns the finished game into a
 * struct tx_record. Nothing outside these two includes this header: the
 * contract for everyone else is match.h.
 */
#ifndef TX_MATCH_PRIVATE_H
#define TX_MATCH_PRIVATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "answer.h"
#include "game.h"
#include "match.h"
#include "record.h"
#include "seat.h"
#include "sha256.h"

enum tx_match_phase { TX_MATCH_HASHING, TX_MATCH_PLAYING, TX_MATCH_ENDING, TX_MATCH_DONE };

/* One entry of record.moves, kept flat until the game is over. */
struct tx_match_turn {
    int8_t player;
    bool forced, message_cut, has_token;
    int64_t us;
    char token[TX_TOKEN_SHOWN + 8];
    char message[TX_MESSAGE_MAX];
    uint32_t err_from; /* its stderr starts here in the bot's stderr_kept (struct tx_seat_turn) */
    int nedits;        /* the answer's link edits (classic), as written */
    char (*edits)[TX_RECORD_EDIT_MAX]; /* malloc'ed, NULL for none */
};

struct tx_match {
    uv_loop_t *loop;
    const struct tx_match_config *config;
    const struct tx_game_spec *spec;
    tx_match_done_cb done_cb;
    void *data;

    enum tx_match_phase phase;
    bool interrupted;
    int open;                   /* things still to finish before DONE: hash work, two seats */
    struct tx_game *game;       /* on config->geo under config->rules */
    char **env[2];              /* each bot's environment: its own, then TWIXT_RULES, ... */
    char variant_env[3][32];    /* "TWIXT_RULES=pp", "TWIXT_WIDTH=12", "TWIXT_HEIGHT=12" */
    struct tx_seat seats[2];    /* seats[p] plays as player p */
    struct tx_limits limits[2]; /* each seat's: the config's, with its bot's memory limit */
    char *commands[2];          /* placeholders expanded */
    char **argv[2];             /* NULL when the command line does not split */
    char split_error[2][96];
    char sha256[2][TX_SHA256_HEX];
    bool have_sha256[2];
    char launcher[PATH_MAX];
    bool pinned; /* --pin-cores: cores[p] are seat p's (tx_sandbox_take_cores) */
    cpu_set_t cores[2];
    char started[32];
    uv_work_t work;

    /* The result. */
    int winner;
    enum tx_reason reason;
    char detail[TX_VERDICT_DETAIL_MAX];
    int crashed; /* player whose crash detail is written at the end, -1 */
    int fault;   /* player whose sandbox could not be set up (tx_match_fault), -1 */

    int nturns;
    struct tx_match_turn *turns; /* room for every move of the board and a last answer */
};

/* match-record.c: the record of the finished game (malloc'ed, see match.h). */
struct tx_record *tx_match_build_record(struct tx_match *m);

#endif
