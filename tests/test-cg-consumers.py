#!/usr/bin/env python3
"""test-cg-consumers.py - `twixt-arena referee` as brutaltester, psyleague
and cgarena run it, with the configurations README's "The CodinGame
toolchain" gives (read from README.md, so the recipes are what is tested).

usage: test-cg-consumers.py TWIXT_ARENA FAULT_BOT SOURCE_ROOT   (meson runs it)

None of the three tools is installed here (brutaltester needs a JVM and
Maven, psyleague and cgarena a package registry): each is emulated by the
few lines that run a game and read its result, written for this test from
what their sources do (dreignier/cg-brutaltester GameThread.java,
FakePsyho/psyleague psyleague.py and its README's play_game script,
aangairbender/cgarena src/worker.rs and assets/play_game.py). Each function
below says which behaviour of which tool it mirrors. The stock play_game
scripts are emulated the same way, as files with the same command line and
the same reading of the log, and the README's sed commands are applied to
them as a user applies them to the real ones.

Bots: tests/cg-data-bot.py prints [PDATA], [PDATA+], [PDATA][turn] and
[TDATA] lines; tests/cg-bot.py is a plain CodinGame bot; fault-bot crashes,
hangs or answers garbage; a bot plays itself (psyleague's self-play check).
"""
import concurrent.futures
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

ARENA, FAULT_BOT, SOURCE = (os.path.abspath(a) for a in sys.argv[1:4])
README = open(os.path.join(SOURCE, "README.md"), encoding="utf-8").read()
DATA_BOT = os.path.join(SOURCE, "tests", "cg-data-bot.py")
CG_BOT = os.path.join(SOURCE, "tests", "cg-bot.py")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def recipe(pattern, what):
    """The README's text that pattern's group 1 matches (a recipe)."""
    m = re.search(pattern, README, re.M)
    if not m:
        sys.exit(f"README.md has no {what} (looked for {pattern!r})")
    return m[1]


def env():
    """The recipes say `twixt-arena`: the program under test, on PATH."""
    e = dict(os.environ)
    e["PATH"] = os.path.dirname(os.path.abspath(ARENA)) + os.pathsep + e.get("PATH", "")
    return e


# ---- brutaltester ----

class Scanner:
    """java.util.Scanner over what the referee printed, with the calls
    GameThread makes (whitespace-separated tokens; nextLine returns the rest
    of the current line)."""

    def __init__(self, text):
        self.text, self.pos = text, 0

    def _token(self):
        return re.compile(r"\s*(\S+)").match(self.text, self.pos)

    def has_next(self):
        return self._token() is not None

    def has_next_int(self):
        m = self._token()
        return bool(m and re.fullmatch(r"[+-]?\d+", m[1]) and -2**31 <= int(m[1]) < 2**31)

    def next_int(self):
        m = self._token()
        self.pos = m.end()
        return int(m[1])

    def has_next_line(self):
        return self.pos < len(self.text)

    def next_line(self):
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end
        line, self.pos = self.text[self.pos:end], end + 1
        return line


