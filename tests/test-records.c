/* test-records.c - the records file under every reader and under stress
 * (referee/records.c, resume.c, the runner's file handling, and the
 * reading loops of standings and replay).
 *
 * - The reader in this process: each shape of file gives the items, line
 *   numbers and byte ranges documented in records.h.
 * - The shapes table through every reader of the program: resume (`play`
 *   on the file), `standings` and `replay` read the same records and name
 *   the same FILE:LINE, and resume changes nothing it refuses.
 * - Issue 16's table: -o a device, a FIFO, a socket, a directory; the file
 *   removed, moved or replaced mid-run; conflicting records of one game; a
 *   full disk (a small tmpfs, when this process may mount one); after each,
 *   resuming ends with every game recorded exactly once.
 * - Two runs on one file (flock), and every output checked (/dev/full,
 *   a closed pipe).
 *
 * The program is run as a child (TX_BUILD_DIR/referee/twixt-arena) with
 * tests/tiny-bot, whose games take milliseconds; Check timeouts bound each
 * case, and assertions are on exit statuses, messages and file contents.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "arena-test.h"
#include "game.h"
#include "output.h"
#include "record.h"
#include "records.h"

extern char **environ;

#define BASE_GAMES 4  /* games in base.jsonl, the records every shape is made of */
#define MAX_GAMES 512 /* game numbers: a resumed run leaves gaps */

static char arena[1024], tiny[1024], suite_dir[256], *base_lines[BASE_GAMES];
static char tmpdir[512];
static char bot_a[1200], bot_b[1200];

/* ---- running the program ---- */

struct result {
    int status; /* waitpid status */
    char out[1 << 16], err[1 << 16];
};

/* The start of a file (all that fits in cap) into buf. */
static void slurp(const char *path, char *buf, size_t cap)
{
    char *text = tx_test_read_file(path);
    snprintf(buf, cap, "%s", text);
    free(text);
}

/* Runs twixt-arena ARGS... (NULL-terminated) to completion; stdin from
 * /dev/null. */
static void run(struct result *res, const char *arg, ...)
{
    char *argv[40];
    int argc = 0;
    va_list ap;
    argv[argc++] = arena;
    va_start(ap, arg);
    for (const char *a = arg; a && argc < 39; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;

    char out[1024], err[1024];
    snprintf(out, sizeof out, "%s/run.out", tmpdir);
    snprintf(err, sizeof err, "%s/run.err", tmpdir);
    res->status = tx_test_wait(tx_test_spawn(argv, out, err));
    slurp(out, res->out, sizeof res->out);
    slurp(err, res->err, sizeof res->err);
}

static int exit_status(const struct result *res)
{
    ck_assert_msg(WIFEXITED(res->status), "not exited: status %d\n%s", res->status, res->err);
    return WEXITSTATUS(res->status);
}

/* Starts twixt-arena in the background, stdout and stderr to files. */
static pid_t spawn(const char *name, char **args)
{
    char *argv[40];
    int argc = 0;
    argv[argc++] = arena;
    for (int i = 0; args[i]; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    char out[1024], err[1024];
    snprintf(out, sizeof out, "%s/%s.out", tmpdir, name);
    snprintf(err, sizeof err, "%s/%s.err", tmpdir, name);
    return tx_test_spawn(argv, out, err);
}

static char *path_in(const char *dir, const char *name)
{
    static char bufs[8][1024];
    static int k;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", dir); /* dir may be an earlier buffer */
    k = (k + 1) % 8;
    snprintf(bufs[k], sizeof bufs[k], "%s/%s", copy, name);
    return bufs[k];
}

static char *tmp(const char *name)
{
    return path_in(tmpdir, name);
}

static void write_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* The whole file, malloc'ed; *len its length. */
static char *contents(const char *path, size_t *len)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* Reads path with the records reader: every item must be a record; counts
 * the finished (not interrupted) records of each game index. Returns the
 * number of records. */
static int count_games(const char *path, int counts[MAX_GAMES + 1])
{
    struct tx_records_reader rd;
    char err[1024];
    int n = 0, item;
    memset(counts, 0, sizeof(int) * (MAX_GAMES + 1));
    ck_assert_msg(tx_records_open(&rd, path, err, sizeof err) == 0, "%s", err);
    struct tx_record r;
    while ((item = tx_records_next(&rd, &r, err, sizeof err)) == TX_RECORDS_RECORD) {
        ck_assert_int_ge(r.game, 1);
        ck_assert_int_le(r.game, MAX_GAMES);
        if (r.result.reason != TX_REASON_INTERRUPTED)
            counts[r.game]++;
        n++;
        tx_record_free(&r);
    }
    ck_assert_msg(item == TX_RECORDS_END, "%s: %s", path, err);
    tx_records_close(&rd);
    return n;
}

/* The run's games are in the file exactly once each (a game is its
 * pairing and k: pairing.h), `games` of them, under numbers used once each
 * (a game killed in flight leaves its number unused: numbers may skip). */
static void assert_each_game_once(const char *path, int games)
{
    static char ids[MAX_GAMES][64];
    int counts[MAX_GAMES + 1], n = 0, item;
    count_games(path, counts);
    for (int g = 1; g <= MAX_GAMES; g++)
        ck_assert_msg(counts[g] <= 1, "%s: number %d used %d times", path, g, counts[g]);
    struct tx_records_reader rd;
    char err[1024];
    ck_assert_msg(tx_records_open(&rd, path, err, sizeof err) == 0, "%s", err);
    struct tx_record r;
    while ((item = tx_records_next(&rd, &r, err, sizeof err)) == TX_RECORDS_RECORD) {
        if (r.result.reason != TX_REASON_INTERRUPTED) {
            ck_assert_ptr_nonnull(r.pairing.key);
            ck_assert_int_lt(n, MAX_GAMES);
            snprintf(ids[n], sizeof ids[n], "%s %lld", r.pairing.key, (long long)r.pairing.k);
            for (int i = 0; i < n; i++)
                ck_assert_msg(strcmp(ids[i], ids[n]), "%s: game %s recorded twice", path, ids[n]);
            n++;
        }
        tx_record_free(&r);
    }
    tx_records_close(&rd);
    ck_assert_msg(n == games, "%s: %d games, expected %d", path, n, games);
}

/* line without its hash chain (chain.h), as a record of an older
 * twixt-arena: files joined with cat break the chain where they meet, and
 * the cases that join files test what comes after the chain. */
static void unchain(char *line)
{
    char *at = strstr(line, ",\"chain\":{");
    if (at)
        strcpy(at, "}");
}

/* line as a record written before pairings: no chain, no pairing, a run
 * fingerprint ending in digit (different ones are different runs). */
static char *as_older_record(const char *line, int digit)
{
    char *copy = strdup(line);
    unchain(copy);
    char *pairing = strstr(copy, ",\"pairing\":{"), *players = strstr(copy, ",\"players\":");
    ck_assert(pairing && players && pairing < players);
    char run[64];
    snprintf(run, sizeof run, ",\"run\":\"v1:%016x\"", digit);
    size_t head = (size_t)(pairing - copy);
    char *out = malloc(strlen(copy) + sizeof run);
    memcpy(out, copy, head);
    strcpy(out + head, run);
    strcat(out, players);
    free(copy);
    return out;
}

static int lines_of(const char *path)
{
    size_t len;
    char *text = contents(path, &len);
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    free(text);
    return n;
}

/* ---- fixtures ---- */

static void suite_setup(void)
{
    tx_test_build_path(arena, sizeof arena, "referee/twixt-arena");
    tx_test_build_path(tiny, sizeof tiny, "tests/tiny-bot");
    snprintf(bot_a, sizeof bot_a, "a=%s --seed {seed}", tiny);
    snprintf(bot_b, sizeof bot_b, "b=%s --seed {seed}", tiny);
    tx_test_make_tmpdir(suite_dir, sizeof suite_dir, "tx-records");
    snprintf(tmpdir, sizeof tmpdir, "%s", suite_dir);

    /* The records every shape is made of: a real run's. */
    struct result *res = malloc(sizeof *res);
    char games[8];
    snprintf(games, sizeof games, "%d", BASE_GAMES);
    run(res, "play", bot_a, bot_b, "--games", games, "--concurrency", "1", "--turn-ms", "2000",
        "-o", path_in(suite_dir, "base.jsonl"), NULL);
    ck_assert_msg(exit_status(res) == 0, "%s", res->err);
    free(res);
    FILE *f = fopen(path_in(suite_dir, "base.jsonl"), "r");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < BASE_GAMES; i++) {
        size_t cap = 0;
        base_lines[i] = NULL;
        ck_assert_int_gt(getline(&base_lines[i], &cap, f), 0);
        base_lines[i][strcspn(base_lines[i], "\n")] = '\0';
        /* --concurrency 1: line i is game i + 1 */
        char game[32];
        snprintf(game, sizeof game, "\"game\":%d,", i + 1);
        ck_assert_ptr_nonnull(strstr(base_lines[i], game));
    }
    fclose(f);
}

static void suite_teardown(void)
{
    tx_test_remove_tree(suite_dir);
    for (int i = 0; i < BASE_GAMES; i++)
        free(base_lines[i]);
}

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/case-XXXXXX", suite_dir);
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    umount2(tmp("small"), MNT_DETACH); /* a full-disk case that failed midway */
    tx_test_remove_tree(tmpdir);
}

