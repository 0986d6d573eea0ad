/* answer.h - parsing the one line a bot prints per turn.
 *
 * RULES.md "Output": `MOVE` or `MOVE message`. MOVE is a hole name or SWAP;
 * everything after the first run of spaces is the message. Under rules with
 * link edits (classic) the tokens after MOVE that have an edit's shape
 * (`-A6:B4`, `+C4:D6`, `~E5:F7`) are edits, and the message starts at the
 * first token that has not. A trailing "\r" is dropped. Leading spaces, an empty line, lower case,
 * any other byte in the token, and lines over TX_ANSWER_LINE_MAX bytes are not moves. The message
 * keeps at most TX_MESSAGE_CHARS characters, cut on a UTF-8 boundary, and says when it was cut.
 * Whether the move is legal in the position is the game's business (tx_game_check).
 */
#ifndef TX_ANSWER_H
#define TX_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "geometry.h"
#include "rules.h"

#define TX_ANSWER_LINE_MAX 4096 /* bytes the referee holds for one line, "\n" excluded */
#define TX_MESSAGE_CHARS 20     /* characters (code points) of message kept */
#define TX_MESSAGE_MAX (TX_MESSAGE_CHARS * 4 + 1) /* bytes, NUL included */
#define TX_TOKEN_SHOWN 32                /* bytes of a rejected token quoted in the reason */
#define TX_ANSWER_PRIVILEGE "!privilege" /* Double TwixT's token: the partner moves at once */

/* Why a line is not a move, as data; tx_answer_parse words each kind in
 * reason, and tx_answer_error_of reads a reason back (the verifier checks
 * recorded details with it), so the wording lives in answer.c only. */
enum tx_answer_error {
    TX_ANSWER_OK = 0,
    TX_ANSWER_TOO_LONG,     /* "line longer than 4096 bytes" */
    TX_ANSWER_EMPTY,        /* "empty line" */
    TX_ANSWER_OUT_OF_RANGE, /* "out of range M5": a hole name off this board */
    TX_ANSWER_NOT_A_MOVE,   /* "not a move: \"d6\"" */
};

struct tx_answer {
    int move;   /* hole index, or TX_MOVE_SWAP; valid when parse returns 0 */
    int nedits; /* link edits after the move (classic rules only; with a CUT, its "+R1:R2") */
    struct tx_edit edits[TX_EDITS_READ]; /* in the order written; one too many is kept */
    int cut[3];                          /* move TX_MOVE_CUT: its holes, -1 for one off the board */
    bool privilege;                      /* Double TwixT: the answer called privilege */
    char message[TX_MESSAGE_MAX];        /* valid UTF-8 (bad bytes become U+FFFD), "" when none */
    bool message_cut;                    /* the message was longer than TX_MESSAGE_CHARS */
    char token[TX_TOKEN_SHOWN + 8];      /* the move token as written, sanitised and bounded, for
                                            records (CUT and CHOOSE with their words) */
    char reason[96]; /* when parse fails: "empty line", "not a move: \"d6\"", "out of range M5", ...
                      */
    enum tx_answer_error error; /* when parse fails: the kind of reason */
};

/* Parses one line (len bytes, without its "\n"; a trailing "\r" is allowed).
 * Returns 0 with out->move set, or -EINVAL with out->error and out->reason
 * set. A len over TX_ANSWER_LINE_MAX is TX_ANSWER_TOO_LONG. */
int tx_answer_parse(const struct tx_geometry *geo, enum tx_rules rules, const char *line,
                    size_t len, struct tx_answer *out);

/* The same under a whole variant: the cut opening's answers ("CUT R1 R2
 * B1 [+R1:R2]", "CHOOSE 1|2": their words are part of the token that a
 * record keeps) only when v's opening is cut, the privilege token
 * (TX_ANSWER_PRIVILEGE, anywhere among the edits) only with teams; every
 * other answer as tx_answer_parse reads it. */
int tx_answer_parse_variant(const struct tx_geometry *geo, const struct tx_variant *v,
                            const char *line, size_t len, struct tx_answer *out);

/* The answer as a move for tx_game_apply (its edits point into a). */
void tx_answer_move(const struct tx_answer *a, struct tx_move *m);

/* Parses one edit token ("-A6:B4", exactly len bytes) into *ret: a sign,
 * a hole name (one or two letters, a row of at most three digits), ':'
 * and another. Whether the holes are on the board is the game's business.
 * Returns true, or false when the token has not an edit's shape. */
bool tx_edit_parse(const char *s, size_t len, struct tx_edit *ret);

/* Refuses, as TX_ANSWER_TOO_LONG, an answer parsed from the first
 * TX_ANSWER_LINE_MAX bytes of a longer line (all the referee keeps): its
 * token and message stay, for the record. Returns -EINVAL. */
int tx_answer_refuse_too_long(struct tx_answer *out);

/* The kind of a reason worded by tx_answer_parse, TX_ANSWER_OK for any other
 * text. */
enum tx_answer_error tx_answer_error_of(const char *reason);

#endif