class Brutaltester:
    """cg-brutaltester's GameThread and SeedGenerator: the referee's command
    split on single spaces (String.split(" ")), then -p1 CMD -p2 CMD, then
    "-d seed=N" when swapping (-s) or seeded (-i), then "-l DIR/gameN.json"
    with a logs directory; run without a shell; one score per player read
    with a Scanner (lines before an integer are "a problem with the referee
    output"), the rest of stdout kept as the game's data; a negative score
    or anything on stderr marks the game as an error. With -s the same seed
    is used for playerCount games in a row, the players rotated."""

    def __init__(self, referee, players, swap=False, initial_seed=None, logs=None):
        self.referee, self.players, self.swap, self.logs = referee, players, swap, logs
        self.seeded = swap or initial_seed is not None
        self.random = random.Random(initial_seed)
        self.used = 0
        self.seed = None
        self.lock = threading.Lock()
        n = len(players)
        self.wins = [[0] * n for _ in range(n)]
        self.games = []  # (game, seed, rotation, scores, errors, data)

    def get_seed(self):
        with self.lock:
            n = len(self.players)
            self.used %= n
            if self.used == 0:
                self.seed = self.random.randrange(2**31 - 1)
            result = (self.seed, self.used)
            self.used += 1
            return result

    def play(self, game):
        n = len(self.players)
        seed, rotation = self.get_seed()
        rotation = rotation if self.swap else 0
        command = self.referee.split(" ")
        for i in range(n):
            command += [f"-p{i + 1}", self.players[(i + rotation) % n]]
        if self.seeded:
            command += ["-d", f"seed={seed}"]
        if self.logs:
            command += ["-l", f"{self.logs}/game{game}.json"]
        p = subprocess.run(command, capture_output=True, text=True, env=env(), timeout=120)
        scanner, scores, errors = Scanner(p.stdout), [0] * n, []
        for seat in range(n):
            i = (seat + rotation) % n
            if scanner.has_next_int():
                scores[i] = scanner.next_int()
            else:
                problem = ""
                while not scanner.has_next_int() and scanner.has_next():
                    problem += scanner.next_line() + "\n"
                if problem:
                    errors.append(f"problem with referee output: {problem!r}")
                if scanner.has_next_int():
                    scores[i] = scanner.next_int()
            if scores[i] < 0:
                errors.append(f"negative score p{i}: {scores[i]}")
        data = ""
        while scanner.has_next_line():
            data += scanner.next_line() + "\n"
        if p.stderr:
            errors.append(f"error during game: {p.stderr!r}")
        with self.lock:
            for i in range(n):
                for j in range(n):
                    self.wins[i][j] += scores[i] > scores[j]
            self.games.append((game, seed, rotation, scores, errors, data, p.returncode))

    def run(self, games, threads=1):
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            list(pool.map(self.play, range(1, games + 1)))
        self.games.sort()
        return self


def test_brutaltester(work, bots):
    referee = recipe(r'java -jar cg-brutaltester\.jar -r "([^"]*)"', "brutaltester command")
    check(referee == "twixt-arena referee", f"README's brutaltester -r is {referee!r}")
    logs = os.path.join(work, "logs")
    os.mkdir(logs)

    # Two data bots, seats exchanged on each seed (-s), seeded (-i), logs.
    bt = Brutaltester(referee, [bots["data"], bots["cg"]], swap=True, initial_seed=7,
                      logs=logs).run(6, threads=2)
    for game, seed, rotation, scores, errors, data, status in bt.games:
        check(not errors and status == 0, f"brutaltester game {game}: {errors}, exit {status}")
        check(sorted(scores) in ([0, 1], [0, 0]), f"brutaltester game {game}: scores {scores}")
        check(data.strip() == f"seed={seed}", f"brutaltester game {game}: data {data!r}")
        log = json.load(open(f"{logs}/game{game}.json"))
        check(log["uinput"] == [f"seed={seed}"], f"game {game}: uinput {log['uinput']}")
        seat_of_data = rotation  # seat 0 plays players[rotation]
        stderr = "".join(e for e in log["errors"][str(0 if seat_of_data == 0 else 1)] if e)
        check("[PDATA] depth = 3" in stderr, f"game {game}: the data bot's stderr: {stderr[:80]!r}")
    seeds = [g[1] for g in bt.games]
    check(seeds[0] == seeds[1] and seeds[2] == seeds[3], f"-s plays each seed twice: {seeds}")
    check(sum(bt.wins[0]) + sum(bt.wins[1]) == 6, f"brutaltester stats: {bt.wins}")

    # Misbehaving bots: a score of -1, never an error of the referee's.
    for bad in ("crash", "hang", "garbage"):
        bt = Brutaltester(referee + " --turn-ms 100", [bots[bad], bots["cg"]], swap=True).run(2)
        for game, seed, rotation, scores, errors, data, status in bt.games:
            check(scores == [-1, 1] and status == 0 and errors == [f"negative score p0: -1"],
                  f"brutaltester {bad} game {game}: scores {scores}, errors {errors}")

    # Four referees at once sharing one records file.
    records = os.path.join(work, "brutal.jsonl")
    bt = Brutaltester(f"{referee} -o {records}", [bots["data"], bots["data-2"]], swap=True,
                      initial_seed=3).run(8, threads=4)
    check(all(not g[4] for g in bt.games), f"shared -o: {[g[4] for g in bt.games]}")
    lines = [json.loads(line) for line in open(records)]
    check(len(lines) == 8 and sorted(r["game"] for r in lines) == list(range(1, 9)),
          f"shared -o: {len(lines)} records, games {[r['game'] for r in lines]}")
    pairs = {}
    for r in lines:
        pairs.setdefault(r["pairing"]["key"], []).append(r["pairing"]["k"])
    check(all(sorted(k) == [1, 2] for k in pairs.values()),
          f"-s makes colour-exchanged pairs: {pairs}")
    st = subprocess.run([ARENA, "standings", "--json", records], capture_output=True, text=True)
    check(st.returncode == 0 and json.loads(st.stdout)["games"] == 8,
          f"standings of the shared file: {st.returncode} {st.stderr}")


