/* refeed-print.c - a re-feed shown to a person: `replay --bot`'s table.
 *
 * tx_refeed_replay picks the player from --bot, runs the re-feed with the
 * record's limits and prints a header and the table of tx_refeed_print:
 * one line per fed turn, the recorded answer next to the new one, and what
 * the bot wrote to stderr. Bot text is always printed with control
 * characters replaced (tx_render_text_safe).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "command.h"
#include "refeed.h"
#include "render-text.h"

const char *tx_refeed_verdict_name(enum tx_refeed_verdict verdict)
{
    switch (verdict) {
    case TX_REFEED_SAME:
        return "same";
    case TX_REFEED_DIFFERENT:
        return "different";
    case TX_REFEED_ILLEGAL:
        return "illegal";
    case TX_REFEED_TIMEOUT:
        return "timeout";
    case TX_REFEED_CRASH:
        return "crash";
    }
    return "?";
}

/* A cell: the move and its edits (classic rules), or "-" for none. */
static void cell_text(char *buf, size_t cap, const char *move, const char *edits)
{
    snprintf(buf, cap, "%s%s", move[0] ? move : "-", edits);
}

static void print_cell(FILE *out, const char *text, int width)
{
    int len = (int)strlen(text);
    tx_render_text_safe(out, text, TX_REFEED_EDITS_SHOWN + 24);
    for (int i = len < TX_REFEED_EDITS_SHOWN + 24 ? len : TX_REFEED_EDITS_SHOWN + 27; i < width;
         i++)
        fputc(' ', out);
}

void tx_refeed_print(FILE *out, const struct tx_refeed_config *c,
                     const struct tx_refeed_result *res)
{
    int counts[TX_REFEED_CRASH + 1] = {0};
    char recorded[TX_TOKEN_SHOWN + TX_REFEED_EDITS_SHOWN + 8], answer[sizeof recorded];
    /* A move's column is 10 wide, wider when link edits follow moves. */
    int width[2] = {10, 10};
    for (int k = 0; k < res->nturns; k++) {
        const struct tx_refeed_turn *t = &res->turns[k];
        int w[2] = {(int)(strlen(t->recorded) + strlen(t->recorded_edits)) + 2,
                    (int)(strlen(t->answer) + strlen(t->answer_edits)) + 2};
        for (int i = 0; i < 2; i++)
            width[i] = w[i] > width[i] ? w[i] : width[i];
    }
    fprintf(out, "%5s %5s %8s  %-*s%-*s%10s  %s\n", "move", "turn", "limit", width[0], "recorded",
            width[1], "new", "time", "verdict");
    for (int k = 0; k < res->nturns; k++) {
        const struct tx_refeed_turn *t = &res->turns[k];
        counts[t->verdict]++;
        fprintf(out, "%5d %5d %5d ms  ", t->move, k + 1, t->limit_ms);
        cell_text(recorded, sizeof recorded, t->recorded, t->recorded_edits);
        cell_text(answer, sizeof answer, t->answer, t->answer_edits);
        print_cell(out, recorded, width[0]);
        print_cell(out, answer, width[1]);
        if (t->us >= 0)
            fprintf(out, "%7.1f ms  ", (double)t->us / 1000.0);
        else
            fprintf(out, "%10s  ", "-");
        fputs(tx_refeed_verdict_name(t->verdict), out);
        if (t->detail[0]) {
            fputs(": ", out);
            tx_render_text_safe(out, t->detail, sizeof t->detail);
        }
        if (t->message[0]) {
            fputs("  \"", out);
            tx_render_text_safe(out, t->message, TX_MESSAGE_MAX);
            fputc('"', out);
        }
        fputc('\n', out);
    }
    fprintf(out,
            "%d turn%s fed to player %d: %d same, %d different, %d illegal, %d timeout, %d crash\n",
            res->nturns, res->nturns == 1 ? "" : "s", c->player + 1, counts[TX_REFEED_SAME],
            counts[TX_REFEED_DIFFERENT], counts[TX_REFEED_ILLEGAL], counts[TX_REFEED_TIMEOUT],
            counts[TX_REFEED_CRASH]);
    if (res->start_error[0]) {
        fputs("the bot did not start: ", out);
        tx_render_text_safe(out, res->start_error, sizeof res->start_error);
        fputc('\n', out);
    }
    if (res->extra_lines > 0)
        fprintf(out, "extra lines: %" PRId64 " printed beyond one between two inputs\n",
                res->extra_lines);
    if (res->stderr_bytes > 0)
        fprintf(out, "stderr: %" PRId64 " bytes%s\n", res->stderr_bytes,
                res->stderr_tail ? ", ending with:" : "");
    for (const char *line = res->stderr_tail; line && *line;) {
        size_t n = strcspn(line, "\n");
        char *copy = tx_strndup(line, n);
        fputs("  | ", out);
        tx_render_text_safe(out, copy, 400);
        fputc('\n', out);
        free(copy);
        line += n + (line[n] == '\n');
    }
}

