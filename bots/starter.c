/* starter.c - a Twixt-PP (CodinGame) starter bot in plain C, one file.
 *
 * Paste it into CodinGame unchanged, or build and run it under twixt-arena:
 *     gcc -O2 -o starter bots/starter.c
 *     twixt-arena play ./starter build/bots/twixt-random
 * It reads the whole turn input correctly, learns which player it is from
 * its first line (FIRST or SWAP: player 1; a hole: player 2; the arena keeps
 * that true after its forced openings), and plays a legal move: a knight step from one of its pegs
 * that makes a link towards its far border when it can, else the free hole nearest the centre.
 * Replace choose_move() with your own strategy. Debug output must go to
 * stderr: stdout carries only the move line. It does not use libtwixt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZE 26
#define MAX_HOLES (MAX_SIZE * MAX_SIZE)

static int size = 12; /* the board is size x size; twixt-arena may pass --size N (5..26) */

/* The board: 0 vacant, 1 our peg, 2 the opponent's. Index y * size + x. */
static int board[MAX_HOLES];

/* "D6" -> x = 3 (column letter), y = 5 (row number from 1). Returns the
 * hole index, or -1 for something that is not a hole name. */
static int parse_hole(const char *name)
{
    int x = name[0] - 'A', y = atoi(name + 1) - 1;
    if (x < 0 || x >= size || y < 0 || y >= size)
        return -1;
    return y * size + x;
}

/* Reads a count line, then that many lines of pegs ("D6") or links
 * ("D6 E8": two pegs). Pegs are marked on the board with `owner`; links are
 * read and ignored by this starter (your bot will want them: a link between
 * two pegs is what connects them, and no link may cross an opponent's). */
static void read_pegs(int owner)
{
    int count;
    char name[8];
    if (scanf("%d", &count) != 1)
        exit(0);
    for (int i = 0; i < count; i++) {
        if (scanf("%7s", name) != 1)
            exit(0);
        int hole = parse_hole(name);
        if (hole >= 0)
            board[hole] = owner;
    }
}

static void read_links(void)
{
    int count;
    char a[8], b[8];
    if (scanf("%d", &count) != 1)
        exit(0);
    for (int i = 0; i < count; i++)
        if (scanf("%7s %7s", a, b) != 2)
            exit(0);
}

/* Player 1 (me == 0: got FIRST) owns rows 1 and size and may not play in the
 * first or last column; player 2 (me == 1) owns those columns and may not
 * play in the first or last row. The four corners do not exist. */
static int playable(int me, int x, int y)
{
    if (x < 0 || x >= size || y < 0 || y >= size || board[y * size + x] != 0)
        return 0;
    return me == 0 ? x > 0 && x < size - 1 : y > 0 && y < size - 1;
}

static const int knight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

static int choose_move(int me)
{
    double centre = (size - 1) / 2.0;
    /* A knight step away from the centre line, towards the nearer of our
     * borders, from any of our pegs: it makes a link (unless an opponent link
     * crosses it; this starter does not check that). */
    for (int h = 0; h < size * size; h++) {
        if (board[h] != 1)
            continue;
        int x = h % size, y = h / size;
        int along = me == 0 ? y : x;
        int outward = along >= centre ? 1 : -1;
        for (int k = 0; k < 8; k++) {
            int nx = x + knight[k][0], ny = y + knight[k][1];
            int step = me == 0 ? knight[k][1] : knight[k][0];
            if (step * outward == 2 && playable(me, nx, ny))
                return ny * size + nx;
        }
    }
    /* Otherwise the free hole nearest the centre. */
    int best = -1;
    double best_d = 1e9;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            double d =
                (x > centre ? x - centre : centre - x) + (y > centre ? y - centre : centre - y);
            if (playable(me, x, y) && d < best_d) {
                best_d = d;
                best = y * size + x;
            }
        }
    return best;
}

int main(int argc, char **argv)
{
    int me = -1; /* 0: player 1 (rows), 1: player 2 (columns); from the first input */
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--size") == 0)
            size = atoi(argv[i + 1]);
    if (size < 5 || size > MAX_SIZE) {
        fprintf(stderr, "starter: --size must be 5..26\n");
        return 2;
    }
    for (;;) {
        /* hisLastPeg: FIRST (we start), SWAP (the opponent swapped our first
         * peg) or the hole the opponent just played. Then our pegs and links,
         * then the opponent's: the whole position, every turn. */
        char his_last[8];
        if (scanf("%7s", his_last) != 1)
            return 0; /* no more input: the game is over */
        if (me < 0)   /* FIRST, or SWAP (our first peg was swapped): we are player 1 */
            me = strcmp(his_last, "FIRST") == 0 || strcmp(his_last, "SWAP") == 0 ? 0 : 1;
        memset(board, 0, sizeof(board));
        read_pegs(1);
        read_links();
        read_pegs(2);
        read_links();
        int move = choose_move(me);
        fprintf(stderr, "starter: player %d plays %c%d\n", me + 1, 'A' + move % size,
                move / size + 1);
        printf("%c%d starter.c\n", 'A' + move % size, move / size + 1); /* message: <= 20 chars */
        fflush(stdout);
    }
}
