/* schedule.c - reading openings files (see schedule.h).
 *
 * Each line is played on an empty board as it is read, so a bad opening is
 * reported with its FILE:LINE and move before any game starts, never found
 * by a bot mid-run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hole.h"
#include "schedule.h"

/* The moves of one line, played in g. */
static int parse_moves(struct tx_game *g, const char *p, const char *end, struct tx_opening *out,
                       char *why, size_t whycap)
{
    const struct tx_geometry *geo = g->geo;
    char name[TX_HOLE_NAME_MAX];

    out->nmoves = 0;
    while (p < end) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        const char *word = p;
        while (p < end && *p != ' ' && *p != '\t')
            p++;
        size_t len = (size_t)(p - word);
        int hole;
        if (len == 4 && !memcmp(word, "SWAP", 4)) {
            snprintf(why, whycap, "move %d: SWAP is not allowed in an opening", out->nmoves + 1);
            return -EINVAL;
        }
        enum tx_hole_parse_result r = tx_hole_parse(geo, word, len, &hole);
        if (r != TX_HOLE_OK) {
            snprintf(why, whycap, "move %d: expected a hole name like F6, got \"%.*s\"",
                     out->nmoves + 1, (int)(len > 16 ? 16 : len), word);
            return -EINVAL;
        }
        if (out->nmoves == TX_SCHEDULE_OPENING_MAX) {
            snprintf(why, whycap, "more than %d moves", TX_SCHEDULE_OPENING_MAX);
            return -EINVAL;
        }
        enum tx_illegal illegal = tx_game_play(g, hole);
        if (illegal != TX_LEGAL) {
            char reason[96];
            tx_illegal_describe(g, hole, illegal, NULL, NULL, reason, sizeof reason);
            snprintf(why, whycap, "move %d (%s): %s", out->nmoves + 1,
                     tx_hole_name(geo, hole, name), reason);
            return -EINVAL;
        }
        out->moves[out->nmoves++] = (int16_t)hole;
        if (g->status != TX_ONGOING) {
            snprintf(why, whycap,
                     "move %d (%s) ends the game; an opening must leave a game to play",
                     out->nmoves, tx_hole_name(geo, hole, name));
            return -EINVAL;
        }
    }
    return 0;
}

/* Parses one line of an openings file into *out; on error writes the reason. */
static int parse_opening_line(const struct tx_geometry *geo, enum tx_rules rules, const char *p,
                              const char *end, struct tx_opening *out, char *why, size_t whycap)
{
    struct tx_game *g = tx_game_new(geo, rules);
    int rc = parse_moves(g, p, end, out, why, whycap);
    tx_game_free(g);
    return rc;
}

int tx_schedule_parse_openings(const struct tx_geometry *geo, enum tx_rules rules, const char *name,
                               const char *text, size_t len, struct tx_opening **ret_lines,
                               int *ret_n, char *err, size_t errcap)
{
    struct tx_opening *lines = NULL;
    int n = 0, cap = 0, lineno = 0;
    const char *p = text, *end = text + len;

    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = eol ? eol : end;
        lineno++;
        if (line_end > p && line_end[-1] == '\r')
            line_end--;
        const char *q = p;
        while (q < line_end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < line_end && *q != '#') {
            if (n == TX_SCHEDULE_OPENING_LINES_MAX) {
                snprintf(err, errcap, "%s:%d: more than %d openings", name, lineno,
                         TX_SCHEDULE_OPENING_LINES_MAX);
                goto error;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                struct tx_opening *grown = realloc(lines, (size_t)cap * sizeof *lines);
                if (!grown) {
                    free(lines);
                    return -ENOMEM;
                }
                lines = grown;
            }
            char why[160];
            if (parse_opening_line(geo, rules, q, line_end, &lines[n], why, sizeof why) < 0) {
                snprintf(err, errcap, "%s:%d: %s", name, lineno, why);
                goto error;
            }
            n++;
        }
        p = eol ? eol + 1 : end;
    }
    if (n == 0) {
        snprintf(err, errcap,
                 "%s: no opening in the file (one per line, holes separated by spaces)", name);
        goto error;
    }
    *ret_lines = lines;
    *ret_n = n;
    return 0;

error:
    free(lines);
    return -EINVAL;
}
