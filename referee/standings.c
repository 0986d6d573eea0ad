/* standings.c - per-bot results and a crosstable from game records.
 *
 * The aggregate keeps only counters (per bot and per pair of bots), so it is
 * as cheap to feed a million records as a dozen and the tournament can keep
 * one up to date as games end. Ratings are not stored: they are fitted from
 * the crosstable when printed (stats.h), which takes milliseconds. Reading
 * JSON Lines files into a standings, with the checks of every record, is
 * in standings-read.c.
 */
#include "alloc.h"
#include "standings.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "geometry.h"
#include "stats.h"
#include "text.h"

void tx_standings_init(struct tx_standings *s)
{
    memset(s, 0, sizeof(*s));
}

void tx_standings_free(struct tx_standings *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nbots; i++) {
        free(s->bots[i].name);
        free(s->bots[i].sha256);
        free(s->bots[i].label);
    }
    free(s->bots);
    free(s->cells);
    free(s->log);
    for (int i = 0; i < s->nfiles; i++)
        free(s->files[i]);
    free(s->files);
    tx_records_seen_free(&s->seen);
    if (s->next) {
        tx_standings_free(s->next);
        free(s->next);
    }
    memset(s, 0, sizeof(*s));
}

/* A new bot (name, sha256), with no games. */
static int new_bot(struct tx_standings *s, const char *name, const char *sha256)
{
    if (s->nbots == s->cap) {
        /* the crosstable is re-laid out for the new width */
        int cap = s->cap ? 2 * s->cap : 8;
        struct tx_standings_cell *cells = tx_xcalloc((size_t)cap * (size_t)cap, sizeof(*cells));
        for (int i = 0; i < s->nbots; i++)
            for (int j = 0; j < s->nbots; j++)
                cells[i * cap + j] = s->cells[i * s->cap + j];
        free(s->cells);
        s->cells = cells;
        s->bots = tx_xrealloc(s->bots, (size_t)cap * sizeof(*s->bots));
        s->cap = cap;
    }
    struct tx_standings_bot *b = &s->bots[s->nbots];
    memset(b, 0, sizeof(*b));
    b->name = tx_strdup(name);
    b->sha256 = tx_strdup(sha256);
    b->label = tx_strdup(name);
    return s->nbots++;
}

/* The labels of the bots named name: the name alone, or name@ and the
 * first 8 digits of its sha256 ("?" when unknown) when several programs
 * share it. */
static void relabel(struct tx_standings *s, const char *name)
{
    int shared = 0;
    for (int i = 0; i < s->nbots; i++)
        shared += !strcmp(s->bots[i].name, name);
    for (int i = 0; i < s->nbots; i++) {
        struct tx_standings_bot *b = &s->bots[i];
        if (strcmp(b->name, name))
            continue;
        char label[160];
        if (shared > 1)
            snprintf(label, sizeof label, "%s@%.8s", name, b->sha256 ? b->sha256 : "?");
        else
            snprintf(label, sizeof label, "%s", name);
        free(b->label);
        b->label = tx_strdup(label);
    }
}

int tx_standings_bot(struct tx_standings *s, const char *name)
{
    name = name ? name : "";
    for (int i = 0; i < s->nbots; i++)
        if (strcmp(s->bots[i].name, name) == 0)
            return i;
    return new_bot(s, name, NULL);
}

/* The bot a record's player is: its name and, unless merge_builds, its
 * program's sha256. A sha256 the record does not know goes with the first
 * bot of that name; a bot listed before its first game (a tournament's)
 * takes the sha256 of its first record. */
static int player_bot(struct tx_standings *s, const char *name, const char *sha256)
{
    int unknown = -1, first = -1;
    name = name ? name : "";
    for (int i = 0; i < s->nbots; i++) {
        struct tx_standings_bot *b = &s->bots[i];
        if (strcmp(b->name, name))
            continue;
        if (first < 0)
            first = i;
        if (s->merge_builds || !sha256 || (b->sha256 && !strcmp(b->sha256, sha256)))
            return i;
        if (!b->sha256 && unknown < 0)
            unknown = i;
    }
    if (unknown >= 0) {
        s->bots[unknown].sha256 = tx_strdup(sha256);
        return unknown;
    }
    int i = new_bot(s, name, sha256);
    if (first >= 0)
        relabel(s, name);
    return i;
}

