/* standings-print.c - the standings as people and programs read them: the
 * aligned tables and crosstables as text, and one JSON object per
 * condition (standings.h). Ratings are fitted here, when printed
 * (tx_standings_rank, tx_standings_rank_teams), never kept.
 *
 * A standings of games of two bots prints as it always did; teams add
 * their table and crosstable before the bots' and a column to it; a
 * handicap standings prints its rows instead of a ranking.
 */
#include "standings.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "geometry.h"
#include "stats.h"
#include "text.h"

/* A crosstable's cell (tx_standings_cell, tx_standings_team_cell). */
typedef const struct tx_standings_cell *cell_at(const struct tx_standings *s, int i, int j);

/* Ratings and the rankings: order[k] is the bot (team) ranked k + 1. */
struct ranking {
    int *order, *torder;
    double *elo, *margin, *telo, *tmargin;
};

static void ranking_free(struct ranking *k)
{
    free(k->order);
    free(k->elo);
    free(k->margin);
    free(k->torder);
    free(k->telo);
    free(k->tmargin);
}

static int rank(const struct tx_standings *s, struct ranking *k)
{
    k->order = tx_xcalloc((size_t)s->nbots + 1, sizeof *k->order);
    k->elo = tx_xcalloc((size_t)s->nbots + 1, sizeof *k->elo);
    k->margin = tx_xcalloc((size_t)s->nbots + 1, sizeof *k->margin);
    k->torder = tx_xcalloc((size_t)s->nteams + 1, sizeof *k->torder);
    k->telo = tx_xcalloc((size_t)s->nteams + 1, sizeof *k->telo);
    k->tmargin = tx_xcalloc((size_t)s->nteams + 1, sizeof *k->tmargin);
    int r = tx_standings_rank(s, k->order, k->elo, k->margin);
    return r < 0 ? r : tx_standings_rank_teams(s, k->torder, k->telo, k->tmargin);
}

/* Games of two bots that bot i played. */
static int64_t pair_games(const struct tx_standings_bot *b)
{
    return b->games - b->team_games;
}

