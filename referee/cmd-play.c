/* cmd-play.c - `twixt-arena play BOT1 BOT2 [options]`: one match.
 *
 * BOT1 is player 1 in odd games, player 2 in even ones (the pool's one
 * pairing keeps BOT1 first: pool.h). With --teams the match is of two
 * teams of two (Double TwixT): the first team given plays red in odd
 * games. After each game one line says who won and why (and how the
 * opening went, under pie and cut); at the end a summary from BOT1's (the
 * first team's) side with its Elo difference. With --sprt
 * the match is a sequential test: games come in colour-exchanged pairs,
 * each finished pair adds to the pentanomial counts (fastchess's model,
 * stats.h), and the run stops when the LLR leaves its bounds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "commands.h"
#include "options.h"
#include "output.h"
#include "setup.h"
#include "runner.h"
#include "render-text.h"
#include "stats.h"

#define PENDING_MAX 4096          /* game pairs with one game known, at most */
#define CRASH_STDERR_LINES 5      /* lines of a crashed bot's stderr shown under its game */
#define CRASH_STDERR_LINE_MAX 200 /* bytes of each */
/* Exit statuses of an SPRT (README "SPRT"): H1 is a success, H0 a failed
 * check, and a test that reached --games undecided says so too. */
#define EXIT_SPRT_H0 TX_EXIT_FAILED
#define EXIT_SPRT_UNDECIDED 3

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
    FILE *out; /* per-game lines: stdout, or stderr with --json */
};

const struct tx_options_command tx_cmd_play_line = {
    .name = "play",
    .id = TX_CMD_PLAY,
    .operands = "BOT1 BOT2",
    .operand = TX_OPERAND_BOT,
    .min_operands = 2,
    .max_operands = 2, /* 4 with --teams (options.c) */
    .summary = "a match between two bots (or two teams of two)",
    .about = "Plays BOT1 against BOT2: BOT1 is player 1 (it receives FIRST) in odd games,\n"
             "player 2 in even games. One line per game, then BOT1's score, Elo difference\n"
             "and likelihood of superiority. With --sprt, plays colour-exchanged game pairs\n"
             "until the sequential test decides. With -o FILE, the same command again\n"
             "resumes the run.\n"
             "\n"
             "Double TwixT: four BOTs and two --teams NAME=BOT1,BOT2 (the BOTs by name); the\n"
             "first team plays red in odd games. --handicap NAME on a --board WxH gives NAME\n"
             "the longer distance in every game.\n"
             "\n"
             "A BOT is a command line (\"python3 bot.py\"), split as a shell splits words,\n"
             "optionally NAME=COMMAND; {seed}, {rules}, {width}, {height}, {size} (a square\n"
             "board's side), {opening} and {teams} in it become the game's seed, rule set,\n"
             "board, opening rule and 1 in Double TwixT (else 0).\n",
};

/* The bot that lost the game by its own fault (invalid, timeout, crash):
 * the last entry's (with teams, the winner names a team, not it). */
static int faulty_player(const struct tx_record *r)
{
    if (r->nplayers == 4)
        return r->nmoves > 0 ? r->moves[r->nmoves - 1].player : 0;
    return 1 - r->result.winner;
}

/* The end of what the loser wrote to stderr in its last turn, when it
 * crashed: a bot that dies before answering usually says why there (a
 * Python traceback), and the user should not have to open the record. */
static void print_crash_stderr(FILE *out, const struct tx_record *r)
{
    int loser = faulty_player(r);
    const char *text = NULL;
    for (int i = r->nmoves - 1; i >= 0 && !text; i--)
        if (r->moves[i].player == loser)
            text = r->moves[i].stderr_text;
    if (!text || !*text)
        return;
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    /* the start of the last CRASH_STDERR_LINES lines */
    size_t from = len;
    for (int lines = 0; from > 0; from--)
        if (text[from - 1] == '\n' && ++lines == CRASH_STDERR_LINES)
            break;
    fprintf(out, "  %s's stderr, last lines:\n", r->players[loser].name);
    while (from < len) {
        size_t n = strcspn(text + from, "\n");
        char *line = tx_strndup(text + from, n < len - from ? n : len - from);
        fputs("  | ", out);
        tx_render_text_safe(out, line, CRASH_STDERR_LINE_MAX);
        fputc('\n', out);
        free(line);
        from += n + 1;
    }
}

