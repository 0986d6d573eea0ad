/* cmd-referee.c - `twixt-arena referee -p1 CMD -p2 CMD [-d seed=N | -seed N]
 * [-l LOG] [--format scores|psyleague|cgarena] [-o FILE] [game options]`:
 * one game under the contract of a CodinGame referee jar, as brutaltester,
 * psyleague and cgarena (through their play_game scripts) run one.
 *
 * The contract, from those tools' sources: the bots come as -p1 and -p2,
 * one argument each; the seed as -d seed=N (brutaltester) or -seed N
 * (cgarena's jar; N may be negative); -l FILE asks for the SDK's game log.
 * Stdout holds one score per player, one a line, then the game's
 * parameters (seed=N); or with --format the JSON psyleague or cgarena reads
 * (cg-formats.h). Whatever the bots do, a game that was played leaves
 * stderr empty and exits 0: a bot's crash, timeout or invalid answer is a
 * score of -1, never an error of the referee's (brutaltester reports any
 * stderr as an error; psyleague and cgarena stop the whole league on a
 * non-zero exit). So what the referee itself would warn about before the
 * game (the sandbox not available, --size without {size}) goes into the
 * log's errors.referee instead, as CodinGame's runner keeps its referee's
 * stderr; only usage errors (exit 2) and an interrupt reach stderr. A bot
 * whose sandbox the machine could not set up is no score either: the game
 * is played again, and a second such failure in a row is an error (exit
 * 2), as it stops a run (runner.h).
 *
 * The game is a game of a pool (pool.h) of the two bots, whose run seed
 * is N: its pairing's first bot is the one whose name sorts first, and it
 * is game k = 1 of that pairing when p1 is that bot, k = 2 when not. So the
 * seed decides everything random (the forced opening, {seed}), the same
 * seed and seats replay the same game, brutaltester's -s (the same seed
 * with the seats exchanged) plays the two games of one colour-exchanged
 * pair, and with -o the game is a normal record: chained, proved by
 * standings and replay. Several referees may share one -o FILE (a
 * brutaltester with -t 4): each takes the file's lock only to append its
 * record, after its game. A game the file holds already (the same seed and
 * seats, run again) is played but not recorded twice.
 *
 * A signal ignored when the referee starts stays ignored: psyleague starts
 * its games with SIGINT ignored, so that its Ctrl-C lets them finish.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "cg-formats.h"
#include "command.h"
#include "commands.h"
#include "output.h"
#include "pairing.h"
#include "records.h"
#include "runner.h"
#include "setup.h"

#define LOCK_WAIT_MS 60000          /* how long a referee waits for another's hold on -o FILE */
#define CAPTURED_MAX 65536          /* the referee's own stderr kept for the log */
#define RANDOM_SEED_MASK 0x7fffffff /* a seed drawn when none is given: a positive int */

const struct tx_options_command tx_cmd_referee_line = {
    .name = "referee",
    .id = TX_CMD_REFEREE,
    .operands = "-p1 CMD -p2 CMD",
    .operand = TX_OPERAND_BOT,
    .min_operands = 0,
    .max_operands = 0,
    .summary = "one game as a CodinGame referee plays it",
    .about = "Plays one game between the bots of -p1 and -p2, as a CodinGame referee jar\n"
             "does for brutaltester, psyleague and cgarena: one score per player on stdout\n"
             "(1 a win, 0 a loss or a draw, -1 a loss by the bot's own fault), then seed=N.\n"
             "The seed (-d seed=N or -seed N) decides the game: the same seed and seats\n"
             "replay it. -l FILE writes the CodinGame SDK's game log, each bot's stderr per\n"
             "turn in its errors. --format psyleague or cgarena prints that tool's JSON\n"
             "instead. A game that was played leaves stderr empty and exits 0, whatever the\n"
             "bots did.\n",
};

/* ---- the referee's own stderr, kept for the log ---- */

struct capture {
    int saved; /* the real stderr, or -1 when not capturing */
    int fd;    /* where fd 2 points meanwhile */
};

