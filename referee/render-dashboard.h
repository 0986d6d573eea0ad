/* render-dashboard.h - the standings dashboard: one self-contained web page
 * (`standings FILE... --format html -o standings.html`, and the league's
 * PREFIX.html), and the viewer pages of its pairings beside it.
 *
 * The page (referee/dashboard.html, compiled in like the viewer) draws what
 * this module computes from a struct tx_standings: the standings with each
 * rating's 95% interval, the crosstable as a heat map, with Double TwixT
 * the teams' standings and crosstable too, the handicap games' table
 * (apart from every rating), each bot's time per turn (first turn, then
 * the later turns' median, tail and slowest, from the standings' time
 * bins) against the limits, and each bot's rating
 * after each block of games (the joint fit redone on the games counted so
 * far, at most HISTORY_POINTS times), so that a person sees whether version
 * 7 really is better than version 6, and since when. Everything is
 * embedded as JSON in one script element, written with "<", ">" and "&"
 * escaped, and shown with textContent: a bot named "</script>" is a name.
 *
 * A click on a crosstable cell opens the viewer of `replay --format html`
 * with the games of that pairing (both colours), one page per pair of bot
 * names in a directory beside the dashboard (standings.html:
 * standings-games/), made from the records' lines where the standings
 * found them (struct tx_standings_game), each verified as replay does.
 * Pages are replaced whole (a temporary file renamed over them), so a
 * browser reloading a league's dashboard never reads half of one.
 */
#ifndef TX_RENDER_DASHBOARD_H
#define TX_RENDER_DASHBOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "standings.h"

/* A pairing's page holds its last games only, so that it opens in a
 * moment (about 9 KiB a game): `replay FILE --format html` shows them all. */
#define TX_DASHBOARD_PAGE_GAMES 200

/* The dashboard's source, generated at build time from referee/dashboard.html. */
extern const char tx_dashboard_html[];

/* The directory of the pairings' pages for a dashboard written to path:
 * its name without ".html", then "-games" (standings.html ->
 * standings-games), into buf. */
void tx_dashboard_pages_dir(const char *path, char *buf, size_t cap);

/* The file name of the page of the games between the bots named a and b
 * (either order): "a--b.html", names sorted, characters other than
 * letters, digits and "._+-" written "_", then a short hash of both names
 * when that changed them (so that two pairs never share a page). */
void tx_dashboard_page_name(const char *a, const char *b, char *buf, size_t cap);

/* The standings of the chain from s that the dashboard shows: the first
 * of even games (s when there is none). The others of even games are not
 * on the page; every handicap standings' rows are. */
const struct tx_standings *tx_dashboard_shown(const struct tx_standings *s);

/* Writes the dashboard of the chain from s to out (tx_dashboard_shown,
 * and the handicap rows). title names the run (a file name); pages_dir is
 * the pairings' pages directory as the page links to it (relative to the
 * page), or NULL when there are none (standard input). Returns 0 or
 * -ENOMEM. */
int tx_render_dashboard(FILE *out, const struct tx_standings *s, const char *title,
                        const char *pages_dir);

/* One game of a pairing's page: where its record is. */
struct tx_dashboard_game {
    const char *file; /* a regular file */
    int64_t line;     /* for the viewer's "file:line" */
    int64_t start, end;
};

/* Replaces path with the viewer holding those games (read back from their
 * files, verified), the last TX_DASHBOARD_PAGE_GAMES of them. Returns 0,
 * or a negative errno with "PATH: why" in err. */
int tx_dashboard_write_page(const char *path, const struct tx_dashboard_game *games, int64_t n,
                            char *err, size_t errcap);

/* The pages of every pairing of the standings shown (tx_dashboard_shown)
 * whose games were read from files (their place in its log, in the files
 * of the chain's first standings s), into dir (made when missing): of
 * bots as dir/a--b.html, of teams as dir/teams/red--black.html (a
 * directory of their own: a team and a bot may share a name). Returns 0
 * or a negative errno with the message in err. */
int tx_dashboard_write_pages(const struct tx_standings *s, const char *dir, char *err,
                             size_t errcap);

/* Replaces path with text (len bytes): a temporary file beside it, then
 * rename. Returns 0 or a negative errno. */
int tx_dashboard_replace(const char *path, const char *text, size_t len);

#endif
