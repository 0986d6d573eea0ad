/* game.h - one game of the TwixT family: pegs, links, the swap, the end.
 *
 * The state is a header and tables sized for its board, in one block with no
 * pointer into itself, so copying its g->bytes (tx_game_copy) gives an
 * independent game: search bots copy it millions of times. A 12 x 12 game
 * of two bots under the mirror swap or no swap is 848 bytes, a 100 x 100
 * one about 55 KiB; the pie, the cut and Double TwixT add a byte a move
 * (who made it). It points to a shared, read-only tx_geometry. Make one
 * with tx_game_new, or init one in memory of tx_game_size(geo) bytes (room
 * for any variant); `struct tx_game g;` alone holds only the header.
 *
 * Players are 0 (receives FIRST, owns the first and last rows) and 1 (owns
 * the first and last columns). A move is a hole index, or TX_MOVE_SWAP.
 * tx_game_play() applies every rule of RULES.md for the game's rule set
 * (rules.h): legality, links (never across an opponent's link; across one's
 * own in pp, never in classic; a crossing point connects nothing), the swap
 * mirror, and after each move the end checks in order: win, then draw when
 * the player to move next has no legal hole. tx_game_play_edits() adds the
 * classic rules' link edits. Wins are detected with a union-find over pegs
 * plus four border nodes, so a move costs a few dozen operations, not a walk
 * over the chain; a classic removal rebuilds the mover's sets.
 */
#ifndef TX_GAME_H
#define TX_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "geometry.h"
#include "rules.h"

#define TX_MOVE_SWAP (-2)               /* the move "SWAP" */
#define TX_MOVE_CUT (-3)                /* "CUT R1 R2 B1": the cut opening's first answer */
#define TX_MOVE_CHOOSE_RED (-4)         /* "CHOOSE 1": the chooser plays red (colour 0) */
#define TX_MOVE_CHOOSE_BLACK (-5)       /* "CHOOSE 2": the chooser plays black (colour 1) */
#define TX_MOVES_MAX (TX_HOLES_MAX + 1) /* every hole, plus one swap or choice */
#define TX_SEATS_MAX 4                  /* bots in one game: Double TwixT's two teams of two */

/* Link edits one answer may make (RULES.md "Link edits"): more is an
 * invalid move. A line of 4096 bytes could hold 584; at that many a hostile
 * bot filling a 100 x 100 board could make the referee build a record of
 * 55 MiB (800 MB of memory while it is written), where 64 keep the largest
 * under 12 MiB, and a real answer edits a few links. A parser reads one
 * edit more (TX_EDITS_READ) so that the answer with too many is refused,
 * and recorded, as written. */
#define TX_EDITS_MAX 64
#define TX_EDITS_READ (TX_EDITS_MAX + 1)

enum tx_cell { TX_EMPTY = 0, TX_PEG0 = 1, TX_PEG1 = 2 }; /* peg of player p is p + 1 */

enum tx_status {
    TX_ONGOING = 0,
    TX_WON,   /* winner set: the last mover connected its border lines */
    TX_DRAWN, /* the player to move has no legal hole */
};