static void capture_start(struct capture *c)
{
    c->saved = c->fd = -1;
    fflush(stderr);
    c->fd = memfd_create("twixt-arena-referee-stderr", MFD_CLOEXEC);
    if (c->fd < 0)
        return;
    c->saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (c->saved < 0 || dup2(c->fd, STDERR_FILENO) < 0) {
        if (c->saved >= 0)
            close(c->saved);
        close(c->fd);
        c->saved = c->fd = -1;
    }
}

/* Puts stderr back; returns what was written meanwhile (malloc'ed, at
 * most CAPTURED_MAX bytes), or NULL when nothing was. */
static char *capture_end(struct capture *c)
{
    if (c->saved < 0)
        return NULL;
    fflush(stderr);
    dup2(c->saved, STDERR_FILENO);
    close(c->saved);
    c->saved = -1;
    char *text = tx_xmalloc(CAPTURED_MAX + 1);
    ssize_t n = pread(c->fd, text, CAPTURED_MAX, 0);
    close(c->fd);
    if (n <= 0) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* A usage error (or --help) while capturing: what was written goes out. */
static void capture_replay(struct capture *c)
{
    char *text = capture_end(c);
    if (text)
        fputs(text, stderr);
    free(text);
}

/* ---- the game ---- */

struct game {
    uv_signal_t sigint, sigterm;
    bool watch_int, watch_term;
    struct tx_match *match;
    struct tx_record *record; /* the finished game's */
    int signal;               /* SIGINT or SIGTERM that interrupted it, 0 if none */
    int fault;                /* the player whose sandbox could not be set up, -1 if none */
};

static void on_signal(uv_signal_t *handle, int signum)
{
    struct game *g = handle->data;
    if (!g->signal)
        g->signal = signum;
    if (g->match)
        tx_match_interrupt(g->match);
}

static void on_done(struct tx_match *match, struct tx_record *record, void *data)
{
    struct game *g = data;
    g->record = record;
    g->fault = tx_match_fault(match);
    g->match = NULL;
    if (g->watch_int)
        uv_close((uv_handle_t *)&g->sigint, NULL);
    if (g->watch_term)
        uv_close((uv_handle_t *)&g->sigterm, NULL);
}

/* A signal the referee was started with ignored (psyleague's SIGINT). */
static bool ignored(int signum)
{
    struct sigaction sa;
    return sigaction(signum, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

static int play(const struct tx_setup *run, const struct tx_game_spec *spec, struct game *g,
                char *err, size_t errcap)
{
    uv_loop_t loop;
    int rc = uv_loop_init(&loop);
    if (rc < 0) {
        snprintf(err, errcap, "cannot start: %s", uv_strerror(rc));
        return rc;
    }
    g->fault = -1;
    g->watch_int = !ignored(SIGINT);
    g->watch_term = !ignored(SIGTERM);
    uv_signal_t *handles[2] = {&g->sigint, &g->sigterm};
    bool watch[2] = {g->watch_int, g->watch_term};
    int signums[2] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++)
        if (watch[i]) {
            uv_signal_init(&loop, handles[i]);
            handles[i]->data = g;
            uv_signal_start(handles[i], on_signal, signums[i]);
        }
    rc = tx_match_start(&loop, &run->match, spec, on_done, g, &g->match);
    if (rc < 0) {
        snprintf(err, errcap, "cannot start the game%s: %s",
                 rc == -ENOENT ? " (the bot launcher twixt-launch must be next to twixt-arena)"
                               : "",
                 strerror(-rc));
        g->match = NULL;
        for (int i = 0; i < 2; i++)
            if (watch[i])
                uv_close((uv_handle_t *)handles[i], NULL);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    return rc;
}

/* ---- -o FILE, shared with other referees ---- */

/* Opens the records file, waiting while another process holds it (the
 * other referees of a brutaltester take it for an append each). */
static int open_records(struct tx_records_out *out, const char *path, char *err, size_t errcap)
{
    uint64_t deadline = uv_hrtime() + (uint64_t)LOCK_WAIT_MS * 1000000;
    for (;;) {
        int rc = tx_records_out_open(out, path, err, errcap);
        if ((rc != -EBUSY && rc != -EAGAIN) || uv_hrtime() > deadline)
            return rc;
        struct timespec pause = {0, (long)(2 + (uv_hrtime() / 1000) % 18) * 1000000};
        nanosleep(&pause, NULL);
    }
}

/* What the referee needs of its -o file before it appends. */
struct scan {
    const char *key;   /* this game's pairing */
    int64_t k;         /* and its number in it */
    int64_t last_game; /* the largest game number in the file */
    bool recorded;     /* the file holds this game, ended */
};

/* One line of the file (len bytes, no newline). The game number is read
 * where this program writes it, right after the format; only a line in
 * another shape, or one naming this game's pairing key, is loaded whole.
 * Lines that are not records are left for standings and replay to
 * report: the referee only appends. Returns false when the line does not
 * load. */
static bool scan_line(struct scan *s, const char *line, size_t len)
{
    static const char prefix[] = "{\"format\":\"" TX_RECORD_FORMAT "\",\"game\":";
    char quoted[TX_PAIRING_KEY_SIZE + 2];
    snprintf(quoted, sizeof quoted, "\"%s\"", s->key);
    bool named = memmem(line, len, quoted, strlen(quoted)) != NULL;
    size_t n = sizeof prefix - 1;
    if (!named && len > n && !memcmp(line, prefix, n) && line[n] >= '0' && line[n] <= '9') {
        int64_t game = 0;
        for (; n < len && line[n] >= '0' && line[n] <= '9' && game < TX_RECORD_GAME_MAX; n++)
            game = game * 10 + (line[n] - '0');
        if (game > s->last_game)
            s->last_game = game;
        return true;
    }
    struct tx_record r;
    char why[256];
    bool ok = tx_record_from_json(line, len, &r, why, sizeof why) == 0;
    if (ok && r.game > s->last_game)
        s->last_game = r.game;
    if (ok && r.pairing.key && !strcmp(r.pairing.key, s->key) && r.pairing.k == s->k &&
        r.result.reason != TX_REASON_INTERRUPTED)
        s->recorded = true;
    tx_record_free(&r);
    return ok;
}

/* Reads the file (mapped: a few ms for thousands of records) into s, and
 * makes its end ready for a new line: a last line without its newline
 * gets one first, or is cut off when it is a record whose write never
 * finished (its referee was killed), as resuming a run does. */
static int scan_file(struct tx_records_out *out, struct scan *s, char *err, size_t errcap)
{
    struct stat st;
    if (fstat(out->fd, &st) < 0) {
        snprintf(err, errcap, "%s: %s", out->path, strerror(errno));
        return -errno;
    }
    if (st.st_size == 0)
        return 0;
    const char *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, out->fd, 0);
    if (map == MAP_FAILED) {
        snprintf(err, errcap, "%s: cannot read: %s", out->path, strerror(errno));
        return -errno;
    }
    size_t size = (size_t)st.st_size;
    int rc = 0;
    for (size_t at = 0; at < size;) {
        const char *nl = memchr(map + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - map) : size, len = end - at;
        if (len > 0 && map[end - 1] == '\r')
            len--;
        size_t first = at;
        while (first < at + len && (map[first] == ' ' || map[first] == '\t'))
            first++;
        bool loaded = first == at + len || scan_line(s, map + at, len);
        if (!nl && !loaded && len >= strlen(TX_RECORDS_START) &&
            !memcmp(map + at, TX_RECORDS_START, strlen(TX_RECORDS_START)))
            rc = tx_records_out_cut(out, (int64_t)at);
        else if (!nl)
            out->newline_first = true;
        at = end + 1;
    }
    munmap((void *)map, size);
    if (rc < 0)
        snprintf(err, errcap, "%s: cannot cut its incomplete last line: %s", out->path,
                 strerror(-rc));
    return rc;
}

/* Appends the game's record under the file's lock, numbered after the
 * file's last game; a game the file holds already is left out. */
static int append_record(const char *path, struct tx_record *r, char *err, size_t errcap)
{
    struct tx_records_out out;
    int rc = open_records(&out, path, err, errcap);
    if (rc < 0)
        return rc;
    struct scan s = {.key = r->pairing.key, .k = r->pairing.k};
    rc = scan_file(&out, &s, err, errcap);
    if (rc == 0 && !s.recorded) {
        r->game = s.last_game + 1;
        rc = tx_records_out_append(&out, r, err, errcap);
    }
    char close_err[1024];
    int closed = tx_records_out_close(&out, close_err, sizeof close_err);
    if (rc == 0 && closed < 0) {
        snprintf(err, errcap, "%s", close_err);
        rc = closed;
    }
    return rc;
}

/* Before the game: -o FILE can be appended to. */
static int check_records(const char *path, char *err, size_t errcap)
{
    struct tx_records_out out;
    int rc = open_records(&out, path, err, errcap);
    if (rc == 0)
        rc = tx_records_out_close(&out, err, errcap);
    return rc;
}

/* ---- the outputs ---- */

/* Writes text to path whole (replacing what it held: -l names the log to
 * write, and psyleague's script hands the referee an empty file it made).
 * Returns 0 or a negative errno. */
static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0)
        return -errno;
    int rc = tx_output_write_all(fd, text, strlen(text), NULL);
    if (close(fd) < 0 && rc == 0)
        rc = -errno;
    return rc;
}

