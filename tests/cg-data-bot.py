import random
import sys

# cg-data-bot.py - a CodinGame-style bot that reports data on stderr the way
# psyleague's and cgarena's users make theirs do (tests/test-cg-consumers.py).
#
#   python3 tests/cg-data-bot.py [SEED]
#
# Each turn it prints, on stderr, "[PDATA] depth = D", "[PDATA+] nodes = N"
# (psyleague sums these), "[PDATA][T] eval = E" (cgarena's per-turn value),
# and on its first turn "[TDATA] side = 1" or 2; then one legal move on
# stdout: a random hole it may use, from a generator seeded by SEED (give it
# {seed}), so one seed plays one game. It never swaps, and it reads the
# whole position every turn, as cg-bot.py does.

SIZE = 12
COLUMNS = "ABCDEFGHIJKL"

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
me = None
turn = 0

while True:
    try:
        his_last_peg = input()
    except EOFError:
        break
    if me is None:
        me = 1 if his_last_peg in ("FIRST", "SWAP") else 2
    taken = set()
    for _ in range(2):
        for _ in range(int(input())):
            taken.add(input())
        for _ in range(int(input())):
            input()
    turn += 1
    if turn == 1:
        print(f"[TDATA] side = {me}", file=sys.stderr)
    print(f"[PDATA] depth = {turn + 2}", file=sys.stderr)
    print(f"[PDATA+] nodes = {turn * 1.5}", file=sys.stderr)
    print(f"[PDATA][{turn}] eval = {turn / 4} pawns", file=sys.stderr)
    # Player 1 may not use columns A and L, player 2 rows 1 and 12; no one
    # uses the corners.
    holes = [f"{COLUMNS[x]}{y + 1}" for x in range(SIZE) for y in range(SIZE)
             if (0 < x < SIZE - 1 if me == 1 else 0 < y < SIZE - 1)
             and f"{COLUMNS[x]}{y + 1}" not in taken]
    print(rng.choice(holes))
