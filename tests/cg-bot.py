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

SIZE = 12
COLUMNS = "ABCDEFGHIJKL"

random.seed(20240611)
me = None  # 1 or 2


def hole(name):
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def name_of(x, y):
    return COLUMNS[x] + str(y + 1)


def may_use(player, x, y):
    """Player 1 owns rows 1 and 12: it may not use columns A and L (nor the
    corners); player 2 owns columns A and L: it may not use rows 1 and 12."""
    if player == 1:
        return 0 < x < SIZE - 1
    return 0 < y < SIZE - 1


# game loop
while True:
    his_last_peg = input()
    if me is None:
        me = 1 if his_last_peg in ("FIRST", "SWAP") else 2
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
    # answer, when the board holds player 1's single peg.
    if me == 2 and num_your_pegs == 0 and num_his_pegs == 1:
        x, y = his_pegs[0]
        if 3 <= x <= 8 and 3 <= y <= 8:
            print("swap the central " + name_of(x, y), file=sys.stderr, flush=True)
            print("SWAP central")
            continue

    holes = [(x, y) for x in range(SIZE) for y in range(SIZE)
             if (x, y) not in taken and may_use(me, x, y)]
    x, y = random.choice(holes)
    print("player %d: %d legal holes" % (me, len(holes)), file=sys.stderr, flush=True)
    print(name_of(x, y) + " cg-bot")
