/* match-private.h - the inside of a match, shared by its two files.
 *
 * match.c runs a game's life (start, hashing, spawning, the turns through
 * its seats, the end); match-record.c turns the finished game into a
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

enum tx_match_phase { TX_MATCH_PLAYING, TX_MATCH_ENDING, TX_MATCH_DONE };

/* One entry of record.moves, kept flat until the game is over. */
struct tx_match_turn {
    int8_t player; /* the seat that answered */
    bool forced, message_cut, has_token, privilege;
    int64_t us;
    char token[TX_TOKEN_SHOWN + 8];
    char message[TX_MESSAGE_MAX];
    uint32_t err_from; /* its stderr starts here in the bot's stderr_kept (struct tx_seat_turn) */
    int nedits;        /* the answer's link edits (classic; a cut's link), as written */
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
    int open;                      /* things still to finish before DONE: hash work, the seats */
    int nseats;                    /* 2, or 4 with teams */
    const struct tx_geometry *geo; /* the game's board: spec->geo, else config->geo */
    struct tx_variant variant;     /* the game's rules, board, opening and teams */
    struct tx_game *game;          /* on geo, of variant */
    char **env[TX_SEATS_MAX];      /* each bot's environment: its own, then TWIXT_RULES, ... */
    char variant_env[TX_MATCH_ENV_VARS][32]; /* "TWIXT_RULES=pp", "TWIXT_WIDTH=12", ... */
    struct tx_seat *seats;                   /* nseats of them: seats[p] plays as seat p */
    struct tx_limits limits[TX_SEATS_MAX];   /* each seat's: the config's, with its memory */
    char *commands[TX_SEATS_MAX];            /* placeholders expanded */
    char **argv[TX_SEATS_MAX];               /* NULL when the command line does not split */
    char **others[TX_SEATS_MAX]; /* with teams: the other bots' words, whose files the sandbox
                                    hides from this one (spawn_bots); NULL otherwise */
    char split_error[TX_SEATS_MAX][96];
    char sha256[TX_SEATS_MAX][TX_SHA256_HEX];
    bool have_sha256[TX_SEATS_MAX];
    char launcher[PATH_MAX];
    bool pinned; /* --pin-cores: cores[p] are seat p's (tx_sandbox_take_cores) */
    cpu_set_t cores[TX_SEATS_MAX];
    char started[32];
    uv_work_t work;

    /* The result. */
    int winner; /* the winning seat, or with teams the winning team; -1 for none */
    enum tx_reason reason;
    char detail[TX_VERDICT_DETAIL_MAX];
    int crashed; /* seat whose crash detail is written at the end, -1 */
    int fault;   /* seat whose sandbox could not be set up (tx_match_fault), -1 */

    int nturns;
    struct tx_match_turn *turns; /* room for every move of the board and a last answer */
};

/* match-record.c: the record of the finished game (malloc'ed, see match.h). */
struct tx_record *tx_match_build_record(struct tx_match *m);

#endif
