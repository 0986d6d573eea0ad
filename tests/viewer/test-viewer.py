#!/usr/bin/env python3
"""test-viewer.py - the HTML viewer of `twixt-arena replay --format html` in a
real headless browser (Debian's chromium).

usage: test-viewer.py TWIXT_ARENA    (meson runs it; exit 77 = skipped)

The page is opened at #game=K&move=M, and chromium's --dump-dom gives the DOM
after the page's scripts ran. The viewer mirrors what it shows in #tx-state
and records every script error and console.error in #tx-errors, so the test
checks:
  - the page loads without errors;
  - stepping to a move shows exactly that move's pegs (computed here,
    independently, from the record's moves, a swap included), and the
    slider, counter and move list follow;
  - a record whose bot text (name, message, stderr) is HTML and <script>
    shows it literally and runs none of it;
  - the file is self-contained (no network reference) and the viewer never
    uses innerHTML or its relatives.
Only the standard library; the fixture is tests/viewer/games.jsonl.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
FAILURES = []

HOSTILE_NAME = "<img src=x onerror=\"document.body.setAttribute('data-pwned','name')\">"
HOSTILE_MESSAGE = "<script>f()</script>"  # 20 characters: kept whole
HOSTILE_STDERR = ("</script><script>document.body.setAttribute('data-pwned','stderr')</script>"
                  "<b>bold</b> & <!-- -->\n")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


class Dom(html.parser.HTMLParser):
    """Collects elements by id (attributes, text) and every attribute name."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.by_id = {}
        self.stack = []
        self.attr_names = set()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        self.attr_names.update(attrs)
        node = {"tag": tag, "attrs": attrs, "text": ""}
        if "id" in attrs:
            self.by_id[attrs["id"]] = node
        if tag not in ("img", "input", "br", "meta", "circle", "line", "rect", "path"):
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        for node in self.stack:
            node["text"] += data


def chromium_dump(browser, url):
    profile = tempfile.mkdtemp(prefix="tx-chromium-")
    try:
        run = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--dump-dom", url],
            capture_output=True, text=True, timeout=90)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    check(run.returncode == 0, f"chromium exit status {run.returncode}: {run.stderr[-500:]}")
    # Console messages of the page also reach chromium's log.
    for line in run.stderr.splitlines():
        if "CONSOLE" in line and ("Uncaught" in line or "Error" in line):
            check(False, "console error in the browser log: " + line)
    dom = Dom()
    dom.feed(run.stdout)
    return dom, run.stdout


def expected_pegs(record, m):
    """Pegs of each player after m entries, in placement order, replayed
    here without libtwixt: a peg per legal hole, and the swap mirror."""
    pegs = [[], []]
    for entry in record["moves"][:m]:
        move, p = entry["move"], entry["player"]
        if move == "SWAP":
            old = pegs[0].pop()
            x, y = ord(old[0]) - 65, int(old[1:]) - 1
            pegs[1].append(chr(65 + y) + str(x + 1))
        elif move is not None:
            pegs[p].append(move)
    return pegs


def state_of(dom):
    node = dom.by_id.get("tx-state")
    check(node is not None, "#tx-state missing")
    return node["attrs"] if node else {}