# ---- psyleague ----

def try_str_to_numeric(x):
    """psyleague.py's conversion of test_data and player_data values."""
    if x is None:
        return None
    try:
        return int(x)
    except ValueError:
        try:
            return float(x)
        except ValueError:
            return x


def psyleague_play_game(cmd_play_game, bots, dir_bots, cwd, n_players=2):
    """psyleague.py play_games(): %ALL_PLAYERS% expanded word by word
    (cmd.split()), %DIR% replaced by dir_bots, %P1%..%P4% replaced as
    substrings by the bots' names; run with shell=True, stdout captured,
    stderr left to the terminal, SIGINT ignored in the child (so that its
    Ctrl-C lets games finish); a non-zero exit is "Fatal Error" and ends the
    league; the output stripped is JSON, a dict (or a list), given
    "players", and read into a Game: ranks, errors, test_data and
    player_data, every value through try_str_to_numeric."""
    cmd = cmd_play_game
    if "%ALL_PLAYERS%" in cmd:
        words = cmd.split()
        for i, word in enumerate(words):
            if "%ALL_PLAYERS%" in word:
                words[i] = " ".join(word.replace("%ALL_PLAYERS%", f"%P{j + 1}%")
                                    for j in range(n_players))
        cmd = " ".join(words)
    cmd = cmd.replace("%DIR%", dir_bots)
    for i in range(4):
        if f"%P{i + 1}%" in cmd:
            cmd = cmd.replace(f"%P{i + 1}%", bots[i])
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, cwd=cwd, env=env(), timeout=120,
                       preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    if p.returncode:
        return None, f"Fatal Error: {cmd} returned {p.returncode}"
    data = json.loads(p.stdout.decode("UTF-8").strip())
    data["players"] = bots
    game = {
        "players": data["players"],
        "ranks": data["ranks"],
        "errors": data["errors"],
        "test_data": {k: try_str_to_numeric(v) for k, v in data["test_data"].items()},
        "player_data": [{k: try_str_to_numeric(v) for k, v in d.items()}
                        for d in data["player_data"]],
    }
    return game, None


