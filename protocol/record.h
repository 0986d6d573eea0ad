/* record.h - the game record: one JSON object per game (JSON Lines files).
 *
 * The fixed fields are those of DESIGN.md; protocol/game-record.schema.json
 * is the full schema. This module converts between struct tx_record and
 * JSON text (one line, no newline) with cJSON; it does no file I/O: the
 * referee writes lines, replay and standings read them. Loading never
 * crashes on bad input: every missing, mistyped, unknown or out-of-range
 * field is reported in err with its JSON path ("moves[3].us: expected an
 * integer"), so that code using a loaded record may rely on the bounds
 * below.
 *
 * Every string in a record is valid UTF-8 (bot text is sanitised before it
 * gets here, see text.h). Strings are heap-owned by the record.
 */
#ifndef TX_RECORD_H
#define TX_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "answer.h"
#include "bot-limits.h"
#include "game.h"
#include "rules.h"

#define TX_RECORD_FORMAT "twixt-arena/game/1"

/* Bounds of a record's numbers and strings. The loader refuses anything
 * outside them, naming the field, and game-record.schema.json states the
 * same bounds (test-record.c checks that they agree). Numbers are bounded so
 * that the sums and additions done on them later (standings' time per move,
 * validate's totals, limit + margin) cannot overflow an int64_t; strings so
 * that no field is unbounded that the referee bounds when it writes it. The
 * writer clamps what it measured (us, stderr_bytes, extra_lines) to these
 * bounds, so a value at the bound means "at least", and cuts strings at
 * theirs, so the referee never writes a record it would refuse to read.
 * Limits are 1..TX_LIMITS_MS_MAX ms (margin 0..TX_LIMITS_MS_MAX, bot-limits.h),
 * sides TX_SIDE_MIN..TX_SIDE_MAX (geometry.h), messages at most
 * TX_MESSAGE_CHARS characters (answer.h). */
/* Game indexes and a pairing's k are 1..TX_RECORD_GAME_MAX, so no run may
 * ask for more games (--games, --games-per-pair). A plain number: --help
 * writes it. */
#define TX_RECORD_GAME_MAX 1000000000
#define TX_RECORD_SEED_MAX                                                                         \
    ((UINT64_C(1) << 53) - 1) /* exact in a double, as JSON readers hold it */
/* A turn's microseconds. No allowed turn lasts longer than a limit and a
 * margin of TX_LIMITS_MS_MAX each plus the soft overrun and the kill grace
 * (7,200,100 ms); 10^10 us (2 h 46 min) is above that, and a sum of such
 * values overflows an int64_t only after 9.2 * 10^8 of them: more moves than
 * 30 GB of records hold. A turn measured longer (the referee stopped with
 * Ctrl-Z mid-turn) is written as this. */
#define TX_RECORD_US_MAX INT64_C(10000000000)
#define TX_RECORD_STDERR_BYTES_MAX INT64_C(1000000000000) /* 1 TB of stderr in a game */
#define TX_RECORD_EXTRA_LINES_MAX 1000000000              /* extra lines in a game */
#define TX_RECORD_NAME_CHARS 80     /* a display name: 63 bytes and a "-2" suffix fit */
#define TX_RECORD_REFEREE_CHARS 64  /* "twixt-arena VERSION" */
#define TX_RECORD_DETAIL_CHARS 1024 /* result.detail; the referee's are under 256 bytes */
#define TX_RECORD_MOVE_CHARS (TX_TOKEN_SHOWN + 3) /* a rejected token as answer.c keeps it */
#define TX_RECORD_EDIT_MAX 16        /* bytes of an edit as written, "+CU98:CV100", NUL included */
#define TX_RECORD_LINK_MAX 12        /* bytes of a link, "CU98 CV100", NUL included */
#define TX_RECORD_STDERR_CHARS 65536 /* a turn's stderr: at most what a bot keeps in a game */
/* Entries in moves on a width x height board: every hole but the corners,
 * a swap and one last answer that was not played. */
static inline int tx_record_moves_max(int width, int height)
{
    return width * height - 4 + 2;
}
/* A player's links: at most every knight link of the board. */
static inline int tx_record_links_max(int width, int height)
{
    return 2 * (width - 1) * (height - 2) + 2 * (width - 2) * (height - 1);
}

enum tx_reason {
    TX_REASON_CONNECTION = 0, /* the winner joined its border lines */
    TX_REASON_DRAW,           /* the player to move had no legal hole */
    TX_REASON_INVALID,        /* the loser's answer was not a legal move */
    TX_REASON_TIMEOUT,        /* the loser answered too late or not at all */
    TX_REASON_CRASH,          /* the loser exited, closed stdout or never started */
    TX_REASON_INTERRUPTED,    /* the referee was stopped: not a result, not counted */
};