/* How the opening went, after the result: ", swapped (pie)", ", cut D4 E6
 * H8, random chose black"; "" under the mirror swap and none. */
static void opening_note(const struct tx_record *r, char *buf, size_t cap)
{
    buf[0] = '\0';
    /* Entry 2 (the swap, the choice) was played: the game went on after
     * it, or ended on it with a result that is no fault. */
    bool played = r->nmoves > 2 || (r->nmoves == 2 && (r->result.reason == TX_REASON_CONNECTION ||
                                                       r->result.reason == TX_REASON_DRAW));
    const struct tx_record_move *a = &r->moves[0], *b = &r->moves[1];
    if (!played || !a->move || !b->move || b->forced)
        return;
    if (r->opening == TX_OPENING_PIE && !strcmp(b->move, "SWAP"))
        snprintf(buf, cap, ", swapped (pie)");
    else if (r->opening == TX_OPENING_CUT && !strncmp(a->move, "CUT ", 4))
        snprintf(buf, cap, ", cut %s%s%s, %s chose %s", a->move + 4, a->nedits ? " " : "",
                 a->nedits ? a->edits[0] : "", r->players[b->player].name,
                 !strcmp(b->move, "CHOOSE 1") ? "red" : "black");
}

/* A side of a game: "greedy", or with teams "team red (a, b)". */
static void side_name(const struct tx_record *r, int side, char *buf, size_t cap)
{
    if (r->nplayers == 4)
        snprintf(buf, cap, "team %s (%s, %s)", r->teams[side] ? r->teams[side] : "?",
                 r->players[side].name, r->players[side + 2].name);
    else
        snprintf(buf, cap, "%s", r->players[side].name);
}

/* "game 3: greedy (player 1) beats random by connection A4-L9", "game 3:
 * team red (a, b) beats team black (c, d) by crash of c: exit status 139" */
static void print_game(FILE *out, const struct tx_record *r)
{
    int w = r->result.winner;
    const char *reason = tx_reason_name(r->result.reason);
    const char *detail = r->result.detail ? r->result.detail : "";
    char x[3 * TX_RECORD_NAME_CHARS * 4], y[sizeof x], note[160],
        whose[TX_RECORD_NAME_CHARS * 4 + 8] = "";
    bool teams = r->nplayers == 4;
    opening_note(r, note, sizeof note);
    side_name(r, w < 0 ? 0 : w, x, sizeof x);
    side_name(r, w < 0 ? 1 : 1 - w, y, sizeof y);
    if (teams && w >= 0 && r->result.reason != TX_REASON_CONNECTION)
        snprintf(whose, sizeof whose, " of %s", r->players[faulty_player(r)].name);

    if (r->result.reason == TX_REASON_INTERRUPTED)
        fprintf(out, "game %lld: interrupted\n", (long long)r->game);
    else if (w < 0)
        fprintf(out, "game %lld: %s and %s draw (%s)%s\n", (long long)r->game, x, y,
                *detail ? detail : "no legal hole", note);
    else if (r->result.reason == TX_REASON_CONNECTION && teams)
        fprintf(out, "game %lld: %s beats %s by connection %s%s\n", (long long)r->game, x, y,
                detail, note);
    else if (r->result.reason == TX_REASON_CONNECTION)
        fprintf(out, "game %lld: %s (player %d) beats %s by connection %s%s\n", (long long)r->game,
                x, w + 1, y, detail, note);
    else if (teams)
        fprintf(out, "game %lld: %s beats %s by %s%s: %s%s\n", (long long)r->game, x, y,
                reason ? reason : "?", whose, detail, note);
    else
        fprintf(out, "game %lld: %s (player %d) beats %s by %s: %s%s\n", (long long)r->game, x,
                w + 1, y, reason ? reason : "?", detail, note);
    if (r->result.reason == TX_REASON_CRASH && w >= 0)
        print_crash_stderr(out, r);
}

/* "Elo +12.3 +- 20.1", or a one-sided bound (stats.h). */
static void format_elo(const char *label, const struct tx_stats_elo *elo, int decimals, char *buf,
                       size_t cap)
{
    tx_stats_elo_format(elo, label, decimals, decimals ? "pair" : "game", buf, cap);
}