# psyleague's README play_game script, as it behaves: a temporary log
# file, a random seed below 2^31, the jar run through the shell with
# -pN "CMD", -d seed=N and -l "LOG", its output thrown away; scores read
# from the log; ranks = how many players scored more; errors = a negative
# score; test_data = the seed and [TDATA] values; player_data from
# [PDATA] and [PDATA+] (summed as floats), each errors entry of each
# player split in lines, stripped, split on single spaces, four words at
# least. (Written for this test; `java -jar referee.jar` is the line the
# README's sed replaces.)
PSYLEAGUE_SCRIPT = r'''
import json, os, random, subprocess, sys, tempfile
handle, log_path = tempfile.mkstemp(prefix="log_")
os.close(handle)
seed = random.randrange(0, 2**31)
players = sys.argv[1:]
command = "java -jar referee.jar"
for index, player in enumerate(players, 1):
    command += f' -p{index} "{player}"'
command += f' -d seed={seed} -l "{log_path}"'
subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with open(log_path) as f:
    log = json.load(f)
os.remove(log_path)
scores = [int(log["scores"][str(i)]) for i in range(len(players))]
result = {"ranks": [sum(s < t for t in scores) for s in scores],
          "errors": [int(s < 0) for s in scores],
          "test_data": {"seed": seed},
          "player_data": [{} for _ in players]}
for player in range(len(players)):
    for text in log["errors"][str(player)]:
        if not text:
            continue
        for line in text.split("\n"):
            words = line.strip().split(" ")
            if len(words) < 4:
                continue
            tag, key, value = words[0], words[1], words[3]
            if tag == "[TDATA]":
                result["test_data"][key] = value
            elif tag == "[PDATA]":
                result["player_data"][player][key] = value
            elif tag == "[PDATA+]":
                result["player_data"][player][key] = (
                    result["player_data"][player].get(key, 0.0) + float(value))
print(json.dumps(result))
'''


def apply_sed(script, sed):
    """A README `sed -i 's/A/B/' FILE` (or s|A|B|) applied to script."""
    m = re.fullmatch(r"sed -i '(s(.)(.*?)\2(.*?)\2)' play_game\.py", sed)
    if not m:
        sys.exit(f"README's sed command is not s/A/B/: {sed!r}")
    old, new = m[3].replace("\\/", "/"), m[4]
    check(old in script, f"the README's sed finds {old!r} in the stock script")
    return script.replace(old, new)


def test_psyleague(work, bots):
    league = os.path.join(work, "psyleague")
    os.makedirs(os.path.join(league, "bots"))
    # The programs are copied beside the wrappers: a sandboxed bot sees
    # under /tmp only the files its command names and the working
    # directory, and the source tree may be under /tmp (a CI clone).
    progs = os.path.join(league, "progs")
    os.makedirs(progs)
    for name in ("data", "data-2", "cg", "crash", "hang"):
        words = bots[name].split()
        for i, word in enumerate(words):
            if os.path.isabs(word) and os.path.isfile(word):
                words[i] = os.path.join(progs, os.path.basename(word))
                if not os.path.exists(words[i]):
                    shutil.copy2(word, words[i])
        link = os.path.join(league, "bots", name)
        with open(link, "w") as f:
            f.write(f"#!/bin/sh\nexec {' '.join(words)}\n")
        os.chmod(link, 0o755)
    native = recipe(r'^cmd_play_game = "(twixt-arena referee[^"]*)"$', "psyleague native recipe")
    stock = recipe(r'^cmd_play_game = "(python3 play_game\.py[^"]*)"$', "psyleague script recipe")
    sed = recipe(r"^(sed -i 's/java -jar referee\.jar/[^']*' play_game\.py)$", "psyleague sed")
    with open(os.path.join(league, "play_game.py"), "w") as f:
        f.write(apply_sed(PSYLEAGUE_SCRIPT, sed))

    for cmd in (native, stock):
        games = {}
        for players in (["data", "cg"], ["cg", "data"], ["crash", "data"], ["data", "hang"],
                        ["data", "data"], ["cg", "cg"], ["crash", "crash"]):
            game, fatal = psyleague_play_game(cmd, players, "bots", league)
            check(not fatal, f"psyleague {cmd}: {players}: {fatal}")
            games[tuple(players)] = game
        if failures:
            return
        for players, game in games.items():
            check(len(game["ranks"]) == 2 and len(game["player_data"]) == 2,
                  f"psyleague {players}: {game}")
            check(isinstance(game["test_data"]["seed"], int), f"psyleague {players}: seed")
        check(games[("crash", "data")]["errors"] == [1, 0]
              and games[("crash", "data")]["ranks"] == [1, 0], f"crash: {games[('crash', 'data')]}")
        check(games[("data", "hang")]["errors"] == [0, 1], f"hang: {games[('data', 'hang')]}")
        # the self-play check adds a bot when no game of it against itself errs
        check(not any(games[("data", "data")]["errors"]), "data bot passes the self-play check")
        check(not any(games[("cg", "cg")]["errors"]), "cg-bot passes the self-play check")
        check(any(games[("crash", "crash")]["errors"]), "a crashing bot fails the self-play check")
        data = games[("data", "cg")]
        check(data["test_data"].get("side") == 1, f"[TDATA] side: {data['test_data']}")
        pd = data["player_data"][0]
        check(isinstance(pd.get("depth"), int) and isinstance(pd.get("nodes"), (int, float))
              and pd["nodes"] > 0, f"[PDATA] and [PDATA+]: {pd}")
        check(data["player_data"][1] == {}, f"cg-bot prints no data: {data['player_data'][1]}")

    # The native JSON is the stock script's, for the same game.
    script = subprocess.run([sys.executable, "play_game.py", "bots/data", "bots/cg"],
                            capture_output=True, text=True, cwd=league, env=env(), timeout=120)
    from_script = json.loads(script.stdout)
    seed = from_script["test_data"]["seed"]
    direct = subprocess.run(["twixt-arena", "referee", "--format", "psyleague", "-p1", "bots/data",
                             "-p2", "bots/cg", "-seed", str(seed)],
                            capture_output=True, text=True, cwd=league, env=env(), timeout=120)
    check(direct.returncode == 0 and not direct.stderr
          and json.loads(direct.stdout) == from_script,
          f"psyleague native and stock script differ:\n {direct.stdout}\n {script.stdout}")


