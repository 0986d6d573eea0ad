/* render-dashboard.c - the standings dashboard and its pairings' viewer
 * pages (see render-dashboard.h).
 *
 * The page is referee/dashboard.html, turned into the C array
 * tx_dashboard_html at build time (embed-file.py, as the viewer); its one
 * placeholder, DASHBOARD_SLOT, receives the data as JSON. The ratings over
 * time are the costly part: one joint fit (stats.h) per block of games, at
 * most HISTORY_POINTS of them, a few milliseconds each for a dozen bots.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "output.h"
#include "render-dashboard.h"
#include "render-html.h"
#include "stats.h"
#include "verify.h"

#define DASHBOARD_SLOT "<!--TX_DATA-->"
#define HISTORY_POINTS 100 /* ratings drawn over time: blocks of games at most */

/* ---- names ---- */

void tx_dashboard_pages_dir(const char *path, char *buf, size_t cap)
{
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".html"))
        n -= 5;
    else if (n > 4 && !strcmp(path + n - 4, ".htm"))
        n -= 4;
    snprintf(buf, cap, "%.*s-games", (int)n, path);
}

/* name with every character but [A-Za-z0-9._+-] as "_"; true when that
 * changed it. */
static bool sanitize(const char *name, char *buf, size_t cap)
{
    bool changed = false;
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < cap; c++) {
        bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  (*c >= '0' && *c <= '9') || strchr("._+-", *c);
        buf[n++] = ok ? *c : '_';
        changed |= !ok;
    }
    buf[n] = '\0';
    /* "." and ".." are not names of files to make */
    if (!strcmp(buf, ".") || !strcmp(buf, "..") || !n) {
        snprintf(buf, cap, "_");
        changed = true;
    }
    return changed;
}

void tx_dashboard_page_name(const char *a, const char *b, char *buf, size_t cap)
{
    if (strcmp(a, b) > 0) {
        const char *t = a;
        a = b;
        b = t;
    }
    char sa[96], sb[96];
    bool changed = sanitize(a, sa, sizeof sa) | sanitize(b, sb, sizeof sb);
    changed |= strlen(a) >= sizeof sa - 1 || strlen(b) >= sizeof sb - 1;
    if (!changed) {
        snprintf(buf, cap, "%s--%s.html", sa, sb);
        return;
    }
    /* FNV-1a over both names: the page stays the same from run to run */
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const char *s = a;; s++) {
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
        if (!*s)
            break;
    }
    for (const char *s = b; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    snprintf(buf, cap, "%s--%s-%08llx.html", sa, sb, (unsigned long long)(h & 0xffffffffu));
}

/* ---- the data ---- */

/* A crosstable's cell (tx_standings_cell, tx_standings_team_cell). */
typedef const struct tx_standings_cell *cell_at(const struct tx_standings *s, int i, int j);

static double round2(double x)
{
    x = round(x * 100.0) / 100.0;
    return x == 0 ? 0 : x;
}

