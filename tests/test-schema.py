#!/usr/bin/env python3
"""test-schema.py - protocol/game-record.schema.json with a real validator.

    test-schema.py TWIXT_ARENA FAULT_BOT TINY_BOT

With python3-jsonschema (Debian's package; a Draft 2020-12 validator):

1. The schema is a valid Draft 2020-12 schema.
2. Every record the referee writes validates: the golden records, the
   fixtures recorded from real runs, and records written here by real
   `twixt-arena play`, `tournament` and an interrupted `play` of the test
   bots, which together hold every result reason, a forced opening, a
   swap, a cut message, a rejected token, stderr, extra lines, soft limits
   with a margin, the smallest and largest boards, and a pairing, a chain
   and "sandbox" on one record (checked, so that the runs cannot silently
   stop covering them). Each of those files also
   verifies with `twixt-arena replay` (so the loader takes it back).
3. Every record of tests/data/tampered-records.json is refused by the
   schema, and by the loader through `twixt-arena replay FILE` (exit status
   1, "not a game record: " and the loader's message). Cases marked
   "schema": false are beyond JSON Schema (the schema's description lists
   them): the schema must accept them, so the list stays true, and the
   loader must still refuse them.
"""
import copy
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

try:
    import jsonschema
except ImportError:
    sys.exit("test-schema: python3-jsonschema is missing (scripts/setup --tests installs it)")

SOURCE = os.environ.get("TX_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..")
ARENA, FAULT, TINY = sys.argv[1:4]
failures = []


def fail(what):
    failures.append(what)
    print("FAIL:", what, file=sys.stderr)


def source(*parts):
    return os.path.join(SOURCE, *parts)


with open(source("protocol", "game-record.schema.json"), encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)


def schema_errors(record):
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(record)", e.message[:200])
            for e in validator.iter_errors(record)]


def check_records(path, lines):
    """Each line of a JSON Lines file (or one JSON document) validates."""
    for number, line in enumerate(lines, 1):
        errors = schema_errors(json.loads(line))
        if errors:
            fail("%s:%d: the schema refuses a record the referee wrote: %s"
                 % (path, number, "; ".join(errors[:3])))


# ---- 2. records the referee wrote ----

for name in sorted(os.listdir(source("tests", "golden"))):
    if name.endswith(".json"):
        with open(source("tests", "golden", name), encoding="utf-8") as f:
            check_records("tests/golden/" + name, [f.read()])
for rel in (("tests", "data", "referee-play.jsonl"), ("tests", "viewer", "games.jsonl")):
    with open(source(*rel), encoding="utf-8") as f:
        check_records("/".join(rel), f.read().splitlines())

tmp = tempfile.mkdtemp(prefix="test-schema-")


def fault(name, *args):
    return "%s=%s %s --size={size} --seed={seed}" % (name, FAULT, " ".join(args))


def tiny(name, *args):
    return "%s=%s --seed {seed} --size {size} %s" % (name, TINY, " ".join(args))


# Each run: its arguments, and the exit statuses it may end with (1: a
# finished match that a bot lost is not an error; see README).
runs = [
    # a forced opening, then player 2 swaps it; the other game the reverse
    ["play", fault("good", "good"), fault("swapper", "swapper"), "--games", "2",
     "--openings", "1"],
    # invalid answers: a token that is not a move, invalid UTF-8, an empty
    # line, a line over 4096 bytes; an occupied hole
    ["play", fault("garbage", "garbage", "2"), fault("play", "play"), "--games", "2"],
    ["play", fault("binary", "binary", "1"), fault("play", "play"), "--games", "2"],
    ["play", fault("empty", "empty", "1"), fault("long", "long-line", "2", "5000"),
     "--games", "2"],
    ["play", fault("occupied", "occupied", "2"), fault("play", "play"), "--games", "2"],
    # timeouts, silent and (when the machine keeps time to 25 ms) late, with
    # soft limits and a margin
    ["play", fault("hang", "hang", "2"), fault("late", "sleep", "2", "290"), "--games", "2",
     "--turn-ms", "200", "--time-margin-ms", "5", "--soft-timeouts"],
    # crashes
    ["play", fault("exit", "crash-exit", "2"), fault("segv", "crash-signal", "1"),
     "--games", "2"],
    # a cut message, stderr kept and flooded, extra lines
    ["play", fault("message", "message", "1"), fault("stderr", "stderr-turns", "1"),
     "--games", "2"],
    ["play", fault("flood", "flood-stderr", "1", "100000"), fault("lines", "lines", "2", "3"),
     "--games", "2"],
    # the smallest board (draws happen there) and the largest
    ["play", tiny("a"), tiny("b"), "--size", "5", "--games", "20"],
    ["play", tiny("a"), tiny("b"), "--size", "26", "--games", "2"],
    # a round robin with openings and bots that crash, hang or babble, in
    # the sandbox (its records carry pairing, chain and sandbox)
    ["tournament", tiny("t1", "--crash", "0.3"), tiny("t2", "--hang", "0.2"),
     tiny("t3", "--garbage", "0.3"), "--games-per-pair", "4", "--openings", "2",
     "--concurrency", "2", "--turn-ms", "100", "--sandbox", "on"],
]

