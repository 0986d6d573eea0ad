/* league.c - the league's games, its bots file watched, its standings
 * files (see league.h).
 *
 * Everything that touches the file system while games run happens in
 * libuv's thread pool: stat()ing the bots file (uv_fs_poll), reading and
 * checking it, writing the standings files and the dashboard. The loop
 * thread only swaps the pool (pure, microseconds) and copies the standings
 * for a write (a memcpy of their counters and games). Each pool keeps its
 * own array of bots alive until the league ends: a game already running
 * points to the bots it started with, whatever the file says since.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "alloc.h"
#include "league.h"
#include "render-dashboard.h"
#include "setup.h"

/* A version of the league's bots: a bots file as loaded, the bot list
 * made from it and the pool built on them. Kept until the end. */
struct version {
    struct version *older;
    struct tx_bots_file file;
    struct tx_bot_spec bots[TX_POOL_BOTS_MAX];
    int nbots;
    struct tx_pool pool;
    bool has_pool;
    bool accepted; /* its bots played: names known to the league */
};

struct tx_league_files {
    struct version *newest;
    const struct tx_pool *first; /* the setup's pool, the league's first bots */
};

/* ---- the runner's source ---- */

static int league_resumed(void *data, const struct tx_record *r, char *why, size_t cap)
{
    struct tx_league *l = data;
    return tx_pool_resumed(l->pool, r, why, cap);
}

static int league_next(void *data, int64_t index, struct tx_pool_slot *slot)
{
    struct tx_league *l = data;
    struct tx_pool_game g;
    if (!tx_pool_match(l->pool, &g))
        return 0;
    tx_pool_spec(l->pool, g, index, slot);
    return 1;
}

static void league_ended(void *data, const struct tx_pool_slot *slot, const struct tx_record *r)
{
    struct tx_league *l = data;
    tx_pool_ended(l->pool, slot->key, slot->identity.k, r);
}

static void league_progress(void *data, int64_t *done, int64_t *total)
{
    struct tx_league *l = data;
    *done = l->done;
    *total = -1;
}

/* ---- reloading the bots file ---- */

struct reload {
    uv_work_t work; /* first member: the request is the struct */
    struct tx_league *league;
    struct version *v;
    int rc;
    char err[1024];
};

int tx_league_check_file(const char *path, const struct tx_bots_file *f, char *err, size_t errcap)
{
    if (f->nteams > 0) {
        snprintf(err, errcap,
                 "%s:%d: team '%s': a league plays bots, not teams (Double TwixT is for play "
                 "and tournament)",
                 path, f->teams[0].line, f->teams[0].name);
        return -EINVAL;
    }
    for (int i = 0; i < f->nbots; i++)
        if (f->bots[i].handicap) {
            snprintf(err, errcap,
                     "%s:%d: bot '%s': handicap: a league plays even games (handicap matches "
                     "are for play and tournament)",
                     path, f->bots[i].line, f->bots[i].name);
            return -EINVAL;
        }
    return 0;
}

/* In the thread pool: read, parse and check the file (stat()s of programs
 * and directories included). */
static void reload_work(uv_work_t *work)
{
    struct reload *rl = (struct reload *)work;
    struct tx_league *l = rl->league;
    struct version *v = rl->v;
    for (int i = 0; i < l->nfixed; i++)
        v->bots[v->nbots++] = l->fixed[i];
    rl->rc = tx_bots_file_load(l->bots_path, &v->file, rl->err, sizeof rl->err);
    if (rl->rc == 0)
        rl->rc = tx_league_check_file(l->bots_path, &v->file, rl->err, sizeof rl->err);
    if (rl->rc == 0)
        rl->rc = tx_setup_add_file_bots(l->bots_path, &v->file, &l->pool->terms.variant, v->bots,
                                        &v->nbots, rl->err, sizeof rl->err);
}

static const struct tx_bot_spec *bot_named(const struct tx_bot_spec *bots, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(bots[i].name, name))
            return &bots[i];
    return NULL;
}

/* One name is one program for the life of a records file: a bot known to
 * the league (now, or in an earlier version of the file) that comes back
 * with another command or memory limit is refused. */
static const struct tx_bot_spec *changed_bot(const struct tx_league *l, const struct version *v)
{
    for (int i = 0; i < v->nbots; i++) {
        const struct tx_bot_spec *b = &v->bots[i],
                                 *old = bot_named(l->pool->bots, l->pool->nbots, b->name);
        for (const struct version *o = l->files->newest; !old && o; o = o->older)
            if (o->accepted)
                old = bot_named(o->bots, o->nbots, b->name);
        if (!old)
            old = bot_named(l->files->first->bots, l->files->first->nbots, b->name);
        if (old && (strcmp(old->command, b->command) ||
                    tx_pool_memory(l->pool, old) != tx_pool_memory(l->pool, b)))
            return b;
    }
    return NULL;
}