/* Why a move is refused. Each has its own wording (tx_illegal_describe). */
enum tx_illegal {
    TX_LEGAL = 0,
    TX_ILLEGAL_OUT_OF_RANGE,    /* not a hole index of this board */
    TX_ILLEGAL_CORNER,          /* one of the four missing corners */
    TX_ILLEGAL_OCCUPIED,        /* a peg (either colour) is there */
    TX_ILLEGAL_OPPONENT_BORDER, /* in the opponent's border lines */
    TX_ILLEGAL_SWAP,            /* SWAP when it is not player 1's first answer at move 2 */
    TX_ILLEGAL_GAME_OVER,       /* the game has ended */
    /* Link edits (classic rules); the edit at fault is named. */
    TX_ILLEGAL_EDITS,           /* edits under rules that have none, or with SWAP */
    TX_ILLEGAL_EDITS_TOO_MANY,  /* more than TX_EDITS_MAX edits (the first one over is named) */
    TX_ILLEGAL_EDIT_NO_HOLE,    /* it names a corner or a hole off the board */
    TX_ILLEGAL_EDIT_NOT_KNIGHT, /* its holes are not a knight's move apart */
    TX_ILLEGAL_EDIT_NO_LINK,    /* a removal of a link that is not there */
    TX_ILLEGAL_EDIT_NOT_OWN,    /* a removal of an opponent's link; an addition or a
                                   decline with an end that is not the mover's peg */
    TX_ILLEGAL_EDIT_EXISTS,     /* an addition of a link that is there */
    TX_ILLEGAL_EDIT_CROSSES,    /* an addition that crosses a link present */
    TX_ILLEGAL_EDIT_NOT_NEW,    /* a decline of a link that does not end at the new peg */
    TX_ILLEGAL_EDIT_ADDED,      /* a decline of a link the same move adds */
    /* Openings and teams (RULES.md "Openings", "Double TwixT"). */
    TX_ILLEGAL_CUT_EXPECTED,    /* the cut opening's first answer is not a CUT */
    TX_ILLEGAL_CHOOSE_EXPECTED, /* the answer after a cut is not a CHOOSE */
    TX_ILLEGAL_CUT,             /* a CUT where none is expected */
    TX_ILLEGAL_CUT_HOLE,        /* a hole of the cut its colour may not use (fault.part) */
    TX_ILLEGAL_CUT_SAME,        /* two holes of the cut are the same (fault.part: the second) */
    TX_ILLEGAL_CUT_LINK,        /* the cut's edit is not +R1:R2 between its red pegs */
    TX_ILLEGAL_CHOOSE,          /* a CHOOSE where none is expected */
    TX_ILLEGAL_PRIVILEGE_PAIRS, /* privilege in a game of two bots */
    TX_ILLEGAL_PRIVILEGE_USED,  /* privilege called again by the same team */
    TX_ILLEGAL_PRIVILEGE_EARLY, /* privilege before the opponent's swap or choice */
};

/* The phase of a game: the cut opening asks for its two special answers
 * first. */
enum tx_phase { TX_PHASE_PLAY = 0, TX_PHASE_CUT, TX_PHASE_CHOOSE };

/* One link edit of a classic answer, its two holes in the order written,
 * as coordinates (x the column, y the row, from 0): a name off the board
 * ("+AA1:B3" on 12 x 12) is still an edit, which the game refuses with a
 * reason that names it. */
struct tx_edit {
    char kind; /* '-' remove, '+' add, '~' decline an automatic link */
    int16_t ax, ay, bx, by;
};
#define TX_EDIT_NAME_MAX 16 /* "+ZZ999:ZZ999" and the NUL */

/* Which part of an answer made it illegal, for the detail. */
struct tx_edit_fault {
    int edit;    /* index in the edits given, -1 when the move itself is at fault */
    int crossed; /* TX_ILLEGAL_EDIT_CROSSES: the link id crossed, else -1 */
    int part;    /* TX_ILLEGAL_CUT_*: the index in the cut's holes, else -1 */
};

/* A whole answer, as tx_game_apply plays it. */
struct tx_move {
    int move;                    /* a hole, TX_MOVE_SWAP, TX_MOVE_CUT or TX_MOVE_CHOOSE_* */
    int cut[3];                  /* TX_MOVE_CUT: the two red holes, then the black one */
    bool privilege;              /* Double TwixT: the partner moves at once */
    int nedits;                  /* classic link edits; with a CUT, "+R1:R2" */
    const struct tx_edit *edits; /* nedits of them */
};