written = []
for i, args in enumerate(runs):
    out = os.path.join(tmp, "run%d.jsonl" % i)
    cmd = [ARENA] + args + ["-o", out, "--seed", "7"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode not in (0, 1) or not os.path.exists(out):
        fail("%s: exit status %d: %s" % (" ".join(args[:3]), r.returncode, r.stderr[-500:]))
        continue
    written.append(out)

# Interrupted games: two bots that think 300 ms a turn, stopped by SIGINT.
out = os.path.join(tmp, "interrupted.jsonl")
proc = subprocess.Popen([ARENA, "play", fault("slow1", "slow", "1", "300"),
                         fault("slow2", "slow", "1", "300"), "--games", "2", "--concurrency", "2",
                         "--turn-ms", "2000", "-o", out],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1.0)
proc.send_signal(signal.SIGINT)
if proc.wait(timeout=60) != 130:
    fail("interrupted play: exit status %d, expected 130" % proc.returncode)
written.append(out)

seen = set()
for path in written:
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    check_records(path, lines)
    for line in lines:
        r = json.loads(line)
        seen.add("reason " + r["result"]["reason"])
        seen.add("size %d" % r["size"])
        if r["limits"].get("soft") and r["limits"]["margin_ms"] > 0:
            seen.add("soft limits with a margin")
        if r.get("pairing"):
            seen.add("pairing")
        if r.get("chain"):
            seen.add("chain")
        if r.get("sandbox"):
            seen.add("sandbox")
        if r.get("pairing") and r.get("chain") and r.get("sandbox"):
            seen.add("pairing, chain and sandbox together")
        for p in r["players"]:
            if p["sha256"]:
                seen.add("sha256")
            if p["extra_lines"] > 0:
                seen.add("extra lines")
            if p["stderr_bytes"] > 65536:
                seen.add("stderr over what is kept")
        moves = r["moves"]
        for k, m in enumerate(moves):
            if m.get("forced"):
                seen.add("forced")
            if m["move"] == "SWAP":
                seen.add("swap")
            if m.get("message_cut"):
                seen.add("cut message")
            if m.get("stderr"):
                seen.add("stderr")
            if k == len(moves) - 1 and r["result"]["reason"] == "invalid" and m["move"] == "":
                seen.add("empty token")
            if k == len(moves) - 1 and r["result"]["reason"] == "timeout" and m["move"]:
                seen.add("late answer")
    v = subprocess.run([ARENA, "replay", path], capture_output=True, text=True, timeout=120)
    if v.returncode != 0:
        fail("replay %s: exit status %d: %s" % (path, v.returncode, v.stdout[-800:]))
wanted = {"reason connection", "reason draw", "reason invalid", "reason timeout", "reason crash",
          "reason interrupted", "size 5", "size 12", "size 26", "soft limits with a margin", "pairing", "chain",
          "sandbox", "pairing, chain and sandbox together", "sha256", "extra lines", "stderr over what is kept", "forced", "swap", "cut message",
          "stderr", "empty token"}
if wanted - seen:
    fail("the runs no longer write records with: %s" % ", ".join(sorted(wanted - seen)))

# ---- 3. tampered records ----

with open(source("tests", "data", "tampered-records.json"), encoding="utf-8") as f:
    tampered = json.load(f)
RAW_MARK = "@raw@"


def compact(record):
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def tampered_text(case):
    """The base with case applied, as the file's description says."""
    record = copy.deepcopy(tampered["base"])
    if "path" in case:
        keys = [int(k) if k.isdigit() else k for k in case["path"].split(".")]
        parent = record
        for k in keys[:-1]:
            parent = parent[k]
        last = keys[-1]
        if case.get("delete"):
            del parent[last]
        elif "value" in case:
            parent[last] = case["value"]
        elif "repeat" in case:
            parent[last] = [copy.deepcopy(case["repeat"][0]) for _ in range(case["repeat"][1])]
        elif "chars" in case:
            parent[last] = case["chars"][0] * case["chars"][1]
        else:
            parent[last] = RAW_MARK
    text = compact(record)
    if "raw" in case:
        text = text.replace('"%s"' % RAW_MARK, case["raw"], 1)
    if "old" in case:
        if case["old"] not in text:
            raise SystemExit("test-schema: no %s in the base record" % case["old"])
        text = text.replace(case["old"], case["new"], 1)
    return text


errors = schema_errors(tampered["base"])
if errors:
    fail("the schema refuses the tampered records' base: %s" % "; ".join(errors))
for i, case in enumerate(tampered["cases"]):
    name = "tampered case %d (%s)" % (i, case.get("what") or case.get("path"))
    text = tampered_text(case)
    errors = schema_errors(json.loads(text))
    if case.get("schema", True) and not errors:
        fail("%s: the schema accepts it" % name)
    if not case.get("schema", True) and errors:
        fail("%s: marked beyond JSON Schema, but the schema refuses it (%s): update the case and "
             "the schema's description" % (name, errors[0]))
    path = os.path.join(tmp, "tampered%d.jsonl" % i)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    r = subprocess.run([ARENA, "replay", path], capture_output=True, text=True, timeout=60)
    want = "%s:1: not a game record: %s" % (path, case["loader"])
    if r.returncode != 1 or want not in r.stdout:
        fail("%s: replay exit status %d, expected 1 and \"%s\"; got: %s"
             % (name, r.returncode, want, (r.stdout + r.stderr)[:400]))

if failures:
    print("%d failures (files in %s)" % (len(failures), tmp), file=sys.stderr)
    sys.exit(1)
subprocess.run(["rm", "-rf", tmp], check=True)
print("schema: %d tampered records refused; records of %d runs valid (%s)"
      % (len(tampered["cases"]), len(written), ", ".join(sorted(seen))))
