/* standings.c - per-bot and per-team results and crosstables from game records.
 *
 * The aggregate keeps only counters (per bot, per team, per pair of bots and
 * of teams, per handicap pairing), so it is as cheap to feed a million
 * records as a dozen and the tournament can keep one up to date as games
 * end. Ratings are not stored: they are fitted from the crosstables when
 * printed (stats.h), which takes milliseconds. Reading JSON Lines files into
 * a standings, with the checks of every record, is in standings-read.c;
 * printing the tables, as text and JSON, in standings-print.c.
 */
#include "alloc.h"
#include "standings.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"

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
    for (int i = 0; i < s->nteams; i++) {
        free(s->teams[i].name);
        free(s->teams[i].label);
    }
    free(s->bots);
    free(s->cells);
    free(s->teams);
    free(s->team_cells);
    free(s->handicap);
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

/* A crosstable of n rows, capacity cap wide, re-laid out cap2 wide. */
static struct tx_standings_cell *widen(struct tx_standings_cell *cells, int n, int cap, int cap2)
{
    struct tx_standings_cell *wide = tx_xcalloc((size_t)cap2 * (size_t)cap2, sizeof(*wide));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            wide[i * cap2 + j] = cells[i * cap + j];
    free(cells);
    return wide;
}

static void relabel_teams(struct tx_standings *s);

