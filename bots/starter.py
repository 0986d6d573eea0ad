# starter.py - a Twixt-PP (CodinGame) starter bot in Python 3, one file.
#
# Paste it into CodinGame unchanged, or run it under twixt-arena:
#     twixt-arena play "python3 bots/starter.py" build/bots/twixt-random
# It reads the whole turn input correctly, learns which player it is from
# its first line (FIRST or SWAP: player 1; a hole: player 2; the arena keeps
# that true after its forced openings), and plays a legal move: a knight step from one of its pegs that makes a
# link towards its far border when it can, else the free hole nearest the
# centre. Replace choose_move() with your own strategy.
# Debug output must go to stderr: stdout carries only the move line.
import sys

SIZE = 12  # board is SIZE x SIZE; twixt-arena may pass --size N (5..26)
if "--size" in sys.argv:
    SIZE = int(sys.argv[sys.argv.index("--size") + 1])
COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:SIZE]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def parse(name):
    """'D6' -> (x, y) = (3, 5): column letter, then row number from 1."""
    return COLS.index(name[0]), int(name[1:]) - 1


def name_of(x, y):
    return COLS[x] + str(y + 1)


def read_turn():
    """Reads one turn input. Returns (his_last, my_pegs, my_links, his_pegs, his_links).

    hisLastPeg: FIRST (we start), SWAP (the opponent swapped our first peg)
    or the hole the opponent just played. Then our pegs (count, one per line,
    oldest first), our links (count, "peg1 peg2" per line), then the same
    two lists for the opponent. The input holds the whole position every
    turn: never rely on remembering earlier turns (except who you are).
    """
    his_last = input().strip()
    my_pegs = [parse(input().strip()) for _ in range(int(input()))]
    my_links = [tuple(parse(p) for p in input().split()) for _ in range(int(input()))]
    his_pegs = [parse(input().strip()) for _ in range(int(input()))]
    his_links = [tuple(parse(p) for p in input().split()) for _ in range(int(input()))]
    return his_last, my_pegs, my_links, his_pegs, his_links


def playable(me, x, y, taken):
    """Player 1 (me == 0: got FIRST) owns rows 1 and SIZE and may not play in
    the first or last column; player 2 (me == 1) owns those columns and may
    not play in the first or last row. The four corners do not exist."""
    if not (0 <= x < SIZE and 0 <= y < SIZE) or (x, y) in taken:
        return False
    if me == 0:
        return 0 < x < SIZE - 1
    return 0 < y < SIZE - 1


def choose_move(me, my_pegs, his_pegs):
    taken = set(my_pegs) | set(his_pegs)
    centre = (SIZE - 1) / 2
    # Player 1 (me == 0) moves along y (rows 1..SIZE), player 2 along x.
    along = (lambda p: p[1]) if me == 0 else (lambda p: p[0])
    # A knight step from the peg nearest a border towards the other border
    # makes a link (unless an opponent link crosses it; this starter does
    # not check that).
    for peg in sorted(my_pegs, key=lambda p: -abs(along(p) - centre)):
        outward = 1 if along(peg) >= centre else -1
        for dx, dy in KNIGHT:
            x, y = peg[0] + dx, peg[1] + dy
            if (dy if me == 0 else dx) * outward == 2 and playable(me, x, y, taken):
                return name_of(x, y)
    holes = [(x, y) for x in range(SIZE) for y in range(SIZE) if playable(me, x, y, taken)]
    x, y = min(holes, key=lambda h: abs(h[0] - centre) + abs(h[1] - centre))
    return name_of(x, y)


me = None  # 0: player 1 (rows), 1: player 2 (columns); from the first input
while True:
    try:
        his_last, my_pegs, my_links, his_pegs, his_links = read_turn()
    except EOFError:
        break
    if me is None:  # FIRST, or SWAP (our first peg was swapped): we are player 1
        me = 0 if his_last in ("FIRST", "SWAP") else 1
    move = choose_move(me, my_pegs, his_pegs)
    print(f"starter: player {me + 1} plays {move}", file=sys.stderr)
    print(move + " starter.py", flush=True)  # the move, then a message of <= 20 chars