/* ---- the shapes of a records file ---- */

/* A file written from a template: '1' to '4' are the base records (no
 * newline), 't' the first 150 bytes of record 4 (a torn write), 'm' the
 * first 150 bytes of record 2, 'L' a line of TX_RECORDS_LINE_MAX + 10 bytes starting
 * with '{', 'N' "my notes", 'H' the start of an HTML page (several lines),
 * 'j' a JSON object that is not a record; other characters as they are. */
static char *build_shape(const char *tpl, size_t *ret_len)
{
    size_t cap = TX_RECORDS_LINE_MAX + 100000, n = 0;
    char *buf = malloc(cap);
    for (const char *c = tpl; *c; c++) {
        const char *piece = NULL;
        char one[2] = {*c, '\0'};
        size_t len;
        switch (*c) {
        case '1':
        case '2':
        case '3':
        case '4':
            piece = base_lines[*c - '1'];
            break;
        case 't':
        case 'm':
            piece = base_lines[*c == 't' ? 3 : 1];
            len = 150;
            memcpy(buf + n, piece, len);
            n += len;
            continue;
        case 'L':
            buf[n++] = '{';
            memset(buf + n, 'x', TX_RECORDS_LINE_MAX + 9);
            n += TX_RECORDS_LINE_MAX + 9;
            continue;
        case 'N':
            piece = "my notes";
            break;
        case 'H':
            piece = "<!DOCTYPE html>\n<html>\n<head><title>x</title></head>\n<body>\n</body>\n"
                    "</html>";
            break;
        case 'j':
            piece = "{\"name\": \"not a record\"}";
            break;
        default:
            piece = one;
        }
        len = strlen(piece);
        memcpy(buf + n, piece, len);
        n += len;
    }
    *ret_len = n;
    return buf;
}

enum kind { CLEAN, TORN, INVALID, NOT_RECORDS, EMPTY };