def check_loaded_cleanly(dom, where):
    errors = dom.by_id.get("tx-errors")
    check(errors is not None, f"{where}: #tx-errors missing")
    if errors:
        check(errors["text"].strip() == "", f"{where}: page errors: {errors['text'].strip()}")
        check("hidden" in errors["attrs"], f"{where}: #tx-errors is shown")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    arena = sys.argv[1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("chromium not installed: skipped (apt-get install chromium)")
        return 77

    records = [json.loads(line) for line in open(os.path.join(HERE, "games.jsonl"))]
    # The hostile game: the second record with bot text that is markup.
    hostile = json.loads(json.dumps(records[1]))
    hostile["game"] = 9
    hostile["players"][1]["name"] = HOSTILE_NAME
    hostile["moves"][3]["message"] = HOSTILE_MESSAGE
    hostile["moves"][3]["stderr"] = HOSTILE_STDERR
    work = tempfile.mkdtemp(prefix="tx-viewer-")
    games = os.path.join(work, "games.jsonl")
    with open(games, "w") as f:
        for r in records + [hostile]:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

    verify = subprocess.run([arena, "replay", games], capture_output=True, text=True)
    check(verify.returncode == 0, "the fixture does not verify: " + verify.stdout + verify.stderr)
    page = os.path.join(work, "view.html")
    made = subprocess.run([arena, "replay", games, "--format", "html", "-o", page], capture_output=True,
                          text=True)
    check(made.returncode == 0, "replay --format html failed: " + made.stderr)
    text = open(page, encoding="utf-8").read()

    # Self-contained and inert by construction.
    viewer = open(os.path.join(SOURCE, "referee", "viewer.html"), encoding="utf-8").read()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        check(sink not in viewer.split("-->", 1)[1], f"viewer.html uses {sink}")
    check(not re.search(r"""(src|href|url)\s*[=(]\s*["']?\s*(https?:)?//""", text, re.I),
          "the page references something on the network")
    # Each embedded game must run to its own </script>: no bot text ended it early.
    embedded = re.findall(r'<script type="application/json" class="tx-game">(.*?)</script>', text, re.S)
    check(len(embedded) == 3, f"{len(embedded)} games embedded, expected 3")
    for data in embedded:
        try:
            game = json.loads(data)
            check("record" in game and "meta" in game, "an embedded game lacks record or meta")
        except ValueError as e:
            check(False, f"embedded game is not whole JSON ({e}): a </script> cut it short?")
    check("<script>document.body" not in text, "hostile stderr embedded raw")

    # Game 1 (with a swap) stepped to move 2, to move 7, and to the end.
    r = records[0]
    check(r["moves"][1]["move"] == "SWAP", "fixture game 1 should swap at move 2")
    for m in (0, 2, 7, len(r["moves"])):
        url = "file://" + page + f"#game={r['game']}&move={m}"
        dom, raw = chromium_dump(browser, url)
        where = f"game {r['game']} move {m}"
        check_loaded_cleanly(dom, where)
        st = state_of(dom)
        want = expected_pegs(r, m)
        check(st.get("data-move") == str(m), f"{where}: data-move {st.get('data-move')}")
        check(st.get("data-pegs0", "").split() == want[0],
              f"{where}: player 1 pegs {st.get('data-pegs0')} != {want[0]}")
        check(st.get("data-pegs1", "").split() == want[1],
              f"{where}: player 2 pegs {st.get('data-pegs1')} != {want[1]}")
        drawn = sorted(a.get("data-hole") for t, a in dom.tags if t == "circle" and "peg" in a.get("class", ""))
        check(drawn == sorted(want[0] + want[1]), f"{where}: pegs drawn {drawn}")
        check(st.get("data-slider") == f"{m}/{len(r['moves'])}", f"{where}: slider at {st.get('data-slider')}")
        check(st.get("data-current-row") == (str(m) if m else ""),
              f"{where}: move list row {st.get('data-current-row')!r} highlighted")
        chain = [a for t, a in dom.tags if t == "line" and a.get("class") == "chain"]
        final = m == len(r["moves"])
        check(bool(chain) == final, f"{where}: winning chain shown: {bool(chain)}")
        if final:
            check("wins by connection" in dom.by_id["result"]["text"], f"{where}: result text")

    # The hostile game at the move with the markup message and stderr.
    url = "file://" + page + "#game=9&move=4"
    dom, raw = chromium_dump(browser, url)
    check_loaded_cleanly(dom, "hostile game")
    check("data-pwned" not in dom.attr_names, "bot text ran as code (data-pwned set)")
    check(not any(t == "img" for t, a in dom.tags), "bot text became an <img> element")
    check(not any(t == "b" for t, a in dom.tags), "bot text became a <b> element")
    player2 = dom.by_id.get("player1")
    check(player2 is not None and HOSTILE_NAME in player2["text"], "the hostile name is not shown literally")
    check(player2 is not None and HOSTILE_MESSAGE in player2["text"], "the hostile message is not shown literally")
    check(player2 is not None and HOSTILE_STDERR.strip() in player2["text"],
          "the hostile stderr is not shown literally")
    st = state_of(dom)
    check(st.get("data-message1") == HOSTILE_MESSAGE, f"message shown as {st.get('data-message1')!r}")
    check("&lt;script&gt;f()&lt;/script&gt;" in raw, "the message is not escaped text in the DOM")

    shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    print("viewer: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
