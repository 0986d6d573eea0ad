# starter.py - a TwixT starter bot in Python 3, one file: CodinGame's
# Twixt-PP, and the classic rules on any board twixt-arena offers.
#
# Paste it into CodinGame unchanged, or run it under twixt-arena:
#     twixt-arena play "python3 bots/starter.py" build/bots/twixt-random
#     twixt-arena play "python3 bots/starter.py" build/bots/twixt-random --rules classic --board 30x24
# It reads the whole turn input correctly, learns which side it plays from
# its first line (FIRST or SWAP: red, player 1; a hole: black, player 2; the
# arena keeps that true after its forced openings), and plays a legal move:
# a knight step from one of its pegs that makes a link towards its far
# border when it can, else the free hole nearest the centre. Under the
# classic rules it also shows how to print a link edit. Replace
# choose_move() with your own strategy. Debug output must go to stderr:
# stdout carries only the move line.
#
# The arena's openings (TWIXT_OPENING; RULES.md "Openings"), which
# CodinGame does not have:
# - swap (the default, CodinGame's): it never swaps;
# - pie: as black it takes the pie (SWAP) when red's first peg is central,
#   at least a quarter of the board from every edge, and then plays red;
#   as red, a later input that says SWAP means it plays black from then on;
# - cut: as red on the empty board it cuts, "CUT R1 R2 B1 +R1:R2": two red
#   pegs linked near its first row and a black one at the centre; as black,
#   told CUT, it answers CHOOSE 2 (it keeps black and moves at once); told
#   CHOOSE 1 (the other took red) it plays black;
# - none: nobody swaps.
# In Double TwixT (TWIXT_TEAMS=1) its partner's pegs and links are listed
# as its own and the other team's as the opponent's: it plays as ever. A
# bot may add "!privilege" after its hole, once per team, and its partner
# moves at once; this starter never does (it would have to tell from the
# peg counts whether its partner did: the input does not say).
import os
import sys

# The rule set and the board: twixt-arena tells every bot in its environment
# (TWIXT_RULES, TWIXT_WIDTH, TWIXT_HEIGHT). CodinGame sets none of them: there
# the game is always Twixt-PP on 12 x 12, which is what the defaults say.
RULES = os.environ.get("TWIXT_RULES", "pp")  # "pp" or "classic"
WIDTH = int(os.environ.get("TWIXT_WIDTH", "12"))  # columns A, B, ... (5..100)
HEIGHT = int(os.environ.get("TWIXT_HEIGHT", "12"))  # rows 1, 2, ... (5..100)
OPENING = os.environ.get("TWIXT_OPENING", "swap")  # "swap", "pie", "cut" or "none"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def parse(name):
    """'D6' -> (x, y) = (3, 5): column letters, then the row number from 1.
    Columns go A..Z, then AA, AB, ... (AA is x = 26, CV is x = 99) on boards
    wider than 26 columns, like spreadsheet columns."""
    letters = name.rstrip("0123456789")
    x = 0
    for ch in letters:
        x = x * 26 + ord(ch) - ord("A") + 1
    return x - 1, int(name[len(letters):]) - 1


def name_of(x, y):
    """(3, 5) -> 'D6'; (26, 9) -> 'AA10'."""
    letters, x = "", x + 1
    while x > 0:
        x, r = divmod(x - 1, 26)
        letters = chr(ord("A") + r) + letters
    return letters + str(y + 1)


def read_turn():
    """Reads one turn input. Returns (his_last, my_pegs, my_links, his_pegs, his_links).

    hisLastPeg: FIRST (we start), SWAP (the opponent swapped our first peg,
    or under pie took our side), the hole the opponent just played, or under
    cut CUT (choose a side) or CHOOSE 1 / CHOOSE 2 (the side it chose). Then our pegs (count, one per line,
    oldest first), our links (count, "peg1 peg2" per line), then the same
    two lists for the opponent. The input holds the whole position every
    turn (under classic, links the opponent removed are gone from it): never
    rely on remembering earlier turns (except who you are).
    """
    his_last = input().strip()
    my_pegs = [parse(input().strip()) for _ in range(int(input()))]
    my_links = [tuple(parse(p) for p in input().split()) for _ in range(int(input()))]
    his_pegs = [parse(input().strip()) for _ in range(int(input()))]
    his_links = [tuple(parse(p) for p in input().split()) for _ in range(int(input()))]
    return his_last, my_pegs, my_links, his_pegs, his_links


def playable(me, x, y, taken):
    """Red (me == 0: got FIRST) owns the first and last rows and may not
    play in the first or last column; black (me == 1) owns those columns
    and may not play in the first or last row. The four corners do not exist."""
    if not (0 <= x < WIDTH and 0 <= y < HEIGHT) or (x, y) in taken:
        return False
    if me == 0:
        return 0 < x < WIDTH - 1
    return 0 < y < HEIGHT - 1