static const struct shape {
    const char *name;
    const char *tpl;
    enum kind kind;
    int records; /* records every reader reads (with --skip-invalid for INVALID) */
    int line;    /* the line of the problem */
    const char *problem;
} shapes[] = {
    {"clean", "1\n2\n3\n4\n", CLEAN, 4, 0, NULL},
    {"blank lines", "\n1\n\n2\n\n\n3\n4\n\n", CLEAN, 4, 0, NULL},
    {"whitespace lines", "1\n  \t \n2\n \r\n3\n\t\n4\n", CLEAN, 4, 0, NULL},
    {"CRLF", "1\r\n2\r\n3\r\n4\r\n", CLEAN, 4, 0, NULL},
    {"no newline at the end", "1\n2\n3\n4", CLEAN, 4, 0, NULL},
    {"torn last line", "1\n2\n3\nt", TORN, 3, 4, "the last line is a record cut short"},
    {"torn last line after blank lines", "1\n2\n\n3\n\nt", TORN, 3, 6,
     "the last line is a record cut short"},
    {"torn middle line", "1\nm\n3\n4\n", INVALID, 3, 2,
     "not a game record: invalid JSON: the text ends early"},
    {"a line over the cap", "1\nL\n3\n4\n", INVALID, 3, 2,
     "not a game record: the line is longer than 16 MiB"},
    {"a JSON line that is not a record", "1\n2\nj\n4\n", INVALID, 3, 3, "not a game record: "},
    {"a note first", "N\n1\n2\n3\n4\n", NOT_RECORDS, 0, 1,
     "not a game record: the file starts with \"my notes\""},
    {"a note without a newline", "N", NOT_RECORDS, 0, 1,
     "not a game record: the file starts with \"my notes\""},
    {"an HTML file", "H\n", NOT_RECORDS, 0, 1,
     "not a game record: the file starts with \"<!DOCTYPE html>\""},
    {"empty", "", EMPTY, 0, 0, NULL},
    {"only blank lines", "\n  \n\r\n\n", EMPTY, 0, 0, NULL},
};

/* The reader in this process: items, lines and byte ranges. */
START_TEST(records_reader_shapes)
{
    const struct shape *sh = &shapes[_i];
    size_t len;
    char *bytes = build_shape(sh->tpl, &len);
    write_bytes(tmp("shape.jsonl"), bytes, len);

    struct tx_records_reader rd;
    struct tx_record r;
    char err[1024];
    int records = 0, item, last = -1;
    ck_assert_int_eq(tx_records_open(&rd, tmp("shape.jsonl"), err, sizeof err), 0);
    while ((item = tx_records_next(&rd, &r, err, sizeof err)) != TX_RECORDS_END) {
        ck_assert_int_ge(item, 0);
        /* The range is the line's bytes in the file. */
        ck_assert_int_le(rd.end, (int64_t)len);
        ck_assert(rd.start < rd.end);
        ck_assert(rd.terminated == (bytes[rd.end - 1] == '\n'));
        if (item == TX_RECORDS_RECORD) {
            /* the records are those of the template's digits, in order */
            const char *digit = sh->tpl;
            for (int k = 0; k <= records; digit++)
                k += *digit >= '1' && *digit <= '4';
            ck_assert_int_eq(r.game, digit[-1] - '0');
            records++;
            tx_record_free(&r);
            continue;
        }
        last = item;
        ck_assert_int_eq(rd.line, sh->line);
        char want[600];
        snprintf(want, sizeof want, "%s:%d: %s", tmp("shape.jsonl"), sh->line, sh->problem);
        ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: got %s, want %s", sh->name, err,
                      want);
    }
    tx_records_close(&rd);
    ck_assert_int_eq(records, sh->records);
    int want_item = sh->kind == TORN          ? TX_RECORDS_TORN
                    : sh->kind == INVALID     ? TX_RECORDS_INVALID
                    : sh->kind == NOT_RECORDS ? TX_RECORDS_NOT_RECORDS
                                              : -1;
    ck_assert_int_eq(last, want_item);
    free(bytes);
}
END_TEST

/* How many games the standings counted ("2 bots, N games ..."), or -1. */
static int standings_games(const char *out)
{
    int bots, games;
    return sscanf(out, "%d bots, %d games", &bots, &games) == 2 ? games : -1;
}

/* How many records replay found to verify ("FILE: N records, K ok, ..."). */
static int replay_ok(const char *out)
{
    const char *at = strstr(out, " records, ");
    if (!at)
        at = strstr(out, " record, ");
    int ok;
    return at && sscanf(strchr(at + 1, ',') + 2, "%d ok", &ok) == 1 ? ok : -1;
}

/* How many games resume found in the file ("(resuming: N games ..."). */
static int resumed(const char *out)
{
    int n;
    const char *at = strstr(out, "(resuming: ");
    return at && sscanf(at, "(resuming: %d games", &n) == 1 ? n : 0;
}

/* Every reader of the program on one shape: the same records, the same
 * FILE:LINE, and resume changes nothing it refuses. */
