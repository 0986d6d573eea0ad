#!/usr/bin/env python3
"""test-viewer.py - the HTML viewer of `twixt-arena replay --format html` in a
real headless browser (Debian's chromium), used as a person would use it.

usage: test-viewer.py TWIXT_ARENA MAKE_GAMES    (meson runs it; exit 77 = skipped)

TX_VIEWER_SHOTS=DIR keeps screenshots of the 100 x 100 board (fitted, then
zoomed), of the 30 x 24 classic game, of the four-player game at its first
privilege and of the cut game at moves 1 and 3 in DIR, to look at.

One chromium is driven over the DevTools protocol (browser.py: a pipe, the
standard library only): pages are opened at #game=K&move=M, keys are real
key presses, and the viewer mirrors what it shows in #tx-state and records
every script error in #tx-errors. The test checks:
  - the page loads without errors, at a normal and a narrow width;
  - stepping to a move shows exactly that move's pegs (computed here,
    independently, from the record's moves, a swap included), and the
    slider, counter and move list follow;
  - under the board, "Final result" only at the last move, before it the
    current move and who is next; the tab title names the game;
  - the keyboard: one step per arrow key with the slider focused; after
    choosing a game in the picker, left/right step moves, not games; space
    on a focused button plays once;
  - the picker lists games in game order, whatever the file's order, and a
    newly chosen game opens at its last move;
  - the speed control sets the time between moves when playing;
  - an address with a game the file does not hold, or a move past the end,
    says so in the page;
  - a long result line wraps under the board instead of pushing the side
    panel away, and a narrow window does not scroll sideways;
  - players are "player 1" and "player 2" in every text shown;
  - a record whose bot text (name, message, stderr) is HTML and <script>
    shows it literally and runs none of it; a record that fails
    verification is shown with the reason;
  - the file is self-contained (no network reference) and the viewer never
    uses innerHTML or its relatives;
  - the SVG render's caption (a timeout's long detail) stays inside the
    picture, measured by the browser;
  - a classic game with link edits on 30 x 24: as the slider moves
    (forwards, backwards, by jumps) the board shows exactly the links
    libtwixt has at that move (`replay --format text --move M` lists
    them), a removal takes its link away and shows it dashed, stepping
    back puts it back, an addition makes one; the move list and the line
    under the board show the edits; the header names the rules and board;
  - a 100 x 100 game: the board fits the window, the rulers name the
    columns and rows without overlapping (and the last move's), keys,
    buttons, the wheel and a two-finger pinch zoom (the wheel keeps the
    hole under the pointer there), a drag pans, 0 fits again; the move
    list holds only the rows in sight, all of one height, and a click on
    one far down goes there;
  - Double TwixT (four bots, each team calling privilege once): four
    player panels, partners next to each other in their team's colour,
    each move in the list by its bot, the privilege marked in the list and
    under the board, the partner that moves at once and the bot that loses
    its turn said in their panels; the slider, forwards, backwards and by
    jumps, draws exactly the pegs and links of `replay --format text
    --move M` (the pegs read off its diagram);
  - the cut opening: the three pegs and their link at move 1, all three
    ringed, no side for either player until the choice, then player 1
    blue and player 2 red, and the same comparison with the text render;
  - the pie opening: the swap keeps the peg and exchanges the sides;
  - a handicap record: the header names the handicapped bot and its
    distance.
The fixtures are tests/viewer/games.jsonl: two long games (one with a swap)
and a game lost by timeout, all written by the referee; and the games
make-games.c writes: random classic games with link edits, on 30 x 24 and
100 x 100, a four-player game with privilege, a cut game and a pie game.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from browser import Browser, BrowserError, find_chromium  # noqa: E402

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


def state(b):
    """#tx-state's data attributes (what the viewer shows), as a dict."""
    return b.js("(function () { var s = {}; Array.from(document.getElementById('tx-state').attributes)"
                ".forEach(function (a) { if (a.name.startsWith('data-')) s[a.name.slice(5)] = a.value; });"
                " return s; })()")


def shown(b, element_id):
    """The text of an element, or None when it is hidden or missing."""
    return b.js(f"(function () {{ var e = document.getElementById('{element_id}');"
                " return !e || e.hidden ? null : e.textContent; })()")


def open_page(b, url, where, width=1280, height=900):
    b.console.clear()
    b.open(url, width=width, height=height)
    errors = shown(b, "tx-errors")
    check(errors is None, f"{where}: page errors: {errors}")
    bad = [c for c in b.console if c[0] in ("exception", "error")]
    check(not bad, f"{where}: console errors: {bad}")


def check_steps(b, page, r):
    """Game r (with a swap) opened at moves 0, 2, 7 and the end."""
    n = len(r["moves"])
    for m in (0, 2, 7, n):
        where = f"game {r['game']} move {m}"
        open_page(b, "file://" + page + f"#game={r['game']}&move={m}", where)
        st = state(b)
        want = expected_pegs(r, m)
        check(st.get("move") == str(m), f"{where}: data-move {st.get('move')}")
        check(st.get("pegs0", "").split() == want[0], f"{where}: player 1 pegs {st.get('pegs0')} != {want[0]}")
        check(st.get("pegs1", "").split() == want[1], f"{where}: player 2 pegs {st.get('pegs1')} != {want[1]}")
        drawn = b.js("Array.from(document.querySelectorAll('circle.peg')).map(function (c) {"
                     " return c.getAttribute('data-hole'); })")
        check(sorted(drawn) == sorted(want[0] + want[1]), f"{where}: pegs drawn {drawn}")
        check(st.get("slider") == f"{m}/{n}", f"{where}: slider at {st.get('slider')}")
        check(st.get("current-row") == (str(m) if m else ""),
              f"{where}: move list row {st.get('current-row')!r} highlighted")
        chain = b.js("document.querySelectorAll('line.chain').length")
        check(bool(chain) == (m == n), f"{where}: winning chain shown: {bool(chain)}")
        check(shown(b, "notice") is None, f"{where}: a notice for a valid address: {shown(b, 'notice')}")
        # "Final result" at the last move only; before it, this move's state.
        status = shown(b, "result")
        if m == n:
            check(status == "Final result: player 1 alpha wins by connection (D1-C12)",
                  f"{where}: result line {status!r}")
        else:
            check("Final result" not in status and "wins" not in status, f"{where}: result line {status!r}")
            nxt = "player %d" % (r["moves"][m]["player"] + 1)
            check(status.endswith(f"Next: {nxt} " + r["players"][r["moves"][m]["player"]]["name"] + "."),
                  f"{where}: result line {status!r} does not say {nxt} is next")
        if m == 2:
            check(status.startswith("Move 2: player 2 beta swapped ("), f"{where}: result line {status!r}")
        if m == 7:
            mv = r["moves"][6]
            check(status.startswith(f"Move 7: player {mv['player'] + 1} ") and f"played {mv['move']}." in status,
                  f"{where}: result line {status!r}")
        title = b.js("document.title")
        check(title.startswith("game 1: alpha vs beta"), f"{where}: tab title {title!r}")