/* cells is laid out with the capacity as its width (see tx_standings_bot). */
static struct tx_standings_cell *cell(const struct tx_standings *s, int i, int j)
{
    return &s->cells[i * s->cap + j];
}

const struct tx_standings_cell *tx_standings_cell(const struct tx_standings *s, int i, int j)
{
    return cell(s, i, j);
}

static bool named(const struct tx_standings *s, const char *name)
{
    for (int i = 0; i < s->nonly; i++)
        if (name && !strcmp(s->only[i], name))
            return true;
    return false;
}

/* The game is in the subset looked at (since, only). A UTC time compares
 * as text: "2026-11-21T..." sorts after "2026-11-21". */
static bool wanted(const struct tx_standings *s, const struct tx_record *r)
{
    if (s->since && (!r->started || strcmp(r->started, s->since) < 0))
        return false;
    return !s->only || (named(s, r->players[0].name) && named(s, r->players[1].name));
}

/* The bin of a turn of us microseconds (TX_STANDINGS_TIME_BINS). */
static int time_bin(int64_t us)
{
    double ms = (double)us / 1000.0;
    if (ms < TX_STANDINGS_BIN0_MS)
        return 0;
    int bin = 1 + (int)floor(4.0 * log2(ms / TX_STANDINGS_BIN0_MS));
    return bin < TX_STANDINGS_TIME_BINS ? bin : TX_STANDINGS_TIME_BINS - 1;
}

double tx_standings_time_quantile(const struct tx_standings *s, int i, double q)
{
    const struct tx_standings_bot *b = &s->bots[i];
    if (b->timed_moves == 0)
        return 0.0;
    int64_t want = (int64_t)ceil(q * (double)b->timed_moves), seen = 0;
    want = want < 1 ? 1 : want;
    for (int bin = 0; bin < TX_STANDINGS_TIME_BINS; bin++) {
        seen += b->time_bins[bin];
        if (seen >= want)
            return bin == 0 ? TX_STANDINGS_BIN0_MS / 2
                            : TX_STANDINGS_BIN0_MS * exp2(((double)bin - 0.5) / 4.0);
    }
    return (double)b->max_us / 1000.0;
}