struct tx_game {
    const struct tx_geometry *geo;        /* shared, read-only, outlives the game */
    uint32_t bytes;                       /* tx_game_size(geo): the header and the tables */
    uint32_t off_uf, off_moves, off_cell; /* where tables start in mem[], in bytes */
    int16_t nmoves;                       /* moves played so far, a swap included */
    int16_t vacant_ok[2];                 /* vacant holes each player may still use (draw test) */
    /* Side by side, so that tx_game_check tests both as one (no hole may be
     * played while either is set): the first test of every move. */
    union {
        struct {
            int8_t status; /* enum tx_status */
            int8_t phase;  /* enum tx_phase */
        };
        int16_t status_phase;
    };
    int8_t to_move;         /* player to move: 0 or 1 */
    int8_t winner;          /* 0 or 1 when TX_WON, else -1 */
    int8_t swapped;         /* 1 when move 2 was SWAP */
    int8_t rules;           /* enum tx_rules */
    int8_t own_links_block; /* the rule set's own_links_block */
    int8_t opening;         /* enum tx_opening_rule */
    /* Seats are the bots: 2, or 4 in Double TwixT, where seats 0 and 2 are
     * one team, 1 and 3 the other, and play goes 0, 1, 2, 3, 0, ... A seat
     * plays colour (seat & 1) ^ exchanged. */
    int8_t seats;
    int8_t seat;            /* the seat to move */
    int8_t exchanged;       /* 1 once a pie SWAP or a CHOOSE 1 exchanged the sides */
    int8_t privileged;      /* bit t: team t (seats t, t + 2) called privilege */
    int8_t next_of_team[2]; /* the seat of each team that moves next */
    uint32_t off_info;      /* where the per-move info starts in mem[]; 0: none kept */
    /* The tables, sized for geo: link bits (uint64_t, a link's owner is the
     * colour of its pegs), union-find parents (int16_t: holes, then the 4
     * border nodes), moves (int16_t: the hole played at each move, or
     * TX_MOVE_SWAP, TX_MOVE_CHOOSE_*; a cut is three holes), cells
     * (uint8_t, enum tx_cell), then only under the pie, the cut or teams
     * per-move info (uint8_t: TX_INFO_*): in a game of two bots under the
     * mirror swap or no swap, seat i % 2 made move i for colour i % 2, and
     * the game neither stores nor copies the table. */
    uint64_t mem[];
};

/* Bits of a move's info (tx_game_info): who made it, for what colour. */
enum tx_info {
    TX_INFO_SEAT = 3,         /* the seat that answered (mask) */
    TX_INFO_COLOUR = 1 << 2,  /* set: the move is colour 1's (its peg is colour 1's) */
    TX_INFO_PEGLESS = 1 << 3, /* no peg: a pie SWAP or a CHOOSE */
    TX_INFO_CUT = 1 << 4,     /* one of the three pegs of a CUT */
};

/* Bytes a game on geo may take, header and tables, under any variant (a
 * game's own size, g->bytes, may be less). */
size_t tx_game_size(const struct tx_geometry *geo);

/* Starts an empty game on geo under rules in g, which has room for
 * tx_game_size(geo) bytes; player 0 to move; the mirror swap, two bots. */
void tx_game_init(struct tx_game *g, const struct tx_geometry *geo, enum tx_rules rules);

/* The same under v's rules, opening and seats (v's board is geo's). */
void tx_game_start(struct tx_game *g, const struct tx_geometry *geo, const struct tx_variant *v);

/* A new game (tx_game_init) in memory of its own; free it with free() or
 * tx_game_free. */
struct tx_game *tx_game_new(const struct tx_geometry *geo, enum tx_rules rules);
void tx_game_free(struct tx_game *g);

/* A copy of src in dst, which has room for src's size (a game on the same
 * board, or tx_game_size bytes). */
static inline void tx_game_copy(struct tx_game *dst, const struct tx_game *src)
{
    memcpy(dst, src, src->bytes);
}

