/* starter.c - a TwixT starter bot in plain C, one file: CodinGame's
 * Twixt-PP, and the classic rules on any board twixt-arena offers.
 *
 * Paste it into CodinGame unchanged, or build and run it under twixt-arena:
 *     gcc -O2 -o starter bots/starter.c
 *     twixt-arena play ./starter build/bots/twixt-random
 *     twixt-arena play ./starter build/bots/twixt-random --rules classic --board 30x24
 * It reads the whole turn input correctly, learns which side it plays from
 * its first line (FIRST or SWAP: red, player 1; a hole: black, player 2; the
 * arena keeps that true after its forced openings), and plays a legal
 * move: a knight step from one of its pegs that makes a link towards its
 * far border when it can, else the free hole nearest the centre. Under the
 * classic rules it also shows how to print a link edit. Replace
 * choose_move() with your own strategy. Debug output must go to stderr:
 * stdout carries only the move line. It does not use libtwixt.
 *
 * The arena's openings (TWIXT_OPENING; RULES.md "Openings"), which
 * CodinGame does not have:
 * - swap (the default, CodinGame's): it never swaps;
 * - pie: as black it takes the pie (SWAP) when red's first peg is central,
 *   at least a quarter of the board from every edge, and then plays red;
 *   as red, a later input that says SWAP means it plays black from then on;
 * - cut: as red on the empty board it cuts, "CUT R1 R2 B1 +R1:R2": two red
 *   pegs linked near its first row and a black one at the centre; as
 *   black, told CUT, it answers CHOOSE 2 (it keeps black and moves at
 *   once); told CHOOSE 1 (the other took red) it plays black;
 * - none: nobody swaps.
 * In Double TwixT (TWIXT_TEAMS=1) its partner's pegs and links are listed
 * as its own and the other team's as the opponent's: it plays as ever. A
 * bot may add "!privilege" after its hole, once per team, and its partner
 * moves at once; this starter never does (it would have to tell from the
 * peg counts whether its partner did: the input does not say).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 100 /* the largest board is 100 x 100 */
#define MAX_HOLES (MAX_SIDE * MAX_SIDE)
#define MAX_LINKS (4 * MAX_HOLES) /* more links than a board can hold */

/* The rule set and the board: twixt-arena tells every bot in its
 * environment (TWIXT_RULES, TWIXT_WIDTH, TWIXT_HEIGHT). CodinGame sets none
 * of them: there the game is always Twixt-PP on 12 x 12, the defaults. */
static int classic = 0;             /* 1 under the classic rules */
static char opening[8] = "swap";    /* TWIXT_OPENING: swap, pie, cut or none */
static int width = 12, height = 12; /* columns A, B, ... and rows 1, 2, ... */

/* The board: 0 vacant, 1 our peg, 2 the opponent's. Index y * width + x. */
static int board[MAX_HOLES];

/* Links as read from the input, [0] ours, [1] the opponent's: each is two
 * holes (x1, y1, x2, y2). */
static int links[2][MAX_LINKS][4];
static int nlinks[2];

/* "D6" -> x = 3, y = 5: column letters, then the row number from 1.
 * Columns go A..Z, then AA, AB, ... (AA is x = 26, CV is x = 99) on boards
 * wider than 26 columns, like spreadsheet columns. Returns 0, or -1 for
 * something that is not a hole of this board. */
static int parse_hole(const char *name, int *x, int *y)
{
    int col = 0, i = 0;
    for (; name[i] >= 'A' && name[i] <= 'Z'; i++)
        col = col * 26 + (name[i] - 'A' + 1);
    *x = col - 1;
    *y = atoi(name + i) - 1;
    return i > 0 && *x < width && *y >= 0 && *y < height ? 0 : -1;
}

/* Writes the name of (x, y) into buf (at least 8 bytes): (26, 9) -> "AA10". */
static char *hole_name(int x, int y, char *buf)
{
    char letters[4];
    int n = 0;
    for (int col = x + 1; col > 0; col = (col - 1) / 26)
        letters[n++] = (char)('A' + (col - 1) % 26);
    for (int i = 0; i < n; i++) /* the letters came last first */
        buf[i] = letters[n - 1 - i];
    sprintf(buf + n, "%d", y + 1);
    return buf;
}

/* Reads a count line, then that many pegs ("D6"), marked on the board
 * with `owner`. */
static void read_pegs(int owner)
{
    int count, x, y;
    char name[8];
    if (scanf("%d", &count) != 1)
        exit(0);
    for (int i = 0; i < count; i++) {
        if (scanf("%7s", name) != 1)
            exit(0);
        if (parse_hole(name, &x, &y) == 0)
            board[y * width + x] = owner;
    }
}