/* "2026-11-21T21:00:00Z" as seconds since 1970; -1 when it is not one. */
static int64_t utc_seconds(const char *text)
{
    struct tm tm = {0};
    if (!text || sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                        &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (int64_t)timegm(&tm);
}

/* The game in the log, and the limits the games share. */
static void log_game(struct tx_standings *s, const struct tx_record *r, const int id[2])
{
    if (s->nlog == s->logcap) {
        s->logcap = s->logcap ? 2 * s->logcap : 64;
        s->log = tx_xrealloc(s->log, (size_t)s->logcap * sizeof *s->log);
    }
    s->log[s->nlog++] = (struct tx_standings_game){
        .bot = {id[0], id[1]},
        .half_points = (int8_t)(r->result.winner < 0    ? 1
                                : r->result.winner == 0 ? 2
                                                        : 0),
        .started = utc_seconds(r->started),
        .file = -1,
    };
    if (s->counted == 0) {
        s->first_turn_ms = r->limits.first_turn_ms;
        s->turn_ms = r->limits.turn_ms;
    }
    if (s->first_turn_ms != r->limits.first_turn_ms)
        s->first_turn_ms = -1;
    if (s->turn_ms != r->limits.turn_ms)
        s->turn_ms = -1;
}

/* The standings that counts games of r's rule set and board: s, the next
 * of the chain, or a new one at its end. */
static struct tx_standings *standings_of(struct tx_standings *s, const struct tx_record *r)
{
    struct tx_variant v = {.rules = r->rules, .width = r->width, .height = r->height};
    for (;; s = s->next) {
        if (!s->has_variant) {
            s->variant = v;
            s->has_variant = true;
        }
        if (s->variant.rules == v.rules && s->variant.width == v.width &&
            s->variant.height == v.height)
            return s;
        if (!s->next) {
            s->next = tx_xcalloc(1, sizeof *s->next);
            s->next->since = s->since;
            s->next->only = s->only;
            s->next->nonly = s->nonly;
            s->next->merge_builds = s->merge_builds;
            s->next->unchecked = s->unchecked;
            s->next->show_variant = s->show_variant;
        }
    }
}

enum tx_standings_added tx_standings_add_at(struct tx_standings *s, const struct tx_record *r,
                                            const char *file, int64_t line,
                                            struct tx_records_earlier *earlier)
{
    s = standings_of(s, r);
    if (r->result.reason == TX_REASON_INTERRUPTED) {
        s->interrupted++;
        return TX_STANDINGS_INTERRUPTED;
    }
    if (!wanted(s, r)) {
        s->filtered++;
        return TX_STANDINGS_FILTERED;
    }
    /* Without a run fingerprint two games cannot be told to be the same. */
    switch (tx_records_seen_add(&s->seen, r, file, line, earlier)) {
    case TX_RECORDS_SAME:
        s->duplicates++;
        return TX_STANDINGS_DUPLICATE;
    case TX_RECORDS_CONFLICT:
        s->conflicts++;
        return TX_STANDINGS_CONFLICT;
    case TX_RECORDS_NEW:
        break;
    }
    int id[2] = {player_bot(s, r->players[0].name, r->players[0].sha256),
                 player_bot(s, r->players[1].name, r->players[1].sha256)};
    for (int side = 0; side < 2; side++) {
        struct tx_standings_bot *b = &s->bots[id[side]];
        struct tx_standings_cell *c = cell(s, id[side], id[1 - side]);
        b->games++;
        c->games++;
        if (r->result.winner < 0) {
            b->draws++;
            c->draws++;
            c->half_points += 1;
        } else if (r->result.winner == side) {
            b->wins++;
            c->wins++;
            c->half_points += 2;
        } else {
            b->losses++;
            b->timeouts += r->result.reason == TX_REASON_TIMEOUT;
            b->invalids += r->result.reason == TX_REASON_INVALID;
            b->crashes += r->result.reason == TX_REASON_CRASH;
        }
    }
    /* A bot's first turn has its own limit and holds its start-up (an
     * interpreter loading): it is shown apart from the later turns. */
    bool first_seen[2] = {false, false};
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->forced || m->us < 0 || m->player < 0 || m->player > 1)
            continue;
        struct tx_standings_bot *b = &s->bots[id[m->player]];
        if (!first_seen[m->player]) {
            first_seen[m->player] = true;
            if (m->us > b->first_max_us)
                b->first_max_us = m->us;
            continue;
        }
        b->timed_moves++;
        b->time_bins[time_bin(m->us)]++;
        b->total_us += m->us;
        if (m->us > b->max_us)
            b->max_us = m->us;
    }
    log_game(s, r, id);
    s->counted++;
    return TX_STANDINGS_COUNTED;
}

enum tx_standings_added tx_standings_add(struct tx_standings *s, const struct tx_record *r)
{
    struct tx_records_earlier earlier;
    return tx_standings_add_at(s, r, "(this run)", 0, &earlier);
}

double tx_standings_score(const struct tx_standings *s, int i)
{
    const struct tx_standings_bot *b = &s->bots[i];
    if (b->games == 0)
        return 0.5;
    return ((double)b->wins + (double)b->draws / 2.0) / (double)b->games;
}

int tx_standings_leader(const struct tx_standings *s)
{
    int best = -1;
    for (int i = 0; i < s->nbots; i++) {
        if (s->bots[i].games == 0)
            continue;
        /* compare exactly: half points_i * games_best against the reverse */
        int64_t hi = 2 * s->bots[i].wins + s->bots[i].draws;
        if (best < 0) {
            best = i;
            continue;
        }
        int64_t hb = 2 * s->bots[best].wins + s->bots[best].draws;
        int64_t lhs = hi * s->bots[best].games, rhs = hb * s->bots[i].games;
        if (lhs > rhs || (lhs == rhs && s->bots[i].games > s->bots[best].games))
            best = i;
    }
    return best;
}