START_TEST(records_every_reader_reads_a_shape_alike)
{
    const struct shape *sh = &shapes[_i];
    const char *file = tmp("shape.jsonl");
    size_t len;
    char *bytes = build_shape(sh->tpl, &len);
    struct result *res = malloc(sizeof *res);
    char want[600] = "";
    if (sh->problem)
        snprintf(want, sizeof want, "%s:%d: %s", file, sh->line, sh->problem);

    for (int skip = 0; skip < 2; skip++) {
        const char *skip_opt = skip ? "--skip-invalid" : NULL;
        write_bytes(file, bytes, len);
        unlink(tmp("shape.jsonl.rejected"));

        /* standings */
        run(res, "standings", file, skip_opt, NULL);
        int st = exit_status(res);
        if (sh->kind == CLEAN || sh->kind == TORN || (sh->kind == INVALID && skip)) {
            ck_assert_msg(st == 0, "%s: standings: %s", sh->name, res->err);
            ck_assert_int_eq(standings_games(res->out), sh->records);
        } else {
            ck_assert_msg(st == 2, "%s: standings exit %d", sh->name, st);
        }
        if (sh->kind == EMPTY)
            ck_assert_msg(strstr(res->err, "holds no game records"), "%s", res->err);
        if (*want)
            ck_assert_msg(strstr(res->err, want), "%s: standings said: %s", sh->name, res->err);

        /* replay */
        run(res, "replay", file, skip_opt, NULL);
        int rp = exit_status(res);
        int want_rp = sh->kind == NOT_RECORDS || sh->kind == EMPTY ? 2
                      : sh->kind == INVALID && !skip               ? 1
                                                                   : 0;
        ck_assert_msg(rp == want_rp, "%s: replay exit %d, want %d: %s %s", sh->name, rp, want_rp,
                      res->out, res->err);
        if (rp != 2)
            ck_assert_int_eq(replay_ok(res->out), sh->records);
        if (*want) {
            const char *all = strstr(res->out, want) ? res->out : res->err;
            const char *at = strstr(all, want);
            ck_assert_msg(at, "%s: replay said: %s %s", sh->name, res->out, res->err);
            ck_assert_msg(!strstr(at + strlen(want), "not a game record"),
                          "%s: more than one message: %s", sh->name, all);
        }
        if (sh->kind == EMPTY)
            ck_assert_msg(strstr(res->err, "has no game records"), "%s", res->err);

        /* resume: the same command as base.jsonl's, two games more */
        char games[8];
        snprintf(games, sizeof games, "%d", BASE_GAMES + 2);
        run(res, "play", bot_a, bot_b, "--games", games, "--turn-ms", "2000", "-o", file, skip_opt,
            NULL);
        int pl = exit_status(res);
        if (*want)
            ck_assert_msg(strstr(res->err, want), "%s: resume said: %s", sh->name, res->err);
        if (sh->kind == NOT_RECORDS || (sh->kind == INVALID && !skip)) {
            size_t after_len;
            char *after = contents(file, &after_len);
            ck_assert_msg(pl == 2, "%s: resume exit %d", sh->name, pl);
            ck_assert_msg(after_len == len && !memcmp(after, bytes, len),
                          "%s: resume changed a file it refused", sh->name);
            ck_assert_int_eq(access(tmp("shape.jsonl.rejected"), F_OK), -1);
            free(after);
            continue;
        }
        ck_assert_msg(pl == 0, "%s: resume exit %d: %s", sh->name, pl, res->err);
        ck_assert_int_eq(resumed(res->out), sh->records);
        assert_each_game_once(file, BASE_GAMES + 2);
        if (sh->kind == INVALID) {
            /* The bad line went to FILE.rejected, whole, with a newline. */
            ck_assert_int_eq(lines_of(tmp("shape.jsonl.rejected")), 1);
            ck_assert_msg(strstr(res->err, "moved to "), "%s", res->err);
        }
        if (sh->kind == TORN)
            ck_assert_msg(strstr(res->err, "removed, that game will be played again"), "%s",
                          res->err);
    }
    free(res);
    free(bytes);
}
END_TEST

/* The cap holds the largest record the referee can write: a 100 x 100
 * board full of moves, each with a 20-character message of control
 * characters (6 bytes each in JSON), both bots' 64 KiB of kept stderr
 * likewise, commands as long as one argument may be (128 KiB), also
 * escaped, every link of the board for each player, and under classic
 * rules each answer with as many link edits as its line holds
 * (TX_EDITS_MAX of the shortest, "-A1:B3", the most JSON per byte of
 * answer; the last answer may hold one more, refused for it). That record
 * takes about 150 MB to build, so it is measured in two steps: the record
 * without edits, then what one answer's edits add, times the moves. */