/* Before the game: the log's file can be written (not truncated yet). */
static int check_log(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return -EISDIR;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0)
        return -errno;
    close(fd);
    return 0;
}

static void print_json(cJSON *tree)
{
    char *text = tx_xcheck(cJSON_PrintUnformatted(tree));
    printf("%s\n", text);
    cJSON_free(text);
    cJSON_Delete(tree);
}

static void print_result(const struct tx_options *o, const struct tx_record *r, int64_t seed)
{
    switch (o->referee_format) {
    case TX_REFEREE_PSYLEAGUE:
        print_json(tx_cg_psyleague(r, seed));
        break;
    case TX_REFEREE_CGARENA:
        print_json(tx_cg_cgarena(r));
        break;
    default:
        /* as the SDK's command line interface: scores, then the game's
         * parameters */
        printf("%d\n%d\nseed=%" PRId64 "\n", tx_cg_score(r, 0), tx_cg_score(r, 1), seed);
    }
}

/* Two bots whose names derive alike ("python3 v1/bot.py" and "python3
 * v2/bot.py" are both "bot") are told apart by the option parser with "-2"
 * on the second one; a referee's seats change from game to game
 * (brutaltester -s), so the "-2" goes to the bot whose command sorts
 * second, whatever its seat, and each bot keeps one name in every record.
 * Names given (NAME=COMMAND) are kept. */