/* Ratings and the ranking: order[k] is the bot ranked k + 1. */
struct ranking {
    double *elo, *margin;
    int *order;
};

static void ranking_free(struct ranking *k)
{
    free(k->elo);
    free(k->margin);
    free(k->order);
}

static int rank(const struct tx_standings *s, struct ranking *k)
{
    int n = s->nbots;
    size_t nn = (size_t)n * (size_t)n;
    k->elo = calloc((size_t)n + 1, sizeof(double));
    k->margin = calloc((size_t)n + 1, sizeof(double));
    k->order = calloc((size_t)n + 1, sizeof(int));
    double *points = calloc(nn + 1, sizeof(double)), *games = calloc(nn + 1, sizeof(double));
    int r = -ENOMEM;
    if (!k->elo || !k->margin || !k->order || !points || !games)
        goto out;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j)
                continue; /* a bot against itself says nothing about its rating */
            points[i * n + j] = (double)cell(s, i, j)->half_points / 2.0;
            games[i * n + j] = (double)cell(s, i, j)->games;
        }
    r = n > 0 ? tx_stats_ratings(n, points, games, k->elo, k->margin) : 0;
    /* insertion sort: rating, then score, then name; n is small */
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0; j--) {
            int o = k->order[j - 1];
            double de = k->elo[i] - k->elo[o];
            double ds = tx_standings_score(s, i) - tx_standings_score(s, o);
            bool before = de > 1e-9 ||
                          (fabs(de) <= 1e-9 &&
                           (ds > 1e-12 ||
                            (fabs(ds) <= 1e-12 && strcmp(s->bots[i].label, s->bots[o].label) < 0)));
            if (!before)
                break;
            k->order[j] = o;
        }
        k->order[j] = i;
    }
out:
    free(points);
    free(games);
    return r;
}

int tx_standings_rank(const struct tx_standings *s, int *order, double *elo, double *margin)
{
    struct ranking k = {0};
    int r = rank(s, &k);
    if (r == 0 && s->nbots > 0) {
        memcpy(order, k.order, (size_t)s->nbots * sizeof *order);
        memcpy(elo, k.elo, (size_t)s->nbots * sizeof *elo);
        memcpy(margin, k.margin, (size_t)s->nbots * sizeof *margin);
    }
    ranking_free(&k);
    return r;
}

void tx_standings_copy(struct tx_standings *to, const struct tx_standings *s)
{
    *to = *s;
    memset(&to->seen, 0, sizeof to->seen);
    to->only = NULL;
    to->nonly = 0;
    to->since = NULL;
    to->next = NULL; /* a copy holds one variant; the caller copies the chain if needed */
    to->bots = tx_xcalloc((size_t)(s->cap ? s->cap : 1), sizeof *to->bots);
    for (int i = 0; i < s->nbots; i++) {
        to->bots[i] = s->bots[i];
        to->bots[i].name = tx_strdup(s->bots[i].name);
        to->bots[i].sha256 = s->bots[i].sha256 ? tx_strdup(s->bots[i].sha256) : NULL;
        to->bots[i].label = tx_strdup(s->bots[i].label);
    }
    size_t cells = (size_t)s->cap * (size_t)s->cap;
    to->cells = tx_xcalloc(cells ? cells : 1, sizeof *to->cells);
    if (cells)
        memcpy(to->cells, s->cells, cells * sizeof *to->cells);
    to->log = tx_xcalloc((size_t)(s->nlog ? s->nlog : 1), sizeof *to->log);
    if (s->nlog)
        memcpy(to->log, s->log, (size_t)s->nlog * sizeof *to->log);
    to->logcap = s->nlog;
    to->files = tx_xcalloc((size_t)(s->nfiles ? s->nfiles : 1), sizeof *to->files);
    for (int i = 0; i < s->nfiles; i++)
        to->files[i] = tx_strdup(s->files[i]);
}