/* A new game holding a copy of src. */
struct tx_game *tx_game_dup(const struct tx_game *src);

/* The tables (game.c's layout). */
static inline const uint64_t *tx_game_link_bits(const struct tx_game *g)
{
    return g->mem;
}
static inline const uint8_t *tx_game_cells(const struct tx_game *g)
{
    return (const uint8_t *)g->mem + g->off_cell;
}
static inline const int16_t *tx_game_moves(const struct tx_game *g)
{
    return (const int16_t *)(const void *)((const uint8_t *)g->mem + g->off_moves);
}

/* enum tx_info bits of move i (0-based, i < nmoves). */
static inline int tx_game_info(const struct tx_game *g, int i)
{
    if (g->off_info == 0) /* two bots taking turns, no pegless move: see above */
        return (i & 1) * (1 | TX_INFO_COLOUR);
    return ((const uint8_t *)g->mem + g->off_info)[i];
}

/* The colour seat plays now (0: rows, red; 1: columns, black). */
static inline int tx_game_seat_colour(const struct tx_game *g, int seat)
{
    return (seat & 1) ^ g->exchanged;
}

/* enum tx_cell of hole. */
static inline int tx_game_cell(const struct tx_game *g, int hole)
{
    return tx_game_cells(g)[hole];
}

/* The hole played at move i (0-based, i < nmoves), or TX_MOVE_SWAP. */
static inline int tx_game_move(const struct tx_game *g, int i)
{
    return tx_game_moves(g)[i];
}

/* The last move played, or -1 before the first. */
static inline int tx_game_last_move(const struct tx_game *g)
{
    return g->nmoves > 0 ? tx_game_move(g, g->nmoves - 1) : -1;
}

/* TX_LEGAL or why move (a hole index or TX_MOVE_SWAP) is refused for the
 * player to move. */
enum tx_illegal tx_game_check(const struct tx_game *g, int move);

/* Plays move for the player to move, with automatic links only. Returns
 * TX_LEGAL and updates the game, or the reason and leaves the game
 * unchanged. */
enum tx_illegal tx_game_play(struct tx_game *g, int move);

/* Plays a whole answer for the seat to move: a hole (with classic edits
 * and, in Double TwixT, privilege), SWAP, or the cut opening's CUT and
 * CHOOSE (RULES.md "Openings"). Returns TX_LEGAL and updates the game, or
 * the reason, the part at fault in *fault (may be NULL), and leaves the
 * game unchanged. */
enum tx_illegal tx_game_apply(struct tx_game *g, const struct tx_move *m,
                              struct tx_edit_fault *fault);

/* TX_LEGAL or why tx_game_apply would refuse m; g is not changed. */
enum tx_illegal tx_game_check_answer(const struct tx_game *g, const struct tx_move *m,
                                     struct tx_edit_fault *fault);

/* Plays move with nedits link edits (RULES.md "Link edits"; only under rules
 * with link_edits, and never with SWAP), evaluated in the rules' order:
 * removals, the peg, additions in the order given, automatic links but the
 * declined ones, the end checks. Returns TX_LEGAL and updates the game, or
 * the reason, the edit at fault in *fault (may be NULL), and leaves the
 * game unchanged. nedits 0 is tx_game_play. */
enum tx_illegal tx_game_play_edits(struct tx_game *g, int move, const struct tx_edit *edits,
                                   int nedits, struct tx_edit_fault *fault);

/* TX_LEGAL or why tx_game_play_edits would refuse the move, with the edit
 * at fault in *fault (may be NULL); g is not changed. nedits 0 is
 * tx_game_check. */
enum tx_illegal tx_game_check_edits(const struct tx_game *g, int move, const struct tx_edit *edits,
                                    int nedits, struct tx_edit_fault *fault);

/* Writes every legal hole of the player to move into out (room for
 * TX_MOVES_MAX), SWAP first when allowed; returns how many. 0 when over. */