static void name_by_command(struct tx_options *o)
{
    char name[TX_COMMAND_NAME_MAX], why[256];
    const char *command;
    for (int p = 0; p < 2; p++)
        if (tx_command_parse_bot(o->players[p], name, &command, why, sizeof why) < 0 ||
            command != o->players[p])
            return;
    struct tx_bot_spec *b = o->bots;
    size_t n = strlen(b[0].name);
    if (strncmp(b[1].name, b[0].name, n) || strcmp(b[1].name + n, "-2") ||
        strcmp(b[0].command, b[1].command) <= 0)
        return;
    const char *first = b[0].name;
    b[0].name = b[1].name;
    b[1].name = first;
}

static int64_t random_seed(void)
{
    uint64_t v;
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v)
        v = uv_hrtime() ^ ((uint64_t)getpid() << 32);
    return (int64_t)(v & RANDOM_SEED_MASK);
}

int tx_cmd_referee(const char *program, int argc, char **argv)
{
    struct tx_options o;
    struct tx_setup *run = NULL;
    struct game g = {0};
    struct capture cap;
    char err[2048], *warnings = NULL;

    capture_start(&cap);
    int status = tx_options_cli(&o, &tx_cmd_referee_line, program, argc, argv);
    if (status != TX_OPTIONS_CONTINUE)
        goto out_replay;
    if (!o.players[0] || !o.players[1]) {
        status = tx_options_usage_error(&tx_cmd_referee_line, program,
                                        "the bots are -p1 CMD and -p2 CMD: give both");
        goto out_replay;
    }
    name_by_command(&o);
    status = TX_EXIT_USAGE;
    int64_t seed = o.game_seed_given ? o.game_seed : random_seed();
    o.seed = (uint64_t)seed; /* the run's seed: the pairing's key, so the game's seed */
    if (tx_setup_new(&o, TX_POOL_ROUND_ROBIN, 2, program, argc, argv, &run, err, sizeof err) < 0) {
        fprintf(stderr, "twixt-arena referee: %s\n", err);
        goto out_replay;
    }
    int rc;
    if (o.output && (rc = check_records(o.output, err, sizeof err)) < 0) {
        fprintf(stderr, "twixt-arena referee: -o: %s\n", err);
        goto out_replay;
    }
    if (o.log && (rc = check_log(o.log)) < 0) {
        fprintf(stderr, "twixt-arena referee: -l: cannot write %s: %s\n", o.log, strerror(-rc));
        goto out_replay;
    }

    /* The pool's one pairing; p1 (bots[0]) is player 1 in its odd games. */
    struct tx_pool_game which = {0, run->pool.pairings[0].a == 0 ? 1 : 2};
    struct tx_pool_slot slot;
    tx_pool_spec(&run->pool, which, 1, &slot);
    /* A bot whose sandbox could not be set up (README "When a sandbox
     * cannot be built"): the machine failed, not the bot, so that is no
     * score. The game is recorded as interrupted, as a run records it, and
     * played again; TX_RUNNER_FAULTS_MAX such games in a row end the
     * referee with the kernel's reason. */
    struct tx_record *r;
    char lost[1024] = ""; /* why an interrupted game could not be recorded */
    for (int attempt = 1;; attempt++) {
        if (play(run, &slot.spec, &g, err, sizeof err) < 0) {
            fprintf(stderr, "twixt-arena referee: %s\n", err);
            goto out_replay;
        }
        r = g.record;
        if (g.fault < 0 || g.signal || attempt == TX_RUNNER_FAULTS_MAX)
            break;
        if (o.output && !lost[0])
            append_record(o.output, r, lost, sizeof lost);
        tx_record_free(r);
        free(r);
        g.record = NULL;
    }
    warnings = capture_end(&cap);

    status = TX_EXIT_OK;
    if (lost[0]) {
        fprintf(stderr, "twixt-arena referee: an interrupted game was not recorded: %s\n", lost);
        status = TX_EXIT_USAGE;
    }
    bool refused = g.fault >= 0 && !g.signal; /* every try faulted: no result */
    if (refused) {
        fprintf(stderr,
                "twixt-arena referee: %s, %d times in a row: the machine refuses this bot's "
                "sandbox (the game was not played; see README \"When a sandbox cannot be "
                "built\")\n",
                r->result.detail, TX_RUNNER_FAULTS_MAX);
        status = TX_EXIT_USAGE;
    }
    if (o.output && (rc = append_record(o.output, r, err, sizeof err)) < 0) {
        fprintf(stderr, "twixt-arena referee: the game was played but not recorded: %s\n", err);
        status = TX_EXIT_USAGE;
    }
    if (o.log && !refused) {
        cJSON *log = tx_cg_log(r, seed, warnings);
        char *text = tx_xcheck(cJSON_PrintUnformatted(log));
        cJSON_Delete(log);
        if ((rc = write_file(o.log, text)) < 0) {
            fprintf(stderr, "twixt-arena referee: -l: cannot write %s: %s\n", o.log, strerror(-rc));
            status = TX_EXIT_USAGE;
        }
        cJSON_free(text);
    }
    if (g.signal) {
        /* no result: the game did not end */
        fprintf(stderr, "twixt-arena referee: interrupted by %s; the game did not end\n",
                strsignal(g.signal));
        status = 128 + g.signal;
    } else if (!refused) {
        print_result(&o, r, seed);
    }
    if (tx_output_finish(stdout, "standard output", "twixt-arena referee") < 0 && !g.signal)
        status = TX_EXIT_USAGE;
    tx_record_free(r);
    free(r);
    goto out;

out_replay:
    capture_replay(&cap);
out:
    free(warnings);
    tx_setup_free(run);
    tx_options_free(&o);
    return status;
}