/* Writes "45.5" or "45": half points as points. */
static void format_points(char *buf, size_t cap, int64_t half_points)
{
    if (half_points % 2)
        snprintf(buf, cap, "%" PRId64 ".5", half_points / 2);
    else
        snprintf(buf, cap, "%" PRId64, half_points / 2);
}

/* Prints name left-aligned in width characters (not bytes: names are UTF-8). */
static void print_padded(FILE *out, const char *name, int width)
{
    fputs(name, out);
    for (int w = (int)tx_text_chars(name); w < width; w++)
        fputc(' ', out);
}

static double avg_ms(const struct tx_standings_bot *b)
{
    return b->timed_moves ? (double)b->total_us / (double)b->timed_moves / 1000.0 : 0.0;
}

int tx_standings_print(const struct tx_standings *s, FILE *out)
{
    struct ranking k = {0};
    int r = rank(s, &k);
    if (r < 0) {
        ranking_free(&k);
        return r;
    }
    const struct tx_variant *v = &s->variant;
    if (s->has_variant && (s->show_variant || v->rules != TX_RULES_PP ||
                           v->width != TX_SIZE_DEFAULT || v->height != TX_SIZE_DEFAULT))
        fprintf(out, "%s rules, %d x %d board: ", tx_ruleset(v->rules)->name, v->width, v->height);
    fprintf(out, "%d bot%s, %" PRId64 " game%s", s->nbots, s->nbots == 1 ? "" : "s", s->counted,
            s->counted == 1 ? "" : "s");
    if (s->interrupted)
        fprintf(out, ", %" PRId64 " interrupted (not counted)", s->interrupted);
    if (s->duplicates)
        fprintf(out, ", %" PRId64 " duplicate%s skipped", s->duplicates,
                s->duplicates > 1 ? "s" : "");
    if (s->rejected)
        fprintf(out, ", %" PRId64 " record%s failed a check (not counted)", s->rejected,
                s->rejected > 1 ? "s" : "");
    if (s->filtered)
        fprintf(out, ", %" PRId64 " outside --since/--bots", s->filtered);
    fputs("\n", out);
    if (s->nbots == 0) {
        ranking_free(&k);
        return 0;
    }

    int width = 3;
    for (int i = 0; i < s->nbots; i++)
        if ((int)tx_text_chars(s->bots[i].label) > width)
            width = (int)tx_text_chars(s->bots[i].label);
    fputs("\nrank  ", out);
    print_padded(out, "bot", width);
    fputs("  games   score   wins  draws losses     elo    ±95%  timeout invalid  crash  1st max  "
          "avg ms  max ms\n",
          out);
    for (int pos = 0; pos < s->nbots; pos++) {
        int i = k.order[pos];
        const struct tx_standings_bot *b = &s->bots[i];
        fprintf(out, "%4d  ", pos + 1);
        print_padded(out, b->label, width);
        fprintf(out,
                " %6" PRId64 "  %5.1f%% %6" PRId64 " %6" PRId64 " %6" PRId64
                "  %+6.1f  %6.1f  %7" PRId64 " %7" PRId64 " %6" PRId64 "  %7.1f  %6.1f  %6.1f\n",
                b->games, 100.0 * tx_standings_score(s, i), b->wins, b->draws, b->losses, k.elo[i],
                k.margin[i], b->timeouts, b->invalids, b->crashes, (double)b->first_max_us / 1000.0,
                avg_ms(b), (double)b->max_us / 1000.0);
    }
    fputs("\nelo: ratings fitted jointly over every game above (Bradley-Terry, mean 0), so they\n"
          "differ from the Elo difference `play` prints for one match. 1st max: the slowest\n"
          "first turn (start-up included); avg and max ms: the later turns.\n",
          out);

    /* Crosstable, columns by rank so that long names do not widen it. */
    char buf[64];
    int cw = 3;
    for (int i = 0; i < s->nbots; i++)
        for (int j = 0; j < s->nbots; j++) {
            const struct tx_standings_cell *c = cell(s, i, j);
            format_points(buf, sizeof(buf), c->half_points);
            int len = (int)strlen(buf) + snprintf(NULL, 0, "/%" PRId64, c->games);
            cw = len > cw ? len : cw;
        }
    fputs("\nCrosstable: points/games of the row bot against the column bot\nrank  ", out);
    print_padded(out, "bot", width);
    for (int pos = 0; pos < s->nbots; pos++)
        fprintf(out, "  %*d", cw, pos + 1);
    fputc('\n', out);
    for (int pos = 0; pos < s->nbots; pos++) {
        int i = k.order[pos];
        fprintf(out, "%4d  ", pos + 1);
        print_padded(out, s->bots[i].label, width);
        for (int q = 0; q < s->nbots; q++) {
            const struct tx_standings_cell *c = cell(s, i, k.order[q]);
            char text[96];
            if (c->games == 0) {
                snprintf(text, sizeof(text), "%s", q == pos ? "-" : ".");
            } else {
                format_points(buf, sizeof(buf), c->half_points);
                snprintf(text, sizeof(text), "%s/%" PRId64, buf, c->games);
            }
            fprintf(out, "  %*s", cw, text);
        }
        fputc('\n', out);
    }
    ranking_free(&k);
    return 0;
}

