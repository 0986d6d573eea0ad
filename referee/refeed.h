/* refeed.h - re-feeding a bot the inputs one player received in a recorded game.
 *
 * `twixt-arena replay FILE --game K --bot PLAYER=COMMAND [--turn T]` starts
 * a bot and sends it, one turn at a time, exactly the turn inputs that
 * player received in that game (rebuilt with tx_verify_turn_input, so they
 * are byte for byte what the referee wrote), with the same per-turn time
 * limits, and sets its answers next to the recorded ones. A crash, timeout
 * or illegal move of the user's bot is reproduced without replaying the
 * whole tournament.
 *
 * The inputs are the recorded game's whatever the bot answers now: a
 * different answer is shown and feeding goes on; a crash or a timeout ends
 * the run, as it ended the game. The bot plays in a seat (seat.h), as in a
 * match: the same clock and CPU and memory limits, the same verdicts in the
 * same words, the same extra-line rule; lines printed beyond one per turn
 * stay queued and are read as the next answers. What re-feeding cannot
 * reproduce is the opponent's thinking time: the next input follows an
 * answer at once, so a line that a bot printed while its opponent thought
 * may fall into another turn's window here.
 *
 * `validate` also uses a re-feed as its probe: with probe_exit set, after
 * the last answer the bot's stdin is closed and the run watches whether the
 * bot exits by itself within TX_REFEED_EXIT_WAIT_MS and whether processes
 * of its session or process group outlive it.
 *
 * tx_refeed_run is synchronous: it runs its own libuv loop and returns when
 * the bot is gone and every handle is closed.
 */
#ifndef TX_REFEED_H
#define TX_REFEED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "answer.h"
#include "bot-limits.h"
#include "geometry.h"
#include "record.h"
#include "verdict.h"

#define TX_REFEED_EXIT_WAIT_MS                                                                     \
    500 /* probe: time to exit after stdin closes (an interpreter's shutdown, a busy machine) */
#define TX_REFEED_LEFT_MAX 16       /* processes left behind that are named in the result */
#define TX_REFEED_STDERR_SHOWN 4096 /* bytes of the bot's stderr kept in the result */
#define TX_REFEED_EDITS_SHOWN 48    /* bytes of an answer's link edits kept for the table */

struct tx_refeed_config {
    const struct tx_geometry *geo;  /* geo->size == record->size */
    const struct tx_record *record; /* the game; must replay (tx_verify_record) up to `upto` */
    int player;                     /* 0 (player 1) or 1 (player 2); with teams up to 3 */
    const char *command;            /* the bot's command line; {seed} and {size} from the record */
    int upto;                       /* feed the player's entries among moves 1..upto; 0: all */
    struct tx_limits limits;        /* normally the record's (which holds no memory_mb, cpu_s) */
    bool probe_exit;                /* then close stdin and watch the exit (see the top) */
};

enum tx_refeed_verdict {
    TX_REFEED_SAME = 0,  /* the recorded answer again */
    TX_REFEED_DIFFERENT, /* another legal move */
    TX_REFEED_ILLEGAL,   /* not a move, or not legal in that position (detail says why) */
    TX_REFEED_TIMEOUT,   /* late or no answer (the run ends) */
    TX_REFEED_CRASH,     /* exited or closed its output before answering (the run ends) */
};

/* One fed turn. */
struct tx_refeed_turn {
    int move;                          /* 1-based entry number in record->moves */
    int limit_ms;                      /* this turn's limit */
    char recorded[TX_TOKEN_SHOWN + 8]; /* the recorded answer, "" when there was none */
    char answer[TX_TOKEN_SHOWN + 8];   /* the new answer's move token, "" when none */
    /* Their link edits (classic rules) as written, " -A6:B4 +C4:D6", cut
     * with "..." past TX_REFEED_EDITS_SHOWN bytes; "" when none. An answer
     * is the same as the recorded one when its move and all its edits are,
     * in the same order. */
    char recorded_edits[TX_REFEED_EDITS_SHOWN];
    char answer_edits[TX_REFEED_EDITS_SHOWN];
    char message[TX_MESSAGE_MAX]; /* the new answer's message */
    int64_t us;                   /* time of the new answer, -1 when none */
    enum tx_refeed_verdict verdict;
    char detail[TX_VERDICT_DETAIL_MAX]; /* why illegal, how late, how it crashed, a forgiven
                                           overrun (verdict.h); "" otherwise */
};

struct tx_refeed_result {
    int nturns;                   /* turns fed */
    struct tx_refeed_turn *turns; /* malloc'ed (tx_refeed_result_free) */
    int64_t startup_us;           /* spawn to the first answer, -1 when none */
    char start_error[256];        /* why the bot did not start, "" if it did */
    int64_t stderr_bytes;         /* everything it wrote to stderr */
    char *stderr_tail;   /* the end of what it wrote (at most TX_REFEED_STDERR_SHOWN bytes of the
                            first TX_BOT_STDERR_KEPT), valid UTF-8, malloc'ed; NULL if none */
    int64_t extra_lines; /* lines beyond the first between two inputs (RULES.md "Extra lines") */
    /* The probe (probe_exit), when the bot was still running after its last answer. */
    bool probed;
    bool exited;           /* it exited by itself within TX_REFEED_EXIT_WAIT_MS */
    int64_t exit_us;       /* stdin closed to exit, when exited */
    char exit_detail[128]; /* "exit status 0", ... when exited */
    int nleft;             /* processes it left running when it exited (its launcher named
                              them, then killed them) */
    int left_pids[TX_REFEED_LEFT_MAX];
    char left_names[TX_REFEED_LEFT_MAX][20]; /* their command names (/proc/PID/comm) */
};

/* Runs the bot through the player's recorded inputs. Returns 0 with *ret
 * filled (whatever the bot did), or a negative errno with a message in err:
 * -EINVAL when the record does not replay to a fed entry or the player has
 * no turn in range, -ENOENT when twixt-launch is not found. Free *ret with
 * tx_refeed_result_free in every case. */
int tx_refeed_run(const struct tx_refeed_config *config, struct tx_refeed_result *ret, char *err,
                  size_t errcap);

void tx_refeed_result_free(struct tx_refeed_result *result);

/* "same", "different", "illegal", "timeout", "crash". */
const char *tx_refeed_verdict_name(enum tx_refeed_verdict verdict);

/* Prints the table: move, turn, recorded move, new move, time, verdict,
 * and a last line counting what differs. Bot text is printed safely. */
void tx_refeed_print(FILE *out, const struct tx_refeed_config *config,
                     const struct tx_refeed_result *result);

/* `twixt-arena replay FILE --game K --bot PLAYER=COMMAND [--turn T]`, once
 * cmd-replay has loaded and verified record r: PLAYER is 1, 2 or the name
 * of one of r's players; turn is T (0 for every recorded move). Prints a
 * header and the table to out. Returns the exit status: 0 when every
 * answer was the recorded one, 1 when one was not (different, illegal,
 * timeout, crash), 2 for a bad --bot (message on stderr). */
int tx_refeed_replay(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                     const char *bot_arg, int turn);

#endif