def choose_move(me, my_pegs, his_pegs):
    """Returns (hole, peg): the hole to play, and the peg of ours it should
    link to (None when it is not a knight step from one)."""
    taken = set(my_pegs) | set(his_pegs)
    # Red (me == 0) crosses the rows (y), black the columns (x).
    along = (lambda p: p[1]) if me == 0 else (lambda p: p[0])
    centre = (HEIGHT - 1) / 2 if me == 0 else (WIDTH - 1) / 2
    # A knight step from the peg nearest a border towards that border makes
    # a link, unless a link crosses it (this starter does not check that,
    # except for the classic edit below).
    for peg in sorted(my_pegs, key=lambda p: -abs(along(p) - centre)):
        outward = 1 if along(peg) >= centre else -1
        for dx, dy in KNIGHT:
            x, y = peg[0] + dx, peg[1] + dy
            if (dy if me == 0 else dx) * outward == 2 and playable(me, x, y, taken):
                return (x, y), peg
    cx, cy = (WIDTH - 1) / 2, (HEIGHT - 1) / 2
    holes = [(x, y) for x in range(WIDTH) for y in range(HEIGHT) if playable(me, x, y, taken)]
    return min(holes, key=lambda h: abs(h[0] - cx) + abs(h[1] - cy)), None


def crosses(a, b, c, d):
    """True when the link a-b crosses the link c-d (holes as (x, y)). Links
    that share a peg do not cross; knight links never touch otherwise."""
    if a in (c, d) or b in (c, d):
        return False

    def side(p, q, r):  # > 0: r is left of the line p->q, < 0: right of it
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def link_edits(hole, peg, my_links, his_links):
    """Classic rules only: the link edits to print after the hole.

    Under classic rules a link may cross no link at all, not even one of
    ours, so the link we want (peg to the new hole) is not made when one of
    our own links crosses it. An edit "-A6:B4" removes one of our links
    before the peg is placed (RULES.md "Link edits"): here we remove ours
    that are in the way, so the new link is made automatically, unless an
    opponent's link crosses it anyway (then removing ours would not help).
    Other edits: "+C4:D6" adds a link between two of our pegs, "~E5:F7"
    declines one of the new peg's automatic links."""
    if RULES != "classic" or peg is None:
        return []
    if any(crosses(peg, hole, a, b) for a, b in his_links):
        return []
    return ["-" + name_of(*a) + ":" + name_of(*b) for a, b in my_links if crosses(peg, hole, a, b)]


def central(x, y):
    """At least a quarter of the board from every edge: worth taking."""
    return min(x, WIDTH - 1 - x, y, HEIGHT - 1 - y) >= min(WIDTH, HEIGHT) // 4


me = None  # the side we play now: 0 red (rows, got FIRST), 1 black (columns)
placed = None  # a hole of one of our pegs: under pie and cut, if the opponent lists it, we changed sides
while True:
    try:
        his_last, my_pegs, my_links, his_pegs, his_links = read_turn()
    except EOFError:
        break
    if me is None:  # FIRST, or SWAP (our first peg was swapped): red; else black
        me = 0 if his_last == "FIRST" or (his_last == "SWAP" and OPENING != "pie") else 1
    elif me == 0 and OPENING in ("pie", "cut"):
        # The other side took red: its pie SWAP, its CHOOSE 1 after our cut,
        # or (Double TwixT: our partner heard it) our peg is now listed as its.
        if his_last in ("SWAP", "CHOOSE 1") or placed in his_pegs:
            me = 1
    if OPENING == "cut" and his_last == "FIRST" and not my_pegs and not his_pegs:
        x = WIDTH // 2
        r1, r2, b1 = (x, 1), (x + 1, 3), (x, HEIGHT // 2)
        placed = r1
        cut = "CUT %s %s %s +%s:%s" % (name_of(*r1), name_of(*r2), name_of(*b1), name_of(*r1), name_of(*r2))
        print("starter: cut " + cut, file=sys.stderr)
        print(cut + " starter.py", flush=True)
        continue
    if his_last == "CUT":
        print("starter: keep black, move at once", file=sys.stderr)
        print("CHOOSE 2 starter.py", flush=True)
        continue
    # The pie is decided at move 2 only: black's first input names red's first peg.
    first_answer = his_last not in ("SWAP", "FIRST") and not my_pegs and len(his_pegs) == 1
    if OPENING == "pie" and me == 1 and first_answer and central(*his_pegs[0]):
        print("starter: take the pie", file=sys.stderr)
        print("SWAP starter.py", flush=True)
        me, placed = 0, his_pegs[0]
        continue
    hole, peg = choose_move(me, my_pegs, his_pegs)
    placed = hole
    edits = link_edits(hole, peg, my_links, his_links)
    print(f"starter: {('red', 'black')[me]} plays {name_of(*hole)} {' '.join(edits)}", file=sys.stderr)
    # The move, then the edits (classic only), then a message of at most 20
    # characters, which must not look like an edit.
    print(" ".join([name_of(*hole)] + edits + ["starter.py"]), flush=True)