/* Rounded for people (two decimals), still a JSON number. */
static double round2(double x)
{
    x = round(x * 100.0) / 100.0;
    return x == 0 ? 0 : x; /* no "-0": the same standings read in another order print the same */
}

static bool add_bot_json(cJSON *bots, const struct tx_standings *s, const struct ranking *k,
                         int pos)
{
    int i = k->order[pos];
    const struct tx_standings_bot *b = &s->bots[i];
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(bots, o))
        return cJSON_Delete(o), false;
    return cJSON_AddNumberToObject(o, "rank", pos + 1) &&
           cJSON_AddStringToObject(o, "name", b->label) &&
           (b->sha256 ? cJSON_AddStringToObject(o, "sha256", b->sha256)
                      : cJSON_AddNullToObject(o, "sha256")) &&
           cJSON_AddNumberToObject(o, "games", (double)b->games) &&
           cJSON_AddNumberToObject(o, "wins", (double)b->wins) &&
           cJSON_AddNumberToObject(o, "draws", (double)b->draws) &&
           cJSON_AddNumberToObject(o, "losses", (double)b->losses) &&
           cJSON_AddNumberToObject(o, "score", round2(100.0 * tx_standings_score(s, i)) / 100.0) &&
           cJSON_AddNumberToObject(o, "elo", round2(k->elo[i])) &&
           cJSON_AddNumberToObject(o, "elo_margin", round2(k->margin[i])) &&
           cJSON_AddNumberToObject(o, "timeouts", (double)b->timeouts) &&
           cJSON_AddNumberToObject(o, "invalids", (double)b->invalids) &&
           cJSON_AddNumberToObject(o, "crashes", (double)b->crashes) &&
           cJSON_AddNumberToObject(o, "timed_moves", (double)b->timed_moves) &&
           cJSON_AddNumberToObject(o, "avg_ms", round2(avg_ms(b))) &&
           cJSON_AddNumberToObject(o, "max_ms", round2((double)b->max_us / 1000.0)) &&
           cJSON_AddNumberToObject(o, "first_turn_max_ms",
                                   round2((double)b->first_max_us / 1000.0));
}

/* {"row": {"column": {"games": g, "points": p}}}, only pairs that played. */
static bool add_crosstable_json(cJSON *root, const struct tx_standings *s, const struct ranking *k)
{
    cJSON *cross = cJSON_AddObjectToObject(root, "crosstable");
    if (!cross)
        return false;
    for (int pos = 0; pos < s->nbots; pos++) {
        int i = k->order[pos];
        cJSON *row = cJSON_AddObjectToObject(cross, s->bots[i].label);
        if (!row)
            return false;
        for (int q = 0; q < s->nbots; q++) {
            const struct tx_standings_cell *c = cell(s, i, k->order[q]);
            if (c->games == 0)
                continue;
            cJSON *o = cJSON_AddObjectToObject(row, s->bots[k->order[q]].label);
            if (!o || !cJSON_AddNumberToObject(o, "games", (double)c->games) ||
                !cJSON_AddNumberToObject(o, "points", (double)c->half_points / 2.0))
                return false;
        }
    }
    return true;
}