START_TEST(records_cap_holds_the_largest_record)
{
    const int side = TX_SIDE_MAX;
    struct tx_record r = {0};
    char msg[21], *err_text = malloc(65537), *command = malloc(131073);
    memset(msg, 1, 20);
    msg[20] = '\0';
    memset(err_text, 1, 65536);
    err_text[65536] = '\0';
    memset(command, 1, 131072);
    command[131072] = '\0';
    r.format = tx_strdup(TX_RECORD_FORMAT);
    r.game = INT64_C(1000000000);
    r.seed = UINT64_C(9007199254740991);
    r.width = r.height = side;
    r.rules = TX_RULES_CLASSIC;
    r.limits.first_turn_ms = r.limits.turn_ms = r.limits.margin_ms = 3600000;
    r.referee = tx_strdup("twixt-arena 0.1.0");
    r.started = tx_strdup("2026-11-21T21:00:00Z");
    r.run = tx_strdup("v1:0123456789abcdef");
    r.nmoves = tx_record_moves_max(side, side);
    r.moves = calloc((size_t)r.nmoves, sizeof *r.moves);
    for (int i = 0; i < r.nmoves; i++) {
        r.moves[i].player = i % 2;
        r.moves[i].move = tx_strdup("CV100");
        r.moves[i].us = INT64_C(3600000000);
        r.moves[i].message = tx_strdup(msg);
        r.moves[i].message_cut = true;
    }
    r.moves[0].stderr_text = tx_strdup(err_text);
    r.moves[1].stderr_text = tx_strdup(err_text);
    for (int p = 0; p < 2; p++) {
        r.players[p].name =
            tx_strdup("a-name-of-sixty-three-bytes-a-name-of-sixty-three-bytes-abcdefg");
        r.players[p].command = tx_strdup(command);
        r.players[p].sha256 =
            tx_strdup("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        r.players[p].nlinks = tx_record_links_max(side, side);
        r.players[p].links = calloc((size_t)r.players[p].nlinks, sizeof *r.players[p].links);
        for (int k = 0; k < r.players[p].nlinks; k++)
            snprintf(r.players[p].links[k], sizeof r.players[p].links[k], "CU98 CV100");
    }
    r.result.winner = 0;
    r.result.reason = TX_REASON_TIMEOUT;
    r.result.detail = tx_strdup("answered in 3600000.0 ms, limit 3600000 ms, on a CPU ...");
    char *json;
    ck_assert_int_eq(tx_record_to_json(&r, &json), 0);
    size_t plain = strlen(json) + 1;
    free(json);
    /* One answer with every edit its line can hold. */
    r.moves[2].nedits = TX_EDITS_READ;
    r.moves[2].edits = calloc(TX_EDITS_READ, sizeof *r.moves[2].edits);
    for (int k = 0; k < TX_EDITS_READ; k++)
        snprintf(r.moves[2].edits[k], sizeof r.moves[2].edits[k], "-A1:B3");
    ck_assert_int_eq(tx_record_to_json(&r, &json), 0);
    size_t per_answer = strlen(json) + 1 - plain;
    free(json);
    size_t len = plain + per_answer * (size_t)r.nmoves;
    fprintf(stderr, "largest record: %zu bytes, %zu without edits (cap %d)\n", len, plain,
            TX_RECORDS_LINE_MAX);
    ck_assert_uint_lt(len, TX_RECORDS_LINE_MAX);
    ck_assert_uint_gt(len, TX_RECORDS_LINE_MAX / 4); /* the cap is not absurdly loose */
    free(err_text);
    free(command);
    tx_record_free(&r);
}
END_TEST

/* Resuming base.jsonl with one option changed: refused before any game,
 * naming the option with the file's value and the command's. */
static const struct {
    const char *option, *value; /* value NULL: a flag */
    const char *words;
} differences[] = {
    {"--soft-timeouts", NULL, "(--soft-timeouts: off in the file, on in this command)"},
    {"--turn-ms", "2500", "(--turn-ms: 2000 in the file, 2500 in this command)"},
    {"--first-turn-ms", "900", "(--first-turn-ms: 1000 in the file, 900 in this command)"},
    {"--time-margin-ms", "5", "(--time-margin-ms: 0 in the file, 5 in this command)"},
    {"--size", "10", "(--size: 12 in the file, 10 in this command)"},
    {"--seed", "7", "(--seed: 1 in the file, 7 in this command)"},
    {"--openings", "2", "(--openings: 0 in the file, 2 in this command)"},
    /* each bot's memory limit is in its records (pairing.bots): a bot */
    {"--bot-memory-mb", "500",
     "bot 'a': its memory limit is now 500 MB, the file's games were played with 768 MB"},
};

START_TEST(records_resume_names_the_option_that_differs)
{
    const char *file = tmp("run.jsonl");
    size_t len;
    char *bytes = contents(path_in(suite_dir, "base.jsonl"), &len);
    write_bytes(file, bytes, len);
    struct result *res = malloc(sizeof *res);
    run(res, "play", bot_a, bot_b, "--games", "6", "--turn-ms", "2000", "-o", file,
        differences[_i].option, differences[_i].value, NULL);
    ck_assert_int_eq(exit_status(res), 2);
    ck_assert_msg(strstr(res->err, "run.jsonl:1: "), "%s", res->err);
    if (differences[_i].words[0] == '(')
        ck_assert_msg(strstr(res->err, "this file holds games played under other terms "), "%s",
                      res->err);
    ck_assert_msg(strstr(res->err, differences[_i].words), "%s", res->err);
    ck_assert_msg(!strstr(res->out, "game "), "%s", res->out);
    size_t after_len;
    char *after = contents(file, &after_len);
    ck_assert(after_len == len && !memcmp(after, bytes, len));
    free(after);
    free(bytes);
    free(res);
}
END_TEST

/* ---- -o safety (issue 16) ---- */

/* -o that is not a regular file: refused before any game, exit 2. */
static const struct {
    const char *name;
    const char *path; /* NULL: made by the case in tmpdir */
    const char *words;
} not_files[] = {
    {"/dev/null", "/dev/null", "/dev/null is a character device: -o takes a regular file"},
    {"/dev/full", "/dev/full", "/dev/full is a character device: -o takes a regular file"},
    {"a FIFO", NULL, "is a FIFO (named pipe): -o takes a regular file"},
    {"a socket", NULL, "is a socket: -o takes a regular file"},
    {"a directory", NULL, "is a directory: -o takes a regular file"},
    {"a missing directory", NULL, "cannot open: No such file or directory"},
};

START_TEST(records_output_must_be_a_regular_file)
{
    char path[600];
    int sock = -1;
    if (not_files[_i].path) {
        snprintf(path, sizeof path, "%s", not_files[_i].path);
    } else if (_i == 2) {
        snprintf(path, sizeof path, "%s", tmp("fifo"));
        ck_assert_int_eq(mkfifo(path, 0644), 0);
    } else if (_i == 3) {
        struct sockaddr_un addr = {.sun_family = AF_UNIX};
        snprintf(path, sizeof path, "%s", tmp("sock"));
        ck_assert_uint_lt(strlen(path), sizeof addr.sun_path);
        memcpy(addr.sun_path, path, strlen(path) + 1);
        sock = socket(AF_UNIX, SOCK_STREAM, 0);
        ck_assert_int_ge(sock, 0);
        ck_assert_int_eq(bind(sock, (struct sockaddr *)&addr, sizeof addr), 0);
    } else if (_i == 4) {
        snprintf(path, sizeof path, "%s", tmp("dir"));
        ck_assert_int_eq(mkdir(path, 0755), 0);
    } else {
        snprintf(path, sizeof path, "%s", tmp("no-such-dir/run.jsonl"));
    }
    struct result *res = malloc(sizeof *res);
    run(res, "tournament", bot_a, bot_b, "-o", path, NULL);
    ck_assert_int_eq(exit_status(res), 2);
    ck_assert_msg(strstr(res->err, not_files[_i].words), "%s: %s", not_files[_i].name, res->err);
    ck_assert_msg(!strstr(res->out, "games"), "%s: games were played: %s", not_files[_i].name,
                  res->out);
    if (sock >= 0)
        close(sock);
    free(res);
}
END_TEST

/* A tournament slow enough to act on while it runs: 40 games of bots
 * thinking 5 ms a move, two at a time. */
static pid_t spawn_slow(const char *name, const char *output)
{
    static char a[1200], b[1200];
    snprintf(a, sizeof a, "a=%s --seed {seed} --think-ms 5", tiny);
    snprintf(b, sizeof b, "b=%s --seed {seed} --think-ms 5", tiny);
    char *args[] = {(char *)"tournament",
                    a,
                    b,
                    (char *)"--games-per-pair",
                    (char *)"40",
                    (char *)"--concurrency",
                    (char *)"2",
                    (char *)"--turn-ms",
                    (char *)"3000",
                    (char *)"-o",
                    (char *)output,
                    NULL};
    return spawn(name, args);
}

/* Waits until the file holds at least n lines (the run is under way). */
static void wait_for_lines(const char *path, int n)
{
    for (int i = 0; i < 3000; i++) {
        struct stat st;
        if (stat(path, &st) == 0 && st.st_size > 0 && lines_of(path) >= n)
            return;
        tx_test_sleep_ms(10);
    }
    ck_abort_msg("%s never got %d lines", path, n);
}

/* "N games are saved in FILE" (or "1 game is"): N, and FILE into where. */
static int saved_games(const char *err, char *where, size_t cap)
{
    const char *at = strstr(err, "; ");
    int n = -1;
    char file[512] = "";
    for (at = err; (at = strstr(at, "stopped; ")); at++)
        if (sscanf(at, "stopped; %d %*s %*s saved in %511[^,],", &n, file) == 2)
            break;
    snprintf(where, cap, "%s", file);
    return n;
}

/* After a stop, resuming from where the records are plays the rest:
 * every game exactly once, none lost, none twice. */
static void resume_to_the_end(const char *path)
{
    struct result *res = malloc(sizeof *res);
    char a[1200], b[1200];
    snprintf(a, sizeof a, "a=%s --seed {seed} --think-ms 5", tiny);
    snprintf(b, sizeof b, "b=%s --seed {seed} --think-ms 5", tiny);
    run(res, "tournament", a, b, "--games-per-pair", "40", "--concurrency", "2", "--turn-ms",
        "3000", "-o", path, NULL);
    ck_assert_msg(exit_status(res) == 0, "%s", res->err);
    assert_each_game_once(path, 40);
    free(res);
}

/* What is done to the file while the run writes it. */
enum mishap { REMOVE, MOVE, REPLACE };

static void file_changes_mid_run(enum mishap what)
{
    const char *file = tmp("run.jsonl");
    char err[1 << 14], where[512], text[1 << 14];
    pid_t pid = spawn_slow("slow", file);
    wait_for_lines(file, 2);
    if (what == MOVE)
        ck_assert_int_eq(rename(file, tmp("moved.jsonl")), 0);
    else
        ck_assert_int_eq(unlink(file), 0);
    if (what == REPLACE)
        write_bytes(file, "someone else's file\n", 20);
    ck_assert_int_eq(tx_test_exit_status(pid), 2);
    slurp(tmp("slow.err"), err, sizeof err);
    slurp(tmp("slow.out"), text, sizeof text);
    /* No standings as if everything were saved. */
    ck_assert_msg(!strstr(text, "Crosstable"), "%s", text);
    int saved = saved_games(err, where, sizeof where);
    ck_assert_msg(saved > 0, "%s", err);
    const char *expect = what == REMOVE ? "run.jsonl was removed while the run was writing it: "
                                          "its records were written back to "
                         : what == MOVE ? "run.jsonl was moved to "
                                        : "run.jsonl was replaced by another file while the run "
                                          "was writing it: ";
    ck_assert_msg(strstr(err, expect), "%s", err);
    ck_assert_msg(strstr(err, "resume with:") || strstr(err, "then run:"), "%s", err);
    const char *records = what == REMOVE ? file
                          : what == MOVE ? tmp("moved.jsonl")
                                         : tmp("run.jsonl.recovered");
    ck_assert_msg(strstr(where, records) || !strcmp(where, records), "saved in %s, not %s", where,
                  records);
    /* The games said to be saved are there, once each. */
    int counts[MAX_GAMES + 1], finished = 0;
    count_games(records, counts);
    for (int g = 1; g <= MAX_GAMES; g++) {
        ck_assert_int_le(counts[g], 1);
        finished += counts[g];
    }
    ck_assert_int_eq(finished, saved);
    if (what == REPLACE) {
        char other[64];
        slurp(file, other, sizeof other);
        ck_assert_str_eq(other, "someone else's file\n"); /* left alone */
        ck_assert_int_eq(unlink(file), 0);
    }
    if (what != REMOVE)
        ck_assert_int_eq(rename(records, file), 0);
    resume_to_the_end(file);
}

START_TEST(records_file_removed_mid_run)
{
    file_changes_mid_run(REMOVE);
}
END_TEST

START_TEST(records_file_moved_mid_run)
{
    file_changes_mid_run(MOVE);
}
END_TEST

START_TEST(records_file_replaced_mid_run)
{
    file_changes_mid_run(REPLACE);
}
END_TEST

/* Two runs, one file: the second is refused while the first runs, with
 * the first one's process named. */
START_TEST(records_second_writer_is_refused)
{
    const char *file = tmp("run.jsonl");
    pid_t pid = spawn_slow("first", file);
    wait_for_lines(file, 1);
    struct result *res = malloc(sizeof *res);
    run(res, "tournament", bot_a, bot_b, "-o", file, NULL);
    ck_assert_int_eq(exit_status(res), 2);
    char want[128];
    snprintf(want, sizeof want,
             "run.jsonl is being written by another run (process %ld: ", (long)pid);
    ck_assert_msg(strstr(res->err, want), "%s", res->err);
    ck_assert_msg(strstr(res->err, "wait for it to end, or write to another -o FILE"), "%s",
                  res->err);
    kill(pid, SIGINT);
    ck_assert_int_eq(tx_test_exit_status(pid), 130);
    resume_to_the_end(file);
    free(res);
}
END_TEST

/* Two runs with the same fingerprint but bots that play differently (a
 * wrapper reads its seed from a file whose contents the fingerprint cannot
 * see): what two runs writing one file used to leave behind. The wrapper's
 * command names the file and tiny-bot, so that the sandbox shows them to it
 * (its private /tmp covers unnamed files; the opponent's program is hidden
 * unless this bot's command names it too). */
START_TEST(records_conflicting_duplicates)
{
    const char *script = "exec \"$1\" --seed \"$(cat \"$2\")$3\"\n";
    char bot[2400];
    write_bytes(tmp("bot.sh"), script, strlen(script));
    snprintf(bot, sizeof bot, "x=sh %s %s %s {seed}", tmp("bot.sh"), tiny, tmp("salt"));
    struct result *res = malloc(sizeof *res);
    for (int k = 1; k <= 2; k++) {
        char salt[8], name[32];
        snprintf(salt, sizeof salt, "%d", k);
        snprintf(name, sizeof name, "run%d.jsonl", k);
        write_bytes(tmp("salt"), salt, 1);
        run(res, "play", bot, bot_b, "--games", "2", "--concurrency", "1", "-o", tmp(name), NULL);
        ck_assert_msg(exit_status(res) == 0, "%s", res->err);
    }
    /* Joined with cat, files break their chains where they meet (chain.h);
     * without their chains they test the duplicates alone. */
    for (int k = 1; k <= 2; k++) {
        char name[32], *lines[8], *text;
        snprintf(name, sizeof name, "run%d.jsonl", k);
        text = contents(tmp(name), NULL);
        int n = 0;
        for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 8;
             l = strtok_r(NULL, "\n", &save))
            unchain(lines[n++] = l);
        FILE *f = fopen(tmp(name), "w");
        for (int i = 0; i < n; i++)
            fprintf(f, "%s\n", lines[i]);
        fclose(f);
        free(text);
    }
    size_t l1, l2;
    char *one = contents(tmp("run1.jsonl"), &l1), *two = contents(tmp("run2.jsonl"), &l2);
    char *both = malloc(l1 + l2), *same = malloc(2 * l1);
    memcpy(both, one, l1);
    memcpy(both + l1, two, l2);
    memcpy(same, one, l1);
    memcpy(same + l1, one, l1);
    write_bytes(tmp("both.jsonl"), both, l1 + l2);
    write_bytes(tmp("same.jsonl"), same, 2 * l1);

    /* Identical duplicates: a warning. */
    run(res, "standings", tmp("same.jsonl"), NULL);
    ck_assert_int_eq(exit_status(res), 0);
    ck_assert_msg(strstr(res->err, "same.jsonl:3: game 1 ") &&
                      strstr(res->err, "already counted (the same game as "),
                  "%s", res->err);
    ck_assert_int_eq(standings_games(res->out), 2);
    run(res, "replay", tmp("same.jsonl"), NULL);
    ck_assert_int_eq(exit_status(res), 0);
    ck_assert_msg(strstr(res->err, "same.jsonl:3: game 1 is recorded again"), "%s", res->err);

    /* Different records of one game: an error naming both lines. */
    char want[700];
    snprintf(want, sizeof want, "both.jsonl:3: game 1 ");
    run(res, "standings", tmp("both.jsonl"), NULL);
    ck_assert_int_eq(exit_status(res), 2);
    ck_assert_msg(strstr(res->err, want), "%s", res->err);
    snprintf(want, sizeof want, "is also recorded on %s:1, and the two differ in the ",
             tmp("both.jsonl"));
    ck_assert_msg(strstr(res->err, want), "%s", res->err);
    run(res, "standings", "--skip-invalid", tmp("both.jsonl"), NULL);
    ck_assert_int_eq(exit_status(res), 0);
    ck_assert_int_eq(standings_games(res->out), 2); /* the first of each */
    run(res, "replay", tmp("both.jsonl"), NULL);
    ck_assert_int_eq(exit_status(res), 1);
    snprintf(want, sizeof want,
             "both.jsonl:3: game 1: also recorded on %s:1, and the two differ in ",
             tmp("both.jsonl"));
    ck_assert_msg(strstr(res->out, want), "%s", res->out);
    /* Resume refuses them too, and changes nothing. */
    run(res, "play", bot, bot_b, "--games", "2", "-o", tmp("both.jsonl"), NULL);
    ck_assert_int_eq(exit_status(res), 2);
    ck_assert_msg(strstr(res->err, "both.jsonl:3: game 1 is also on line 1, and the two records "
                                   "differ in "),
                  "%s", res->err);
    size_t after_len;
    char *after = contents(tmp("both.jsonl"), &after_len);
    ck_assert(after_len == l1 + l2 && !memcmp(after, both, after_len));
    free(after);
    free(one);
    free(two);
    free(both);
    free(same);
    free(res);
}
END_TEST