/* "+new -old", what changed between two bot lists; "" for nothing. */
static void describe_change(const struct tx_pool *from, const struct version *to, char *buf,
                            size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < to->nbots && n < cap; i++)
        if (!bot_named(from->bots, from->nbots, to->bots[i].name))
            n += (size_t)snprintf(buf + n, cap - n, " +%s", to->bots[i].name);
    for (int i = 0; i < from->nbots && n < cap; i++)
        if (!bot_named(to->bots, to->nbots, from->bots[i].name))
            n += (size_t)snprintf(buf + n, cap - n, " -%s", from->bots[i].name);
}

static void free_version(struct version *v)
{
    if (v->has_pool)
        tx_pool_free(&v->pool);
    tx_bots_file_free(&v->file);
    free(v);
}

static void after_reload(uv_work_t *work, int status)
{
    struct reload *rl = (struct reload *)work;
    struct tx_league *l = rl->league;
    struct version *v = rl->v;
    char change[1024];
    (void)status;
    l->reloading = false;

    const struct tx_bot_spec *changed = rl->rc == 0 ? changed_bot(l, v) : NULL;
    if (rl->rc < 0) {
        fprintf(stderr, "twixt-arena league: warning: %s; going on with the bots of before\n",
                rl->err);
    } else if (changed) {
        fprintf(stderr,
                "twixt-arena league: warning: %s: bot '%s' has another command or memory limit "
                "than the league's games were played with: give a new version a new name; going "
                "on with the bots of before\n",
                l->bots_path, changed->name);
    } else if (v->nbots < 2 ||
               (l->pool->kind == TX_POOL_GAUNTLET && l->pool->gauntlet >= v->nbots)) {
        fprintf(stderr,
                "twixt-arena league: warning: %s leaves %d bot%s, too few to play: going on with "
                "the bots of before\n",
                l->bots_path, v->nbots, v->nbots == 1 ? "" : "s");
    } else {
        describe_change(l->pool, v, change, sizeof change);
        struct tx_pool *p = &v->pool;
        *p = *l->pool; /* the same terms, board, kind and memory */
        p->pairings = NULL;
        p->by_bits = p->of_bots = NULL;
        p->bots = v->bots;
        p->nbots = v->nbots;
        if (change[0] && tx_pool_init(p) == 0) {
            v->has_pool = v->accepted = true;
            tx_pool_carry(p, l->pool);
            l->pool = p;
            fprintf(stderr, "twixt-arena league: %s changed:%s (%d bots)\n", l->bots_path, change,
                    v->nbots);
            for (int i = 0; i < v->nbots; i++)
                tx_standings_bot(&l->standings, v->bots[i].name);
        }
    }
    /* Kept whatever happened: a game may point to any version's bots. */
    v->older = l->files->newest;
    l->files->newest = v;
    free(rl);
    if (l->runner && !l->detached)
        tx_runner_wake(l->runner);
}

static void on_bots_file(uv_fs_poll_t *handle, int status, const uv_stat_t *prev,
                         const uv_stat_t *curr)
{
    struct tx_league *l = handle->data;
    (void)prev, (void)curr;
    if (l->reloading || l->detached)
        return; /* the next change (or this one's next poll) will be seen */
    if (status < 0) {
        fprintf(stderr, "twixt-arena league: warning: %s: %s; going on with the bots of before\n",
                l->bots_path, uv_strerror(status));
        return;
    }
    struct reload *rl = tx_xcalloc(1, sizeof *rl);
    rl->league = l;
    rl->v = tx_xcalloc(1, sizeof *rl->v);
    l->reloading = true;
    if (uv_queue_work(l->loop, &rl->work, reload_work, after_reload) < 0) {
        l->reloading = false;
        free(rl->v);
        free(rl);
    }
}

static void league_attach(void *data, struct tx_runner *runner, uv_loop_t *loop)
{
    struct tx_league *l = data;
    l->runner = runner;
    l->loop = loop;
    if (!l->bots_path)
        return;
    uv_fs_poll_init(loop, &l->watch);
    l->watch.data = l;
    if (uv_fs_poll_start(&l->watch, on_bots_file, l->bots_path, TX_LEAGUE_WATCH_MS) == 0)
        l->watching = true;
    else
        uv_close((uv_handle_t *)&l->watch, NULL);
}

static void league_detach(void *data)
{
    struct tx_league *l = data;
    l->detached = true;
    if (l->watching) {
        uv_fs_poll_stop(&l->watch);
        uv_close((uv_handle_t *)&l->watch, NULL);
        l->watching = false;
    }
}