/* What bot i scored against bot j (j < 0: against every other bot). */
static void versus_counts(const struct tx_standings *s, int i, int j, int64_t *games, int64_t *wins,
                          int64_t *draws)
{
    *games = *wins = *draws = 0;
    for (int o = 0; o < s->nbots; o++) {
        if (o == i || (j >= 0 && o != j))
            continue;
        const struct tx_standings_cell *c = cell(s, i, o);
        *games += c->games;
        *wins += c->wins;
        *draws += c->draws;
    }
}

static bool add_result_json(cJSON *o, int64_t games, int64_t wins, int64_t draws)
{
    struct tx_stats_elo e = tx_stats_elo(wins, draws, games - wins - draws);
    cJSON *elo = NULL;
    bool ok = cJSON_AddNumberToObject(o, "games", (double)games) &&
              cJSON_AddNumberToObject(o, "wins", (double)wins) &&
              cJSON_AddNumberToObject(o, "draws", (double)draws) &&
              cJSON_AddNumberToObject(o, "losses", (double)(games - wins - draws)) &&
              cJSON_AddNumberToObject(o, "score", games ? round2(e.score * 100.0) / 100.0 : 0.5) &&
              (elo = cJSON_AddObjectToObject(o, "elo"));
    const double v[] = {e.elo, e.lo, e.hi, e.margin};
    const char *const keys[] = {"elo", "lo", "hi", "margin"};
    for (int n = 0; ok && n < 4; n++)
        ok = isfinite(v[n]) ? cJSON_AddNumberToObject(elo, keys[n], round2(v[n])) != NULL
                            : cJSON_AddNullToObject(elo, keys[n]) != NULL;
    return ok;
}

static bool add_versus_json(cJSON *versus, const struct tx_standings *s, const struct ranking *k,
                            int i)
{
    cJSON *o = cJSON_CreateObject(), *opponents = NULL, *all = NULL;
    if (!o || !cJSON_AddItemToArray(versus, o))
        return cJSON_Delete(o), false;
    int64_t games, wins, draws;
    if (!cJSON_AddStringToObject(o, "bot", s->bots[i].label) ||
        !(opponents = cJSON_AddArrayToObject(o, "opponents")))
        return false;
    for (int pos = 0; pos < s->nbots; pos++) {
        int j = k->order[pos];
        versus_counts(s, i, j, &games, &wins, &draws);
        if (j == i || games == 0)
            continue;
        cJSON *x = cJSON_CreateObject();
        if (!x || !cJSON_AddItemToArray(opponents, x))
            return cJSON_Delete(x), false;
        if (!cJSON_AddStringToObject(x, "name", s->bots[j].label) ||
            !add_result_json(x, games, wins, draws))
            return false;
    }
    versus_counts(s, i, -1, &games, &wins, &draws);
    return (all = cJSON_AddObjectToObject(o, "all")) && add_result_json(all, games, wins, draws);
}

int tx_standings_newest(const struct tx_standings *s)
{
    for (int i = s->nbots - 1; i >= 0; i--)
        if (s->bots[i].games > 0)
            return i;
    return -1;
}

int tx_standings_find(const struct tx_standings *s, const char *name)
{
    int found = -1;
    for (int i = 0; i < s->nbots; i++)
        if (!strcmp(s->bots[i].label, name))
            return i;
    for (int i = 0; i < s->nbots; i++)
        if (!strcmp(s->bots[i].name, name))
            found = i;
    return found;
}

/* One row of tx_standings_print_versus. */
static void print_versus_row(FILE *out, const char *name, int width, int64_t games, int64_t wins,
                             int64_t draws)
{
    struct tx_stats_elo e = tx_stats_elo(wins, draws, games - wins - draws);
    char elo[160];
    tx_stats_elo_format(&e, "", 0, "game", elo, sizeof elo);
    fputs("  ", out);
    print_padded(out, name, width);
    fprintf(out, " %6" PRId64 " %6" PRId64 " %6" PRId64 " %6" PRId64 "  %5.1f%%  %s\n", games, wins,
            draws, games - wins - draws, games ? 100.0 * e.score : 50.0, elo);
}

