/* cmd-play.c - `twixt-arena play BOT1 BOT2 [options]`: one match.
 *
 * BOT1 is player 1 in odd games, player 2 in even ones (the schedule's
 * order for two bots). After each game one line says who won and why; at
 * the end a summary from BOT1's side with its Elo difference. With --sprt
 * the match is a sequential test: games come in colour-exchanged pairs,
 * each finished pair adds to the pentanomial counts (fastchess's model,
 * stats.h), and the run stops when the LLR leaves its bounds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "setup.h"
#include "runner.h"
#include "stats.h"

#define ACCEPT                                                                                     \
    (TX_OPTIONS_LIMITS | TX_OPTIONS_OUTPUT | TX_OPTIONS_RUN | TX_OPTIONS_GAMES | TX_OPTIONS_SPRT | \
     TX_OPTIONS_SANDBOX)
#define SPRT_MAX_GAMES 100000 /* default cap on an SPRT's games */
#define PENDING_MAX 4096      /* game pairs with one game known, at most */

/* A game pair of which one game is known: BOT1's half points in it. */
struct pending {
    int64_t pair;
    int half_points;
};

struct play {
    const struct tx_options *o;
    int64_t wins, draws, losses; /* BOT1's */
    int64_t penta[5];            /* pairs in which BOT1 scored k/2 points */
    struct pending pending[PENDING_MAX];
    int npending;
    bool decided;
    int64_t resumed;   /* counted games found in the -o file */
    bool resumed_said; /* the "resuming" line was printed */
    struct tx_stats_sprt sprt;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: twixt-arena play BOT1 BOT2 [OPTIONS]\n\n"
                 "Plays BOT1 against BOT2: BOT1 is player 1 in odd games, player 2 in even games.\n"
                 "BOT is a command line (\"python3 bot.py\"), optionally NAME=COMMAND.\n\n");
    tx_options_usage(out, ACCEPT);
}

/* "game 3: greedy (player 1) beats random by connection A4-L9" */
static void print_game(const struct tx_record *r)
{
    int w = r->result.winner;
    const char *reason = tx_reason_name(r->result.reason);
    const char *detail = r->result.detail ? r->result.detail : "";

    if (r->result.reason == TX_REASON_INTERRUPTED)
        printf("game %lld: interrupted\n", (long long)r->game);
    else if (w < 0)
        printf("game %lld: %s and %s draw (%s)\n", (long long)r->game, r->players[0].name,
               r->players[1].name, *detail ? detail : "no legal hole");
    else if (r->result.reason == TX_REASON_CONNECTION)
        printf("game %lld: %s (player %d) beats %s by connection %s\n", (long long)r->game,
               r->players[w].name, w + 1, r->players[1 - w].name, detail);
    else
        printf("game %lld: %s (player %d) beats %s by %s: %s\n", (long long)r->game,
               r->players[w].name, w + 1, r->players[1 - w].name, reason ? reason : "?", detail);
}

/* "Elo +12.3 +- 20.1" with the given decimals, without a "-0"; a clean
 * sweep has no finite estimate, and says so rather than print "inf". */
static void format_elo(const struct tx_stats_elo *elo, int decimals, char *buf, size_t cap)
{
    double shown = fabs(elo->elo) < 0.5 * pow(10, -decimals) ? 0.0 : elo->elo;
    if (isfinite(elo->elo) && isfinite(elo->margin))
        snprintf(buf, cap, "Elo %+.*f +- %.*f", decimals, shown, decimals, elo->margin);
    else if (isfinite(elo->elo))
        snprintf(buf, cap, "Elo %+.*f", decimals, shown);
    else
        snprintf(buf, cap, "Elo %s (no interval: every %s %s)", elo->elo > 0 ? "+inf" : "-inf",
                 decimals ? "pair" : "game", elo->elo > 0 ? "won" : "lost");
}

/* BOT1's half points in a counted game (2 win, 1 draw, 0 loss). */
static int bot1_half_points(const struct play *p, const struct tx_record *r)
{
    if (r->result.winner < 0)
        return 1;
    return !strcmp(r->players[r->result.winner].name, p->o->bots[0].name) ? 2 : 0;
}

static void print_sprt(struct play *p)
{
    struct tx_stats_elo elo = tx_stats_elo_penta(p->penta);
    int64_t pairs = p->penta[0] + p->penta[1] + p->penta[2] + p->penta[3] + p->penta[4];
    char elo_text[80];
    format_elo(&elo, 1, elo_text, sizeof elo_text);
    printf("sprt: LLR %.2f [%.2f, %.2f] after %lld pairs, %s, pentanomial [%lld "
           "%lld %lld %lld %lld]%s\n",
           p->sprt.llr, p->sprt.lower, p->sprt.upper, (long long)pairs, elo_text,
           (long long)p->penta[0], (long long)p->penta[1], (long long)p->penta[2],
           (long long)p->penta[3], (long long)p->penta[4],
           p->sprt.verdict == TX_STATS_SPRT_H1   ? ": H1 accepted"
           : p->sprt.verdict == TX_STATS_SPRT_H0 ? ": H0 accepted"
                                                 : "");
}

