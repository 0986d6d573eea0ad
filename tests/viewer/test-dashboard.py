#!/usr/bin/env python3
"""test-dashboard.py - the standings dashboard (`twixt-arena standings FILE...
--format html -o FILE`, and the league's PREFIX.html) in a real headless
browser (Debian's chromium), used as a person would use it.

usage: test-dashboard.py TWIXT_ARENA TINY_BOT MAKE_STANDINGS_GAMES
       (meson runs it; exit 77 = skipped)

The records are those of a pool that grows (three versions of a bot of
known strength in a round robin, then a fourth joining), of games refereed
by `twixt-arena referee` for tests/cg-bot.py, and of a game whose player is
named with markup. The test checks:
  - the page is one self-contained file (nothing on the network), the
    dashboard never uses innerHTML or its relatives, and a name that is
    markup is shown as text and runs nothing;
  - the standings rows are the bots of `standings --json`, in its order,
    and each rating's 95% interval is drawn where its numbers say;
  - the crosstable is a heat map (the row bot's better scores greener) and
    every pairing that played is a link, which is followed: its page is the
    viewer with that pairing's games, both bots in each;
  - a time chart row per bot, a rating line per bot over the games, and the
    legend hides a line;
  - at a phone's width the page does not scroll sideways;
  - a league rewrites its dashboard and its pairings' pages as it plays,
    and the last one counts every game of its records;
  - Double TwixT and handicap games (make-standings-games: four bots in
    every partnership, one team named with markup, then handicap games):
    the teams' table and intervals are those of `standings --json`, the
    bots' team games are shown, the team crosstable's links open each
    pairing's games (four bots, the two teams), and the handicap games
    are a table apart, in no rating.
Screenshots of the whole pages are written to the build's meson-logs
(dashboard.png, dashboard-teams.png) for a person to look at.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from browser import Browser, BrowserError, find_chromium  # noqa: E402

FAILURES = []
HOSTILE_NAME = "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">"


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300, **kw)


def make_records(arena, tiny, work):
    """The pool (pool.jsonl), the referee's games (referee.jsonl) and the
    hostile one (hostile.jsonl)."""
    pool = os.path.join(work, "pool.jsonl")
    versions = [f"v1={tiny} --seed {{seed}} --crash 0.6", f"v2={tiny} --seed {{seed}} --crash 0.3",
                f"v3={tiny} --seed {{seed}} --crash 0.1"]
    common = ["--games-per-pair", "16", "--concurrency", "2", "-o", pool]
    p = run(arena, "tournament", *versions, *common)
    check(p.returncode == 0, f"tournament: {p.stderr}")
    p = run(arena, "tournament", *versions, f"v4={tiny} --seed {{seed}}", *common)
    check(p.returncode == 0, f"the pool grows: {p.stderr}")
    referee = os.path.join(work, "referee.jsonl")
    for seed in range(6):
        for seats in ((f"cg=python3 {SOURCE}/tests/cg-bot.py", f"v3={tiny} --seed {{seed}}"),
                      (f"v3={tiny} --seed {{seed}}", f"cg=python3 {SOURCE}/tests/cg-bot.py")):
            p = run(arena, "referee", "-p1", seats[0], "-p2", seats[1], "-seed", str(seed),
                    "-o", referee)
            check(p.returncode == 0 and not p.stderr, f"referee: {p.stderr}")
    hostile = os.path.join(work, "hostile.jsonl")
    game = json.loads(open(os.path.join(HERE, "games.jsonl")).readline())
    game["players"][1]["name"] = HOSTILE_NAME
    with open(hostile, "w") as f:
        f.write(json.dumps(game, separators=(",", ":")) + "\n")
    return [pool, referee, hostile]


def open_page(b, url, where, width=1280, height=900):
    b.console.clear()
    b.open(url, width=width, height=height)
    errors = b.js("(function () { var e = document.getElementById('tx-errors');"
                  " return e && !e.hidden ? e.textContent : null; })()")
    check(errors is None, f"{where}: page errors: {errors}")
    bad = [c for c in b.console if c[0] in ("exception", "error")]
    check(not bad, f"{where}: console errors: {bad}")


def check_static(page):
    text = open(page, encoding="utf-8").read()
    source = open(os.path.join(SOURCE, "referee", "dashboard.html"), encoding="utf-8").read()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function"):
        check(sink not in source.split("-->", 1)[1], f"dashboard.html uses {sink}")
    check(not re.search(r"""(src|href|url)\s*[=(]\s*["']?\s*(https?:)?//""", text, re.I),
          "the page references something on the network")
    data = re.findall(r'<script type="application/json" id="tx-data">(.*?)</script>', text, re.S)
    check(len(data) == 1, "the data is one script element")
    json.loads(data[0])  # whole: no name ended it early
    check("<img src=x" not in text, "a name embedded as markup")


