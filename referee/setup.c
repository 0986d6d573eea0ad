/* setup.c - from parsed options to what a run needs: the board, the
 * schedule, the limits, the command that resumes it.
 *
 * The openings file is read and checked here, before any game, so that a
 * bad line is one clear message (FILE:LINE) with exit status 2 instead of
 * a surprise mid-run. (The bots' programs were looked up by the option
 * parsing already: tx_options_cli.) The run's sandbox is configured here
 * too (sandbox.h), once, after every check of the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox.h"
#include "setup.h"

/* Reads a whole file of at most 64 MiB into a malloc'ed buffer. */
static int read_file(const char *path, char **ret_text, size_t *ret_len)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -errno;
    size_t cap = 4096, len = 0, n;
    char *text = malloc(cap);
    int rc = 0;
    while (text && (n = fread(text + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len < cap)
            continue;
        char *grown = cap < (64u << 20) ? realloc(text, cap * 2) : NULL;
        if (!grown) {
            rc = -EFBIG;
            break;
        }
        text = grown;
        cap *= 2;
    }
    if (!text)
        rc = -ENOMEM;
    else if (ferror(f))
        rc = -EIO;
    fclose(f);
    if (rc < 0) {
        free(text);
        return rc;
    }
    *ret_text = text;
    *ret_len = len;
    return 0;
}

/* The command as typed, for a shell: program, then the subcommand's words. */
static void resume_command(const char *program, int argc, char **argv, char *buf, size_t cap)
{
    char **words = calloc((size_t)argc + 1, sizeof *words);
    bool ok = words != NULL;
    if (ok) {
        words[0] = (char *)program;
        memcpy(words + 1, argv, (size_t)argc * sizeof *words);
        ok = tx_options_shell_command(argc + 1, words, buf, cap);
    }
    if (!ok)
        snprintf(buf, cap, "(the same command again)");
    free(words);
}

int tx_setup_new(const struct tx_options *o, int64_t games, const char *program, int argc,
                 char **argv, struct tx_setup **ret, char *err, size_t errcap)
{
    struct tx_setup *run = calloc(1, sizeof *run);
    if (!run)
        return -ENOMEM;
    int rc = tx_geometry_init(&run->geo, o->size);
    if (rc < 0) {
        snprintf(err, errcap, "--size: cannot build a %d x %d board", o->size, o->size);
        goto error;
    }
    struct tx_schedule *s = &run->schedule;
    s->geo = &run->geo;
    s->bots = o->bots;
    s->nbots = o->nbots;
    s->seed = o->seed;
    s->games = games;
    s->openings = o->openings;
    s->shard = o->shard;
    s->shards = o->shards;
    if (o->openings_file) {
        char *text = NULL;
        size_t len = 0;
        rc = read_file(o->openings_file, &text, &len);
        if (rc < 0) {
            snprintf(err, errcap, "--openings-file: cannot read %s: %s", o->openings_file,
                     strerror(-rc));
            goto error;
        }
        rc = tx_schedule_parse_openings(&run->geo, o->openings_file, text, len, &run->lines,
                                        &s->nlines, err, errcap);
        free(text);
        if (rc < 0)
            goto error;
        s->lines = run->lines;
    }
    /* How bots are isolated, for the whole run (warns once if it cannot). */
    struct tx_sandbox_request sandbox = o->sandbox;
    sandbox.output = o->output;
    char who[64];
    snprintf(who, sizeof who, "twixt-arena %s", argc > 0 ? argv[0] : "");
    if ((rc = tx_sandbox_configure(&sandbox, who, err, errcap)) < 0)
        goto error;
    tx_match_config_init(&run->match, &run->geo);
    tx_options_apply(o, &run->match);
    resume_command(program, argc, argv, run->resume_command, sizeof run->resume_command);
    *ret = run;
    return 0;

error:
    free(run);
    return rc;
}

void tx_setup_free(struct tx_setup *run)
{
    if (run) {
        free(run->lines);
        free(run);
    }
}