/* Reads a count line, then that many links ("D6 E8": two pegs) into
 * links[who]. A link between two pegs is what connects them; a new link
 * may never cross an opponent's link, and under classic rules not one of
 * ours either. */
static void read_links(int who)
{
    int count;
    char a[8], b[8];
    if (scanf("%d", &count) != 1 || count < 0 || count > MAX_LINKS)
        exit(0);
    nlinks[who] = 0;
    for (int i = 0; i < count; i++) {
        int *l = links[who][nlinks[who]];
        if (scanf("%7s %7s", a, b) != 2)
            exit(0);
        if (parse_hole(a, &l[0], &l[1]) == 0 && parse_hole(b, &l[2], &l[3]) == 0)
            nlinks[who]++;
    }
}

/* Red (me == 0: got FIRST) owns the first and last rows and may not play
 * in the first or last column; black (me == 1) owns those columns and may
 * not play in the first or last row. The four corners do not
 * exist. */
static int playable(int me, int x, int y)
{
    if (x < 0 || x >= width || y < 0 || y >= height || board[y * width + x] != 0)
        return 0;
    return me == 0 ? x > 0 && x < width - 1 : y > 0 && y < height - 1;
}

static const int knight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

/* Returns the hole to play (y * width + x) and writes into *peg the hole of
 * our peg it should link to, or -1 when it is not a knight step from one. */
static int choose_move(int me, int *peg)
{
    /* Red (me == 0) crosses the rows (y), black the columns (x). */
    double centre = me == 0 ? (height - 1) / 2.0 : (width - 1) / 2.0;
    /* A knight step away from the centre line, towards the nearer of our
     * borders, from any of our pegs: it makes a link, unless a link crosses
     * it (this starter does not check that, except for the classic edit in
     * link_edits). */
    for (int h = 0; h < width * height; h++) {
        if (board[h] != 1)
            continue;
        int x = h % width, y = h / width;
        int along = me == 0 ? y : x;
        int outward = along >= centre ? 1 : -1;
        for (int k = 0; k < 8; k++) {
            int nx = x + knight[k][0], ny = y + knight[k][1];
            int step = me == 0 ? knight[k][1] : knight[k][0];
            if (step * outward == 2 && playable(me, nx, ny)) {
                *peg = h;
                return ny * width + nx;
            }
        }
    }
    /* Otherwise the free hole nearest the centre. */
    double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0, best_d = 1e9;
    int best = -1;
    *peg = -1;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            double d = (x > cx ? x - cx : cx - x) + (y > cy ? y - cy : cy - y);
            if (playable(me, x, y) && d < best_d) {
                best_d = d;
                best = y * width + x;
            }
        }
    return best;
}

/* Which side of the line p->q the point r is on: > 0 left, < 0 right. */
static long side(int px, int py, int qx, int qy, int rx, int ry)
{
    return (long)(qx - px) * (ry - py) - (long)(qy - py) * (rx - px);
}

/* True when link a (x1, y1, x2, y2) crosses link b. Links that share a peg
 * do not cross; knight links never touch otherwise. */
static int crosses(const int *a, const int *b)
{
    for (int i = 0; i < 4; i += 2)
        for (int j = 0; j < 4; j += 2)
            if (a[i] == b[j] && a[i + 1] == b[j + 1])
                return 0;
    return side(a[0], a[1], a[2], a[3], b[0], b[1]) * side(a[0], a[1], a[2], a[3], b[2], b[3]) <
               0 &&
           side(b[0], b[1], b[2], b[3], a[0], a[1]) * side(b[0], b[1], b[2], b[3], a[2], a[3]) < 0;
}

/* Classic rules only: prints the link edits that follow the hole.
 *
 * Under classic rules a link may cross no link at all, not even one of
 * ours, so the link we want (peg to the new hole) is not made when one of
 * our own links crosses it. An edit "-A6:B4" removes one of our links
 * before the peg is placed (RULES.md "Link edits"): here we remove ours
 * that are in the way, so the new link is made automatically, unless an
 * opponent's link crosses it anyway (then removing ours would not help).
 * Other edits: "+C4:D6" adds a link between two of our pegs, "~E5:F7"
 * declines one of the new peg's automatic links. */
static void print_link_edits(int move, int peg)
{
    char a[8], b[8];
    if (!classic || peg < 0)
        return;
    int want[4] = {peg % width, peg / width, move % width, move / width};
    for (int i = 0; i < nlinks[1]; i++)
        if (crosses(want, links[1][i]))
            return;
    for (int i = 0; i < nlinks[0]; i++) {
        const int *l = links[0][i];
        if (crosses(want, l))
            printf(" -%s:%s", hole_name(l[0], l[1], a), hole_name(l[2], l[3], b));
    }
}