def check_page(b, page, standings):
    url = "file://" + page
    open_page(b, url, "dashboard")
    bots = standings["bots"]
    state = json.loads(b.js("document.getElementById('tx-state').textContent"))
    names = b.js("Array.from(document.querySelectorAll('#standings tbody td.name'))"
                 ".map(function (td) { return td.textContent; })")
    check(names == [x["name"] for x in bots], f"standings rows {names}")
    check(b.js("document.body.getAttribute('data-pwned')") is None, "a hostile name ran")
    check(HOSTILE_NAME in names, "the hostile name is shown as text")
    # The intervals: one bar per bot, its circle where its rating is.
    cx = b.js("Array.from(document.querySelectorAll('svg.errorbar circle'))"
              ".map(function (c) { return +c.getAttribute('cx'); })")
    check(len(cx) == len(bots), f"{len(cx)} error bars for {len(bots)} bots")
    elos = [x["elo"] for x in bots]
    check(all((cx[i] - cx[j]) * (elos[i] - elos[j]) >= 0 for i in range(len(bots))
              for j in range(len(bots))), f"bars not where the ratings are: {cx} {elos}")
    widths = b.js("Array.from(document.querySelectorAll('svg.errorbar'))"
                  ".map(function (s) { var l = s.querySelectorAll('line')[1];"
                  " return +l.getAttribute('x2') - +l.getAttribute('x1'); })")
    check(all(w > 0 for w in widths), f"intervals drawn: {widths}")
    # The heat map and its links: every pairing that played.
    played = sum(1 for row in standings["crosstable"].values() for _ in row)
    check(state["links"] == played, f"{state['links']} links for {played} pairings that played")
    cells = b.js("Array.from(document.querySelectorAll('#crosstable td.cell a')).map(function (a) {"
                 " var c = getComputedStyle(a.parentNode).backgroundColor.match(/\\d+/g).map(Number);"
                 " return [a.textContent, c, a.getAttribute('href')]; })")
    for text, (r, g, _), href in cells:
        share = int(text.split("\u00b7")[1].strip().rstrip("%"))
        check(share == 50 or (share > 50) == (g > r), f"heat of {text}: rgb {r},{g}")
    check(b.js("document.querySelectorAll('#timing text').length") >= len(bots),
          "a time row per bot")
    check(state["lines"] == len(bots), f"{state['lines']} rating lines for {len(bots)} bots")
    points = b.js("Array.from(document.querySelectorAll('#history path.rating'))"
                  ".map(function (p) { return p.getAttribute('d').split('L').length; })")
    check(points and max(points) >= 10, f"the rating lines have points: {points}")
    b.js("document.querySelector('#history-legend button').scrollIntoView()")
    b.click("#history-legend button")
    hidden = json.loads(b.js("document.getElementById('tx-state').textContent"))["hidden"]
    check(hidden and hidden[0], f"the legend hides a line: {hidden}")
    return cells


def check_links(b, page, cells, standings):
    base = os.path.dirname(page)
    names = {x["name"] for x in standings["bots"]}
    followed = 0
    for text, _, href in cells:
        games = int(text.split("\u00b7")[0].split("/")[1])
        target = os.path.join(base, href)
        check(os.path.exists(target), f"{href}: no such page")
        if not os.path.exists(target):
            continue
        open_page(b, "file://" + target, href)
        players = b.js("Array.from(document.querySelectorAll('script.tx-game')).map(function (s) {"
                       " var r = JSON.parse(s.textContent).record;"
                       " return [r.players[0].name, r.players[1].name]; })")
        check(len(players) == min(games, 200), f"{href}: {len(players)} games, the cell says {games}")
        pair = {p for game in players for p in game}
        check(len(pair) == 2 and pair <= names, f"{href}: players {pair}")
        followed += 1
    # And one by a real click, from the dashboard.
    open_page(b, "file://" + page, "dashboard")
    b.js("document.querySelector('#crosstable td.cell a').scrollIntoView()")
    b.click("#crosstable td.cell a")
    b.wait_event("Page.loadEventFired")
    where = b.js("location.href").split("#")[0]  # the viewer writes #game=K&move=M
    check(where.endswith(cells[0][2]), f"a click on a pairing went to {where}")
    check(b.js("document.querySelectorAll('script.tx-game').length") > 0, "the clicked page has games")
    return followed