# ---- cgarena ----

def cgarena_play_match(cmd_play_match, run_commands, seed, cwd):
    """cgarena worker.rs run_play_matches() and spawn_play_match_command():
    cmd_play_match split on ASCII whitespace; a word that is exactly
    {SEED}, {P1}..{P8} becomes the seed (an i64) or that bot's cmd_run, one
    argument however many words it has; {PLAYERS} becomes one argument per
    bot; run without a shell in the arena's directory; a non-zero exit is an
    error that cancels the arena; stdout must be UTF-8 JSON with ranks and
    errors (Vec<u8>, zipped exactly with the bots) and attributes (name: a
    string, player: null or a bot index, turn: null or a u16, value: a
    string; unknown fields ignored)."""
    parts = []
    for word in cmd_play_match.split():
        if word == "{SEED}":
            parts.append(str(seed))
        elif re.fullmatch(r"\{P[1-8]\}", word):
            parts.append(run_commands[int(word[2]) - 1])
        elif word == "{PLAYERS}":
            parts.extend(run_commands)
        else:
            parts.append(word)
    p = subprocess.run(parts, capture_output=True, cwd=cwd, env=env(), timeout=120)
    if p.returncode:
        return None, f"Error while running match: {p.stderr.decode('utf-8', 'replace')}"
    result = json.loads(p.stdout.decode("utf-8"))
    n = len(run_commands)
    u8 = lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255
    if len(result["ranks"]) != n or len(result["errors"]) != n or not all(
            u8(v) for v in result["ranks"] + result["errors"]):
        return None, f"ranks/errors are not {n} u8: {result}"
    for a in result.get("attributes", []):
        if not (isinstance(a["name"], str) and isinstance(a["value"], str)
                and (a.get("player") is None or a["player"] in range(n))
                and (a.get("turn") is None
                     or (isinstance(a["turn"], int) and 0 <= a["turn"] <= 65535))):
            return None, f"attribute serde refuses: {a}"
    return result, None