/* A full disk: a small tmpfs, when this process may mount one (root in
 * CI's container); otherwise the case says why it did nothing. */
START_TEST(records_full_disk_stops_like_ctrl_c)
{
    const char *dir = tmp("small");
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=48k") < 0) {
        fprintf(stderr, "records_full_disk_stops_like_ctrl_c: skipped: cannot mount a tmpfs (%s)\n",
                strerror(errno));
        return;
    }
    const char *file = path_in(dir, "run.jsonl");
    struct result *res = malloc(sizeof *res);
    for (int attempt = 0; attempt < 2; attempt++) {
        /* The second attempt resumes on the full disk: the same ending. */
        run(res, "tournament", bot_a, bot_b, "--games-per-pair", "100", "-o", file, NULL);
        ck_assert_int_eq(exit_status(res), 2);
        ck_assert_msg(strstr(res->err, "run.jsonl: No space left on device"), "%s", res->err);
        ck_assert_msg(strstr(res->err, "Once the cause is fixed, resume with:"), "%s", res->err);
        ck_assert_msg(!strstr(res->err, "killed"), "%s", res->err);
        ck_assert_msg(!strstr(res->out, "Crosstable"), "%s", res->out);
        char where[512];
        int saved = saved_games(res->err, where, sizeof where);
        ck_assert_int_gt(saved, 0);
        ck_assert_str_eq(where, file);
        /* Every line a whole record (a failed write is undone), the games
         * said to be saved there, once each. */
        size_t len;
        char *text = contents(file, &len);
        ck_assert_int_eq(text[len - 1], '\n');
        free(text);
        int counts[MAX_GAMES + 1], finished = 0;
        count_games(file, counts);
        for (int g = 1; g <= MAX_GAMES; g++) {
            ck_assert_int_le(counts[g], 1);
            finished += counts[g];
        }
        ck_assert_int_eq(finished, saved);
    }
    /* Room again: the run resumes where it stopped. */
    char copy[600];
    snprintf(copy, sizeof copy, "%s", tmp("run.jsonl"));
    size_t len;
    char *text = contents(file, &len);
    write_bytes(copy, text, len);
    free(text);
    ck_assert_int_eq(umount(dir), 0);
    run(res, "tournament", bot_a, bot_b, "--games-per-pair", "100", "-o", copy, NULL);
    ck_assert_msg(exit_status(res) == 0, "%s", res->err);
    assert_each_game_once(copy, 100);
    free(res);
}
END_TEST