def check_hostile(b, page):
    open_page(b, "file://" + page + "#game=9&move=4", "hostile game")
    raw = b.html()
    dom = Dom()
    dom.feed(raw)
    check("data-pwned" not in dom.attr_names, "bot text ran as code (data-pwned set)")
    check(not any(t == "img" for t, a in dom.tags), "bot text became an <img> element")
    check(not any(t == "b" for t, a in dom.tags), "bot text became a <b> element")
    player2 = dom.by_id.get("player1")
    check(player2 is not None and HOSTILE_NAME in player2["text"], "the hostile name is not shown literally")
    check(player2 is not None and HOSTILE_MESSAGE in player2["text"], "the hostile message is not shown literally")
    check(player2 is not None and HOSTILE_STDERR.strip() in player2["text"],
          "the hostile stderr is not shown literally")
    check(state(b).get("message1") == HOSTILE_MESSAGE, f"message shown as {state(b).get('message1')!r}")
    check("&lt;script&gt;f()&lt;/script&gt;" in raw, "the message is not escaped text in the DOM")
    check(HOSTILE_NAME in b.js("document.title"), "the tab title does not name the hostile game's players")


def check_picker(b, page, games_in_order):
    """Game order in the picker, a new game at its end, and the arrow keys
    stepping moves after a game was chosen."""
    open_page(b, "file://" + page + "#game=1&move=5", "picker")
    labels = b.js("Array.from(document.getElementById('picker').options).map(function (o) { return o.text; })")
    numbers = [int(re.match(r"game (\d+):", label).group(1)) for label in labels]
    check(numbers == games_in_order, f"picker order {numbers}, expected {games_in_order}")
    # Choose the next game with the keyboard, as a person can.
    b.js("document.getElementById('picker').focus()")
    b.key("ArrowDown")
    st = state(b)
    second = games_in_order[1]
    n2 = b.js("document.getElementById('slider').max")
    check(st.get("game") == str(second), f"picker: ArrowDown chose game {st.get('game')}, expected {second}")
    check(st.get("move") == n2, f"picker: the new game opened at move {st.get('move')}, not its last ({n2})")
    b.key("ArrowLeft")
    st = state(b)
    check(st.get("game") == str(second), f"picker focused: ArrowLeft changed the game to {st.get('game')}")
    check(st.get("move") == str(int(n2) - 1), f"picker focused: ArrowLeft went to move {st.get('move')}")
    b.key("ArrowLeft")
    b.key("ArrowRight")
    st = state(b)
    check(st.get("game") == str(second) and st.get("move") == str(int(n2) - 1),
          f"picker focused: left, right went to game {st.get('game')} move {st.get('move')}")
    b.key("Home")
    check(state(b).get("move") == "0" and state(b).get("game") == str(second),
          f"picker focused: Home went to game {state(b).get('game')} move {state(b).get('move')}")


def check_slider_keys(b, page):
    open_page(b, "file://" + page + "#game=2&move=10", "slider keys")
    b.js("document.getElementById('slider').focus()")
    for key, want in (("ArrowRight", 11), ("ArrowRight", 12), ("ArrowLeft", 11), ("Home", 0), ("End", 92),
                      ("ArrowLeft", 91)):
        b.key(key)
        st = state(b)
        check(st.get("move") == str(want) and st.get("slider") == f"{want}/92",
              f"slider focused, {key}: move {st.get('move')}, slider {st.get('slider')}, expected {want}")
    # Space on a focused button plays (once: the button does not also click).
    b.click("#prev")
    check(state(b).get("move") == "90", f"clicking < went to move {state(b).get('move')}")
    b.key(" ")
    st = state(b)
    check(st.get("playing") == "yes" and st.get("move") == "90",
          f"space on a focused button: playing {st.get('playing')} at move {st.get('move')}")
    b.key(" ")
    check(state(b).get("playing") == "no", "space again did not pause")