static cJSON *number(double v)
{
    return tx_xcheck(isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
}

static void add(cJSON *o, const char *key, cJSON *v)
{
    cJSON_AddItemToObject(o, key, v);
}

static cJSON *bot_json(const struct tx_standings *s, int i, int rank, double elo, double margin)
{
    const struct tx_standings_bot *b = &s->bots[i];
    cJSON *o = tx_xcheck(cJSON_CreateObject());
    add(o, "rank", number(rank));
    add(o, "name", tx_xcheck(cJSON_CreateString(b->label)));
    add(o, "sha256", tx_xcheck(b->sha256 ? cJSON_CreateString(b->sha256) : cJSON_CreateNull()));
    add(o, "games", number((double)b->games));
    add(o, "team_games", number((double)b->team_games));
    add(o, "wins", number((double)b->wins));
    add(o, "draws", number((double)b->draws));
    add(o, "losses", number((double)b->losses));
    add(o, "score", number(round2(100.0 * tx_standings_score(s, i)) / 100.0));
    add(o, "elo", number(round2(elo)));
    add(o, "elo_margin", number(round2(margin)));
    add(o, "timeouts", number((double)b->timeouts));
    add(o, "invalids", number((double)b->invalids));
    add(o, "crashes", number((double)b->crashes));
    add(o, "timed_moves", number((double)b->timed_moves));
    add(o, "first_turn_max_ms", number(round2((double)b->first_max_us / 1000.0)));
    add(o, "avg_ms",
        number(round2(b->timed_moves ? (double)b->total_us / (double)b->timed_moves / 1000.0 : 0)));
    add(o, "max_ms", number(round2((double)b->max_us / 1000.0)));
    const char *keys[] = {"p50_ms", "p90_ms", "p99_ms"};
    const double q[] = {0.5, 0.9, 0.99};
    for (int k = 0; k < 3; k++) {
        /* a bin's middle is no more than the slowest turn seen */
        double v = tx_standings_time_quantile(s, i, q[k]);
        add(o, keys[k], number(round2(fmin(v, (double)b->max_us / 1000.0))));
    }
    return o;
}

/* Games in the order the chart follows: counted, or by their start when
 * several files were merged (shards run side by side). */
static bool by_time(const struct tx_standings *s)
{
    if (s->nfiles < 2)
        return false;
    for (int64_t g = 0; g < s->nlog; g++)
        if (s->log[g].started < 0)
            return false;
    return true;
}

static const struct tx_standings *sort_log;

static int compare_start(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    int64_t sx = sort_log->log[x].started, sy = sort_log->log[y].started;
    return sx != sy ? (sx < sy ? -1 : 1) : (x > y) - (x < y);
}

/* Each bot's rating after each block of games: the joint fit of the games
 * so far (tx_standings_fit: games of two and team games), over the bots
 * that played. pos[i] is bot i's rank - 1. */
static cJSON *history(const struct tx_standings *s, const int *pos)
{
    int n = s->nbots, nt = s->nteams;
    int64_t total = s->nlog,
            block = total > HISTORY_POINTS ? (total + HISTORY_POINTS - 1) / HISTORY_POINTS : 1;
    bool timed = by_time(s);
    cJSON *o = tx_xcheck(cJSON_CreateObject());
    add(o, "block", number((double)block));
    add(o, "by_time", tx_xcheck(cJSON_CreateBool(timed)));
    cJSON *points = tx_xcheck(cJSON_AddArrayToObject(o, "points"));
    if (n == 0 || total == 0)
        return o;

    int64_t *order = tx_xmalloc((size_t)total * sizeof *order);
    for (int64_t g = 0; g < total; g++)
        order[g] = g;
    if (timed) {
        sort_log = s;
        qsort(order, (size_t)total, sizeof *order, compare_start);
    }
    size_t nn = (size_t)n * (size_t)n, tt = (size_t)nt * (size_t)nt + 1;
    double *won = tx_xcalloc(nn, sizeof *won), *played = tx_xcalloc(nn, sizeof *played);
    double *twon = tx_xcalloc(tt, sizeof *twon), *tplayed = tx_xcalloc(tt, sizeof *tplayed);
    double *elo = tx_xmalloc((size_t)n * sizeof *elo),
           *margin = tx_xmalloc((size_t)n * sizeof *margin);

    for (int64_t g = 0; g < total; g++) {
        const struct tx_standings_game *x = &s->log[order[g]];
        /* a side of the game: its bot, or its team */
        int a = x->team[0] >= 0 ? x->team[0] : x->bot[0],
            b = x->team[0] >= 0 ? x->team[1] : x->bot[1];
        double *w = x->team[0] >= 0 ? twon : won, *p = x->team[0] >= 0 ? tplayed : played;
        int width = x->team[0] >= 0 ? nt : n;
        if (a != b) {
            w[a * width + b] += x->half_points / 2.0;
            w[b * width + a] += (2 - x->half_points) / 2.0;
            p[a * width + b] += 1;
            p[b * width + a] += 1;
        }
        if ((g + 1) % block && g + 1 < total)
            continue;
        if (tx_standings_fit(s, won, played, twon, tplayed, true, elo, margin) < 0)
            continue;
        cJSON *q = tx_xcheck(cJSON_CreateObject()), *e = tx_xcheck(cJSON_CreateArray()),
              *m = tx_xcheck(cJSON_CreateArray());
        cJSON **es = tx_xcalloc((size_t)n, sizeof *es), **ms = tx_xcalloc((size_t)n, sizeof *ms);
        for (int i = 0; i < n; i++) {
            es[pos[i]] = number(round2(elo[i])); /* null for a bot yet to play */
            ms[pos[i]] = number(round2(margin[i]));
        }
        for (int r = 0; r < n; r++) {
            cJSON_AddItemToArray(e, es[r]);
            cJSON_AddItemToArray(m, ms[r]);
        }
        free(es);
        free(ms);
        add(q, "games", number((double)(g + 1)));
        add(q, "elo", e);
        add(q, "margin", m);
        cJSON_AddItemToArray(points, q);
    }
    free(order);
    free(won);
    free(played);
    free(twon);
    free(tplayed);
    free(elo);
    free(margin);
    return o;
}

const struct tx_standings *tx_dashboard_shown(const struct tx_standings *s)
{
    for (const struct tx_standings *t = s; t; t = t->next)
        if (!t->handicapped)
            return t;
    return s;
}

/* "pp rules, 12 x 12 board" and the opening when not the swap. */
static cJSON *condition(const struct tx_standings *s)
{
    char text[128];
    struct tx_variant v = s->has_variant ? s->variant : TX_VARIANT_DEFAULT;
    int n = snprintf(text, sizeof text, "%s rules, %d x %d board", tx_ruleset(v.rules)->name,
                     v.width, v.height);
    if (v.opening != TX_OPENING_SWAP)
        snprintf(text + n, sizeof text - (size_t)n, ", %s opening",
                 tx_opening_rule_name(v.opening));
    return tx_xcheck(cJSON_CreateString(text));
}

static cJSON *team_json(const struct tx_standings *s, int i, int rank, double elo, double margin)
{
    const struct tx_standings_team *t = &s->teams[i];
    cJSON *o = tx_xcheck(cJSON_CreateObject()), *bots = tx_xcheck(cJSON_CreateArray());
    add(o, "rank", number(rank));
    add(o, "name", tx_xcheck(cJSON_CreateString(t->label)));
    for (int k = 0; k < 2; k++)
        cJSON_AddItemToArray(bots, tx_xcheck(cJSON_CreateString(s->bots[t->bot[k]].label)));
    add(o, "bots", bots);
    add(o, "games", number((double)t->games));
    add(o, "wins", number((double)t->wins));
    add(o, "draws", number((double)t->draws));
    add(o, "losses", number((double)t->losses));
    double score = t->games ? ((double)t->wins + (double)t->draws / 2.0) / (double)t->games : 0.5;
    add(o, "score", number(round2(100.0 * score) / 100.0));
    add(o, "elo", number(round2(elo)));
    add(o, "elo_margin", number(round2(margin)));
    add(o, "timeouts", number((double)t->timeouts));
    add(o, "invalids", number((double)t->invalids));
    add(o, "crashes", number((double)t->crashes));
    return o;
}

/* A crosstable in rank order (n rows) and its pages: each cell's games and
 * points, and the page of the pair's games (under pages_dir/sub). */
static void cross_json(cJSON *root, const char *key, const char *pages_key, int n, const int *order,
                       const char *const *names, cell_at *at, const struct tx_standings *s,
                       const char *pages_dir, const char *sub)
{
    cJSON *cross = tx_xcheck(cJSON_AddArrayToObject(root, key));
    cJSON *pages = tx_xcheck(cJSON_AddArrayToObject(root, pages_key));
    for (int k = 0; k < n; k++) {
        int i = order[k];
        cJSON *row = tx_xcheck(cJSON_CreateArray()), *links = tx_xcheck(cJSON_CreateArray());
        for (int q = 0; q < n; q++) {
            int j = order[q];
            const struct tx_standings_cell *c = at(s, i, j);
            if (i == j || c->games == 0) {
                cJSON_AddItemToArray(row, tx_xcheck(cJSON_CreateNull()));
                cJSON_AddItemToArray(links, tx_xcheck(cJSON_CreateNull()));
                continue;
            }
            cJSON *x = tx_xcheck(cJSON_CreateObject());
            add(x, "games", number((double)c->games));
            add(x, "points", number((double)c->half_points / 2.0));
            add(x, "wins", number((double)c->wins));
            add(x, "draws", number((double)c->draws));
            cJSON_AddItemToArray(row, x);
            char name[256], url[1024];
            tx_dashboard_page_name(names[i], names[j], name, sizeof name);
            snprintf(url, sizeof url, "%s/%s%s", pages_dir ? pages_dir : "", sub, name);
            cJSON_AddItemToArray(
                links, tx_xcheck(pages_dir ? cJSON_CreateString(url) : cJSON_CreateNull()));
        }
        cJSON_AddItemToArray(cross, row);
        cJSON_AddItemToArray(pages, links);
    }
}

/* The rows of every handicap standings of the chain, each with its condition. */
static cJSON *handicap_json(const struct tx_standings *s)
{
    cJSON *rows = tx_xcheck(cJSON_CreateArray());
    for (const struct tx_standings *t = s; t; t = t->next)
        for (int k = 0; t->handicapped && k < t->nhandicap; k++) {
            const struct tx_standings_handicap *h = &t->handicap[k];
            int64_t losses = h->games - h->wins - h->draws;
            struct tx_stats_elo e = tx_stats_elo(h->wins, h->draws, losses);
            cJSON *o = tx_xcheck(cJSON_CreateObject());
            add(o, "condition", condition(t));
            add(o, "handicapped",
                tx_xcheck(cJSON_CreateString(tx_standings_handicap_name(t, k, false))));
            add(o, "opponent",
                tx_xcheck(cJSON_CreateString(tx_standings_handicap_name(t, k, true))));
            add(o, "teams", tx_xcheck(cJSON_CreateBool(h->teams)));
            add(o, "games", number((double)h->games));
            add(o, "wins", number((double)h->wins));
            add(o, "draws", number((double)h->draws));
            add(o, "losses", number((double)losses));
            add(o, "faults", number((double)h->faults));
            add(o, "score", number(round2(h->games ? 100.0 * e.score : 50.0) / 100.0));
            add(o, "elo", number(round2(e.elo)));
            add(o, "elo_lo", number(round2(e.lo)));
            add(o, "elo_hi", number(round2(e.hi)));
            cJSON_AddItemToArray(rows, o);
        }
    return rows;
}

static cJSON *data_json(const struct tx_standings *head, const char *title, const char *pages_dir)
{
    const struct tx_standings *s = tx_dashboard_shown(head);
    int n = s->nbots, nt = s->nteams;
    int *order = tx_xcalloc((size_t)n + 1, sizeof *order),
        *pos = tx_xcalloc((size_t)n + 1, sizeof *pos),
        *torder = tx_xcalloc((size_t)nt + 1, sizeof *torder);
    double *elo = tx_xcalloc((size_t)n + 1, sizeof *elo),
           *margin = tx_xcalloc((size_t)n + 1, sizeof *margin),
           *telo = tx_xcalloc((size_t)nt + 1, sizeof *telo),
           *tmargin = tx_xcalloc((size_t)nt + 1, sizeof *tmargin);
    const char **names = tx_xcalloc((size_t)n + 1, sizeof *names),
               **tnames = tx_xcalloc((size_t)nt + 1, sizeof *tnames);
    cJSON *root = NULL;
    if (tx_standings_rank(s, order, elo, margin) < 0 ||
        tx_standings_rank_teams(s, torder, telo, tmargin) < 0)
        goto out;
    for (int k = 0; k < n; k++)
        pos[order[k]] = k;
    for (int i = 0; i < n; i++)
        names[i] = s->bots[i].name; /* pages go by name: two builds share theirs */
    for (int i = 0; i < nt; i++)
        tnames[i] = s->teams[i].label;

    root = tx_xcheck(cJSON_CreateObject());
    add(root, "title", tx_xcheck(cJSON_CreateString(title)));
    char written[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(written, sizeof written, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    add(root, "written", tx_xcheck(cJSON_CreateString(written)));
    add(root, "condition", condition(s));
    cJSON *files = tx_xcheck(cJSON_AddArrayToObject(root, "files"));
    for (int f = 0; f < head->nfiles; f++)
        cJSON_AddItemToArray(files, tx_xcheck(cJSON_CreateString(head->files[f])));
    add(root, "games", number((double)s->counted));
    add(root, "team_games", number((double)s->team_games));
    add(root, "interrupted", number((double)s->interrupted));
    add(root, "duplicates", number((double)s->duplicates));
    add(root, "rejected", number((double)s->rejected));
    add(root, "filtered", number((double)s->filtered));
    cJSON *limits = tx_xcheck(cJSON_AddObjectToObject(root, "limits"));
    add(limits, "first_turn_ms", number(s->first_turn_ms > 0 ? s->first_turn_ms : NAN));
    add(limits, "turn_ms", number(s->turn_ms > 0 ? s->turn_ms : NAN));

    cJSON *bots = tx_xcheck(cJSON_AddArrayToObject(root, "bots"));
    for (int k = 0; k < n; k++)
        cJSON_AddItemToArray(bots, bot_json(s, order[k], k + 1, elo[order[k]], margin[order[k]]));
    cross_json(root, "cross", "pages", n, order, names, tx_standings_cell, s, pages_dir, "");
    cJSON *teams = tx_xcheck(cJSON_AddArrayToObject(root, "teams"));
    for (int k = 0; k < nt; k++)
        cJSON_AddItemToArray(teams,
                             team_json(s, torder[k], k + 1, telo[torder[k]], tmargin[torder[k]]));
    cross_json(root, "team_cross", "team_pages", nt, torder, tnames, tx_standings_team_cell, s,
               pages_dir, "teams/");
    add(root, "handicap", handicap_json(head));
    add(root, "pages_dir",
        tx_xcheck(pages_dir ? cJSON_CreateString(pages_dir) : cJSON_CreateNull()));
    add(root, "page_games", number(TX_DASHBOARD_PAGE_GAMES));
    add(root, "history", history(s, pos));
out:
    free(order);
    free(pos);
    free(torder);
    free(elo);
    free(margin);
    free(telo);
    free(tmargin);
    free(names);
    free(tnames);
    return root;
}

int tx_render_dashboard(FILE *out, const struct tx_standings *s, const char *title,
                        const char *pages_dir)
{
    const char *slot = strstr(tx_dashboard_html, DASHBOARD_SLOT);
    /* The build embeds dashboard.html; a missing slot is a programming error. */
    if (!slot)
        abort();
    cJSON *data = data_json(s, title, pages_dir);
    char *json = data ? cJSON_PrintUnformatted(data) : NULL;
    cJSON_Delete(data);
    if (!json)
        return -ENOMEM;
    fwrite(tx_dashboard_html, 1, (size_t)(slot - tx_dashboard_html), out);
    fputs("<script type=\"application/json\" id=\"tx-data\">", out);
    tx_render_html_json(out, json);
    fputs("</script>", out);
    fputs(slot + strlen(DASHBOARD_SLOT), out);
    cJSON_free(json);
    return 0;
}

/* ---- files ---- */

int tx_dashboard_replace(const char *path, const char *text, size_t len)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= sizeof tmp)
        return -ENAMETOOLONG;
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0)
        return -errno;
    fchmod(fd, 0644);
    int rc = tx_output_write_all(fd, text, len, NULL);
    if (close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0 && rename(tmp, path) < 0)
        rc = -errno;
    if (rc < 0)
        unlink(tmp);
    return rc;
}