/* ---- every output checked ---- */

static const struct {
    const char *what;
    const char *args[8];
} to_dev_full[] = {
    {"verify", {"replay", "@", NULL}},
    {"text", {"replay", "@", "--game", "1", "--format", "text", NULL}},
    {"svg", {"replay", "@", "--game", "1", "--format", "svg", "-o", "/dev/full"}},
    {"html", {"replay", "@", "--format", "html", "-o", "/dev/full", NULL}},
    {"standings", {"standings", "@", NULL}},
    {"standings --json", {"standings", "--json", "@", NULL}},
};

START_TEST(records_lost_output_is_not_success)
{
    char *argv[16] = {arena};
    int argc = 1;
    for (int i = 0; i < 8 && to_dev_full[_i].args[i]; i++)
        argv[argc++] = !strcmp(to_dev_full[_i].args[i], "@") ? path_in(suite_dir, "base.jsonl")
                                                             : (char *)to_dev_full[_i].args[i];
    argv[argc] = NULL;
    ck_assert_int_eq(tx_test_exit_status(tx_test_spawn(argv, "/dev/full", tmp("err"))), 2);
    char err[4096];
    slurp(tmp("err"), err, sizeof err);
    ck_assert_msg(strstr(err, ": No space left on device"), "%s: %s", to_dev_full[_i].what, err);
}
END_TEST

