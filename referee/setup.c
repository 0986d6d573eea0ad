/* setup.c - from parsed options to what a run needs: the board, the
 * schedule, the limits, the command that resumes it.
 *
 * This is where play and tournament touch the file system before any game:
 * the openings file is read and checked, and every bot's program is looked
 * up, so that a typo is one clear message with exit status 2 instead of a
 * run in which every game ends in a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
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

/* True when program names an executable file, directly when it has a '/'
 * and through PATH otherwise, as execvp would find it. */
static bool executable(const char *program)
{
    struct stat st;
    if (strchr(program, '/'))
        return access(program, X_OK) == 0 && stat(program, &st) == 0 && S_ISREG(st.st_mode);
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        const char *end = strchrnul(p, ':');
        char full[4096];
        /* an empty PATH entry means the current directory */
        int n = end == p ? snprintf(full, sizeof full, "./%s", program)
                         : snprintf(full, sizeof full, "%.*s/%s", (int)(end - p), p, program);
        if (n > 0 && (size_t)n < sizeof full && access(full, X_OK) == 0 && stat(full, &st) == 0 &&
            S_ISREG(st.st_mode))
            return true;
        if (*end == '\0')
            return false;
        p = end;
    }
}

/* A bot whose program cannot be found would lose every game by crash:
 * that is a typo in the command line, said once, up front (exit 2). */
static int check_programs(const struct tx_options *o, char *err, size_t errcap)
{
    for (int i = 0; i < o->nbots; i++) {
        char *line = tx_command_expand(o->bots[i].command, 1, o->size);
        char **words;
        int nwords;
        char why[128];
        int rc = tx_command_split(line, &words, &nwords, why, sizeof why);
        if (rc < 0) {
            snprintf(err, errcap, "BOT '%s': %s", o->bots[i].name, why);
        } else {
            if (!executable(words[0])) {
                snprintf(err, errcap, "BOT '%s': cannot run '%s': %s", o->bots[i].name, words[0],
                         strchr(words[0], '/') ? "no such executable file" : "not found in PATH");
                rc = -ENOENT;
            }
            tx_command_free(words);
        }
        free(line);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int tx_setup_new(const struct tx_options *o, int64_t games, int argc, char **argv,
                 struct tx_setup **ret, char *err, size_t errcap)
{
    int rc = check_programs(o, err, errcap);
    if (rc < 0)
        return rc;
    /* How bots are isolated, for the whole run (warns once if it cannot). */
    struct tx_sandbox_request sandbox = o->sandbox;
    sandbox.output = o->output;
    char who[64];
    snprintf(who, sizeof who, "twixt-arena %s", argc > 1 ? argv[1] : "");
    if ((rc = tx_sandbox_configure(&sandbox, who, err, errcap)) < 0)
        return rc;
    struct tx_setup *run = calloc(1, sizeof *run);
    if (!run)
        return -ENOMEM;
    rc = tx_geometry_init(&run->geo, o->size);
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
    tx_match_config_init(&run->match, &run->geo);
    tx_options_apply(o, &run->match);
    if (!tx_options_shell_command(argc, argv, run->resume_command, sizeof run->resume_command))
        snprintf(run->resume_command, sizeof run->resume_command, "(the same command again)");
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