# cgarena's assets/play_game.py, as it behaves: a temporary log, the seed
# from its first argument, the jar run through the shell with -pN "CMD",
# -seed N and -l "LOG", output thrown away; scores from the log (on a
# missing score it prints failCause and exits 1); ranks and errors as
# psyleague's; attributes from every errors entry of each player, lines
# stripped and matched at their start by
# \[(T|P)DATA\](?:\[(\d+)\])?\s+(\w+)\s*=\s*(.+), case-insensitive.
# (Written for this test; the `java ... referee.jar` line is what the
# README's sed replaces.)
CGARENA_SCRIPT = r'''
import json, os, re, subprocess, sys, tempfile
handle, log_path = tempfile.mkstemp(prefix="log_")
os.close(handle)
seed = sys.argv[1]
players = sys.argv[2:]
command = "java --add-opens java.base/java.lang=ALL-UNNAMED -jar referee.jar"
for index, player in enumerate(players, 1):
    command += f' -p{index} "{player}"'
command += f' -seed {seed} -l "{log_path}"'
subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with open(log_path) as f:
    log = json.load(f)
os.remove(log_path)
try:
    scores = [int(log["scores"][str(i)]) for i in range(len(players))]
except Exception:
    print(log["failCause"], file=sys.stderr)
    sys.exit(1)
pattern = re.compile(r"\[(T|P)DATA\](?:\[(\d+)\])?\s+(\w+)\s*=\s*(.+)", re.IGNORECASE)
attributes = []
for player in range(len(players)):
    for text in log["errors"][str(player)]:
        if not text:
            continue
        for line in text.split("\n"):
            m = pattern.match(line.strip())
            if m:
                attributes.append({"name": m[3],
                                   "player": player if m[1].upper() == "P" else None,
                                   "turn": int(m[2]) if m[2] else None,
                                   "value": m[4]})
print(json.dumps({"ranks": [sum(s < t for t in scores) for s in scores],
                  "errors": [int(s < 0) for s in scores],
                  "attributes": attributes}))
'''


def test_cgarena(work, bots):
    arena = os.path.join(work, "cgarena")
    for bot_id, source in ((1, DATA_BOT), (2, CG_BOT), (3, DATA_BOT)):
        os.makedirs(os.path.join(arena, "bots", str(bot_id)))
        with open(source) as f, open(os.path.join(arena, "bots", str(bot_id), "bot.py"), "w") as g:
            g.write(f.read())
    # cmd_run = "python3 {DIR}/bot.py {seed}": {DIR} is cgarena's, {seed} the referee's
    run = {b: f"python3 bots/{b}/bot.py {{seed}}" for b in (1, 2, 3)}
    run["crash"] = bots["crash"]
    check(re.search(r"^symmetric = false$", README, re.M), "README's cgarena: symmetric = false")
    native = recipe(r'^cmd_play_match = "(twixt-arena referee[^"]*)"$', "cgarena native recipe")
    stock = recipe(r'^cmd_play_match = "(python3 play_game\.py[^"]*)"$', "cgarena script recipe")
    sed = recipe(r"^(sed -i 's\|java --add-opens[^']*' play_game\.py)$", "cgarena sed")
    with open(os.path.join(arena, "play_game.py"), "w") as f:
        f.write(apply_sed(CGARENA_SCRIPT, sed))

    rng = random.Random(11)
    for cmd in (native, stock):
        for seed in (rng.randrange(-2**63, 0), rng.randrange(2**63), -2**63, 2**63 - 1):
            # symmetric = false: every order of the players on each seed
            results = {}
            for order in ((1, 2), (2, 1)):
                result, error = cgarena_play_match(cmd, [run[b] for b in order], seed, arena)
                check(not error, f"cgarena {cmd} seed {seed} {order}: {error}")
                results[order] = result
            if failures:
                return
            for order, result in results.items():
                data_seat = order.index(1)
                mine = [a for a in result["attributes"] if a["player"] == data_seat]
                turns = [a["turn"] for a in mine if a["name"] == "eval"]
                check(turns and turns == list(range(1, len(turns) + 1)),
                      f"cgarena {order}: [PDATA][turn] turns {turns}")
                check(any(a["player"] is None and a["name"] == "side" for a in result["attributes"]),
                      f"cgarena {order}: [TDATA] side")
                check(not any(result["errors"]), f"cgarena {order}: errors {result['errors']}")
        # a bot playing itself, and a crash (a score, not a failed match)
        result, error = cgarena_play_match(cmd, [run[1], run[3]], 5, arena)
        check(not error and not any(result["errors"]), f"cgarena self-play: {error} {result}")
        result, error = cgarena_play_match(cmd, [run["crash"], run[2]], 5, arena)
        check(not error and result["errors"] == [1, 0] and result["ranks"] == [1, 0],
              f"cgarena crash: {error} {result}")

    # The native JSON is the stock script's, for the same seed.
    for seed in (-77, 123456789012345):
        a, _ = cgarena_play_match(native, [run[1], run[2]], seed, arena)
        b, _ = cgarena_play_match(stock, [run[1], run[2]], seed, arena)
        check(a == b, f"cgarena native and stock script differ for seed {seed}:\n {a}\n {b}")