def check_speed(b, page):
    """The speed select sets the time between moves: played at 0.1 s a move,
    the 7-move game's moves come about 100 ms apart (the default is 500)."""
    open_page(b, "file://" + page + "#game=3&move=0", "speed")
    default = state(b).get("interval")
    check(default == "500", f"default interval {default} ms")
    b.js("document.getElementById('speed').focus()")
    b.key("ArrowDown")
    b.key("ArrowDown")
    st = state(b)
    check(st.get("interval") == "100", f"speed after two steps down: {st.get('interval')} ms")
    check(st.get("move") == "0", f"changing the speed moved to {st.get('move')}")
    # The page's own clock stamps each move as it is shown.
    b.js("window.txStamps = []; new MutationObserver(function () { txStamps.push(performance.now()); })"
         ".observe(document.getElementById('tx-state'), { attributeFilter: ['data-move'] }); 0")
    b.key(" ")
    started = time.monotonic()
    while state(b).get("playing") == "yes" and time.monotonic() - started < 20:
        time.sleep(0.05)
    st = state(b)
    check(st.get("move") == "7" and st.get("playing") == "no",
          f"playing at 0.1 s a move: ended at move {st.get('move')}, playing {st.get('playing')}")
    stamps = b.js("txStamps")
    gaps = sorted(later - earlier for earlier, later in zip(stamps, stamps[1:]))
    median = gaps[len(gaps) // 2] if gaps else None
    check(median is not None and 50 <= median <= 300,
          f"at 0.1 s a move, moves came {median} ms apart (all gaps: {[round(g) for g in gaps]})")


def check_notices(b, page, games_in_order):
    open_page(b, "file://" + page + "#game=999", "no such game")
    text = shown(b, "notice") or ""
    check("This file has no game 999" in text, f"#game=999: notice {text!r}")
    check(f"showing game {games_in_order[0]}" in text, f"#game=999: notice {text!r}")
    check(state(b).get("game") == str(games_in_order[0]), f"#game=999 shows game {state(b).get('game')}")
    open_page(b, "file://" + page + "#game=3&move=999", "move past the end")
    text = shown(b, "notice") or ""
    check("Game 3 has 7 moves, not 999" in text, f"#move=999: notice {text!r}")
    check(state(b).get("move") == "7", f"#move=999 shows move {state(b).get('move')}")
    open_page(b, "file://" + page + "#game=3&move=x", "not a move number")
    text = shown(b, "notice") or ""
    check('"x"' in text and "not a move number" in text, f"#move=x: notice {text!r}")
    # Stepping on clears it; an address that works never shows one.
    b.key("ArrowLeft")
    check(shown(b, "notice") is None, "the notice stays after the user moved")


def check_layout(b, page):
    """The timeout game: its long result line wraps under the board."""
    open_page(b, "file://" + page + "#game=3", "layout, wide", width=1280, height=900)
    status = shown(b, "result")
    check(status.startswith("Final result: player 2 delta wins by timeout (no answer in 300 ms"),
          f"timeout game: result line {status!r}")
    box = b.js("(function () { function r(s) { var b = document.querySelector(s).getBoundingClientRect();"
               " return [b.left, b.top, b.right, b.bottom]; }"
               " return { pane: r('#board-pane'), board: r('#board'), aside: r('aside'),"
               " result: r('#result'), width: document.documentElement.scrollWidth }; })()")
    check(abs(box["aside"][1] - box["pane"][1]) < 1, f"wide window: the side panel is not beside the board: {box}")
    check(box["pane"][2] - box["board"][2] < 20, f"wide window: the result line widened the board's pane: {box}")
    check(box["width"] <= 1280, f"wide window scrolls sideways: {box['width']} px")
    for width in (400, 320):
        open_page(b, "file://" + page + "#game=3", f"layout, {width} px", width=width, height=800)
        scroll = b.js("document.documentElement.scrollWidth")
        check(scroll <= width, f"{width} px window scrolls sideways: content {scroll} px wide")


def check_numbering(b, page):
    """Every text shown says player 1 / player 2, never player 0."""
    for url in ("#game=1&move=7", "#game=3", "#game=2&move=0"):
        open_page(b, "file://" + page + url, "numbering " + url)
        words = b.js("document.body.innerText + ' ' + document.title + ' ' + Array.from("
                     "document.querySelectorAll('[title]')).map(function (e) { return e.title; }).join(' ')")
        check(not re.search(r"\bplayer 0\b", words), f"{url}: 'player 0' shown")
        check("player 1" in words and "player 2" in words, f"{url}: players not numbered 1 and 2")


def check_failed_verification(b, page, game):
    open_page(b, "file://" + page + f"#game={game}", "failed verification")
    verdict = shown(b, "verdict") or ""
    check(verdict.startswith("verification failed at move 11:"), f"verdict banner {verdict!r}")
    labels = b.js("Array.from(document.getElementById('picker').options).map(function (o) { return o.text; })")
    check(any(label.startswith(f"game {game}:") and label.endswith("[verification failed]") for label in labels),
          f"picker does not mark game {game} as failed: {labels}")


def check_svg_caption(b, arena, games, work):
    """The SVG of the timeout game, opened by the browser: every caption
    line lies inside the picture."""
    svg = os.path.join(work, "timeout.svg")
    made = subprocess.run([arena, "replay", games, "--game", "3", "--format", "svg", "-o", svg],
                          capture_output=True, text=True)
    check(made.returncode == 0, "replay --format svg failed: " + made.stderr)
    b.open("file://" + svg, width=600, height=700)
    boxes = b.js("(function () { var s = document.documentElement; return { width: s.width.baseVal.value,"
                 " texts: Array.from(document.querySelectorAll('text')).map(function (t) {"
                 " var b = t.getBBox(); return [t.textContent, b.x, b.x + b.width]; }) }; })()")
    caption = " ".join(t[0] for t in boxes["texts"] if len(t[0]) > 3)
    check("player 2 delta wins by timeout (no answer in 300 ms" in caption, f"SVG caption {caption!r}")
    for content, left, right in boxes["texts"]:
        check(left >= 0 and right <= boxes["width"],
              f"SVG text {content!r} spans {left:.0f}..{right:.0f}, outside 0..{boxes['width']:.0f}")


def text_links(arena, games, game, m):
    """Each player's links after m entries, as `replay --format text`
    lists them (libtwixt replaying the record from the start): sets of
    "A1 B3" keys, the ends in name order as the viewer keys them."""
    out = subprocess.run([arena, "replay", games, "--game", str(game), "--format", "text", "--move", str(m),
                          "--color", "never"], capture_output=True, text=True)
    check(out.returncode == 0, f"replay --format text --move {m}: {out.stderr}")
    links, current = [set(), set()], None
    for line in out.stdout.splitlines():
        head = re.match(r"^([XO]) links( removed| added)? \(\d+\):(.*)$", line)
        more = re.match(r"^ {11}(.*)$", line)
        if head:
            current = links["XO".index(head.group(1))] if not head.group(2) else None
            names = head.group(3)
        elif more and current is not None:
            names = more.group(1)
        else:
            current = None
            continue
        if current is not None:
            current.update(" ".join(sorted(pair.split("-"))) for pair in names.split())
    return links


def text_position(arena, games, game, m):
    """What `replay --format text --move M` shows after m entries (libtwixt
    replaying the record): the pegs of each colour, read off the diagram
    (X red, O blue; boards of up to 26 columns, four characters a column),
    each colour's links as text_links has them, and the header line."""
    out = subprocess.run([arena, "replay", games, "--game", str(game), "--format", "text", "--move", str(m),
                          "--color", "never"], capture_output=True, text=True)
    check(out.returncode == 0, f"replay --format text --move {m}: {out.stderr}")
    pegs = [set(), set()]
    for line in out.stdout.splitlines():
        row = re.match(r"^( ?\d+) .", line)
        if not row:
            continue
        for i, ch in enumerate(line[4:]):
            if ch in "XO" and i % 4 == 0:
                pegs["XO".index(ch)].add("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i // 4] + row.group(1).strip())
    return pegs, text_links(arena, games, game, m), out.stdout.splitlines()[0]


def drawn_pegs(b):
    """The pegs the board shows, per colour, and the ringed ones."""
    got = b.js("(function () { function holes(sel) { return Array.from(document.querySelectorAll(sel))"
               ".map(function (c) { return c.getAttribute('data-hole'); }); }"
               " return [holes('#board circle.peg.p0'), holes('#board circle.peg.p1'), holes('#board circle.ring')]; })()")
    return set(got[0]), set(got[1]), got[2]


def check_against_text(b, arena, games, g, m, where):
    """The board at move m: the pegs and links `replay --format text` has."""
    pegs, links, _ = text_position(arena, games, g, m)
    got_pegs, got_links = drawn_pegs(b), drawn_links(b)
    check(state(b).get("move") == str(m), f"{where}: at move {state(b).get('move')}, not {m}")
    check(got_pegs[0] == pegs[0] and got_pegs[1] == pegs[1],
          f"{where}, move {m}: pegs drawn differ from libtwixt's: red {sorted(got_pegs[0] ^ pegs[0])},"
          f" blue {sorted(got_pegs[1] ^ pegs[1])}")
    check(got_links[0] == links[0] and got_links[1] == links[1],
          f"{where}, move {m}: links drawn differ from libtwixt's: {sorted(got_links[0] ^ links[0])[:4]}"
          f" {sorted(got_links[1] ^ links[1])[:4]}")


def panel_order(b):
    """The visible player panels, top to bottom: [(id, class, label, side, event)]."""
    return b.js("Array.from(document.querySelectorAll('.player')).filter(function (p) { return !p.hidden; })"
                ".sort(function (a, c) { return a.getBoundingClientRect().top - c.getBoundingClientRect().top; })"
                ".map(function (p) { var e = p.querySelector('.event'); return [p.id, p.classList.contains('p0') ? 'red'"
                " : p.classList.contains('p1') ? 'blue' : 'none', p.querySelector('.label').textContent,"
                " p.querySelector('.side').textContent, e.hidden ? '' : e.textContent]; })")


def check_teams(b, arena, games, page, r, shots):
    """Double TwixT (four bots, two teams, privilege called): partners in
    one colour and next to each other, each bot named, each move by its
    bot, the privilege marked in the move list and under the board, the bot
    that lost its turn said; stepping with the slider draws exactly the
    pegs and links libtwixt has."""
    g, n = r["game"], len(r["moves"])
    calls = [i + 1 for i, mv in enumerate(r["moves"]) if mv.get("privilege")]
    check(len(calls) == 2, f"teams game: privilege called at {calls}, expected once per team")
    k = calls[0]
    open_page(b, "file://" + page + f"#game={g}&move={k}", "teams game")
    check(shown(b, "variant") == "pp rules, 12 x 12 board, Double TwixT", f"teams game: header {shown(b, 'variant')!r}")
    title = b.js("document.title")
    check(title.startswith(f"game {g}: team foxes (alice, carol) vs team owls (bob, dave)"), f"teams game: title {title!r}")
    panels = panel_order(b)
    check([p[0] for p in panels] == ["player0", "player2", "player1", "player3"],
          f"teams game: panels {[p[0] for p in panels]}, partners not next to each other")
    check([p[1] for p in panels] == ["red", "red", "blue", "blue"], f"teams game: panel colours {[p[1] for p in panels]}")
    check([p[2] for p in panels] == ["player 1 alice", "player 3 carol", "player 2 bob", "player 4 dave"],
          f"teams game: panel names {[p[2] for p in panels]}")
    check(panels[0][3].startswith("team foxes, plays red") and panels[2][3].startswith("team owls, plays blue"),
          f"teams game: sides {[p[3] for p in panels]}")
    # The privilege at move k: caller, the partner at once, the skipped bot.
    caller, partner = r["moves"][k - 1]["player"], r["moves"][k]["player"]
    check(partner == caller ^ 2, f"move {k + 1} by player {partner + 1}, not the caller's partner")
    _, _, header = text_position(arena, games, g, k)
    said = re.search(r"\((player \d \w+) moves at once, (player \d \w+) loses its turn\)", header)
    check(said is not None, f"text render of move {k}: {header!r}")
    status = shown(b, "result") or ""
    if said:
        skipped = int(said.group(2).split()[1]) - 1
        check(skipped % 2 != caller % 2 and skipped != r["moves"][k - 2]["player"],
              f"the skipped bot is player {skipped + 1}")
        check(f"!privilege ({said.group(1)} moves at once, {said.group(2)} loses its turn)" in status,
              f"move {k}: status {status!r}")
        events = {p[2]: p[4] for p in panels}
        check(events.get(said.group(2), "").startswith("loses its turn: privilege of"),
              f"move {k}: the skipped bot's panel says {events.get(said.group(2))!r}")
        check(events.get(said.group(1), "").startswith("moves at once: privilege of"),
              f"move {k}: the partner's panel says {events.get(said.group(1))!r}")
    check(status.startswith(f"Move {k}: player {caller + 1} {r['players'][caller]['name']} played "),
          f"move {k}: status {status!r}")
    row = b.js("(function () { var r = document.querySelector('#moves tr.current');"
               " var p = r.querySelector('.privilege'); return [r.cells[0].textContent, r.cells[1].textContent,"
               " p ? p.textContent : null, r.querySelector('.dot').className]; })()")
    want_dot = "dot p" + str(caller % 2)
    check(row == [str(k), r["players"][caller]["name"], "!privilege", want_dot],
          f"move list row of move {k}: {row}")
    if shots:
        b.screenshot(os.path.join(shots, f"viewer-teams-move-{k}.png"), full_page=False)
    # Each row names the bot that moved.
    names = b.js("Array.from(document.querySelectorAll('#moves tr[data-move]')).map(function (r) {"
                 " return [parseInt(r.getAttribute('data-move'), 10), r.cells[1].textContent]; })")
    check(all(r["players"][r["moves"][i - 1]["player"]]["name"] == name for i, name in names) and names,
          f"move list names: {names[:8]}")
    # The slider through the game: the position libtwixt has, forwards,
    # backwards and by jumps, the privilege calls and their next moves
    # included.
    for m in [1, 2, k - 1, k, k + 1, k + 2, calls[1], calls[1] + 1, n // 2, 3, n - 1, n]:
        slide(b, m)
        check_against_text(b, arena, games, g, m, "teams game")
    st = state(b)
    check(st.get("events") == "", f"at the end, events shown: {st.get('events')!r}")
    winner = r["result"]["winner"]
    status = shown(b, "result") or ""
    check(status.startswith(f"Final result: team {['foxes', 'owls'][winner]} wins by connection"),
          f"teams game: final {status!r}")
    # Four panels on a phone's width: one column, nothing sideways.
    open_page(b, "file://" + page + f"#game={g}&move={k}", "teams game, 400 px", width=400, height=800)
    scroll = b.js("document.documentElement.scrollWidth")
    check(scroll <= 400, f"teams game: a 400 px window scrolls sideways: content {scroll} px wide")
    if shots:
        b.screenshot(os.path.join(shots, f"viewer-teams-400px.png"), full_page=True)


def check_cut(b, arena, games, page, r, shots):
    """The cut: three pegs and their link at once at move 1, no side for
    either player until the choice, then player 2 red and player 1 blue;
    stepping with the slider draws what libtwixt has."""
    g, n = r["game"], len(r["moves"])
    cut = r["moves"][0]["move"].split()[1:]
    open_page(b, "file://" + page + f"#game={g}&move=1", "cut game")
    check(shown(b, "variant") == "pp rules, 16 x 12 board, cut opening", f"cut game: header {shown(b, 'variant')!r}")
    pegs, links, rings = drawn_pegs(b)[0], drawn_links(b), drawn_pegs(b)[2]
    check(pegs == set(cut[:2]) and drawn_pegs(b)[1] == {cut[2]}, f"cut game, move 1: pegs {drawn_pegs(b)}, cut {cut}")
    check(links[0] == {" ".join(sorted(cut[:2]))} and not links[1], f"cut game, move 1: links {links}")
    check(sorted(rings) == sorted(cut), f"cut game, move 1: ringed {rings}, not the cut's three pegs")
    check_against_text(b, arena, games, g, 1, "cut game")
    status = shown(b, "result") or ""
    check(f"played {r['moves'][0]['move']} {r['moves'][0]['edits'][0]} (red {cut[0]} {cut[1]}, linked; blue {cut[2]};"
          f" player 2 bob chooses a side)." in status, f"cut game, move 1: status {status!r}")
    panels = panel_order(b)
    check([p[1] for p in panels] == ["none", "none"] and all(p[3] == "side not chosen yet" for p in panels),
          f"cut game, move 1: panels {panels}")
    if shots:
        b.screenshot(os.path.join(shots, "viewer-cut-move-1.png"), full_page=False)
    b.js("document.getElementById('slider').focus()")
    b.key("ArrowRight")
    panels = panel_order(b)
    check([p[1] for p in panels] == ["blue", "red"], f"cut game, move 2: panel colours {panels}")
    check(panels[0][3] == "plays blue (left to right) since move 2", f"cut game, move 2: player 1's side {panels[0][3]!r}")
    status = shown(b, "result") or ""
    check("player 2 bob played CHOOSE 1 (player 2 bob plays red, player 1 alice blue; player 1 alice moves next)."
          in status, f"cut game, move 2: status {status!r}")
    check(state(b).get("last") == "", f"cut game, move 2: ringed {state(b).get('last')!r} after a choice")
    row = b.js("document.querySelector('#moves tr.current td.move').textContent")
    check(row == "CHOOSE 1bob red, alice blue", f"cut game, move 2: the move list says {row!r}")
    b.key("ArrowRight")
    row = b.js("document.querySelector('#moves tr.current .dot').className")
    check(row == "dot p1", f"cut game, move 3: player 1's dot is {row!r}, not blue")
    if shots:
        b.screenshot(os.path.join(shots, "viewer-cut-move-3.png"), full_page=False)
    for m in [3, 2, 1, 0, 7, n // 2, 1, n, 4]:
        slide(b, m)
        check_against_text(b, arena, games, g, m, "cut game")


def check_pie(b, arena, games, page, r):
    """The pie swap: the peg stays, the sides exchange."""
    g = r["game"]
    first = r["moves"][0]["move"]
    open_page(b, "file://" + page + f"#game={g}&move=2", "pie game")
    pegs = drawn_pegs(b)
    check(pegs[0] == {first} and not pegs[1] and pegs[2] == [first], f"pie game, move 2: pegs {pegs}")
    panels = panel_order(b)
    check([p[1] for p in panels] == ["blue", "red"], f"pie game, move 2: panel colours {panels}")
    row = b.js("document.querySelector('#moves tr.current td.move').textContent")
    check(row == "SWAPbob red, alice blue", f"pie game, move 2: the move list says {row!r}")
    status = shown(b, "result") or ""
    check(status.startswith(f"Move 2: player 2 bob swapped (the sides exchange, {first} stays: player 2 bob plays"
                            " red, player 1 alice blue). Next: player 1 alice."), f"pie game: status {status!r}")
    for m in (1, 2, 3, 10, len(r["moves"])):
        slide(b, m)
        check_against_text(b, arena, games, g, m, "pie game")


def check_handicap(b, page):
    """A handicap record: the header names the handicapped bot and the
    distance it has in the colour it plays."""
    open_page(b, "file://" + page + "#game=31&move=1", "handicap game")
    want = "classic rules, 30 x 24 board, handicap: editor crosses 24 rows"
    check(shown(b, "variant") == want, f"handicap game: header {shown(b, 'variant')!r}")


def drawn_links(b):
    """The links the board shows, per player, and the dashed ones (links
    the move removed)."""
    got = b.js("(function () { function keys(sel) { return Array.from(document.querySelectorAll(sel))"
               ".map(function (l) { return l.getAttribute('data-link'); }); }"
               " return [keys('#board line.link.p0'), keys('#board line.link.p1'), keys('#board line.removed')]; })()")
    return set(got[0]), set(got[1]), set(got[2])


def slide(b, m):
    """Moves the slider to m as a person's drag does (an input event)."""
    b.js(f"(function () {{ var s = document.getElementById('slider'); s.value = {m};"
         " s.dispatchEvent(new Event('input', { bubbles: true })); })()")


def check_classic_links(b, arena, games, page, r, shots):
    """A classic game with link edits: as the slider moves, forwards,
    backwards and by jumps, the board shows exactly the links libtwixt
    has at that move; a removal takes a link away (and shows it dashed
    at that move), stepping back puts it back; an addition makes one."""
    g, n = r["game"], len(r["moves"])
    removal = next(i + 1 for i, mv in enumerate(r["moves"]) if any(e[0] == "-" for e in mv.get("edits", [])))
    addition = next(i + 1 for i, mv in enumerate(r["moves"])
                    if i + 1 > removal and any(e[0] == "+" for e in mv.get("edits", [])))
    open_page(b, "file://" + page + f"#game={g}&move={removal - 1}", "classic game")
    st = state(b)
    check(st.get("variant") == "classic rules, 30 x 24 board", f"classic game: variant {st.get('variant')!r}")
    check(shown(b, "variant") == "classic rules, 30 x 24 board", f"classic game: header says {shown(b, 'variant')!r}")
    mover = r["moves"][removal - 1]["player"]
    gone = [" ".join(sorted(e[1:].split(":"))) for e in r["moves"][removal - 1]["edits"] if e[0] == "-"]
    before = drawn_links(b)
    check(all(k in before[mover] for k in gone), f"move {removal - 1}: {gone} not drawn before the removal")
    b.js("document.getElementById('slider').focus()")
    b.key("ArrowRight")
    after = drawn_links(b)
    check(state(b).get("move") == str(removal), f"ArrowRight went to move {state(b).get('move')}")
    check(not any(k in after[mover] for k in gone), f"move {removal}: removed links {gone} still drawn")
    check(set(gone) <= after[2], f"move {removal}: removed links {gone} not shown dashed ({after[2]})")
    if shots:
        b.screenshot(os.path.join(shots, f"viewer-30x24-move-{removal}.png"), full_page=False)
    status = shown(b, "result") or ""
    edits = " ".join(r["moves"][removal - 1]["edits"])
    check(f"played {r['moves'][removal - 1]['move']} {edits}." in status, f"move {removal}: status {status!r}")
    row = b.js("(function () { var r = document.querySelector('#moves tr.current');"
               " return [r.cells[0].textContent, r.querySelector('.edits').textContent]; })()")
    check(row == [str(removal), edits], f"the move list's current row is {row}, not move {removal} with {edits!r}")
    b.key("ArrowLeft")
    check(drawn_links(b)[:2] == before[:2], f"back at move {removal - 1}: links differ from before")
    check(not drawn_links(b)[2], "dashed links shown at a move that removed none")
    # An addition of a link that was not there: it appears, and goes back.
    mover = r["moves"][addition - 1]["player"]
    made = [" ".join(sorted(e[1:].split(":"))) for e in r["moves"][addition - 1]["edits"] if e[0] == "+"]
    slide(b, addition - 1)
    check(not any(k in drawn_links(b)[mover] for k in made), f"move {addition - 1}: {made} drawn before it is added")
    slide(b, addition)
    check(all(k in drawn_links(b)[mover] for k in made), f"move {addition}: added {made} not drawn")
    # Every way of reaching a move draws the same links as libtwixt.
    route = [n // 3, n // 3 + 1, n // 3 - 1, n, 2 * n // 3, 5, 0, n // 2, n // 2 + 7]
    for m in route:
        slide(b, m)
        want = text_links(arena, games, g, m)
        got = drawn_links(b)
        check(got[0] == want[0] and got[1] == want[1],
              f"classic game at move {m}: drawn links differ from libtwixt's: "
              f"{sorted(got[0] ^ want[0])[:4]} {sorted(got[1] ^ want[1])[:4]}")
        check(state(b).get("links0") == str(len(want[0])), f"move {m}: data-links0 {state(b).get('links0')}")
    # At the end, the links the referee recorded.
    slide(b, n)
    got = drawn_links(b)
    for p in (0, 1):
        want = {" ".join(sorted(l.split())) for l in r["players"][p]["links"]}
        check(got[p] == want, f"last move: player {p + 1}'s links differ from the record's")


def board_box(b):
    return b.js("(function () { var r = document.getElementById('board').getBoundingClientRect();"
                " var v = document.getElementById('board').viewBox.baseVal;"
                " return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,"
                " vx: v.x, vy: v.y, vw: v.width, vh: v.height, iw: innerWidth, ih: innerHeight }; })()")


def ruler_overlaps(b):
    """Pairs of ruler names that touch each other, and the names shown."""
    return b.js("(function () { var out = [], names = [];"
                " ['ruler-top', 'ruler-left'].forEach(function (id, vertical) {"
                "  var spans = Array.from(document.getElementById(id).children).map(function (s) {"
                "   var r = s.getBoundingClientRect(); names.push(s.textContent);"
                "   return [s.textContent, vertical ? r.top : r.left, vertical ? r.bottom : r.right]; });"
                "  spans.sort(function (a, b) { return a[1] - b[1]; });"
                "  for (var i = 1; i < spans.length; i++) if (spans[i][1] < spans[i - 1][2])"
                "   out.push(spans[i - 1][0] + '/' + spans[i][0]); });"
                " return { overlaps: out, names: names }; })()")


def check_big_board(b, page, r, shots):
    """The 100 x 100 game: fitted to the window, rulers that never
    overlap, zoom by keys, buttons and the wheel, pan by dragging, and the
    links of the last move as recorded."""
    g, n = r["game"], len(r["moves"])
    open_page(b, "file://" + page + f"#game={g}", "100 x 100 game")
    box = board_box(b)
    check(box["right"] <= box["iw"] and box["bottom"] <= box["ih"],
          f"100 x 100: the board does not fit the 1280 x 900 window: {box}")
    check(box["width"] >= 600, f"100 x 100: the fitted board is only {box['width']:.0f} px wide")
    check(state(b).get("variant") == "classic rules, 100 x 100 board", f"100 x 100: {state(b).get('variant')!r}")
    got = drawn_links(b)
    for p in (0, 1):
        want = {" ".join(sorted(l.split())) for l in r["players"][p]["links"]}
        check(got[p] == want, f"100 x 100: player {p + 1}'s links differ from the record's")
    rulers = ruler_overlaps(b)
    check(not rulers["overlaps"], f"100 x 100 fitted: ruler names overlap: {rulers['overlaps'][:5]}")
    check("CV" in rulers["names"] and "100" in rulers["names"], f"100 x 100: rulers lack CV or 100: {rulers['names']}")
    last = r["moves"][-1]["move"]
    check(re.match(r"[A-Z]+", last).group(0) in rulers["names"], f"the last move's column is not named ({last})")
    if shots:
        b.screenshot(os.path.join(shots, "viewer-100x100.png"), full_page=False)
    fitted = box["vw"]
    b.key("+")
    b.key("+")
    zoomed = board_box(b)
    check(abs(zoomed["vw"] - fitted / 2.25) < 1, f"two + keys: the view is {zoomed['vw']:.0f} wide, not {fitted / 2.25:.0f}")
    check(state(b).get("zoom") == "2.25", f"data-zoom {state(b).get('zoom')} after two + keys")
    rulers = ruler_overlaps(b)
    check(not rulers["overlaps"], f"100 x 100 zoomed: ruler names overlap: {rulers['overlaps'][:5]}")
    # The wheel zooms around the pointer: the hole under it stays put.
    x, y = zoomed["left"] + zoomed["width"] * 0.25, zoomed["top"] + (zoomed["bottom"] - zoomed["top"]) * 0.75
    b.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    under = shown(b, "hover")
    b.wheel(x, y, -300)
    closer = board_box(b)
    check(closer["vw"] < zoomed["vw"] * 0.7, f"the wheel did not zoom in: {zoomed['vw']:.0f} -> {closer['vw']:.0f}")
    b.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    check(shown(b, "hover") == under and under, f"the wheel moved the hole under the pointer: {under!r} -> {shown(b, 'hover')!r}")
    # A drag to the right and down shows what is left of and above the view.
    b.drag(x, y, x + 120, y + 80)
    dragged = board_box(b)
    check(dragged["vx"] < closer["vx"] and dragged["vy"] < closer["vy"],
          f"dragging did not pan: ({closer['vx']:.0f}, {closer['vy']:.0f}) -> ({dragged['vx']:.0f}, {dragged['vy']:.0f})")
    check(state(b).get("move") == str(n), "dragging the board changed the move")
    if shots:
        b.screenshot(os.path.join(shots, "viewer-100x100-zoomed.png"), full_page=False)
    b.click("#zoom-out")
    check(board_box(b)["vw"] > dragged["vw"], "the - button did not zoom out")
    b.key("0")
    check(abs(board_box(b)["vw"] - fitted) < 1 and state(b).get("zoom") == "1.00", "0 did not fit the board again")
    # Two fingers moving apart zoom in, as on a phone.
    b.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    mid_x, mid_y = (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2
    b.touch("touchStart", [(mid_x - 20, mid_y), (mid_x + 20, mid_y)])
    for d in (30, 40, 50):
        b.touch("touchMove", [(mid_x - d, mid_y), (mid_x + d, mid_y)])
    b.touch("touchEnd", [])
    b.call("Emulation.setTouchEmulationEnabled", {"enabled": False})
    pinched = board_box(b)
    check(abs(pinched["vw"] - fitted / 2.5) < 2, f"a pinch from 40 to 100 px: the view is {pinched['vw']:.0f} wide, "
          f"not {fitted / 2.5:.0f}")
    b.key("0")
    # Stepping back from the end, through moves that removed links.
    slide(b, n - 40)
    check(state(b).get("move") == str(n - 40), f"the slider went to {state(b).get('move')}")
    # The move list holds the rows in sight only, each as high as the
    # script counts on: scrolled to the middle, a click on a row goes there.
    heights = b.js("Array.from(document.querySelectorAll('#moves tr[data-move]')).map(function (r) {"
                   " return r.getBoundingClientRect().height; })")
    check(0 < len(heights) < 200 and set(heights) == {24}, f"move list rows: {len(heights)}, heights {set(heights)}")
    b.js("(function () { var box = document.getElementById('moves-box'); box.scrollTop = 24 * 5000;"
         " box.dispatchEvent(new Event('scroll')); })()")
    target = b.js("(function () { var box = document.getElementById('moves-box').getBoundingClientRect();"
                  " var row = document.elementFromPoint(box.left + 20, box.top + box.height / 2).closest('tr');"
                  " return parseInt(row.cells[0].textContent, 10); })()")
    check(abs(target - 5000) < 30, f"scrolled to row 5000 of the move list, row {target} is in the middle")
    b.click(f'#moves tr[data-move="{target}"]')
    check(state(b).get("move") == str(target), f"a click on move {target} went to move {state(b).get('move')}")




def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    arena, make_games = sys.argv[1], sys.argv[2]
    shots = os.environ.get("TX_VIEWER_SHOTS")
    if not find_chromium():
        print("chromium not installed: skipped (apt-get install chromium)")
        return 77

    records = [json.loads(line) for line in open(os.path.join(HERE, "games.jsonl"))]
    by_game = {r["game"]: r for r in records}
    # The hostile game: the second record with bot text that is markup.
    hostile = json.loads(json.dumps(by_game[2]))
    hostile["game"] = 9
    hostile["players"][1]["name"] = HOSTILE_NAME
    hostile["moves"][3]["message"] = HOSTILE_MESSAGE
    hostile["moves"][3]["stderr"] = HOSTILE_STDERR
    # A game that fails verification: move 11 on an occupied hole.
    broken = json.loads(json.dumps(by_game[1]))
    broken["game"] = 12
    broken["moves"][10]["move"] = broken["moves"][2]["move"]
    work = tempfile.mkdtemp(prefix="tx-viewer-")
    good = os.path.join(work, "good.jsonl")
    games = os.path.join(work, "games.jsonl")
    with open(good, "w") as f:
        for r in [hostile] + records:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    # Out of game order on purpose: the picker sorts.
    with open(games, "w") as f:
        for r in [hostile, broken, by_game[2], by_game[3], by_game[1]]:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    games_in_order = [1, 2, 3, 9, 12]

    verify = subprocess.run([arena, "replay", good], capture_output=True, text=True)
    check(verify.returncode == 0, "the fixture does not verify: " + verify.stdout + verify.stderr)
    page = os.path.join(work, "view.html")
    made = subprocess.run([arena, "replay", games, "--format", "html", "-o", page], capture_output=True,
                          text=True)
    # Exit status 1: game 12 fails verification; the page shows it anyway.
    check(made.returncode == 1 and "game 12, move 11:" in made.stderr,
          f"replay --format html: exit status {made.returncode}: {made.stderr}")
    text = open(page, encoding="utf-8").read()

    # Self-contained and inert by construction.
    viewer = open(os.path.join(SOURCE, "referee", "viewer.html"), encoding="utf-8").read()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        check(sink not in viewer.split("-->", 1)[1], f"viewer.html uses {sink}")
    check(not re.search(r"""(src|href|url)\s*[=(]\s*["']?\s*(https?:)?//""", text, re.I),
          "the page references something on the network")
    # Each embedded game must run to its own </script>: no bot text ended it early.
    embedded = re.findall(r'<script type="application/json" class="tx-game">(.*?)</script>', text, re.S)
    check(len(embedded) == 5, f"{len(embedded)} games embedded, expected 5")
    for data in embedded:
        try:
            game = json.loads(data)
            check("record" in game and "meta" in game, "an embedded game lacks record or meta")
        except ValueError as e:
            check(False, f"embedded game is not whole JSON ({e}): a </script> cut it short?")
    check("<script>document.body" not in text, "hostile stderr embedded raw")

    # The classic games with link edits (30 x 24 and 100 x 100), which
    # must verify, on a page of their own.
    classic = os.path.join(work, "classic.jsonl")
    with open(classic, "w") as f:
        made = subprocess.run([make_games], stdout=f, stderr=subprocess.PIPE, text=True)
    check(made.returncode == 0, "make-games failed: " + made.stderr)
    classic_games = {r["game"]: r for r in (json.loads(line) for line in open(classic))}
    verify = subprocess.run([arena, "replay", classic], capture_output=True, text=True)
    check(verify.returncode == 0, "the made games do not verify: " + verify.stdout + verify.stderr)
    # A handicap record: game 21 again, as if its player 1 were handicapped.
    handicap = json.loads(json.dumps(classic_games[21]))
    handicap["game"], handicap["handicap"] = 31, "editor"
    with open(classic, "a") as f:
        f.write(json.dumps(handicap, separators=(",", ":")) + "\n")
    classic_page = os.path.join(work, "classic.html")
    made = subprocess.run([arena, "replay", classic, "--format", "html", "-o", classic_page], capture_output=True,
                          text=True)
    check(made.returncode == 0, f"replay --format html of the classic games: {made.stderr}")

    check(by_game[1]["moves"][1]["move"] == "SWAP", "fixture game 1 should swap at move 2")
    with Browser() as b:
        # Each part runs even when one before it failed: a script error in
        # the page (an element missing, say) fails that part only.
        for part, args in ((check_steps, (page, by_game[1])), (check_hostile, (page,)),
                           (check_picker, (page, games_in_order)), (check_slider_keys, (page,)),
                           (check_speed, (page,)), (check_notices, (page, games_in_order)),
                           (check_layout, (page,)), (check_numbering, (page,)),
                           (check_failed_verification, (page, 12)),
                           (check_svg_caption, (arena, games, work)),
                           (check_classic_links, (arena, classic, classic_page, classic_games[21], shots)),
                           (check_big_board, (classic_page, classic_games[22], shots)),
                           (check_teams, (arena, classic, classic_page, classic_games[23], shots)),
                           (check_cut, (arena, classic, classic_page, classic_games[24], shots)),
                           (check_pie, (arena, classic, classic_page, classic_games[25])),
                           (check_handicap, (classic_page,))):
            try:
                part(b, *args)
            except BrowserError as e:
                check(False, f"{part.__name__}: {e}")

    shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    print("viewer: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