/* ---- standings files ---- */

/* The games of each pair of bot names in the records file, for the
 * dashboard's viewer pages: read from where the last write stopped, so a
 * write reads only the lines written since. Used by one write at a time
 * (a write in flight holds the others back: tx_league_record). */
struct pair_pages {
    char *a, *b; /* names, a < b */
    struct tx_dashboard_game *games;
    int64_t n, cap;
    bool dirty; /* games added since its page was written */
};

struct tx_league_pages {
    int64_t scanned; /* bytes of the records file read */
    int64_t lines;   /* lines in them */
    struct pair_pages *pairs;
    int npairs, cap;
};

static struct pair_pages *pair_of(struct tx_league_pages *pg, const char *x, const char *y)
{
    const char *a = strcmp(x, y) < 0 ? x : y, *b = a == x ? y : x;
    for (int i = 0; i < pg->npairs; i++)
        if (!strcmp(pg->pairs[i].a, a) && !strcmp(pg->pairs[i].b, b))
            return &pg->pairs[i];
    if (pg->npairs == pg->cap) {
        pg->cap = pg->cap ? 2 * pg->cap : 16;
        pg->pairs = tx_xrealloc(pg->pairs, (size_t)pg->cap * sizeof *pg->pairs);
    }
    struct pair_pages *p = &pg->pairs[pg->npairs++];
    *p = (struct pair_pages){.a = tx_strdup(a), .b = tx_strdup(b)};
    return p;
}

/* Reads the whole lines the records file got since the last scan. */
static void scan_records(struct tx_league_pages *pg, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_size <= pg->scanned) {
        close(fd);
        return;
    }
    size_t len = (size_t)(st.st_size - pg->scanned);
    char *text = tx_xmalloc(len + 1);
    ssize_t got = pread(fd, text, len, pg->scanned);
    close(fd);
    size_t at = 0;
    while (got > 0 && at < (size_t)got) {
        char *nl = memchr(text + at, '\n', (size_t)got - at);
        if (!nl)
            break; /* a line still being written: the next scan */
        size_t end = (size_t)(nl - text), n = end - at;
        struct tx_record r;
        char why[256];
        pg->lines++;
        if (n > 0 && text[end - 1] == '\r')
            n--;
        if (tx_record_from_json(text + at, n, &r, why, sizeof why) == 0 &&
            r.result.reason != TX_REASON_INTERRUPTED && r.players[0].name && r.players[1].name &&
            strcmp(r.players[0].name, r.players[1].name)) {
            struct pair_pages *p = pair_of(pg, r.players[0].name, r.players[1].name);
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 16;
                p->games = tx_xrealloc(p->games, (size_t)p->cap * sizeof *p->games);
            }
            p->games[p->n++] = (struct tx_dashboard_game){
                .file = path,
                .line = pg->lines,
                .start = pg->scanned + (int64_t)at,
                .end = pg->scanned + (int64_t)end + 1,
            };
            p->dirty = true;
        }
        tx_record_free(&r);
        at = end + 1;
    }
    pg->scanned += (int64_t)at;
    free(text);
}

static void free_pages(struct tx_league_pages *pg)
{
    if (!pg)
        return;
    for (int i = 0; i < pg->npairs; i++) {
        free(pg->pairs[i].a);
        free(pg->pairs[i].b);
        free(pg->pairs[i].games);
    }
    free(pg->pairs);
    free(pg);
}

/* A write of the standings files: the standings as they were when it was
 * asked for, formatted and written in the thread pool (the joint fits of
 * the dashboard take milliseconds per block of games: never on the loop,
 * where bots' clocks run). */
struct writing {
    uv_work_t work;
    struct tx_league *league;
    struct tx_standings standings; /* a copy */
    int64_t done;
};

static int write_text(const char *path, int (*format)(const struct writing *, FILE *),
                      const struct writing *w, char *err, size_t cap)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = f ? format(w, f) : -ENOMEM;
    if (f && fclose(f) != 0 && rc == 0)
        rc = -ENOMEM;
    if (rc == 0)
        rc = tx_dashboard_replace(path, text, len);
    if (rc < 0)
        snprintf(err, cap, "cannot write %s: %s", path, strerror(-rc));
    free(text);
    return rc;
}

static int format_text(const struct writing *w, FILE *f)
{
    fprintf(f, "league: %lld games\n", (long long)w->done);
    return tx_standings_print_all(&w->standings, NULL, 0, true, false, f);
}

static int format_json(const struct writing *w, FILE *f)
{
    return tx_standings_print_all(&w->standings, NULL, 0, true, true, f);
}