/* The first side's name: BOT1, or with teams the first team. */
static const char *first_side(const struct play *p)
{
    return p->o->nteams ? p->o->teams[0].name : p->o->bots[0].name;
}

static const char *second_side(const struct play *p)
{
    return p->o->nteams ? p->o->teams[1].name : p->o->bots[1].name;
}

/* BOT1's (the first team's) half points in a counted game (2 win, 1
 * draw, 0 loss). */
static int bot1_half_points(const struct play *p, const struct tx_record *r)
{
    int w = r->result.winner;
    if (w < 0)
        return 1;
    const char *winner = r->nplayers == 4 ? r->teams[w] : r->players[w].name;
    return winner && !strcmp(winner, first_side(p)) ? 2 : 0;
}

static int64_t pairs_of(const struct play *p)
{
    return p->penta[0] + p->penta[1] + p->penta[2] + p->penta[3] + p->penta[4];
}

/* One line per finished pair while the test runs. */
static void print_sprt(const struct play *p, FILE *out)
{
    struct tx_stats_elo elo = tx_stats_elo_penta(p->penta);
    char elo_text[96];
    format_elo("Elo", &elo, 1, elo_text, sizeof elo_text);
    fprintf(out,
            "sprt: LLR %.2f [%.2f, %.2f] after %lld %s, %s, pentanomial [%lld %lld %lld %lld "
            "%lld]\n",
            p->sprt.llr, p->sprt.lower, p->sprt.upper, (long long)pairs_of(p),
            pairs_of(p) == 1 ? "pair" : "pairs", elo_text, (long long)p->penta[0],
            (long long)p->penta[1], (long long)p->penta[2], (long long)p->penta[3],
            (long long)p->penta[4]);
}

/* Pairs up games 2j-1 and 2j of the pairing (k in the record: pairing.h;
 * the index in a record written before pairings); a complete pair updates
 * the SPRT. Once
 * the test has decided, the runner starts no new game; games already in
 * flight are still recorded and counted in the match, but the decision
 * stands on the pairs that made it. */
static void add_to_pair(struct tx_runner *runner, struct play *p, const struct tx_record *r,
                        bool resumed)
{
    if (p->decided)
        return;
    int64_t pair = ((r->pairing.key ? r->pairing.k : r->game) - 1) / 2;
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
            print_sprt(p, p->out);
        if (p->sprt.verdict != TX_STATS_SPRT_CONTINUE) {
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
        fprintf(p->out, "(resuming: %lld %s of this match %s already in %s)\n",
                (long long)p->resumed, p->resumed == 1 ? "game" : "games",
                p->resumed == 1 ? "is" : "are", p->o->output);
        p->resumed_said = true;
    }
    if (!resumed)
        print_game(p->out, r);
    if (r->result.reason == TX_REASON_INTERRUPTED)
        return;
    p->resumed += resumed;
    int half = bot1_half_points(p, r);
    p->wins += half == 2;
    p->draws += half == 1;
    p->losses += half == 0;
    if (p->o->sprt.enabled)
        add_to_pair(runner, p, r, resumed);
    fflush(p->out);
}

/* The match from BOT1's side. Its Elo is the difference between the two
 * bots measured by this match's games alone (cutechess-cli's trinomial
 * estimate); `standings` fits ratings for every bot of a file jointly,
 * centred on the field's mean, so its figures differ. */
static void print_summary(const struct play *p)
{
    const char *a = first_side(p), *b = second_side(p);
    char ta[TX_OPTIONS_NAME_MAX * 3 + 16], tb[sizeof ta];
    if (p->o->nteams) { /* "team red (a, b)" */
        const struct tx_options_team *x = &p->o->teams[0], *y = &p->o->teams[1];
        const int max = TX_OPTIONS_NAME_MAX - 1; /* names are shorter: the bound is for gcc */
        snprintf(ta, sizeof ta, "team %.*s (%.*s, %.*s)", max, x->name, max, x->bots[0], max,
                 x->bots[1]);
        snprintf(tb, sizeof tb, "team %.*s (%.*s, %.*s)", max, y->name, max, y->bots[0], max,
                 y->bots[1]);
        a = ta, b = tb;
    }
    int64_t games = p->wins + p->draws + p->losses;
    if (games == 0) {
        printf("%s vs %s: no game finished\n", a, b);
        return;
    }
    struct tx_stats_elo elo = tx_stats_elo(p->wins, p->draws, p->losses);
    char elo_text[96];
    format_elo("Elo difference", &elo, 0, elo_text, sizeof elo_text);
    printf("%s vs %s: %lld %s, %lld %s, %lld %s, %lld %s, score %.1f%%, %s, LOS "
           "%.1f%%\n",
           a, b, (long long)games, games == 1 ? "game" : "games", (long long)p->wins,
           p->wins == 1 ? "win" : "wins", (long long)p->draws, p->draws == 1 ? "draw" : "draws",
           (long long)p->losses, p->losses == 1 ? "loss" : "losses", 100.0 * elo.score, elo_text,
           100.0 * tx_stats_los(p->wins, p->losses));
}