/* A new bot (name, sha256), with no games. */
static int new_bot(struct tx_standings *s, const char *name, const char *sha256)
{
    if (s->nbots == s->cap) {
        /* the crosstable is re-laid out for the new width */
        int cap = s->cap ? 2 * s->cap : 8;
        s->cells = widen(s->cells, s->nbots, s->cap, cap);
        s->bots = tx_xrealloc(s->bots, (size_t)cap * sizeof *s->bots);
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
 * share it. Teams show their bots' labels: theirs follow. */
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
    relabel_teams(s);
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

/* Team labels: the name, or "name=a,b" with its bots' labels when another
 * team has the name (the same name with other bots is another team, as
 * `--teams name=a,b` would write it). */
static void relabel_teams(struct tx_standings *s)
{
    for (int i = 0; i < s->nteams; i++) {
        struct tx_standings_team *t = &s->teams[i];
        bool shared = false;
        for (int j = 0; j < s->nteams; j++)
            shared |= j != i && !strcmp(s->teams[j].name, t->name);
        char label[400];
        if (shared)
            snprintf(label, sizeof label, "%s=%s,%s", t->name, s->bots[t->bot[0]].label,
                     s->bots[t->bot[1]].label);
        else
            snprintf(label, sizeof label, "%s", t->name);
        free(t->label);
        t->label = tx_strdup(label);
    }
}

/* The team named name of bots a and b (in that order), added when new. */
static int team_of(struct tx_standings *s, const char *name, int a, int b)
{
    name = name ? name : "";
    for (int i = 0; i < s->nteams; i++)
        if (!strcmp(s->teams[i].name, name) && s->teams[i].bot[0] == a && s->teams[i].bot[1] == b)
            return i;
    if (s->nteams == s->team_cap) {
        int cap = s->team_cap ? 2 * s->team_cap : 4;
        s->team_cells = widen(s->team_cells, s->nteams, s->team_cap, cap);
        s->teams = tx_xrealloc(s->teams, (size_t)cap * sizeof *s->teams);
        s->team_cap = cap;
    }
    struct tx_standings_team *t = &s->teams[s->nteams++];
    memset(t, 0, sizeof *t);
    t->name = tx_strdup(name);
    t->bot[0] = a;
    t->bot[1] = b;
    relabel_teams(s);
    return s->nteams - 1;
}

/* cells is laid out with the capacity as its width (see new_bot). */
static struct tx_standings_cell *cell(const struct tx_standings *s, int i, int j)
{
    return &s->cells[i * s->cap + j];
}

static struct tx_standings_cell *team_cell(const struct tx_standings *s, int i, int j)
{
    return &s->team_cells[i * s->team_cap + j];
}

const struct tx_standings_cell *tx_standings_cell(const struct tx_standings *s, int i, int j)
{
    return cell(s, i, j);
}

const struct tx_standings_cell *tx_standings_team_cell(const struct tx_standings *s, int i, int j)
{
    return team_cell(s, i, j);
}

static bool named(const struct tx_standings *s, const char *name)
{
    for (int i = 0; i < s->nonly; i++)
        if (name && !strcmp(s->only[i], name))
            return true;
    return false;
}

/* The game is in the subset looked at (since, only). A UTC time compares
 * as text: "2026-11-21T..." sorts after "2026-11-21". A team is looked at
 * when its name is in only, or both its bots are. */
static bool wanted(const struct tx_standings *s, const struct tx_record *r)
{
    if (s->since && (!r->started || strcmp(r->started, s->since) < 0))
        return false;
    if (!s->only)
        return true;
    for (int side = 0; side < 2; side++) {
        bool in = named(s, r->players[side].name);
        if (r->nplayers == 4)
            in = named(s, r->teams[side]) || (in && named(s, r->players[side + 2].name));
        if (!in)
            return false;
    }
    return true;
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
static void log_game(struct tx_standings *s, const struct tx_record *r, const int bot[4],
                     const int team[2])
{
    if (s->nlog == s->logcap) {
        s->logcap = s->logcap ? 2 * s->logcap : 64;
        s->log = tx_xrealloc(s->log, (size_t)s->logcap * sizeof *s->log);
    }
    s->log[s->nlog++] = (struct tx_standings_game){
        .bot = {bot[0], bot[1], bot[2], bot[3]},
        .team = {team[0], team[1]},
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

/* The side (player, or team with teams: 0 or 1) that the record's
 * handicap names: the bot of that name, or with teams the team of that
 * name or holding a bot of that name; -1 when none (an even game). */
static int handicap_side(const struct tx_record *r)
{
    if (!r->handicap)
        return -1;
    for (int side = 0; side < 2; side++) {
        if (r->nplayers == 4 && r->teams[side] && !strcmp(r->teams[side], r->handicap))
            return side;
        for (int seat = side; seat < r->nplayers; seat += 2)
            if (r->players[seat].name && !strcmp(r->players[seat].name, r->handicap))
                return side;
    }
    return -1;
}

/* A handicap game's board is keyed by its sides, the longer first: each
 * game is oriented for its handicapped side. */
struct tx_standings *tx_standings_of(struct tx_standings *s, const struct tx_record *r)
{
    bool handicapped = handicap_side(r) >= 0;
    struct tx_variant v = {.rules = r->rules,
                           .width = r->width,
                           .height = r->height,
                           .opening = r->opening,
                           .teams = false};
    if (handicapped && v.width < v.height) {
        v.width = r->height;
        v.height = r->width;
    }
    for (;; s = s->next) {
        if (!s->has_variant) {
            s->variant = v;
            s->handicapped = handicapped;
            s->has_variant = true;
        }
        if (s->variant.rules == v.rules && s->variant.width == v.width &&
            s->variant.height == v.height && s->variant.opening == v.opening &&
            s->handicapped == handicapped)
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

/* The seat whose fault lost the game (timeout, invalid move, crash), or -1
 * for another result. With two bots it is the loser; with teams the bot
 * whose entry ends the record (the verifier holds the losing entry to be
 * the loser's), or -1 when a record without entries does not say. */
static int fault_seat(const struct tx_record *r)
{
    enum tx_reason why = r->result.reason;
    if ((why != TX_REASON_TIMEOUT && why != TX_REASON_INVALID && why != TX_REASON_CRASH) ||
        (r->result.winner != 0 && r->result.winner != 1))
        return -1;
    int loser = 1 - r->result.winner;
    if (r->nplayers != 4)
        return loser;
    int seat = r->nmoves > 0 ? r->moves[r->nmoves - 1].player : -1;
    return seat >= 0 && seat < 4 && (seat & 1) == loser ? seat : -1;
}

static void count_fault(int64_t *timeouts, int64_t *invalids, int64_t *crashes, enum tx_reason why)
{
    *timeouts += why == TX_REASON_TIMEOUT;
    *invalids += why == TX_REASON_INVALID;
    *crashes += why == TX_REASON_CRASH;
}

/* A result in a cell, from its row's side (0 or 1: player, or team). */
static void count_cell(struct tx_standings_cell *c, int winner, int side)
{
    c->games++;
    if (winner < 0) {
        c->draws++;
        c->half_points += 1;
    } else if (winner == side) {
        c->wins++;
        c->half_points += 2;
    }
}

static void count_result(int64_t *wins, int64_t *draws, int64_t *losses, int winner, int side)
{
    *wins += winner == side;
    *draws += winner < 0;
    *losses += winner >= 0 && winner != side;
}

/* Each bot's answers: the first turn apart (its own limit, and an
 * interpreter's start-up), then the later ones' times. */
static void count_times(struct tx_standings *s, const struct tx_record *r, const int bot[4])
{
    bool first_seen[TX_SEATS_MAX] = {false};
    for (int i = 0; i < r->nmoves; i++) {
        const struct tx_record_move *m = &r->moves[i];
        if (m->forced || m->us < 0 || m->player < 0 || m->player >= r->nplayers)
            continue;
        struct tx_standings_bot *b = &s->bots[bot[m->player]];
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
}

/* An even game of two bots or of two teams, into s. */
static void add_even(struct tx_standings *s, const struct tx_record *r, const int bot[4],
                     const int team[2])
{
    int winner = r->result.winner, fault = fault_seat(r);
    if (r->nplayers == 4) {
        s->team_games++;
        for (int side = 0; side < 2; side++) {
            struct tx_standings_team *t = &s->teams[team[side]];
            t->games++;
            count_result(&t->wins, &t->draws, &t->losses, winner, side);
            count_cell(team_cell(s, team[side], team[1 - side]), winner, side);
            if (fault >= 0 && (fault & 1) == side)
                count_fault(&t->timeouts, &t->invalids, &t->crashes, r->result.reason);
            /* The team's result is each of its bots' (once for a bot that
             * is both partners). */
            for (int seat = side; seat < 4; seat += 2) {
                struct tx_standings_bot *b = &s->bots[bot[seat]];
                if (seat > side && bot[seat] == bot[side])
                    continue;
                b->games++;
                b->team_games++;
                count_result(&b->wins, &b->draws, &b->losses, winner, side);
            }
        }
    } else {
        for (int side = 0; side < 2; side++) {
            struct tx_standings_bot *b = &s->bots[bot[side]];
            b->games++;
            count_result(&b->wins, &b->draws, &b->losses, winner, side);
            count_cell(cell(s, bot[side], bot[1 - side]), winner, side);
        }
    }
    if (fault >= 0) {
        struct tx_standings_bot *b = &s->bots[bot[fault]];
        count_fault(&b->timeouts, &b->invalids, &b->crashes, r->result.reason);
    }
    count_times(s, r, bot);
}

/* A handicap game into s's rows: handicapped side h (player or team). */
static void add_handicapped(struct tx_standings *s, const struct tx_record *r, int h,
                            const int bot[4], const int team[2])
{
    bool teams = r->nplayers == 4;
    int a = teams ? team[h] : bot[h], b = teams ? team[1 - h] : bot[1 - h], k = 0;
    for (; k < s->nhandicap; k++)
        if (s->handicap[k].teams == teams && s->handicap[k].handicapped == a &&
            s->handicap[k].opponent == b)
            break;
    if (k == s->nhandicap) {
        if (s->nhandicap == s->handicap_cap) {
            s->handicap_cap = s->handicap_cap ? 2 * s->handicap_cap : 8;
            s->handicap = tx_xrealloc(s->handicap, (size_t)s->handicap_cap * sizeof *s->handicap);
        }
        s->handicap[s->nhandicap++] =
            (struct tx_standings_handicap){.teams = teams, .handicapped = a, .opponent = b};
    }
    struct tx_standings_handicap *row = &s->handicap[k];
    int64_t losses = 0, fault = fault_seat(r);
    row->games++;
    count_result(&row->wins, &row->draws, &losses, r->result.winner, h);
    row->faults += fault >= 0 && (fault & 1) == h;
    s->team_games += teams;
}

enum tx_standings_added tx_standings_add_at(struct tx_standings *s, const struct tx_record *r,
                                            const char *file, int64_t line,
                                            struct tx_records_earlier *earlier)
{
    s = tx_standings_of(s, r);
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
    int bot[4] = {-1, -1, -1, -1}, team[2] = {-1, -1};
    int seats = r->nplayers == 4 ? 4 : 2;
    for (int seat = 0; seat < seats; seat++)
        bot[seat] = player_bot(s, r->players[seat].name, r->players[seat].sha256);
    if (seats == 4)
        for (int side = 0; side < 2; side++)
            team[side] = team_of(s, r->teams[side], bot[side], bot[side + 2]);
    if (s->handicapped)
        add_handicapped(s, r, handicap_side(r), bot, team);
    else
        add_even(s, r, bot, team);
    log_game(s, r, bot, team);
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

int tx_standings_fit(const struct tx_standings *s, const double *pair_points,
                     const double *pair_games, const double *team_points, const double *team_games,
                     bool played_only, double *elo, double *margin)
{
    int n = s->nbots, nt = s->nteams, m = 0, nm = 0;
    int *index = tx_xcalloc((size_t)n + 1, sizeof *index);
    struct tx_stats_match *matches =
        tx_xcalloc((size_t)n * (size_t)n / 2 + (size_t)nt * (size_t)nt / 2 + 1, sizeof *matches);
    /* The bots in the fit: all, or those with a game in the counts. */
    bool *in = tx_xcalloc((size_t)n + 1, sizeof *in);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            in[i] |= !played_only || (i != j && pair_games[i * n + j] > 0);
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < nt; j++)
            if (i != j && team_games[i * nt + j] > 0)
                in[s->teams[i].bot[0]] = in[s->teams[i].bot[1]] = true;
    for (int i = 0; i < n; i++)
        index[i] = in[i] ? m++ : -1;
    /* Each pair once: a bot against itself, or a team against itself, says
     * nothing about a rating. */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (pair_games[i * n + j] > 0)
                matches[nm++] = (struct tx_stats_match){
                    {index[i], -1}, {index[j], -1}, pair_points[i * n + j], pair_games[i * n + j]};
    for (int i = 0; i < nt; i++)
        for (int j = i + 1; j < nt; j++)
            if (team_games[i * nt + j] > 0) {
                const struct tx_standings_team *a = &s->teams[i], *b = &s->teams[j];
                matches[nm++] = (struct tx_stats_match){
                    {index[a->bot[0]], index[a->bot[1]]},
                    {index[b->bot[0]], index[b->bot[1]]},
                    team_points[i * nt + j],
                    team_games[i * nt + j],
                };
            }
    double *e = tx_xcalloc((size_t)m + 1, sizeof *e), *w = tx_xcalloc((size_t)m + 1, sizeof *w);
    int r = m > 0 ? tx_stats_fit(m, matches, nm, e, w) : 0;
    for (int i = 0; i < n; i++) {
        elo[i] = index[i] >= 0 && r == 0 ? e[index[i]] : NAN;
        margin[i] = index[i] >= 0 && r == 0 ? w[index[i]] : NAN;
    }
    free(index);
    free(matches);
    free(in);
    free(e);
    free(w);
    return r == -ENOMEM ? r : 0;
}

/* The crosstable of n rows (cap wide) as points and games, n x n. */
static void crosstable(const struct tx_standings_cell *cells, int n, int cap, double *points,
                       double *games)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const struct tx_standings_cell *c = &cells[i * cap + j];
            points[i * n + j] = i == j ? 0 : (double)c->half_points / 2.0;
            games[i * n + j] = i == j ? 0 : (double)c->games;
        }
}

/* order by rating, then score, then label (n is small: insertion sort). */
static void sort_ranking(int n, int *order, const double *elo, const double *score,
                         const char *const *label)
{
    for (int i = 0; i < n; i++) {
        int j = i;
        for (; j > 0; j--) {
            int o = order[j - 1];
            double de = elo[i] - elo[o], ds = score[i] - score[o];
            bool before = de > 1e-9 ||
                          (fabs(de) <= 1e-9 &&
                           (ds > 1e-12 || (fabs(ds) <= 1e-12 && strcmp(label[i], label[o]) < 0)));
            if (!before)
                break;
            order[j] = o;
        }
        order[j] = i;
    }
}

int tx_standings_rank(const struct tx_standings *s, int *order, double *elo, double *margin)
{
    int n = s->nbots, nt = s->nteams;
    if (n == 0)
        return 0;
    size_t nn = (size_t)n * (size_t)n, tt = (size_t)nt * (size_t)nt;
    double *points = tx_xcalloc(nn, sizeof *points), *games = tx_xcalloc(nn, sizeof *games);
    double *tpoints = tx_xcalloc(tt + 1, sizeof *tpoints),
           *tgames = tx_xcalloc(tt + 1, sizeof *tgames);
    double *score = tx_xcalloc((size_t)n, sizeof *score);
    const char **label = tx_xcalloc((size_t)n, sizeof *label);
    crosstable(s->cells, n, s->cap, points, games);
    crosstable(s->team_cells, nt, s->team_cap, tpoints, tgames);
    int r = tx_standings_fit(s, points, games, tpoints, tgames, false, elo, margin);
    for (int i = 0; i < n; i++) {
        score[i] = tx_standings_score(s, i);
        label[i] = s->bots[i].label;
    }
    sort_ranking(n, order, elo, score, label);
    free(points);
    free(games);
    free(tpoints);
    free(tgames);
    free(score);
    free(label);
    return r;
}

int tx_standings_rank_teams(const struct tx_standings *s, int *order, double *elo, double *margin)
{
    int nt = s->nteams;
    if (nt == 0)
        return 0;
    size_t tt = (size_t)nt * (size_t)nt;
    double *points = tx_xcalloc(tt, sizeof *points), *games = tx_xcalloc(tt, sizeof *games);
    double *score = tx_xcalloc((size_t)nt, sizeof *score);
    const char **label = tx_xcalloc((size_t)nt, sizeof *label);
    crosstable(s->team_cells, nt, s->team_cap, points, games);
    int r = tx_stats_ratings(nt, points, games, elo, margin);
    for (int i = 0; i < nt; i++) {
        const struct tx_standings_team *t = &s->teams[i];
        score[i] = t->games ? ((double)t->wins + (double)t->draws / 2.0) / (double)t->games : 0.5;
        label[i] = t->label;
    }
    sort_ranking(nt, order, elo, score, label);
    free(points);
    free(games);
    free(score);
    free(label);
    return r == -ENOMEM ? r : 0;
}

const char *tx_standings_handicap_name(const struct tx_standings *s, int k, bool opponent)
{
    const struct tx_standings_handicap *h = &s->handicap[k];
    int i = opponent ? h->opponent : h->handicapped;
    return h->teams ? s->teams[i].label : s->bots[i].label;
}

/* A copy of s alone (next not followed). */
static void copy_one(struct tx_standings *to, const struct tx_standings *s)
{
    *to = *s;
    memset(&to->seen, 0, sizeof to->seen);
    to->only = NULL;
    to->nonly = 0;
    to->since = NULL;
    to->next = NULL;
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
    to->teams = tx_xcalloc((size_t)(s->team_cap ? s->team_cap : 1), sizeof *to->teams);
    for (int i = 0; i < s->nteams; i++) {
        to->teams[i] = s->teams[i];
        to->teams[i].name = tx_strdup(s->teams[i].name);
        to->teams[i].label = tx_strdup(s->teams[i].label);
    }
    cells = (size_t)s->team_cap * (size_t)s->team_cap;
    to->team_cells = tx_xcalloc(cells ? cells : 1, sizeof *to->team_cells);
    if (cells)
        memcpy(to->team_cells, s->team_cells, cells * sizeof *to->team_cells);
    to->handicap = tx_xcalloc((size_t)(s->nhandicap ? s->nhandicap : 1), sizeof *to->handicap);
    if (s->nhandicap)
        memcpy(to->handicap, s->handicap, (size_t)s->nhandicap * sizeof *to->handicap);
    to->handicap_cap = s->nhandicap;
    to->log = tx_xcalloc((size_t)(s->nlog ? s->nlog : 1), sizeof *to->log);
    if (s->nlog)
        memcpy(to->log, s->log, (size_t)s->nlog * sizeof *to->log);
    to->logcap = s->nlog;
    to->files = tx_xcalloc((size_t)(s->nfiles ? s->nfiles : 1), sizeof *to->files);
    for (int i = 0; i < s->nfiles; i++)
        to->files[i] = tx_strdup(s->files[i]);
}

void tx_standings_copy(struct tx_standings *to, const struct tx_standings *s)
{
    copy_one(to, s);
    for (struct tx_standings *t = to; s->next; s = s->next, t = t->next) {
        t->next = tx_xcalloc(1, sizeof *t->next);
        copy_one(t->next, s->next);
    }
}

int tx_standings_newest(const struct tx_standings *s)
{
    for (int i = s->nbots - 1; i >= 0; i--)
        if (s->bots[i].games > s->bots[i].team_games)
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