/* Pairs up game 2k-1 with game 2k; a complete pair updates the SPRT. */
static void add_to_pair(struct tx_runner *runner, struct play *p, const struct tx_record *r,
                        bool resumed)
{
    int64_t pair = (r->game - 1) / 2;
    int half = bot1_half_points(p, r);
    for (int i = 0; i < p->npending; i++) {
        if (p->pending[i].pair != pair)
            continue;
        p->penta[p->pending[i].half_points + half]++;
        p->pending[i] = p->pending[--p->npending];
        const struct tx_sprt_options *s = &p->o->sprt;
        p->sprt = tx_stats_sprt(p->penta, s->elo0, s->elo1, s->alpha, s->beta,
                                s->logistic ? TX_STATS_LOGISTIC : TX_STATS_NORMALIZED);
        if (!resumed)
            print_sprt(p);
        if (p->sprt.verdict != TX_STATS_SPRT_CONTINUE && !p->decided) {
            p->decided = true;
            tx_runner_stop(runner);
        }
        return;
    }
    if (p->npending < PENDING_MAX)
        p->pending[p->npending++] = (struct pending){pair, half};
}

static void on_record(struct tx_runner *runner, const struct tx_record *r, bool resumed, void *data)
{
    struct play *p = data;
    if (!resumed && p->resumed > 0 && !p->resumed_said) {
        printf("(resuming: %lld games of this match are already in %s)\n", (long long)p->resumed,
               p->o->output);
        p->resumed_said = true;
    }
    if (!resumed)
        print_game(r);
    if (r->result.reason == TX_REASON_INTERRUPTED)
        return;
    p->resumed += resumed;
    int half = bot1_half_points(p, r);
    p->wins += half == 2;
    p->draws += half == 1;
    p->losses += half == 0;
    if (p->o->sprt.enabled)
        add_to_pair(runner, p, r, resumed);
    fflush(stdout);
}

static void print_summary(const struct play *p)
{
    const char *a = p->o->bots[0].name, *b = p->o->bots[1].name;
    int64_t games = p->wins + p->draws + p->losses;
    if (games == 0) {
        printf("%s vs %s: no game finished\n", a, b);
        return;
    }
    struct tx_stats_elo elo = tx_stats_elo(p->wins, p->draws, p->losses);
    char elo_text[80];
    format_elo(&elo, 0, elo_text, sizeof elo_text);
    printf(
        "%s vs %s: %lld games, %lld wins, %lld draws, %lld losses, score %.1f%%, %s, LOS %.1f%%\n",
        a, b, (long long)games, (long long)p->wins, (long long)p->draws, (long long)p->losses,
        100.0 * elo.score, elo_text, 100.0 * tx_stats_los(p->wins, p->losses));
}

int tx_cmd_play(int argc, char **argv)
{
    struct tx_options o;
    struct tx_setup *run = NULL;
    struct play *p = NULL;
    char err[1024];
    int status = TX_EXIT_USAGE;

    if (tx_options_parse(&o, ACCEPT, 2, 2, argc, argv, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena play: %s\n", err);
        goto out;
    }
    if (o.help) {
        usage(stdout);
        status = TX_EXIT_OK;
        goto out;
    }
    int64_t games = o.games ? o.games : o.sprt.enabled ? SPRT_MAX_GAMES : 2;
    /* argv[-1] is the program as typed (main passes argv + 1). */
    if (tx_setup_new(&o, games, argc + 1, argv - 1, &run, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena play: %s\n", err);
        goto out;
    }
    int concurrency = tx_runner_concurrency(o.concurrency, "twixt-arena play");
    p = calloc(1, sizeof *p);
    if (!p) {
        fprintf(stderr, "twixt-arena play: out of memory\n");
        goto out;
    }
    p->o = &o;
    struct tx_runner_config config = {
        .schedule = &run->schedule,
        .match = &run->match,
        .concurrency = concurrency,
        .output = o.output,
        .resume_command = run->resume_command,
        .progress = false, /* a line per game says enough */
        .record_cb = on_record,
        .data = p,
    };
    struct tx_runner_summary summary;
    if (tx_runner_run(&config, &summary, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena play: %s\n", err);
        goto out;
    }
    if (p->resumed > 0 && !p->resumed_said)
        printf("(all %lld games of this match were already in %s)\n", (long long)p->resumed,
               o.output);
    print_summary(p);
    if (o.sprt.enabled && !p->decided)
        printf("sprt: no decision after %lld games (LLR %.2f)\n",
               (long long)(p->wins + p->draws + p->losses), p->sprt.llr);
    else if (o.sprt.enabled)
        print_sprt(p);
    fflush(stdout);
    tx_runner_print_interrupted(&config, &summary);
    status = summary.signal ? 128 + summary.signal : TX_EXIT_OK;
out:
    free(p);
    tx_setup_free(run);
    tx_options_free(&o);
    return status;
}