/* The record at [start, end) of file (fd), loaded into r. */
static int load_at(int fd, int64_t start, int64_t end, struct tx_record *r, char *why, size_t cap)
{
    size_t len = (size_t)(end - start);
    char *line = tx_xmalloc(len + 1);
    ssize_t got = pread(fd, line, len, start);
    int rc = got == (ssize_t)len ? 0 : -EIO;
    while (rc == 0 && len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    if (rc == 0)
        rc = tx_record_from_json(line, len, r, why, cap);
    else
        snprintf(why, cap, "cannot read it back");
    free(line);
    return rc;
}

int tx_dashboard_write_page(const char *path, const struct tx_dashboard_game *games, int64_t n,
                            char *err, size_t errcap)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return -ENOMEM;
    struct tx_verify_geometries geos = {0};
    const char *open_name = NULL;
    int fd = -1, rc = 0;
    if (n > TX_DASHBOARD_PAGE_GAMES) {
        games += n - TX_DASHBOARD_PAGE_GAMES;
        n = TX_DASHBOARD_PAGE_GAMES;
    }
    tx_render_html_begin(out);
    for (int64_t g = 0; g < n && rc == 0; g++) {
        if (!open_name || strcmp(open_name, games[g].file)) {
            if (fd >= 0)
                close(fd);
            open_name = games[g].file;
            if ((fd = open(open_name, O_RDONLY | O_CLOEXEC)) < 0) {
                rc = -errno;
                snprintf(err, errcap, "%s: cannot read: %s", open_name, strerror(errno));
                break;
            }
        }
        struct tx_record r;
        char why[512], source[4200];
        if (load_at(fd, games[g].start, games[g].end, &r, why, sizeof why) < 0) {
            tx_record_free(&r);
            continue; /* the file changed under the standings: leave the game out */
        }
        const struct tx_geometry *geo = tx_verify_geometry(&geos, r.width, r.height);
        if (geo) {
            struct tx_verify_report report;
            tx_verify_record(geo, &r, &report);
            snprintf(source, sizeof source, "%s:%lld", games[g].file, (long long)games[g].line);
            tx_render_html_game(out, geo, &r, &report, source);
        }
        tx_record_free(&r);
    }
    if (fd >= 0)
        close(fd);
    tx_render_html_end(out);
    tx_verify_geometries_free(&geos);
    if (fclose(out) != 0 && rc == 0)
        rc = -ENOMEM;
    if (rc == 0 && (rc = tx_dashboard_replace(path, text, len)) < 0)
        snprintf(err, errcap, "cannot write %s: %s", path, strerror(-rc));
    free(text);
    return rc;
}