def check_teams(b, page, standings, handicap):
    """The dashboard of Double TwixT and handicap games."""
    open_page(b, "file://" + page, "teams dashboard")
    teams = standings["teams"]
    rows = b.js("Array.from(document.querySelectorAll('#teams tbody tr')).map(function (tr) {"
                " return Array.from(tr.querySelectorAll('td')).map(function (td) {"
                " return td.textContent; }); })")
    check([r[1] for r in rows] == [t["name"] for t in teams], f"team rows {[r[1] for r in rows]}")
    check([r[2] for r in rows] == [", ".join(t["bots"]) for t in teams], "each team's bots")
    check([r[3] for r in rows] == [str(t["games"]) for t in teams], "each team's games")
    check(b.js("document.querySelectorAll('#teams b').length") == 0
          and any(t["name"] == "<b>east</b>" for t in teams), "a team named with markup is text")
    cx = b.js("Array.from(document.querySelectorAll('#teams svg.errorbar circle'))"
              ".map(function (c) { return +c.getAttribute('cx'); })")
    elos = [t["elo"] for t in teams]
    check(len(cx) == len(teams) and all((cx[i] - cx[j]) * (elos[i] - elos[j]) >= 0
                                        for i in range(len(cx)) for j in range(len(cx))),
          f"team bars not where the ratings are: {cx} {elos}")
    team_games = b.js("Array.from(document.querySelectorAll('#standings tbody td.team-games'))"
                      ".map(function (td) { return td.hidden ? null : td.textContent; })")
    check(team_games == [str(x["team_games"]) for x in standings["bots"]],
          f"the bots' team games: {team_games}")
    check(b.js("document.querySelector('#standings tbody tr td.name').textContent") ==
          standings["bots"][0]["name"] == "ace", "ace, who wins with every partner, ranks first")
    state = json.loads(b.js("document.getElementById('tx-state').textContent"))
    played = sum(1 for row in standings["team_crosstable"].values() for _ in row)
    check(state["team_links"] == played, f"{state['team_links']} team links for {played} cells")
    # The handicap games: a table apart, the rows of standings --json.
    want = [[h["handicapped"], h["opponent"], str(h["games"])] for h in handicap["handicap_games"]]
    got = b.js("Array.from(document.querySelectorAll('#handicap tbody tr')).map(function (tr) {"
               " var td = tr.querySelectorAll('td');"
               " return [td[1].textContent, td[2].textContent, td[3].textContent]; })")
    check(got == want and want, f"handicap rows {got}, standings say {want}")
    check(b.js("document.getElementById('handicap-section').hidden") is False, "handicap shown")
    summary = b.js("document.getElementById('summary').textContent")
    check("6 handicap games apart" in summary and "18 games" in summary, f"summary {summary!r}")
    links = b.js("Array.from(document.querySelectorAll('#team-crosstable td.cell a'))"
                 ".map(function (a) { return [a.textContent, a.getAttribute('href')]; })")
    followed = 0
    for text, href in links:
        games = int(text.split("\u00b7")[0].split("/")[1])
        target = os.path.join(os.path.dirname(page), href)
        check(os.path.exists(target), f"{href}: no such page")
        if not os.path.exists(target):
            continue
        # The games the page holds, read from it: stepping through a game
        # of four is the viewer's test (test-viewer.py).
        scripts = re.findall(r'<script type="application/json" class="tx-game">(.*?)</script>',
                             open(target, encoding="utf-8").read(), re.S)
        seen = [(len(r["players"]), r["teams"]) for r in
                (json.loads(x)["record"] for x in scripts)]
        check(len(seen) == games and all(n == 4 for n, _ in seen), f"{href}: {seen}")
        check(len({tuple(sorted(t)) for _, t in seen}) == 1, f"{href}: one pairing of teams")
        followed += 1
    check(followed == len(links) == 6, f"{followed} team links followed of {len(links)}")
    open_page(b, "file://" + page, "teams screenshot", width=1280, height=900)
    shot = os.path.join(os.environ.get("TX_BUILD_DIR", os.path.dirname(page)), "meson-logs",
                        "dashboard-teams.png")
    os.makedirs(os.path.dirname(shot), exist_ok=True)
    b.screenshot(shot)
    print("screenshot:", shot)