int tx_game_legal_moves(const struct tx_game *g, int16_t *out);

/* True when a link of either colour joins a and b. */
bool tx_game_linked(const struct tx_game *g, int a, int b);
static inline bool tx_game_has_link(const struct tx_game *g, int link)
{
    return (g->mem[link >> 6] >> (link & 63)) & 1;
}

/* True when a link present would stop link being made by a player of
 * colour (player + 1): under pp a crossing link of the other colour, under
 * classic any crossing link. Writes the first such link into *ret_crossed
 * (may be NULL). */
bool tx_game_link_blocked(const struct tx_game *g, int link, int colour, int *ret_crossed);

/* Pegs of player in placement order (after a swap the mirrored peg is player
 * 1's first); writes up to TX_HOLES_MAX holes into out, returns how many. */
int tx_game_pegs(const struct tx_game *g, int player, int16_t *out);

/* Links of player on the board now, in the order RULES.md lists them: by the
 * placement order of the newer peg, then of the older peg (under pp this is
 * creation order). out[2k] is the older peg, out[2k+1] the newer. out needs
 * room for 2 * (4 * holes) entries; returns the number of links. */
int tx_game_links(const struct tx_game *g, int player, int16_t *out);

/* When the game is won: a shortest chain of linked pegs of the winner from
 * one of its border lines to the other, written into out (room for
 * geo->holes), returns its length; 0 when the game is not won. */
int tx_game_winning_chain(const struct tx_game *g, int16_t *out);

/* The reason as RULES.md words it, naming the hole: "occupied hole D6",
 * "corner A1", "hole A5 in the opponent's border", "SWAP not allowed at move
 * 3". For an edit's reason, edits and fault name it ("+C4:D6 crosses the
 * link E5:C6"); they may be NULL otherwise. Writes a NUL-terminated string
 * into buf (cap >= 96 is enough). */
void tx_illegal_describe(const struct tx_game *g, int move, enum tx_illegal why,
                         const struct tx_edit *edits, const struct tx_edit_fault *fault, char *buf,
                         size_t cap);

/* The same for a whole answer: also the reasons of the cut opening and of
 * privilege, naming the hole or edit at fault. */
void tx_answer_describe(const struct tx_game *g, const struct tx_move *answer, enum tx_illegal why,
                        const struct tx_edit_fault *fault, char *buf, size_t cap);

/* Writes edit as written ("-A6:B4") into buf (TX_EDIT_NAME_MAX bytes) and
 * returns buf. */
char *tx_edit_name(const struct tx_edit *edit, char *buf);

/* Builds the position a bot sees from its turn input (tx_input_parse) when
 * it is player `me` (0 or 1) and on move, with pegs and links exactly as
 * listed, under rules. Whether move 2 was a swap follows from the peg counts
 * (player 1 to move with as many pegs as player 0, or player 0 to move with
 * one fewer). The interleaving of earlier moves is not in the input: moves
 * are filled in a plausible order. hisLastPeg may be FIRST for player 0 with
 * pegs on the board: its first turn after a forced opening. Returns 0, or
 * -EINVAL when the position is impossible (a link between non-neighbours or
 * across a link that blocks it, pegs where that player may not play, counts
 * that do not fit `me` being on move, under pp a link missing that the
 * automatic links would have made). */
struct tx_input;
int tx_game_from_input(struct tx_game *g, const struct tx_geometry *geo, enum tx_rules rules,
                       const struct tx_input *in, int me);

/* The same in a game of v (its rules, opening and teams, RULES.md
 * "Openings", "Double TwixT"): `me` is the reader's colour now. The moves
 * are rebuilt in a plausible order; after a cut, hisLastPeg CUT means the
 * reader is to choose. */
int tx_game_from_input_variant(struct tx_game *g, const struct tx_geometry *geo,
                               const struct tx_variant *v, const struct tx_input *in, int me);

#endif