/* The test's outcome, once, at the end. */
static void print_decision(const struct play *p)
{
    const char *a = first_side(p), *b = second_side(p);
    const struct tx_sprt_options *s = &p->o->sprt;
    if (!p->decided) {
        printf("sprt: no decision after %lld %s (LLR %.2f, bounds [%.2f, %.2f])\n",
               (long long)pairs_of(p), pairs_of(p) == 1 ? "pair" : "pairs", p->sprt.llr,
               p->sprt.lower, p->sprt.upper);
    } else if (p->sprt.verdict == TX_STATS_SPRT_H1) {
        printf("sprt: H1 accepted after %lld %s (LLR %.2f >= %.2f): %s is stronger than %s "
               "(elo1 = %g rather than elo0 = %g, %s Elo)\n",
               (long long)pairs_of(p), pairs_of(p) == 1 ? "pair" : "pairs", p->sprt.llr,
               p->sprt.upper, a, b, s->elo1, s->elo0, s->logistic ? "logistic" : "normalized");
    } else {
        printf("sprt: H0 accepted after %lld %s (LLR %.2f <= %.2f): %s is not stronger than %s "
               "(elo0 = %g rather than elo1 = %g, %s Elo)\n",
               (long long)pairs_of(p), pairs_of(p) == 1 ? "pair" : "pairs", p->sprt.llr,
               p->sprt.lower, a, b, s->elo0, s->elo1, s->logistic ? "logistic" : "normalized");
    }
}