/* The one write loop of every file the program writes whole (the
 * dashboard, the CodinGame log, a record): everything, or the error and
 * how much got through. */
START_TEST(records_write_all_whole_or_the_error)
{
    enum { LEN = 1 << 20 };
    char *buf = malloc(LEN), *back;
    ck_assert_ptr_nonnull(buf);
    for (int i = 0; i < LEN; i++)
        buf[i] = (char)('a' + i % 26);
    int fd = open(tmp("whole"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    size_t done = 0;
    ck_assert_int_eq(tx_output_write_all(fd, buf, LEN, &done), 0);
    ck_assert_uint_eq(done, LEN);
    close(fd);
    back = tx_test_read_file(tmp("whole"));
    ck_assert_int_eq(memcmp(back, buf, LEN), 0);
    free(back);

    fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(tx_output_write_all(fd, buf, LEN, &done), -ENOSPC);
    ck_assert_uint_eq(done, 0);
    close(fd);
    ck_assert_int_eq(tx_output_write_all(-1, buf, 1, NULL), -EBADF);
    free(buf);
}
END_TEST

/* Runs twixt-arena ARGS with stdout a pipe: the reader takes `keep` bytes
 * (0: closes at once), then closes its end. Returns the wait status;
 * stderr into err. */
static int run_into_closed_pipe(char **args, size_t keep, char *err, size_t errcap)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    char *argv[16] = {arena};
    int argc = 1;
    for (int i = 0; args[i]; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    posix_spawn_file_actions_addopen(&fa, 2, tmp("err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (keep == 0)
        close(p[0]); /* no reader at all */
    pid_t pid;
    ck_assert_int_eq(posix_spawn(&pid, arena, &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (keep > 0) {
        char buf[4096];
        size_t got = 0;
        while (got < keep) {
            ssize_t n = read(p[0], buf, keep - got < sizeof buf ? keep - got : sizeof buf);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        close(p[0]);
    }
    int status = tx_test_wait(pid);
    slurp(tmp("err"), err, errcap);
    return status;
}

/* `replay ... | head -1`: quiet, and the status of a filter killed by
 * SIGPIPE. The file has 400 different games, so that the output outgrows
 * any pipe buffer. */
START_TEST(records_closed_stdout_is_quiet)
{
    FILE *f = fopen(tmp("many.jsonl"), "w");
    for (int copy = 0; copy < 100; copy++)
        for (int i = 0; i < BASE_GAMES; i++) {
            /* another run fingerprint per copy (records of an older
             * twixt-arena, identified by run and game): not duplicates */
            char *line = as_older_record(base_lines[i], copy);
            fprintf(f, "%s\n", line);
            free(line);
        }
    fclose(f);
    char err[4096];
    char *verify[] = {(char *)"replay", tmp("many.jsonl"), NULL};
    char *standings[] = {(char *)"standings", tmp("many.jsonl"), NULL};
    for (int keep = 0; keep < 2; keep++) {
        int status = run_into_closed_pipe(verify, keep ? 100 : 0, err, sizeof err);
        ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %d: %s", status,
                      err);
        ck_assert_str_eq(err, "");
    }
    int status = run_into_closed_pipe(standings, 0, err, sizeof err);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %d: %s", status, err);
    ck_assert_str_eq(err, "");
}
END_TEST

static Suite *records_suite(void)
{
    Suite *s = suite_create("records");
    int nshapes = (int)(sizeof shapes / sizeof shapes[0]);

    TCase *tc = tcase_create("reader");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, records_reader_shapes, 0, nshapes);
    tcase_add_test(tc, records_cap_holds_the_largest_record);
    suite_add_tcase(s, tc);

    tc = tcase_create("readers");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, records_every_reader_reads_a_shape_alike, 0, nshapes);
    tcase_add_loop_test(tc, records_resume_names_the_option_that_differs, 0,
                        (int)(sizeof differences / sizeof differences[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("stress");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 180);
    tcase_add_loop_test(tc, records_output_must_be_a_regular_file, 0,
                        (int)(sizeof not_files / sizeof not_files[0]));
    tcase_add_test(tc, records_file_removed_mid_run);
    tcase_add_test(tc, records_file_moved_mid_run);
    tcase_add_test(tc, records_file_replaced_mid_run);
    tcase_add_test(tc, records_second_writer_is_refused);
    tcase_add_test(tc, records_conflicting_duplicates);
    tcase_add_test(tc, records_full_disk_stops_like_ctrl_c);
    suite_add_tcase(s, tc);

    tc = tcase_create("outputs");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, records_lost_output_is_not_success, 0,
                        (int)(sizeof to_dev_full / sizeof to_dev_full[0]));
    tcase_add_test(tc, records_closed_stdout_is_quiet);
    tcase_add_test(tc, records_write_all_whole_or_the_error);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(records_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
