/* seat.h - one bot's turns: its input, its clock, its answer, its verdict.
 *
 * A seat is where one bot plays: it owns the bot's process (bot.h) and a
 * deadline timer. For each turn its owner hands it a position in which the
 * bot's seat is to move (tx_game.seat); the seat writes the bot's input
 * (tx_input_write, from that seat's side), starts the clock when the write
 * has completed (bot.written_at), takes one line, and judges it: late
 * (tx_limits_judge), too long or not a move (tx_answer_parse_variant, in
 * the game's rules, opening and teams), illegal in the position (as
 * tx_game_apply judges it, worded by tx_answer_describe), or an answer for
 * the owner to play; or no answer by the kill time, or a crash. The turn's
 * result (struct tx_seat_turn: a verdict of verdict.h, worded) goes to the
 * owner through turn_cb, exactly once per turn. The match has a seat per
 * bot and re-feeding one, so both have one clock, one set of verdicts in
 * the same words, and one accounting of extra lines and stderr.
 *
 * Time is decided from uv_hrtime() stamps taken when a line arrives, never
 * from which callback ran first: libuv runs due timers before it reads, so
 * the deadline polls stdout before it forfeits.
 *
 * Extra lines (RULES.md "Extra lines"): a turn's window runs from its input
 * to the same bot's next input (the first one also holds what came before
 * the first input); every line in a window beyond the first is extra,
 * whether or not it is later read as an answer. A turn's stderr is its
 * window's too, so a bot that logs its move just after printing it (stdout
 * and stderr are separate pipes) has the log on that move.
 *
 * The bot is on move (bot.h: tx_bot_set_on_move, its normal priority)
 * from tx_seat_play until its turn ends, and off move (idle priority)
 * otherwise, from its start: a bot thinking on its opponent's time, or
 * starting up during its opponent's first turn, gets only CPU nobody else
 * wants. Both writes happen off the clock: before the input is
 * written, after the answer is taken.
 *
 * turn_cb may run inside tx_seat_play (an answer printed ahead, a bot
 * already gone) and may itself call tx_seat_play (the next turn) or
 * tx_seat_stop. While a clock runs the seat does no file I/O and builds no
 * text: details are worded only for a turn that ended badly.
 *
 * Life: zero the struct, set the owner's fields, tx_seat_init, then
 * tx_seat_start (or not: a seat whose bot never started loses its turns by
 * crash), turns, tx_seat_stop, closed_cb, tx_seat_release. Handles live
 * inside the struct: it must not move after tx_seat_init.
 */
#ifndef TX_SEAT_H
#define TX_SEAT_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "answer.h"
#include "bot-limits.h"
#include "bot.h"
#include "game.h"
#include "input.h"
#include "verdict.h"

struct tx_seat;

/* How a turn ended, for turn_cb. */
struct tx_seat_turn {
    enum tx_verdict verdict;
    int limit_ms;            /* the turn's limit: first_turn_ms on the bot's first turn */
    int64_t us;              /* the answer's time; without one, the time until the verdict */
    uint64_t at;             /* uv_hrtime() of the answer's line, 0 when none */
    bool answered;           /* a line was taken: answer's token, message, message_cut hold it */
    struct tx_answer answer; /* the answer to play (tx_answer_move) when verdict is
                                TX_VERDICT_MOVE */
    bool forgiven;           /* a small overrun soft mode forgave: detail says so */
    uint32_t err_from;       /* its stderr starts here in bot.stderr_kept and runs to the
                                next turn's err_from (or the end of the game) */
    char detail[TX_VERDICT_DETAIL_MAX]; /* why it loses, or the forgiven overrun; "" otherwise.
                                           A crash's is known once the bot is gone:
                                           tx_seat_describe_crash */
};

typedef void (*tx_seat_turn_cb)(struct tx_seat *seat, const struct tx_seat_turn *turn);
typedef void (*tx_seat_closed_cb)(struct tx_seat *seat);

struct tx_seat {
    /* Set by the owner before tx_seat_init. */
    void *data;
    tx_seat_turn_cb turn_cb;
    tx_seat_closed_cb closed_cb;    /* the timer and the bot are closed */
    const struct tx_limits *limits; /* outlives the seat */
    int forced;                     /* moves of the game's forced opening (the first-turn hint) */
    const char *dir;                /* the bot's working directory, or NULL (bots-file.h) */
    char *const *env;               /* "NAME=VALUE" added to its environment, or NULL */
    char *const *opponent_argv;     /* the opponent's command words: the sandbox hides its files
                                       from this bot (sandbox.h); NULL for none */
    const char *opponent_dir;       /* the opponent's working directory, or NULL */
    double cpus;                    /* its own CPU quota (a bots file's), 0: the run's */
    char *const *writable;          /* its own writable directories, or NULL */
    bool pinned;                    /* --pin-cores: the bot runs on `cores` only */
    cpu_set_t cores;

    /* Read by the owner. */
    struct tx_bot bot;
    int turns;           /* turns begun */
    int64_t extra_lines; /* lines beyond the first of a window, so far (RULES.md "Extra lines"):
                            as many as the bot prints, never wrapping */

    /* Private. */
    uv_loop_t *loop;
    uv_timer_t timer; /* the turn's deadline */
    int open;         /* the timer and the bot until they are closed */
    bool stopped, on_turn, clock_running;
    const struct tx_game *position; /* of the turn in progress */
    uint64_t turn_start;            /* written_at, or when a slow write began */
    bool sched;                     /* the two below were sampled at turn_start */
    uint64_t cpu_ns, wait_ns;
    int soft_used;        /* overruns forgiven in this game */
    int64_t accounted;    /* bot.lines_received already counted in a window */
    int64_t window_lines; /* lines in the current window */
    int crash_turn;       /* the turn that ended by a crash, 0 if none */
    struct tx_seat_turn turn;
    /* The input being written: sized for the board of the first position
     * played (tx_input_max, 7.8 KB on 12 x 12, 540 KB on 100 x 100, so a
     * game costs what its board needs), freed by tx_seat_release. */
    char *input;
    size_t input_cap;
};

/* Sets up the timer and the bot's callbacks. Cannot fail. */
void tx_seat_init(struct tx_seat *seat, uv_loop_t *loop);

/* Starts the bot: argv through the launcher, with the limits' memory, its
 * CPU seconds (tx_limits_cpu_s over the most turns a bot can have on geo),
 * TX_BOT_NICE, and the process's current sandbox (sandbox.h) with the
 * seat's opponent_argv and core. Returns what tx_bot_start returns; either
 * way the seat plays on (a bot that did not start loses its turn by crash). */
int tx_seat_start(struct tx_seat *seat, char *const *argv, const char *launcher,
                  const struct tx_geometry *geo);

/* The bot's turn in position (it is to move there; the owner keeps the
 * position unchanged until turn_cb): see the top of this file. */
void tx_seat_play(struct tx_seat *seat, const struct tx_game *position);

/* Ends the seat: lines received so far are counted, no turn_cb follows,
 * the bot is stopped (tx_bot_stop) and closed_cb runs once everything is
 * closed. Safe to call more than once. */
void tx_seat_stop(struct tx_seat *seat);

/* After closed_cb, once the owner took what it needs from bot.stderr_kept. */
void tx_seat_release(struct tx_seat *seat);

/* The detail of a crash verdict (tx_bot_describe_crash, with the
 * first-turn hint when it applies); call it once the bot is gone. */
void tx_seat_describe_crash(const struct tx_seat *seat, char *buf, size_t cap);

#endif