def check_narrow(b, page):
    open_page(b, "file://" + page, "narrow", width=400, height=800)
    wide = b.js("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    check(wide <= 0, f"at 400 px the page scrolls sideways by {wide} px")


def check_league(b, arena, tiny, work):
    league = os.path.join(work, "league")
    os.mkdir(league)
    p = subprocess.Popen([arena, "league", f"a={tiny} --seed {{seed}} --crash 0.4",
                          f"b={tiny} --seed {{seed}}", f"c={tiny} --seed {{seed}} --crash 0.2",
                          "-o", "league.jsonl", "--standings-every", "6", "--concurrency", "2"],
                         cwd=league, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    page = os.path.join(league, "league.standings.html")
    deadline = time.time() + 60
    while time.time() < deadline and not os.path.exists(page):
        time.sleep(0.2)
    check(os.path.exists(page), "the league writes its dashboard as it plays")
    first = open(page).read() if os.path.exists(page) else ""
    time.sleep(2)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    check(p.returncode == 128 + signal.SIGINT, f"league: exit {p.returncode}")
    last = open(page).read()
    check(last != first, "the league rewrote its dashboard")
    games = json.loads(run(arena, "standings", "--json", os.path.join(league, "league.jsonl")).stdout)
    open_page(b, "file://" + page, "league dashboard")
    summary = b.js("document.getElementById('summary').textContent")
    check(f"{games['games']} games" in summary, f"the league's last dashboard: {summary!r}, "
          f"its records hold {games['games']} games")
    pages = os.listdir(os.path.join(league, "league.standings-games"))
    check(sorted(pages) == ["a--b.html", "a--c.html", "b--c.html"], f"league pages: {pages}")
    open_page(b, "file://" + os.path.join(league, "league.standings-games", "a--b.html"),
              "league pair page")
    n = b.js("document.querySelectorAll('script.tx-game').length")
    want = min(200, sum(x["games"] for x in games["crosstable"]["a"].values()
                        if x) - games["crosstable"]["a"].get("c", {"games": 0})["games"])
    check(n == want, f"league page a--b: {n} games, the standings say {want}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    arena, tiny, make_games = (os.path.abspath(a) for a in sys.argv[1:4])
    if not find_chromium():
        print("chromium not installed: skipped (apt-get install chromium)")
        return 77
    work = tempfile.mkdtemp(prefix="tx-dashboard-")
    files = make_records(arena, tiny, work)
    page = os.path.join(work, "out", "standings.html")
    os.mkdir(os.path.dirname(page))
    made = run(arena, "standings", *files, "--format", "html", "-o", page)
    check(made.returncode == 0 and os.path.exists(page), f"standings --format html: {made.stderr}")
    standings = json.loads(run(arena, "standings", "--json", *files).stdout)
    teams = os.path.join(work, "teams.jsonl")
    with open(teams, "w") as f:
        check(subprocess.run([make_games], stdout=f).returncode == 0, "make-standings-games")
    teams_page = os.path.join(work, "out", "teams.html")
    made = run(arena, "standings", teams, "--format", "html", "-o", teams_page)
    check(made.returncode == 0 and not made.stderr, f"standings --format html: {made.stderr}")
    both = [json.loads(line) for line in run(arena, "standings", "--json", teams).stdout.splitlines()]
    check(len(both) == 2 and not both[0]["handicap"] and both[1]["handicap"],
          f"team games and handicap games apart: {[x.get('handicap') for x in both]}")
    check_static(page)
    with Browser() as b:
        try:
            cells = check_page(b, page, standings)
            followed = check_links(b, page, cells, standings)
            check(followed == len(cells) and followed >= 8, f"{followed} links followed")
            open_page(b, "file://" + page, "screenshot", width=1280, height=900)
            shot = os.path.join(os.environ.get("TX_BUILD_DIR", work), "meson-logs", "dashboard.png")
            os.makedirs(os.path.dirname(shot), exist_ok=True)
            b.screenshot(shot)
            print("screenshot:", shot)
            check_narrow(b, page)
            check_teams(b, teams_page, both[0], both[1])
            check_narrow(b, teams_page)
            check_league(b, arena, tiny, work)
        except BrowserError as e:
            check(False, f"browser: {e}")
    shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    print("the dashboard shows the standings, and its links open each pairing's games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