/* A number that JSON can carry: infinities and NaN become null. */
static void add_number(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static void add_elo(cJSON *o, const char *key, const struct tx_stats_elo *e)
{
    cJSON *x = cJSON_AddObjectToObject(o, key);
    add_number(x, "elo", e->elo);
    add_number(x, "lo", e->lo);
    add_number(x, "hi", e->hi);
    add_number(x, "margin", e->margin);
}

/* --json: the summary (and the SPRT) as one object on stdout. Returns 0 or
 * -ENOMEM. */
static int print_json(const struct play *p, const struct tx_runner_summary *summary)
{
    int64_t games = p->wins + p->draws + p->losses;
    struct tx_stats_elo elo = tx_stats_elo(p->wins, p->draws, p->losses);
    cJSON *o = cJSON_CreateObject();
    cJSON *bots = cJSON_AddArrayToObject(o, "bots");
    for (int i = 0; i < p->o->nbots; i++) /* with teams, in the teams' order */
        cJSON_AddItemToArray(bots, cJSON_CreateString(p->o->nteams ? p->o->teams[i / 2].bots[i % 2]
                                                                   : p->o->bots[i].name));
    if (p->o->nteams) { /* the score is the first team's */
        cJSON *teams = cJSON_AddArrayToObject(o, "teams");
        for (int i = 0; i < 2; i++)
            cJSON_AddItemToArray(teams, cJSON_CreateString(p->o->teams[i].name));
    }
    cJSON_AddNumberToObject(o, "games", (double)games);
    cJSON_AddNumberToObject(o, "wins", (double)p->wins);
    cJSON_AddNumberToObject(o, "draws", (double)p->draws);
    cJSON_AddNumberToObject(o, "losses", (double)p->losses);
    cJSON_AddNumberToObject(o, "score", elo.score);
    add_elo(o, "elo", &elo);
    cJSON_AddNumberToObject(o, "los", tx_stats_los(p->wins, p->losses));
    cJSON_AddBoolToObject(o, "interrupted", summary->signal != 0);
    if (p->o->sprt.enabled) {
        const struct tx_sprt_options *s = &p->o->sprt;
        struct tx_stats_elo pair_elo = tx_stats_elo_penta(p->penta);
        cJSON *t = cJSON_AddObjectToObject(o, "sprt");
        cJSON_AddNumberToObject(t, "elo0", s->elo0);
        cJSON_AddNumberToObject(t, "elo1", s->elo1);
        cJSON_AddNumberToObject(t, "alpha", s->alpha);
        cJSON_AddNumberToObject(t, "beta", s->beta);
        cJSON_AddStringToObject(t, "model", s->logistic ? "logistic" : "normalized");
        cJSON_AddNumberToObject(t, "llr", p->sprt.llr);
        cJSON_AddNumberToObject(t, "lower", p->sprt.lower);
        cJSON_AddNumberToObject(t, "upper", p->sprt.upper);
        if (!p->decided)
            cJSON_AddNullToObject(t, "decision");
        else
            cJSON_AddStringToObject(t, "decision",
                                    p->sprt.verdict == TX_STATS_SPRT_H1 ? "H1" : "H0");
        cJSON_AddNumberToObject(t, "pairs", (double)pairs_of(p));
        cJSON *penta = cJSON_AddArrayToObject(t, "pentanomial");
        for (int k = 0; k < 5; k++)
            cJSON_AddItemToArray(penta, cJSON_CreateNumber((double)p->penta[k]));
        add_elo(t, "elo", &pair_elo);
    }
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return -ENOMEM;
    printf("%s\n", text);
    free(text);
    return 0;
}

/* The exit status of a run that was not interrupted: with --sprt it says
 * how the test ended. */
static int play_status(const struct play *p)
{
    if (!p->o->sprt.enabled)
        return TX_EXIT_OK;
    if (!p->decided)
        return EXIT_SPRT_UNDECIDED;
    return p->sprt.verdict == TX_STATS_SPRT_H1 ? TX_EXIT_OK : EXIT_SPRT_H0;
}

int tx_cmd_play(const char *program, int argc, char **argv)
{
    struct tx_options o;
    struct tx_setup *run = NULL;
    struct play *p = NULL;
    char err[1024];
    int status = tx_options_cli(&o, &tx_cmd_play_line, program, argc, argv);

    if (status != TX_OPTIONS_CONTINUE)
        goto out;
    status = TX_EXIT_USAGE;
    int64_t games = o.games          ? o.games
                    : o.sprt.enabled ? TX_OPTIONS_SPRT_GAMES_DEFAULT
                                     : TX_OPTIONS_GAMES_DEFAULT;
    if (tx_setup_new(&o, TX_POOL_PLAY, games, program, argc, argv, &run, err, sizeof err) < 0) {
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
    p->out = o.json ? stderr : stdout; /* with --json, stdout holds only the JSON */
    struct tx_runner_games pool_games;
    tx_pool_games(&run->pool, &pool_games);
    struct tx_runner_config config = {
        .games = &pool_games,
        .match = &run->match,
        .concurrency = concurrency,
        .output = o.output,
        .skip_invalid = o.skip_invalid,
        .resume_command = run->resume_command,
        .progress = false, /* a line per game says enough */
        .record_cb = on_record,
        .data = p,
    };
    struct tx_runner_summary summary;
    if (tx_runner_run(&config, &summary, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena play: %s\n", err);
        tx_runner_print_interrupted(&config, &summary);
        goto out;
    }
    if (p->resumed > 0 && !p->resumed_said)
        fprintf(p->out, "(all %lld %s of this match %s already in %s)\n", (long long)p->resumed,
                p->resumed == 1 ? "game" : "games", p->resumed == 1 ? "was" : "were", o.output);
    if (o.json) {
        if (print_json(p, &summary) < 0) {
            fprintf(stderr, "twixt-arena play: out of memory\n");
            goto out;
        }
    } else {
        print_summary(p);
        if (o.sprt.enabled)
            print_decision(p);
    }
    fflush(stdout);
    tx_runner_print_interrupted(&config, &summary);
    status = summary.signal ? 128 + summary.signal : play_status(p);
    /* Standings or results that never reached stdout are not a success. */
    if (tx_output_finish(stdout, "standard output", "twixt-arena play") < 0 && !summary.signal)
        status = TX_EXIT_USAGE;
out:
    free(p);
    tx_setup_free(run);
    tx_options_free(&o);
    return status;
}