static int format_html(const struct writing *w, FILE *f)
{
    const struct tx_league *l = w->league;
    char dir[4096];
    tx_dashboard_pages_dir(l->standings_out, dir, sizeof dir);
    const char *slash = strrchr(dir, '/');
    return tx_render_dashboard(f, &w->standings, l->records ? l->records : "league",
                               l->records ? (slash ? slash + 1 : dir) : NULL);
}

/* PREFIX.txt, PREFIX.json, the dashboard PREFIX.html and the viewer pages
 * of the pairings that played since the last write. */
static int write_files(struct writing *w, char *err, size_t cap)
{
    struct tx_league *l = w->league;
    char path[4400], dir[4096];
    int rc;
    snprintf(path, sizeof path, "%s.txt", l->standings_out);
    if ((rc = write_text(path, format_text, w, err, cap)) < 0)
        return rc;
    snprintf(path, sizeof path, "%s.json", l->standings_out);
    if ((rc = write_text(path, format_json, w, err, cap)) < 0)
        return rc;
    if (l->records) {
        tx_dashboard_pages_dir(l->standings_out, dir, sizeof dir);
        if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
            snprintf(err, cap, "cannot make %s: %s", dir, strerror(errno));
            return -errno;
        }
        scan_records(l->pages, l->records);
        for (int i = 0; i < l->pages->npairs && rc == 0; i++) {
            struct pair_pages *p = &l->pages->pairs[i];
            char name[256];
            if (!p->dirty)
                continue;
            tx_dashboard_page_name(p->a, p->b, name, sizeof name);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            if ((rc = tx_dashboard_write_page(path, p->games, p->n, err, cap)) == 0)
                p->dirty = false;
        }
        if (rc < 0)
            return rc;
        /* the dashboard names its source */
        w->standings.files = tx_xrealloc(w->standings.files, sizeof *w->standings.files);
        w->standings.files[0] = tx_strdup(l->records);
        w->standings.nfiles = 1;
    }
    snprintf(path, sizeof path, "%s.html", l->standings_out);
    return write_text(path, format_html, w, err, cap);
}

static void write_work(uv_work_t *work)
{
    struct writing *w = (struct writing *)work;
    char err[4200];
    if (write_files(w, err, sizeof err) < 0)
        fprintf(stderr, "twixt-arena league: warning: %s\n", err);
}

static struct writing *new_writing(struct tx_league *l)
{
    struct writing *w = tx_xcalloc(1, sizeof *w);
    w->league = l;
    w->done = l->done;
    tx_standings_copy(&w->standings, &l->standings);
    return w;
}

static void free_writing(struct writing *w)
{
    tx_standings_free(&w->standings);
    free(w);
}

static void after_write(uv_work_t *work, int status)
{
    struct writing *w = (struct writing *)work;
    (void)status;
    w->league->writing--;
    free_writing(w);
}

void tx_league_record(struct tx_runner *runner, const struct tx_record *record, bool resumed,
                      void *data)
{
    struct tx_league *l = data;
    (void)runner;
    if (record->result.reason == TX_REASON_INTERRUPTED)
        return;
    tx_standings_add(&l->standings, record);
    l->done++;
    if (resumed || !l->standings_out || ++l->since_written < l->every || l->writing || !l->loop)
        return;
    struct writing *w = new_writing(l);
    if (uv_queue_work(l->loop, &w->work, write_work, after_write) < 0) {
        free_writing(w);
        return;
    }
    l->writing++;
    l->since_written = 0;
}

int tx_league_write_standings(struct tx_league *l)
{
    if (!l->standings_out)
        return 0;
    struct writing *w = new_writing(l);
    char err[4200];
    int rc = write_files(w, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "twixt-arena league: %s\n", err);
    free_writing(w);
    return rc;
}

int tx_league_init(struct tx_league *l)
{
    l->files = tx_xcalloc(1, sizeof *l->files);
    l->files->first = l->pool;
    l->pages = tx_xcalloc(1, sizeof *l->pages);
    tx_standings_init(&l->standings);
    for (int i = 0; i < l->pool->nbots; i++)
        tx_standings_bot(&l->standings, l->pool->bots[i].name);
    l->source = (struct tx_runner_games){
        .resumed = league_resumed,
        .next = league_next,
        .ended = league_ended,
        .progress = league_progress,
        .attach = league_attach,
        .detach = league_detach,
        .data = l,
    };
    return 0;
}

void tx_league_free(struct tx_league *l)
{
    if (l->files) {
        for (struct version *v = l->files->newest, *older; v; v = older) {
            older = v->older;
            free_version(v);
        }
        free(l->files);
        l->files = NULL;
    }
    tx_standings_free(&l->standings);
    free_pages(l->pages);
    l->pages = NULL;
}