int tx_refeed_replay(FILE *out, const struct tx_geometry *geo, const struct tx_record *r,
                     const char *bot_arg, int turn)
{
    const char *eq = strchr(bot_arg, '=');
    int player = -1, nplayers = r->nplayers == 4 ? 4 : 2; /* four with teams */
    if (eq && eq - bot_arg == 1 && bot_arg[0] >= '1' && bot_arg[0] < '1' + nplayers)
        player = bot_arg[0] - '1';
    for (int p = 0; eq && player < 0 && p < nplayers; p++)
        if (r->players[p].name && strlen(r->players[p].name) == (size_t)(eq - bot_arg) &&
            !strncmp(r->players[p].name, bot_arg, (size_t)(eq - bot_arg)))
            player = p;
    if (player < 0 || !eq[1]) {
        fprintf(stderr,
                "twixt-arena replay: --bot: expected PLAYER=COMMAND with PLAYER %s or a player's "
                "name of game %lld, got '%s'\n",
                nplayers == 4 ? "1 to 4" : "1, 2", (long long)r->game, bot_arg);
        return 2;
    }
    if (r->width != r->height && tx_command_has_size(eq + 1)) {
        fprintf(stderr,
                "twixt-arena replay: --bot: {size} in the command, but the board of game %lld is "
                "%dx%d: use {width} and {height}\n",
                (long long)r->game, r->width, r->height);
        return 2;
    }
    struct tx_refeed_config c = {
        .geo = geo,
        .record = r,
        .player = player,
        .command = eq + 1,
        .upto = turn,
        .limits = r->limits,
    };
    /* A record holds the time limits, not the memory and CPU ones: the
     * referee's defaults (the CPU seconds derived from the time limits). */
    struct tx_limits defaults;
    tx_limits_default(&defaults);
    c.limits.memory_mb = defaults.memory_mb;
    c.limits.cpu_s = defaults.cpu_s;
    struct tx_refeed_result res;
    char err[512];
    if (tx_refeed_run(&c, &res, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena replay: --bot: %s\n", err);
        tx_refeed_result_free(&res);
        return 2;
    }
    fprintf(out, "game %lld: player %d (", (long long)r->game, player + 1);
    tx_render_text_safe(out, r->players[player].name ? r->players[player].name : "?", 64);
    fprintf(out, ") was ");
    tx_render_text_safe(out, r->players[player].command ? r->players[player].command : "?", 200);
    fprintf(out, "\nits inputs up to move %d, re-fed to: ",
            turn > 0 && turn < r->nmoves ? turn : r->nmoves);
    tx_render_text_safe(out, c.command, 400);
    fprintf(out, "\nlimits: first turn %d ms, later turns %d ms, margin %d ms%s\n\n",
            c.limits.first_turn_ms, c.limits.turn_ms, c.limits.margin_ms,
            c.limits.soft ? ", soft timeouts" : "");
    tx_refeed_print(out, &c, &res);
    bool all_same = res.nturns > 0;
    for (int k = 0; k < res.nturns; k++)
        all_same = all_same && res.turns[k].verdict == TX_REFEED_SAME;
    tx_refeed_result_free(&res);
    return all_same ? 0 : 1;
}