# ---- the referee's own promises ----

def test_referee(work, bots):
    run = lambda *args, **kw: subprocess.run(["twixt-arena", "referee", *args], capture_output=True,
                                              text=True, env=env(), timeout=120, **kw)
    # The same seed and seats replay the same game.
    logs = []
    for i in range(2):
        path = os.path.join(work, f"replay{i}.json")
        p = run("-p1", f"python3 {DATA_BOT} {{seed}}", "-p2", bots["cg"], "-seed", "-31",
                "--openings", "2", "-l", path)
        check(p.returncode == 0 and not p.stderr, f"replay {i}: {p.returncode} {p.stderr}")
        logs.append(json.load(open(path))["outputs"])
    check(logs[0] == logs[1], "the same seed replays the same game")
    # -o: played again, not recorded twice; the record is a normal one.
    records = os.path.join(work, "twice.jsonl")
    for _ in range(2):
        run("-p1", bots["data"], "-p2", bots["cg"], "-seed", "8", "-o", records)
    check(len(open(records).readlines()) == 1, "a game is recorded once")
    p = subprocess.run([ARENA, "replay", records], capture_output=True, text=True)
    check(p.returncode == 0, f"replay of the referee's record: {p.stdout} {p.stderr}")
    # A SIGINT ignored at start stays ignored (psyleague); SIGTERM stops.
    slow = f"{FAULT_BOT} slow 1 40"
    p = subprocess.Popen([ARENA, "referee", "-p1", slow, "-p2", slow, "-seed", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    threading.Timer(0.5, lambda: p.send_signal(signal.SIGINT)).start()
    out, err = p.communicate(timeout=120)
    check(p.returncode == 0 and not err and out.endswith("seed=1\n"),
          f"ignored SIGINT: {p.returncode} {out!r} {err!r}")
    p = subprocess.Popen([ARENA, "referee", "-p1", slow, "-p2", slow, "-seed", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    threading.Timer(0.5, lambda: p.send_signal(signal.SIGTERM)).start()
    out, err = p.communicate(timeout=120)
    check(p.returncode == 128 + signal.SIGTERM and out == "" and "interrupted" in err,
          f"SIGTERM: {p.returncode} {out!r} {err!r}")


def main():
    work = tempfile.mkdtemp(prefix="tx-cg-")
    bots = {
        "data": f"python3 {DATA_BOT}",
        "data-2": f"python3 {DATA_BOT} 2",
        "cg": f"python3 {CG_BOT}",
        "crash": f"{FAULT_BOT} crash-signal 2",
        "hang": f"{FAULT_BOT} hang 2",
        "garbage": f"{FAULT_BOT} garbage 2",
    }
    try:
        for test in (test_referee, test_brutaltester, test_psyleague, test_cgarena):
            print(f"== {test.__name__}", flush=True)
            test(work, bots)
    finally:
        subprocess.run(["rm", "-rf", work])
    if failures:
        sys.exit(f"{len(failures)} failure(s)")
    print("brutaltester, psyleague and cgarena get what they expect")


if __name__ == "__main__":
    main()
