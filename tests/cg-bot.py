import os
import sys
import random

# cg-bot.py - a test bot written the plain CodinGame way (tests/test-validate.c).
#
# It is shaped like CodinGame's Python stub for Twixt-PP: read the turn
# input line by line, print one line. As bots written for CodinGame do, it
# learns its side from the first line of its first input (FIRST or SWAP:
# player 1; a hole: player 2), reads the whole position every turn, keeps
# nothing else between turns and never counts pegs to guess its side. It
# swaps a central first peg (only when the board holds that one peg), else
# plays a random legal hole. It ends, as the stub does, with an EOFError
# when its input closes. The stub prints without flush: CodinGame runs Python
# unbuffered, and so does the arena (PYTHONUNBUFFERED=1 in every bot's
# environment), so the tests run it as `python3 tests/cg-bot.py`.
#
# Whatever a forced opening did before its first turn, every move it makes
# must be legal: the tests play it in every scenario of play, tournament and
# validate, as player 1 and player 2, with and without a swap.
#
# The board is 12 x 12 unless the arena says otherwise: its width and height
# are the arguments when given (`python3 cg-bot.py {width} {height}`), else
# TWIXT_WIDTH and TWIXT_HEIGHT, which the arena sets for every bot. Columns
# past Z are AA, AB, ... It plays the classic rules as well (a hole is a
# legal answer under both rule sets) and never prints a link edit; it swaps
# only on a square board (there is no swap on another).
#
# The opening is TWIXT_OPENING (RULES.md "Openings"). Under swap (the
# default) it plays as above. Under pie it does the one thing more RULES.md
# asks of a CodinGame-style bot: SWAP exchanges the sides, so player 1 whose
# later input says SWAP plays black (columns) from then on, and player 2
# that answered SWAP plays red (rows); a first line SWAP (after a forced
# first move) means black, too. It takes the pie on any board, the sides
# exchanging with their distances. Under none it never swaps. It does not
# play the cut (arena-only: no CodinGame bot answers CUT).

WIDTH = int(sys.argv[1]) if len(sys.argv) > 2 else int(os.environ.get("TWIXT_WIDTH", "12"))
HEIGHT = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("TWIXT_HEIGHT", "12"))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

OPENING = os.environ.get("TWIXT_OPENING", "swap")

random.seed(20240611)
me = None  # the side it plays: 1 (red, rows) or 2 (black, columns)


def hole(name):
    letters = name.rstrip("0123456789")
    x = 0
    for c in letters:
        x = x * 26 + LETTERS.index(c) + 1
    return x - 1, int(name[len(letters):]) - 1


def name_of(x, y):
    column = LETTERS[x] if x < 26 else LETTERS[x // 26 - 1] + LETTERS[x % 26]
    return column + str(y + 1)


def may_use(player, x, y):
    """Player 1 owns the first and last rows: it may not use the first and
    last columns (nor the corners); player 2 owns those columns: it may not
    use the first and last rows."""
    if player == 1:
        return 0 < x < WIDTH - 1
    return 0 < y < HEIGHT - 1


# game loop
while True:
    his_last_peg = input()
    first_turn = me is None
    if first_turn:
        me = 1 if his_last_peg == "FIRST" or (his_last_peg == "SWAP" and OPENING != "pie") else 2
    elif his_last_peg == "SWAP" and OPENING == "pie":
        me = 2  # player 2 took the pie: this player now plays black
    taken = set()
    num_your_pegs = int(input())
    for i in range(num_your_pegs):
        taken.add(hole(input()))
    num_your_segments = int(input())
    for i in range(num_your_segments):
        your_seg_peg_1, your_seg_peg_2 = input().split()
    num_his_pegs = int(input())
    his_pegs = []
    for i in range(num_his_pegs):
        his_pegs.append(hole(input()))
        taken.add(his_pegs[-1])
    num_his_segments = int(input())
    for i in range(num_his_segments):
        his_seg_peg_1, his_seg_peg_2 = input().split()

    # SWAP is allowed only as the second move of the game: player 2's first
    # answer (its first turn), when the board holds player 1's single peg;
    # the mirror swap on a square board only, the pie on any.
    can_swap = OPENING == "pie" or (OPENING == "swap" and WIDTH == HEIGHT)
    if first_turn and me == 2 and num_your_pegs == 0 and num_his_pegs == 1 and can_swap:
        x, y = his_pegs[0]
        edge_x, edge_y = WIDTH // 4, HEIGHT // 4
        if edge_x <= x < WIDTH - edge_x and edge_y <= y < HEIGHT - edge_y:
            print("swap the central " + name_of(x, y), file=sys.stderr, flush=True)
            print("SWAP central")
            if OPENING == "pie":
                me = 1  # it took the first peg's side: red, rows
            continue

    holes = [(x, y) for x in range(WIDTH) for y in range(HEIGHT)
             if (x, y) not in taken and may_use(me, x, y)]
    x, y = random.choice(holes)
    print("player %d: %d legal holes" % (me, len(holes)), file=sys.stderr, flush=True)
    print(name_of(x, y) + " cg-bot")