/* Counts the pegs of `owner` on the board. */
static int count_pegs(int owner)
{
    int n = 0;
    for (int h = 0; h < width * height; h++)
        n += board[h] == owner;
    return n;
}

/* At least a quarter of the board from every edge: worth taking. */
static int central(int h)
{
    int x = h % width, y = h / width, d = x, side = width < height ? width : height;
    d = width - 1 - x < d ? width - 1 - x : d;
    d = y < d ? y : d;
    d = height - 1 - y < d ? height - 1 - y : d;
    return d >= side / 4;
}

int main(void)
{
    int me = -1;     /* the side we play now: 0 red (rows, got FIRST), 1 black (columns) */
    int placed = -1; /* a hole of one of our pegs: under pie and cut, if the opponent
                        lists it, we changed sides */
    const char *rules = getenv("TWIXT_RULES"), *w = getenv("TWIXT_WIDTH"),
               *h = getenv("TWIXT_HEIGHT"), *o = getenv("TWIXT_OPENING");
    classic = rules && strcmp(rules, "classic") == 0;
    if (o)
        snprintf(opening, sizeof opening, "%s", o);
    int pie = strcmp(opening, "pie") == 0, cut = strcmp(opening, "cut") == 0;
    width = w ? atoi(w) : 12;
    height = h ? atoi(h) : 12;
    if (width < 5 || width > MAX_SIDE || height < 5 || height > MAX_SIDE) {
        fprintf(stderr, "starter: TWIXT_WIDTH and TWIXT_HEIGHT must be 5..100\n");
        return 2;
    }
    for (;;) {
        /* hisLastPeg: FIRST (we start), SWAP (the opponent swapped our first
         * peg, or under pie took our side), the hole the opponent just
         * played, or under cut CUT (choose a side) or CHOOSE 1 / CHOOSE 2
         * (the side it chose): a whole line. Then our pegs and links, then
         * the opponent's: the whole position, every turn. */
        char his_last[16], name[8], a[8], b[8], c[8];
        int peg;
        if (scanf(" %15[^\n]", his_last) != 1)
            return 0; /* no more input: the game is over */
        memset(board, 0, sizeof(board));
        read_pegs(1);
        read_links(0);
        read_pegs(2);
        read_links(1);
        if (me < 0) /* FIRST, or SWAP (our first peg was swapped): red; else black */
            me = strcmp(his_last, "FIRST") == 0 || (strcmp(his_last, "SWAP") == 0 && !pie) ? 0 : 1;
        else if (me == 0 && (pie || cut) &&
                 (strcmp(his_last, "SWAP") == 0 || strcmp(his_last, "CHOOSE 1") == 0 ||
                  (placed >= 0 && board[placed] == 2)))
            me = 1; /* the other side took red (Double TwixT: our partner heard it) */
        if (cut && strcmp(his_last, "FIRST") == 0 && count_pegs(1) + count_pegs(2) == 0) {
            int x = width / 2;
            hole_name(x, 1, a);
            hole_name(x + 1, 3, b);
            hole_name(x, height / 2, c);
            placed = 1 * width + x;
            fprintf(stderr, "starter: cut %s %s %s +%s:%s\n", a, b, c, a, b);
            printf("CUT %s %s %s +%s:%s starter.c\n", a, b, c, a, b);
            fflush(stdout);
            continue;
        }
        if (strcmp(his_last, "CUT") == 0) {
            fprintf(stderr, "starter: keep black, move at once\n");
            printf("CHOOSE 2 starter.c\n");
            fflush(stdout);
            continue;
        }
        /* The pie is decided at move 2 only: black's first input names
         * red's first peg. */
        if (pie && me == 1 && strcmp(his_last, "SWAP") != 0 && strcmp(his_last, "FIRST") != 0 &&
            count_pegs(1) == 0 && count_pegs(2) == 1) {
            int first = -1;
            for (int i = 0; i < width * height; i++)
                if (board[i] == 2)
                    first = i;
            if (central(first)) {
                fprintf(stderr, "starter: take the pie\n");
                printf("SWAP starter.c\n");
                fflush(stdout);
                me = 0;
                placed = first;
                continue;
            }
        }
        int move = choose_move(me, &peg);
        placed = move;
        hole_name(move % width, move / width, name);
        fprintf(stderr, "starter: %s plays %s\n", me ? "black" : "red", name);
        /* The move, then the edits (classic only), then a message of at
         * most 20 characters, which must not look like an edit. */
        printf("%s", name);
        print_link_edits(move, peg);
        printf(" starter.c\n");
        fflush(stdout);
    }
}