int tx_standings_print_versus(const struct tx_standings *s, int i, FILE *out)
{
    struct ranking k = {0};
    int r = rank(s, &k);
    if (r < 0) {
        ranking_free(&k);
        return r;
    }
    int width = (int)tx_text_chars("all opponents");
    for (int j = 0; j < s->nbots; j++)
        if ((int)tx_text_chars(s->bots[j].label) > width)
            width = (int)tx_text_chars(s->bots[j].label);
    fprintf(out, "\n%s against each opponent (Elo difference from these games alone, 95%%):\n  ",
            s->bots[i].label);
    print_padded(out, "opponent", width);
    fputs("  games   wins  draws losses   score  elo\n", out);
    int64_t games, wins, draws;
    for (int pos = 0; pos < s->nbots; pos++) {
        int j = k.order[pos];
        versus_counts(s, i, j, &games, &wins, &draws);
        if (j != i && games > 0)
            print_versus_row(out, s->bots[j].label, width, games, wins, draws);
    }
    versus_counts(s, i, -1, &games, &wins, &draws);
    print_versus_row(out, "all opponents", width, games, wins, draws);
    fprintf(out, "  its rating in the joint fit: %+.1f +- %.1f\n", k.elo[i], k.margin[i]);
    ranking_free(&k);
    return 0;
}

void tx_standings_warn_builds(const struct tx_standings *s, FILE *warn)
{
    for (int i = 0; warn && i < s->nbots; i++) {
        bool first = true, shared = false;
        for (int j = 0; j < s->nbots; j++)
            if (j != i && !strcmp(s->bots[j].name, s->bots[i].name)) {
                shared = true;
                first &= j > i;
            }
        if (!shared || !first)
            continue;
        fprintf(warn, "warning: two or more programs are named '%s' (their sha256 differ):",
                s->bots[i].name);
        for (int j = i; j < s->nbots; j++)
            if (!strcmp(s->bots[j].name, s->bots[i].name))
                fprintf(warn, " %s", s->bots[j].label);
        fprintf(warn, "; shown apart (--merge-builds counts them as one bot)\n");
    }
}

int tx_standings_print_json(const struct tx_standings *s, const char *const *focus, int nfocus,
                            FILE *out)
{
    struct ranking k = {0};
    int r = rank(s, &k);
    cJSON *root = r < 0 ? NULL : cJSON_CreateObject();
    cJSON *bots = NULL, *versus = NULL;
    char *text = NULL;
    struct tx_variant v = s->has_variant ? s->variant : TX_VARIANT_DEFAULT;
    if (root && cJSON_AddStringToObject(root, "rules", tx_ruleset(v.rules)->name) &&
        cJSON_AddNumberToObject(root, "width", v.width) &&
        cJSON_AddNumberToObject(root, "height", v.height) &&
        cJSON_AddNumberToObject(root, "games", (double)s->counted) &&
        cJSON_AddNumberToObject(root, "interrupted", (double)s->interrupted) &&
        cJSON_AddNumberToObject(root, "duplicates", (double)s->duplicates) &&
        cJSON_AddNumberToObject(root, "rejected", (double)s->rejected) &&
        cJSON_AddNumberToObject(root, "filtered", (double)s->filtered) &&
        (bots = cJSON_AddArrayToObject(root, "bots"))) {
        bool ok = true;
        for (int pos = 0; ok && pos < s->nbots; pos++)
            ok = add_bot_json(bots, s, &k, pos);
        ok = ok && add_crosstable_json(root, s, &k) &&
             (versus = cJSON_AddArrayToObject(root, "versus"));
        for (int f = 0; ok && f < nfocus; f++) {
            int i = tx_standings_find(s, focus[f]);
            ok = i < 0 || add_versus_json(versus, s, &k, i);
        }
        if (ok)
            text = cJSON_PrintUnformatted(root);
    }
    cJSON_Delete(root);
    ranking_free(&k);
    if (!text)
        return r < 0 ? r : -ENOMEM;
    fprintf(out, "%s\n", text);
    free(text);
    return 0;
}