static double team_score(const struct tx_standings_team *t)
{
    return t->games ? ((double)t->wins + (double)t->draws / 2.0) / (double)t->games : 0.5;
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

static int max_width(int least, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if ((int)tx_text_chars(names[i]) > least)
            least = (int)tx_text_chars(names[i]);
    return least;
}

static double avg_ms(const struct tx_standings_bot *b)
{
    return b->timed_moves ? (double)b->total_us / (double)b->timed_moves / 1000.0 : 0.0;
}

/* "classic rules, 30 x 24 board, pie opening: " when it needs saying. */
static void print_condition(const struct tx_standings *s, bool show, FILE *out)
{
    const struct tx_variant *v = &s->variant;
    if (!s->has_variant)
        return;
    if (show || s->handicapped || v->rules != TX_RULES_PP || v->width != TX_SIZE_DEFAULT ||
        v->height != TX_SIZE_DEFAULT || v->opening != TX_OPENING_SWAP)
        fprintf(out, "%s rules, %d x %d board", tx_ruleset(v->rules)->name, v->width, v->height);
    else
        return;
    if (v->opening != TX_OPENING_SWAP)
        fprintf(out, ", %s opening", tx_opening_rule_name(v->opening));
    if (s->handicapped)
        fputs(", handicap games", out);
    fputs(": ", out);
}

static void print_counts(const struct tx_standings *s, FILE *out)
{
    fprintf(out, "%d bot%s, ", s->nbots, s->nbots == 1 ? "" : "s");
    if (s->nteams)
        fprintf(out, "%d team%s, ", s->nteams, s->nteams == 1 ? "" : "s");
    fprintf(out, "%" PRId64 " game%s", s->counted, s->counted == 1 ? "" : "s");
    if (s->team_games && s->team_games < s->counted)
        fprintf(out, " (%" PRId64 " of teams)", s->team_games);
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
}

/* A crosstable of n rows in rank order: points/games of the row against the column. */
static void print_crosstable(FILE *out, const char *title, const char *what, int n,
                             const int *order, const char *const *labels, cell_at *at,
                             const struct tx_standings *s)
{
    char buf[64];
    int width = max_width((int)strlen(what), labels, n), cw = 3;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const struct tx_standings_cell *c = at(s, i, j);
            format_points(buf, sizeof(buf), c->half_points);
            int len = (int)strlen(buf) + snprintf(NULL, 0, "/%" PRId64, c->games);
            cw = len > cw ? len : cw;
        }
    /* columns by rank so that long names do not widen it */
    fprintf(out, "\n%s\nrank  ", title);
    print_padded(out, what, width);
    for (int pos = 0; pos < n; pos++)
        fprintf(out, "  %*d", cw, pos + 1);
    fputc('\n', out);
    for (int pos = 0; pos < n; pos++) {
        int i = order[pos];
        fprintf(out, "%4d  ", pos + 1);
        print_padded(out, labels[i], width);
        for (int q = 0; q < n; q++) {
            const struct tx_standings_cell *c = at(s, i, order[q]);
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
}

static void print_teams(const struct tx_standings *s, const struct ranking *k, FILE *out)
{
    int n = s->nteams;
    const char **labels = tx_xcalloc((size_t)n, sizeof *labels);
    char **bots = tx_xcalloc((size_t)n, sizeof *bots);
    for (int i = 0; i < n; i++) {
        const struct tx_standings_team *t = &s->teams[i];
        char buf[400];
        snprintf(buf, sizeof buf, "%s, %s", s->bots[t->bot[0]].label, s->bots[t->bot[1]].label);
        labels[i] = t->label;
        bots[i] = tx_strdup(buf);
    }
    int width = max_width(4, labels, n), bw = max_width(4, (const char *const *)bots, n);
    fputs("\nrank  ", out);
    print_padded(out, "team", width);
    fputs("  ", out);
    print_padded(out, "bots", bw);
    fputs("  games   score   wins  draws losses     elo    ±95%  timeout invalid  crash\n", out);
    for (int pos = 0; pos < n; pos++) {
        int i = k->torder[pos];
        const struct tx_standings_team *t = &s->teams[i];
        fprintf(out, "%4d  ", pos + 1);
        print_padded(out, t->label, width);
        fputs("  ", out);
        print_padded(out, bots[i], bw);
        fprintf(out,
                " %6" PRId64 "  %5.1f%% %6" PRId64 " %6" PRId64 " %6" PRId64
                "  %+6.1f  %6.1f  %7" PRId64 " %7" PRId64 " %6" PRId64 "\n",
                t->games, 100.0 * team_score(t), t->wins, t->draws, t->losses, k->telo[i],
                k->tmargin[i], t->timeouts, t->invalids, t->crashes);
    }
    fputs("\nteams (Double TwixT): each team rated as one player from its games (Bradley-Terry,\n"
          "mean 0); a fault of one bot loses for its team and is its bot's below.\n",
          out);
    print_crosstable(out, "Team crosstable: points/games of the row team against the column team",
                     "team", n, k->torder, labels, tx_standings_team_cell, s);
    for (int i = 0; i < n; i++)
        free(bots[i]);
    free(bots);
    free(labels);
}

static void print_handicap(const struct tx_standings *s, FILE *out)
{
    int n = s->nhandicap;
    const char **a = tx_xcalloc((size_t)n + 1, sizeof *a),
               **b = tx_xcalloc((size_t)n + 1, sizeof *b);
    for (int i = 0; i < n; i++) {
        a[i] = tx_standings_handicap_name(s, i, false);
        b[i] = tx_standings_handicap_name(s, i, true);
    }
    int wa = max_width((int)strlen("handicapped"), a, n), wb = max_width(8, b, n);
    fputs("\n", out);
    print_padded(out, "handicapped", wa);
    fputs("  ", out);
    print_padded(out, "opponent", wb);
    fputs("  games   score   wins  draws losses  faults  elo (of these games)\n", out);
    for (int i = 0; i < n; i++) {
        const struct tx_standings_handicap *h = &s->handicap[i];
        int64_t losses = h->games - h->wins - h->draws;
        struct tx_stats_elo e = tx_stats_elo(h->wins, h->draws, losses);
        char elo[160];
        tx_stats_elo_format(&e, "", 0, "game", elo, sizeof elo);
        print_padded(out, a[i], wa);
        fputs("  ", out);
        print_padded(out, b[i], wb);
        fprintf(out,
                " %6" PRId64 "  %5.1f%% %6" PRId64 " %6" PRId64 " %6" PRId64 "  %6" PRId64 "  %s\n",
                h->games, h->games ? 100.0 * e.score : 50.0, h->wins, h->draws, losses, h->faults,
                elo);
    }
    fputs("\nhandicapped: the bot (or team) with the longer distance in every game, the board\n"
          "oriented for it; its score and the Elo difference of these games alone. Handicap\n"
          "games are in no rating: the even games' standings leave them out.\n",
          out);
    free(a);
    free(b);
}

/* The table, the notes and the crosstable of s, headed by its condition when show. */
static int print_one(const struct tx_standings *s, bool show, FILE *out)
{
    struct ranking k = {0};
    int r = rank(s, &k);
    if (r < 0) {
        ranking_free(&k);
        return r;
    }
    print_condition(s, show, out);
    print_counts(s, out);
    if (s->handicapped) {
        if (s->nhandicap)
            print_handicap(s, out);
        ranking_free(&k);
        return 0;
    }
    if (s->nbots == 0) {
        ranking_free(&k);
        return 0;
    }
    if (s->nteams)
        print_teams(s, &k, out);

    bool teams = s->team_games > 0;
    const char **labels = tx_xcalloc((size_t)s->nbots, sizeof *labels);
    for (int i = 0; i < s->nbots; i++)
        labels[i] = s->bots[i].label;
    int width = max_width(3, labels, s->nbots);
    fputs("\nrank  ", out);
    print_padded(out, "bot", width);
    fputs(teams ? "  games   team" : "  games", out);
    fputs("   score   wins  draws losses     elo    ±95%  timeout invalid  crash  1st max  "
          "avg ms  max ms\n",
          out);
    for (int pos = 0; pos < s->nbots; pos++) {
        int i = k.order[pos];
        const struct tx_standings_bot *b = &s->bots[i];
        fprintf(out, "%4d  ", pos + 1);
        print_padded(out, b->label, width);
        fprintf(out, " %6" PRId64, b->games);
        if (teams)
            fprintf(out, " %6" PRId64, b->team_games);
        fprintf(out,
                "  %5.1f%% %6" PRId64 " %6" PRId64 " %6" PRId64 "  %+6.1f  %6.1f  %7" PRId64
                " %7" PRId64 " %6" PRId64 "  %7.1f  %6.1f  %6.1f\n",
                100.0 * tx_standings_score(s, i), b->wins, b->draws, b->losses, k.elo[i],
                k.margin[i], b->timeouts, b->invalids, b->crashes, (double)b->first_max_us / 1000.0,
                avg_ms(b), (double)b->max_us / 1000.0);
    }
    fputs("\nelo: ratings fitted jointly over every game above (Bradley-Terry, mean 0), so they\n"
          "differ from the Elo difference `play` prints for one match. 1st max: the slowest\n"
          "first turn (start-up included); avg and max ms: the later turns.\n",
          out);
    if (teams)
        fputs("team: of the games, those played in a team, each counted as the team's result.\n"
              "In the fit a team plays with the mean of its two bots' ratings, so partners who\n"
              "always play together are told apart only by their other games: their intervals\n"
              "say how well.\n",
              out);
    if (s->counted > s->team_games || !teams)
        print_crosstable(out,
                         teams ? "Crosstable: points/games of the row bot against the column bot, "
                                 "games of two bots"
                               : "Crosstable: points/games of the row bot against the column bot",
                         "bot", s->nbots, k.order, labels, tx_standings_cell, s);
    free(labels);
    ranking_free(&k);
    return 0;
}

int tx_standings_print(const struct tx_standings *s, FILE *out)
{
    return print_one(s, s->show_variant, out);
}

/* Rounded for people (two decimals), still a JSON number. */
static double round2(double x)
{
    x = round(x * 100.0) / 100.0;
    return x == 0 ? 0 : x; /* no "-0": the same standings read in another order print the same */
}

/* A number, or null when it is not finite (a bot left out of a fit). */
static bool add_number(cJSON *o, const char *key, double v)
{
    return isfinite(v) ? cJSON_AddNumberToObject(o, key, v) != NULL
                       : cJSON_AddNullToObject(o, key) != NULL;
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
           cJSON_AddNumberToObject(o, "team_games", (double)b->team_games) &&
           cJSON_AddNumberToObject(o, "wins", (double)b->wins) &&
           cJSON_AddNumberToObject(o, "draws", (double)b->draws) &&
           cJSON_AddNumberToObject(o, "losses", (double)b->losses) &&
           cJSON_AddNumberToObject(o, "score", round2(100.0 * tx_standings_score(s, i)) / 100.0) &&
           add_number(o, "elo", round2(k->elo[i])) &&
           add_number(o, "elo_margin", round2(k->margin[i])) &&
           cJSON_AddNumberToObject(o, "timeouts", (double)b->timeouts) &&
           cJSON_AddNumberToObject(o, "invalids", (double)b->invalids) &&
           cJSON_AddNumberToObject(o, "crashes", (double)b->crashes) &&
           cJSON_AddNumberToObject(o, "timed_moves", (double)b->timed_moves) &&
           cJSON_AddNumberToObject(o, "avg_ms", round2(avg_ms(b))) &&
           cJSON_AddNumberToObject(o, "max_ms", round2((double)b->max_us / 1000.0)) &&
           cJSON_AddNumberToObject(o, "first_turn_max_ms",
                                   round2((double)b->first_max_us / 1000.0));
}

static bool add_team_json(cJSON *teams, const struct tx_standings *s, const struct ranking *k,
                          int pos)
{
    int i = k->torder[pos];
    const struct tx_standings_team *t = &s->teams[i];
    cJSON *o = cJSON_CreateObject(), *bots = NULL;
    if (!o || !cJSON_AddItemToArray(teams, o))
        return cJSON_Delete(o), false;
    return cJSON_AddNumberToObject(o, "rank", pos + 1) &&
           cJSON_AddStringToObject(o, "name", t->label) &&
           cJSON_AddStringToObject(o, "team", t->name) &&
           (bots = cJSON_AddArrayToObject(o, "bots")) &&
           cJSON_AddItemToArray(bots, cJSON_CreateString(s->bots[t->bot[0]].label)) &&
           cJSON_AddItemToArray(bots, cJSON_CreateString(s->bots[t->bot[1]].label)) &&
           cJSON_AddNumberToObject(o, "games", (double)t->games) &&
           cJSON_AddNumberToObject(o, "wins", (double)t->wins) &&
           cJSON_AddNumberToObject(o, "draws", (double)t->draws) &&
           cJSON_AddNumberToObject(o, "losses", (double)t->losses) &&
           cJSON_AddNumberToObject(o, "score", round2(100.0 * team_score(t)) / 100.0) &&
           add_number(o, "elo", round2(k->telo[i])) &&
           add_number(o, "elo_margin", round2(k->tmargin[i])) &&
           cJSON_AddNumberToObject(o, "timeouts", (double)t->timeouts) &&
           cJSON_AddNumberToObject(o, "invalids", (double)t->invalids) &&
           cJSON_AddNumberToObject(o, "crashes", (double)t->crashes);
}

/* {"row": {"column": {"games": g, "points": p}}}, only pairs that played. */
static bool add_crosstable_json(cJSON *root, const char *key, int n, const int *order,
                                const char *const *labels, cell_at *at,
                                const struct tx_standings *s)
{
    cJSON *cross = cJSON_AddObjectToObject(root, key);
    if (!cross)
        return false;
    for (int pos = 0; pos < n; pos++) {
        int i = order[pos];
        cJSON *row = cJSON_AddObjectToObject(cross, labels[i]);
        if (!row)
            return false;
        for (int q = 0; q < n; q++) {
            const struct tx_standings_cell *c = at(s, i, order[q]);
            if (c->games == 0)
                continue;
            cJSON *o = cJSON_AddObjectToObject(row, labels[order[q]]);
            if (!o || !cJSON_AddNumberToObject(o, "games", (double)c->games) ||
                !cJSON_AddNumberToObject(o, "points", (double)c->half_points / 2.0))
                return false;
        }
    }
    return true;
}

/* What bot i scored against bot j (j < 0: against every other bot), in
 * games of two bots. */
static void versus_counts(const struct tx_standings *s, int i, int j, int64_t *games, int64_t *wins,
                          int64_t *draws)
{
    *games = *wins = *draws = 0;
    for (int o = 0; o < s->nbots; o++) {
        if (o == i || (j >= 0 && o != j))
            continue;
        const struct tx_standings_cell *c = tx_standings_cell(s, i, o);
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
        ok = add_number(elo, keys[n], isfinite(v[n]) ? round2(v[n]) : v[n]);
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

static bool add_handicap_json(cJSON *root, const struct tx_standings *s)
{
    cJSON *rows = cJSON_AddArrayToObject(root, "handicap_games");
    bool ok = rows != NULL;
    for (int i = 0; ok && i < s->nhandicap; i++) {
        const struct tx_standings_handicap *h = &s->handicap[i];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(rows, o))
            return cJSON_Delete(o), false;
        ok = cJSON_AddStringToObject(o, "handicapped", tx_standings_handicap_name(s, i, false)) &&
             cJSON_AddStringToObject(o, "opponent", tx_standings_handicap_name(s, i, true)) &&
             cJSON_AddBoolToObject(o, "teams", h->teams) &&
             cJSON_AddNumberToObject(o, "faults", (double)h->faults) &&
             add_result_json(o, h->games, h->wins, h->draws);
    }
    return ok;
}

/* One even standings' bots, teams and crosstables into root. */
static bool add_even_json(cJSON *root, const struct tx_standings *s, const struct ranking *k,
                          const char *const *focus, int nfocus)
{
    cJSON *bots = cJSON_AddArrayToObject(root, "bots"), *teams = NULL, *versus = NULL;
    bool ok = bots != NULL;
    for (int pos = 0; ok && pos < s->nbots; pos++)
        ok = add_bot_json(bots, s, k, pos);
    const char **labels = tx_xcalloc((size_t)s->nbots + 1, sizeof *labels),
               **tlabels = tx_xcalloc((size_t)s->nteams + 1, sizeof *tlabels);
    for (int i = 0; i < s->nbots; i++)
        labels[i] = s->bots[i].label;
    for (int i = 0; i < s->nteams; i++)
        tlabels[i] = s->teams[i].label;
    ok =
        ok &&
        add_crosstable_json(root, "crosstable", s->nbots, k->order, labels, tx_standings_cell, s) &&
        cJSON_AddNumberToObject(root, "team_games", (double)s->team_games) &&
        (teams = cJSON_AddArrayToObject(root, "teams"));
    for (int pos = 0; ok && pos < s->nteams; pos++)
        ok = add_team_json(teams, s, k, pos);
    ok = ok &&
         add_crosstable_json(root, "team_crosstable", s->nteams, k->torder, tlabels,
                             tx_standings_team_cell, s) &&
         (versus = cJSON_AddArrayToObject(root, "versus"));
    for (int f = 0; ok && f < nfocus; f++) {
        int i = tx_standings_find(s, focus[f]);
        ok = i < 0 || add_versus_json(versus, s, k, i);
    }
    free(labels);
    free(tlabels);
    return ok;
}

int tx_standings_print_json(const struct tx_standings *s, const char *const *focus, int nfocus,
                            FILE *out)
{
    struct ranking k = {0};
    int r = rank(s, &k);
    cJSON *root = r < 0 ? NULL : cJSON_CreateObject();
    char *text = NULL;
    struct tx_variant v = s->has_variant ? s->variant : TX_VARIANT_DEFAULT;
    if (root && cJSON_AddStringToObject(root, "rules", tx_ruleset(v.rules)->name) &&
        cJSON_AddNumberToObject(root, "width", v.width) &&
        cJSON_AddNumberToObject(root, "height", v.height) &&
        cJSON_AddStringToObject(root, "opening", tx_opening_rule_name(v.opening)) &&
        cJSON_AddBoolToObject(root, "handicap", s->handicapped) &&
        cJSON_AddNumberToObject(root, "games", (double)s->counted) &&
        cJSON_AddNumberToObject(root, "interrupted", (double)s->interrupted) &&
        cJSON_AddNumberToObject(root, "duplicates", (double)s->duplicates) &&
        cJSON_AddNumberToObject(root, "rejected", (double)s->rejected) &&
        cJSON_AddNumberToObject(root, "filtered", (double)s->filtered) &&
        (s->handicapped ? add_handicap_json(root, s) : add_even_json(root, s, &k, focus, nfocus)))
        text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    ranking_free(&k);
    if (!text)
        return r < 0 ? r : -ENOMEM;
    fprintf(out, "%s\n", text);
    free(text);
    return 0;
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

int tx_standings_print_all(const struct tx_standings *s, const char *const *focus, int nfocus,
                           bool newest, bool json, FILE *out)
{
    bool several = s->next != NULL;
    int r = 0;
    for (const struct tx_standings *t = s; r == 0 && t; t = t->next) {
        /* the bots shown against each opponent here: those named that
         * played games of two, or the newest when there are more than two */
        const char **shown = tx_xcalloc((size_t)nfocus + 1, sizeof *shown);
        int nshown = 0;
        for (int f = 0; f < nfocus && !t->handicapped; f++) {
            int i = tx_standings_find(t, focus[f]);
            if (i >= 0 && (json || pair_games(&t->bots[i]) > 0))
                shown[nshown++] = t->bots[i].label;
        }
        int last = newest ? tx_standings_newest(t) : -1;
        if (!t->handicapped && last >= 0 && (json || t->nbots > 2))
            shown[nshown++] = t->bots[last].label;
        if (json) {
            r = tx_standings_print_json(t, shown, nshown, out);
        } else {
            if (t != s)
                fputc('\n', out);
            r = print_one(t, several || t->show_variant, out);
            for (int f = 0; r == 0 && f < nshown; f++)
                r = tx_standings_print_versus(t, tx_standings_find(t, shown[f]), out);
        }
        free(shown);
    }
    return r;
}