/* A pairing's game in s->log: of teams or not, the pair of names (indexes
 * into the list of distinct bot names, or into the teams) and the game. */
struct pair_game {
    int teams, a, b;
    int64_t g;
};

static int compare_pair(const void *x, const void *y)
{
    const struct pair_game *p = x, *q = y;
    if (p->teams != q->teams)
        return p->teams - q->teams;
    if (p->a != q->a)
        return p->a - q->a;
    if (p->b != q->b)
        return p->b - q->b;
    return (p->g > q->g) - (p->g < q->g);
}

static int make_dir(const char *dir, char *err, size_t errcap)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errcap, "cannot make %s: %s", dir, strerror(e));
        return -e;
    }
    return 0;
}

int tx_dashboard_write_pages(const struct tx_standings *head, const char *dir, char *err,
                             size_t errcap)
{
    const struct tx_standings *s = tx_dashboard_shown(head);
    char teams_dir[4200];
    snprintf(teams_dir, sizeof teams_dir, "%s/teams", dir);
    int rc = make_dir(dir, err, errcap);
    if (rc == 0 && s->nteams > 0)
        rc = make_dir(teams_dir, err, errcap);
    if (rc < 0)
        return rc;
    /* bots that share a name (two builds) share a page */
    int *name_of = tx_xcalloc((size_t)s->nbots + 1, sizeof *name_of);
    for (int i = 0; i < s->nbots; i++) {
        name_of[i] = i;
        for (int j = 0; j < i; j++)
            if (!strcmp(s->bots[i].name, s->bots[j].name)) {
                name_of[i] = name_of[j];
                break;
            }
    }
    struct pair_game *games = tx_xcalloc((size_t)s->nlog + 1, sizeof *games);
    int64_t n = 0;
    for (int64_t g = 0; g < s->nlog; g++) {
        const struct tx_standings_game *x = &s->log[g];
        int teams = x->team[0] >= 0;
        int a = teams ? x->team[0] : name_of[x->bot[0]],
            b = teams ? x->team[1] : name_of[x->bot[1]];
        if (x->file < 0 || a == b)
            continue;
        games[n++] = (struct pair_game){teams, a < b ? a : b, a < b ? b : a, g};
    }
    qsort(games, (size_t)n, sizeof *games, compare_pair);
    struct tx_dashboard_game *page = tx_xcalloc((size_t)n + 1, sizeof *page);
    for (int64_t from = 0, to; from < n && rc == 0; from = to) {
        int64_t k = 0;
        const struct pair_game *p = &games[from];
        for (to = from;
             to < n && games[to].teams == p->teams && games[to].a == p->a && games[to].b == p->b;
             to++) {
            const struct tx_standings_game *x = &s->log[games[to].g];
            page[k++] = (struct tx_dashboard_game){head->files[x->file], x->line, x->start, x->end};
        }
        char name[256], path[4600];
        if (p->teams)
            tx_dashboard_page_name(s->teams[p->a].label, s->teams[p->b].label, name, sizeof name);
        else
            tx_dashboard_page_name(s->bots[p->a].name, s->bots[p->b].name, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", p->teams ? teams_dir : dir, name);
        rc = tx_dashboard_write_page(path, page, k, err, errcap);
    }
    free(page);
    free(games);
    free(name_of);
    return rc;
}
