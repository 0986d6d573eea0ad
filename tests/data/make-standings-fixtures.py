#!/usr/bin/env python3
"""Writes the standings fixtures (tests/data/standings-*.jsonl).

Run by hand from this directory when the record format changes; the
expected figures in tests/test-standings.c are worked out from the games
listed here, so change both together.
"""
import json

# Run fingerprints have the referee's form ("v1:" and 16 hex digits); the
# games below name them r1 and r2.
RUNS = {"r1": "v1:0000000000000001", "r2": "v1:0000000000000002"}

def record(run, game, p0, p1, moves, winner, reason, detail="x"):
    r = {"format": "twixt-arena/game/1", "game": game, "seed": 1000 + game, "size": 12,
         "limits": {"first_turn_ms": 1000, "turn_ms": 300, "margin_ms": 0, "soft": False},
         "referee": "twixt-arena 0.1.0", "started": "2026-11-21T21:00:00Z"}
    if run is not None:
        r["run"] = RUNS[run]
    r["players"] = [{"name": n, "command": "bots/" + n, "sha256": None, "stderr_bytes": 0,
                     "extra_lines": 0, "links": []} for n in (p0, p1)]
    r["moves"] = []
    for m in moves:
        player, move, us = m[:3]
        d = {"player": player, "move": move, "us": us}
        if len(m) > 3:
            d["forced"] = True
        r["moves"].append(d)
    r["result"] = {"winner": winner, "reason": reason, "detail": detail}
    return json.dumps(r, separators=(",", ":"), ensure_ascii=False)

a = [
    record("r1", 1, "A", "B", [(0, "F6", -1, "forced"), (1, "G8", 2000), (0, "H10", 4000)], 0, "connection"),
    record("r1", 2, "B", "A", [(0, "F6", 1000), (1, "SWAP", 3000)], None, "draw"),
    record("r1", 3, "A", "C", [(0, "F6", 1000), (1, "G8", 5000), (0, None, 301000)], 1, "timeout"),
    record("r1", 4, "C", "A", [(0, "F6", 7000), (1, "G8", 2000), (0, "Z99", 500)], 1, "invalid"),
    record("r1", 5, "B", "C", [(0, "F6", 1000), (1, None, 1200)], 0, "crash"),
    record("r1", 6, "C", "B", [(0, "F6", 99999999)], None, "interrupted"),
    record("r1", 7, "A", "B", [(0, "F6", 2000), (1, "G8", 4000)], 0, "connection"),
]
torn = record("r1", 9, "A", "C", [(0, "F6", 1000)], 0, "connection")[:150]
b = [
    a[6],  # game 7 of run r1 again: counted once
    record("r1", 8, "B", "A", [(0, "F6", 6000), (1, "G8", 8000)], 0, "connection"),
    record("r2", 1, "C", "A", [(0, "F6", 3000), (1, "G8", 1000)], 0, "connection"),
    "",    # a blank line is skipped
    record(None, 1, "A", "B", [(0, "F6", 1000), (1, "G8", 1000)], None, "draw"),
]
with open("standings-a.jsonl", "w") as f:
    f.write("\n".join(a) + "\n")
with open("standings-b.jsonl", "w") as f:
    f.write("\n".join(b) + "\n" + torn)  # no newline: torn by a kill -9
with open("standings-corrupt.jsonl", "w") as f:
    bad = a[1].replace('"game":2', '"game":"2"')
    f.write("\n".join([a[0], bad, a[2]]) + "\n")