struct tx_record_move {
    int player; /* 0 or 1 */
    char *move; /* "F6", "SWAP", the rejected token, or NULL: no answer (timeout, crash) */
    int nedits; /* link edits of the answer (classic rules), as written */
    char (*edits)[TX_RECORD_EDIT_MAX]; /* each "-A6:B4", "+C4:D6" or "~E5:F7" */
    int64_t us;                        /* measured microseconds; -1 for a forced opening move */
    bool forced;                       /* played by the referee (opening), not by the bot */
    bool privilege;                    /* Double TwixT: the answer called privilege */
    char *message;                     /* NULL when none */
    bool message_cut;                  /* the bot's message was longer than 20 characters */
    char *stderr_text; /* what the bot wrote to stderr during this turn (bounded), NULL if none */
};

struct tx_record_player {
    char *name;           /* display name */
    char *command;        /* the command line as given (placeholders expanded) */
    char *sha256;         /* of the executable, hex; NULL when it could not be read */
    int64_t stderr_bytes; /* all stderr bytes the bot wrote in this game (kept or not) */
    int64_t extra_lines;  /* lines printed beyond one per turn */
    int nlinks;           /* links at the end of the game */
    char (*links)[TX_RECORD_LINK_MAX]; /* each "D6 E8": older peg, newer peg, in the order
                                          of the input's lists (RULES.md "Input") */
};

/* What identifies the game in its pool (referee/pairing.h): its pairing
 * and its number k in it, with the inputs of the pairing's key so that the
 * record can be checked on its own. key is NULL in records written before
 * pairings (they identify their game by run and game instead). */
struct tx_record_pairing {
    char *key; /* "p1:" and 16 hex digits */
    int64_t k; /* the game's number in its pairing, from 1 */
    struct {
        char *name;
        char *command;   /* as given: {seed} and {size} not replaced */
        int memory_mb;   /* its memory limit, 0 for none */
    } bots[2];           /* the pairing's order: bots[0] is player 1 when k is odd */
    uint64_t run_seed;   /* the run's --seed (a string in JSON: it may pass 2^53) */
    int openings;        /* --openings K, 0 for none */
    char *openings_file; /* hash of --openings-file's lines (16 hex digits), NULL for none */
};

struct tx_record {
    char *format;                 /* TX_RECORD_FORMAT */
    int64_t game;                 /* the game's number, unique in its file (1-based) */
    uint64_t seed;                /* the game's seed */
    int width, height;            /* the board: "size" N in JSON when square (N x N), else
                                     "width" and "height" */
    enum tx_rules rules;          /* "rules", written only when not pp */
    enum tx_opening_rule opening; /* "opening", written only when not swap */
    char *handicap;               /* the handicapped bot's name (--handicap), NULL for none */
    char *teams[2];          /* Double TwixT: the teams' names (seats 0, 2 and 1, 3), or NULL */
    int nplayers;            /* 2, or 4 with teams */
    struct tx_limits limits; /* first_turn_ms, turn_ms, margin_ms, soft; memory_mb and cpu_s
                                are not recorded (0 when loaded) */
    char *referee;           /* referee version, "twixt-arena 0.1.0" */
    char *started;           /* UTC start time, ISO 8601 "2026-11-21T21:00:00Z" */
    char *run;               /* fingerprint of the run's configuration (resume), NULL for none */
    struct tx_record_pairing pairing; /* the game's identity; key NULL for none */
    bool sandbox;                     /* every bot ran in the sandbox (README "Untrusted bots");
                                         written only when true */
    struct tx_record_player players[TX_SEATS_MAX]; /* in seat order: [0] is player 1 (received
                                                      FIRST); with teams [0] and [2] are red */
    int nmoves;
    struct tx_record_move *moves;
    struct {
        int winner; /* the winning player (0, 1), or with teams the winning team (0: seats 0
                       and 2, 1: seats 1 and 3); -1 for none (draw, interrupted) */
        enum tx_reason reason;
        char *detail; /* what exactly happened: "A4-L9", "occupied hole D6", ... */
    } result;
};

/* The variant r's game was played in (rules, board, opening, teams). */
static inline struct tx_variant tx_record_variant(const struct tx_record *r)
{
    return (struct tx_variant){.rules = r->rules,
                               .width = r->width,
                               .height = r->height,
                               .opening = r->opening,
                               .teams = r->nplayers == 4};
}

/* "connection", "draw", ...; NULL for an unknown value. */
const char *tx_reason_name(enum tx_reason reason);
/* The reason named name, or -1. */
int tx_reason_from_name(const char *name);

/* Serialises r as one line of JSON (no newline) into a malloc'ed string in
 * *ret_text. Returns 0 or -ENOMEM. The "chain" field that ends a line in a
 * file (referee/chain.h) is not part of the record: the file's writer adds
 * it, and the loader only checks its shape. */
int tx_record_to_json(const struct tx_record *r, char **ret_text);

/* Parses one JSON text into *ret (which it initialises; free it with
 * tx_record_free whatever the result). Returns 0, or -EINVAL with a message
 * naming the field and what was expected written into err. */
int tx_record_from_json(const char *text, size_t len, struct tx_record *ret, char *err,
                        size_t errcap);

/* Frees every string and array of r and zeroes it; accepts a zeroed record. */
void tx_record_free(struct tx_record *r);

#endif
