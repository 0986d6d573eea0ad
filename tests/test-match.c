/* test-match.c - the fault matrix of the referee's match (referee/match.h).
 *
 * Every case plays one real game on a libuv loop between two copies of
 * tests/fault-bot (its path is compiled in as TX_FAULT_BOT), one of them
 * misbehaving in one way, and asserts the verdict (winner, reason), the
 * detail text, the record (moves, messages, extra lines, stderr counts),
 * that no process of the game is left (the bots note their pids in a file)
 * and that the test's open descriptors are back to where they were. The
 * loop must close with no handle left, as in libuv's own tests.
 *
 * Expected moves are not hard-coded: the bots' strategies are replayed
 * in-process with libtwixt (simulate), so a case states only how the fault
 * changes the game. Limits are short and every assertion leaves room for a
 * loaded machine: the cases assert verdicts, not timings.
 *
 * The golden cases compare whole records, with times, start time, hashes,
 * version and paths normalised, to the files in tests/golden/.
 * After an intended change of the record, regenerate it with
 *     TX_UPDATE_GOLDEN=1 meson test -C build match
 * and review the diff before committing it.
 *
 * TX_FAULTS_VERBOSE=1 prints each game's bots, verdict and detail on stderr:
 *     TX_FAULTS_VERBOSE=1 CK_FORK=no build/tests/test-match
 * fault-bot's modes are listed at the top of tests/fault-bot.c.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "bot.h"
#include "game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"
#include "match.h"
#include "test-game.h"
#include "record.h"
#include "refeed.h"
#include "sha256.h"
#include "text.h"
#include "verify.h"

#ifndef TX_FAULT_BOT
#error "TX_FAULT_BOT must be the path of tests/fault-bot"
#endif
#ifndef TX_GOLDEN_DIR
#error "TX_GOLDEN_DIR must be the path of tests/golden"
#endif

/* fault-bot's path as a command word: quoted (command lines are split like
 * a shell splits words), so a build directory may hold spaces. */
#define FAULT_BOT_WORD "'" TX_FAULT_BOT "'"

#define STDERR_KEPT_MAX TX_BOT_STDERR_KEPT /* stderr the referee keeps per bot per game */
#define CASE_TIMEOUT_S 30

static struct tx_geometry *geo; /* 12 x 12, set up by each case's fixture */

static void setup_geometry(void)
{
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(12, 12, &geo)), 0);
}

/* ---- the bots' strategies, replayed in-process ---- */

enum strategy { PLAY, SWAPPER, GOOD };

static int lowest_legal(const struct tx_game *g)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(g, moves), best = -1;
    for (int i = 0; i < n; i++)
        if (moves[i] >= 0 && (best < 0 || moves[i] < best))
            best = moves[i];
    return best;
}

static int highest_legal(const struct tx_game *g)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(g, moves), best = -1;
    for (int i = 0; i < n; i++)
        if (moves[i] > best)
            best = moves[i];
    return best;
}

static int hole(const char *name)
{
    int h = -1;
    ck_assert_int_eq(tx_hole_parse(geo, name, strlen(name), &h), TX_HOLE_OK);
    return h;
}

/* fault-bot's "good" plan: F1 G3 F5 G7 F9 G11 E12, mirrored for player 1. */
static int good_move(const struct tx_game *g)
{
    static const char *const plan[] = {"F1", "G3", "F5", "G7", "F9", "G11", "E12"};
    int me = g->to_move;
    for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        int h = hole(plan[i]);
        if (me == 1)
            h = tx_geometry_mirror(geo, h);
        if (tx_game_cell(g, h) == me + 1)
            continue;
        if (tx_game_check(g, h) == TX_LEGAL)
            return h;
        break;
    }
    return lowest_legal(g);
}

static int strategy_move(enum strategy s, const struct tx_game *g)
{
    if (s == SWAPPER && tx_game_check(g, TX_MOVE_SWAP) == TX_LEGAL)
        return TX_MOVE_SWAP;
    return s == GOOD ? good_move(g) : lowest_legal(g);
}

#define NO_FORCE (-9)

/* A game as the bots would play it without any fault. */
struct expect {
    struct tx_game *g;       /* sized for geo (expect_init) */
    int force[TX_MOVES_MAX]; /* a move that replaces the strategy's, or NO_FORCE
                              */
};

static void expect_init(struct expect *e)
{
    static struct tx_game *slot; /* one expected game at a time per test */
    e->g = test_game(&slot, geo);
    for (int i = 0; i < TX_MOVES_MAX; i++)
        e->force[i] = NO_FORCE;
}

/* Plays until the game ends or `stop` moves are on the board. */
static void simulate(struct expect *e, enum strategy s0, enum strategy s1, int stop)
{
    while (e->g->status == TX_ONGOING && e->g->nmoves < stop) {
        int m = e->force[e->g->nmoves];
        if (m == NO_FORCE)
            m = strategy_move(e->g->to_move == 0 ? s0 : s1, e->g);
        ck_assert_int_eq(tx_game_play(e->g, m), TX_LEGAL);
    }
}

static void move_name(int move, char *buf)
{
    if (move == TX_MOVE_SWAP)
        strcpy(buf, "SWAP");
    else
        tx_hole_name(geo, move, buf);
}

/* ---- running one game ---- */

struct run {
    struct tx_match_config config;
    struct tx_bot_spec bots[2];
    char commands[2][600];
    struct tx_game_spec spec;
    char pid_file[64];
    uv_loop_t loop;
    struct tx_match *match;
    uv_timer_t interrupt_timer;
    int interrupt_ms;     /* > 0: interrupt the match after this long, < 0: at once */
    int ndone;            /* done_cb calls */
    struct tx_record rec; /* moved out of done_cb's record */
    double seconds;       /* the game's wall time, for failure messages only */
};

static int count_fds(void)
{
    tx_bot_wait_remover(); /* its thread holds a directory open while it removes one */
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

/* Prepares a game: mode0 and mode1 are fault-bot arguments ("crash-exit 2"),
 * or, starting with '/', a whole command line. */
static void run_init(struct run *r, const char *mode0, const char *mode1)
{
    static int serial;
    memset(r, 0, sizeof *r);
    tx_match_config_init(&r->config, geo, TX_RULES_PP);
    snprintf(r->pid_file, sizeof r->pid_file, "/tmp/tx-faults-%d-%d.pids", (int)getpid(), serial++);
    unlink(r->pid_file);
    const char *modes[2] = {mode0, mode1};
    for (int i = 0; i < 2; i++) {
        if (modes[i][0] == '/')
            snprintf(r->commands[i], sizeof r->commands[i], "%s", modes[i]);
        else
            snprintf(r->commands[i], sizeof r->commands[i], "%s %s --pid-file=%s", FAULT_BOT_WORD,
                     modes[i], r->pid_file);
        r->bots[i].name = i == 0 ? "first" : "second";
        r->bots[i].command = r->commands[i];
        r->spec.bots[i] = &r->bots[i];
    }
    r->spec.index = 7;
    r->spec.seed = 12345;
}

static void done_cb(struct tx_match *match, struct tx_record *record, void *data)
{
    struct run *r = data;
    r->ndone++;
    r->rec = *record; /* the record (struct and contents) is ours: keep the contents */
    free(record);
    r->match = NULL;
    if (r->interrupt_ms > 0 && !uv_is_closing((uv_handle_t *)&r->interrupt_timer))
        uv_close((uv_handle_t *)&r->interrupt_timer, NULL);
}

static void interrupt_cb(uv_timer_t *timer)
{
    struct run *r = timer->data;
    ck_assert_ptr_nonnull(r->match);
    tx_match_interrupt(r->match);
    tx_match_interrupt(r->match); /* safe to call twice */
    uv_close((uv_handle_t *)timer, NULL);
}

static bool is_zombie_or_gone(pid_t pid)
{
    if (kill(pid, 0) < 0 && errno == ESRCH)
        return true;
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* Every pid the bots noted must be gone: a bot at once (the referee reaped
 * it), a child of a bot within a second (killed with the group, or found
 * in the bot's family tree when it left the group; its new parent may take
 * a moment to reap it, or never, hence zombies count as gone). A daemon
 * (double fork: adopted by init before the end) cannot be traced to the
 * bot without a subreaper: it is only reported, and killed here so it does
 * not outlive the test. */
static void check_no_process(const struct run *r)
{
    FILE *f = fopen(r->pid_file, "re");
    if (!f)
        return; /* no bot got as far as noting its pid */
    char kind[16];
    int pid;
    while (fscanf(f, "%15s %d", kind, &pid) == 2) {
        ck_assert_int_gt(pid, 1);
        if (strcmp(kind, "bot") == 0) {
            ck_assert_msg(kill(pid, 0) < 0 && errno == ESRCH, "bot %d still exists after done_cb",
                          pid);
            continue;
        }
        int waited = 0;
        while (!is_zombie_or_gone(pid) && waited < 1000) {
            usleep(10000);
            waited += 10;
        }
        if (!is_zombie_or_gone(pid))
            kill(pid, SIGKILL); /* do not leave it behind, then fail */
        if (strcmp(kind, "daemon") == 0) {
            if (waited >= 1000)
                fprintf(stderr,
                        "test-match: known gap: a bot's daemon (double fork, setsid) "
                        "survived the game (pid %d, killed by the test)\n",
                        pid);
            continue;
        }
        ck_assert_msg(waited < 1000, "%s %d still ran 1 s after done_cb", kind, pid);
    }
    fclose(f);
    unlink(r->pid_file);
}

/* A command line without the fault-bot path and the pid file, to print. */
static const char *mode_of(const char *command)
{
    size_t n = strlen(FAULT_BOT_WORD);
    return strncmp(command, FAULT_BOT_WORD, n) == 0 ? command + n + 1 : command;
}

static int mode_length(const char *command)
{
    const char *mode = mode_of(command), *end = strstr(mode, " --pid-file=");
    return end ? (int)(end - mode) : (int)strlen(mode);
}

static void run_game(struct run *r)
{
    /* The first loop of a process sets up libuv's process-wide signal
     * state (descriptors that stay open): count after that. */
    uv_loop_t warm;
    ck_assert_int_eq(uv_loop_init(&warm), 0);
    ck_assert_int_eq(uv_loop_close(&warm), 0);
    int fds = count_fds();

    ck_assert_int_eq(uv_loop_init(&r->loop), 0);
    uint64_t t0 = uv_hrtime();
    ck_assert_int_eq(tx_match_start(&r->loop, &r->config, &r->spec, done_cb, r, &r->match), 0);
    if (r->interrupt_ms < 0) { /* before the loop has run at all */
        tx_match_interrupt(r->match);
        if (r->match)
            tx_match_interrupt(r->match);
    }
    if (r->interrupt_ms > 0) {
        ck_assert_int_eq(uv_timer_init(&r->loop, &r->interrupt_timer), 0);
        r->interrupt_timer.data = r;
        ck_assert_int_eq(
            uv_timer_start(&r->interrupt_timer, interrupt_cb, (uint64_t)r->interrupt_ms, 0), 0);
    }
    uv_run(&r->loop, UV_RUN_DEFAULT);
    r->seconds = (double)(uv_hrtime() - t0) / 1e9;
    ck_assert_int_eq(r->ndone, 1);
    if (getenv("TX_FAULTS_VERBOSE")) /* what each case saw, for reading */
        fprintf(stderr, "%-24.*s| %-16.*s| winner %2d %-11s %-50s %3d moves %.2f s\n",
                mode_length(r->commands[0]), mode_of(r->commands[0]), mode_length(r->commands[1]),
                mode_of(r->commands[1]), r->rec.result.winner, tx_reason_name(r->rec.result.reason),
                r->rec.result.detail, r->rec.nmoves, r->seconds);
    ck_assert_int_eq(uv_loop_close(&r->loop), 0);
    check_no_process(r);
    ck_assert_int_eq(count_fds(), fds);
}

static void run_free(struct run *r)
{
    tx_record_free(&r->rec);
}

/* ---- assertions on the record ---- */

static bool valid_utf8(const char *s)
{
    size_t len = strlen(s), cap = 3 * len + 1; /* room for every byte becoming U+FFFD */
    char *copy = malloc(cap);
    ck_assert_ptr_nonnull(copy);
    tx_text_sanitize(copy, cap, s, len, SIZE_MAX);
    bool same = strcmp(copy, s) == 0;
    free(copy);
    return same;
}

/* The row of the matrix a case plays, for failure messages ("" if none). */
static const char *case_name = "";

/* What every record must hold, whatever happened. */
static void check_record(const struct run *r)
{
    const struct tx_record *rec = &r->rec;
    ck_assert_str_eq(rec->format, TX_RECORD_FORMAT);
    ck_assert_int_eq(rec->game, r->spec.index);
    ck_assert_uint_eq(rec->seed, r->spec.seed);
    ck_assert_int_eq(rec->width, r->config.geo->width);
    ck_assert_int_eq(rec->height, r->config.geo->height);
    ck_assert_int_eq(rec->rules, r->config.rules);
    ck_assert_int_eq(rec->limits.first_turn_ms, r->config.limits.first_turn_ms);
    ck_assert_int_eq(rec->limits.turn_ms, r->config.limits.turn_ms);
    ck_assert_int_eq(rec->limits.margin_ms, r->config.limits.margin_ms);
    ck_assert(rec->limits.soft == r->config.limits.soft);
    ck_assert_str_eq(rec->referee, "twixt-arena " TX_VERSION);
    ck_assert_ptr_nonnull(rec->started);
    if (r->config.run)
        ck_assert(rec->run && strcmp(rec->run, r->config.run) == 0);
    else
        ck_assert_ptr_null(rec->run);
    int y, mo, d, h, mi, sec, end = 0;
    ck_assert_msg(
        sscanf(rec->started, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &sec, &end) == 6 &&
            end == 20 && rec->started[end] == '\0',
        "started \"%s\" is not UTC ISO 8601", rec->started);
    for (int p = 0; p < 2; p++) {
        ck_assert_str_eq(rec->players[p].name, r->bots[p].name);
        ck_assert_str_eq(rec->players[p].command, r->commands[p]);
        ck_assert_int_ge(rec->players[p].stderr_bytes, 0);
        ck_assert_int_ge(rec->players[p].extra_lines, 0);
        const char *sha = rec->players[p].sha256;
        if (sha)
            ck_assert_msg(strlen(sha) == 64 && strspn(sha, "0123456789abcdef") == 64,
                          "sha256 \"%s\"", sha);
    }
    size_t kept[2] = {0, 0};
    for (int i = 0; i < rec->nmoves; i++) {
        const struct tx_record_move *m = &rec->moves[i];
        ck_assert_msg(m->player == i % 2, "moves[%d].player is %d", i, m->player);
        if (i < r->spec.nopening) { /* played by the referee */
            ck_assert(m->forced);
            ck_assert_int_eq(m->us, -1);
        } else {
            ck_assert(!m->forced);
            ck_assert_int_ge(m->us, 0);
        }
        if (m->move)
            ck_assert_msg(valid_utf8(m->move) && strlen(m->move) <= 64, "moves[%d].move", i);
        if (m->message)
            ck_assert(valid_utf8(m->message) && tx_text_chars(m->message) <= 20);
        if (m->stderr_text) {
            ck_assert(valid_utf8(m->stderr_text));
            kept[m->player] += strlen(m->stderr_text);
        }
    }
    for (int p = 0; p < 2; p++)
        ck_assert_msg(kept[p] <= STDERR_KEPT_MAX &&
                          (int64_t)kept[p] <= rec->players[p].stderr_bytes,
                      "player %d: %zu bytes of stderr kept, %lld written", p, kept[p],
                      (long long)rec->players[p].stderr_bytes);
    ck_assert_ptr_nonnull(rec->result.detail);
    ck_assert(valid_utf8(rec->result.detail));
    /* Whatever happened, the verifier accepts what the referee wrote. */
    struct tx_verify_report rep;
    ck_assert_msg(tx_verify_record(r->config.geo, rec, &rep) == 0,
                  "%s: the record does not verify: move %d: %s (detail \"%s\")", case_name,
                  rep.move, rep.what, rec->result.detail);
}

static void check_verdict(const struct run *r, int winner, enum tx_reason reason,
                          const char *detail_part)
{
    check_record(r);
    const struct tx_record *rec = &r->rec;
    ck_assert_msg(rec->result.winner == winner && rec->result.reason == reason,
                  "%s: expected winner %d %s, got winner %d %s \"%s\" (%d moves, %.2f s)",
                  case_name, winner, tx_reason_name(reason), rec->result.winner,
                  tx_reason_name(rec->result.reason), rec->result.detail, rec->nmoves, r->seconds);
    if (detail_part)
        ck_assert_msg(strstr(rec->result.detail, detail_part), "%s: detail \"%s\" lacks \"%s\"",
                      case_name, rec->result.detail, detail_part);
}

/* The first n moves are those of the simulated game. */
static void check_moves(const struct run *r, const struct expect *e, int n)
{
    ck_assert_int_le(n, e->g->nmoves);
    ck_assert_msg(r->rec.nmoves >= n, "%d moves recorded, %d expected", r->rec.nmoves, n);
    for (int i = 0; i < n; i++) {
        char name[8];
        move_name(tx_game_move(e->g, i), name);
        ck_assert_msg(r->rec.moves[i].move && strcmp(r->rec.moves[i].move, name) == 0,
                      "moves[%d] is %s, expected %s", i,
                      r->rec.moves[i].move ? r->rec.moves[i].move : "null", name);
    }
}

/* The game ended as the simulated one: same moves, same result. */
static void check_whole_game(const struct run *r, const struct expect *e)
{
    ck_assert_int_ne(e->g->status, TX_ONGOING);
    if (e->g->status == TX_WON) {
        int16_t chain[TX_HOLES_MAX];
        int n = tx_game_winning_chain(e->g, chain);
        ck_assert_int_gt(n, 1);
        char a[8], b[8], ab[20], ba[20];
        tx_hole_name(geo, chain[0], a);
        tx_hole_name(geo, chain[n - 1], b);
        snprintf(ab, sizeof ab, "%s-%s", a, b);
        snprintf(ba, sizeof ba, "%s-%s", b, a);
        check_verdict(r, e->g->winner, TX_REASON_CONNECTION, NULL);
        ck_assert_msg(strcmp(r->rec.result.detail, ab) == 0 ||
                          strcmp(r->rec.result.detail, ba) == 0,
                      "detail \"%s\", expected \"%s\"", r->rec.result.detail, ab);
    } else {
        check_verdict(r, -1, TX_REASON_DRAW, NULL);
    }
    ck_assert_int_eq(r->rec.nmoves, e->g->nmoves);
    check_moves(r, e, e->g->nmoves);
}

/* The game ended at move n (0-based index) with no answer from its mover. */
static void check_no_answer_at(const struct run *r, const struct expect *e, int n)
{
    check_moves(r, e, n);
    ck_assert_int_eq(r->rec.nmoves, n + 1);
    ck_assert_msg(r->rec.moves[n].move == NULL, "moves[%d] is \"%s\", expected none", n,
                  r->rec.moves[n].move);
}

static void check_quiet(const struct run *r)
{
    for (int p = 0; p < 2; p++) {
        ck_assert_int_eq(r->rec.players[p].extra_lines, 0);
        ck_assert_int_eq(r->rec.players[p].stderr_bytes, 0);
    }
}

/* Plays the prepared game, where player 1 (bots[0]) misbehaves and player 2
 * plays, and checks that player 1 lost at its own turn `turn` by reason,
 * with detail_part in the detail, and that the moves before were those of
 * the fault-free game. */
static void lose_at(struct run *r, int turn, enum tx_reason reason, const char *detail_part)
{
    struct expect e;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 2 * (turn - 1));
    run_game(r);
    check_verdict(r, 1, reason, detail_part);
    const struct tx_record_move *last = r->rec.nmoves > 0 ? &r->rec.moves[r->rec.nmoves - 1] : NULL;
    if (reason == TX_REASON_INVALID || (reason == TX_REASON_TIMEOUT && last && last->move)) {
        /* a rejected token, or a late answer (recorded as written) */
        check_moves(r, &e, 2 * (turn - 1));
        ck_assert_int_eq(r->rec.nmoves, 2 * turn - 1);
        ck_assert_ptr_nonnull(r->rec.moves[2 * turn - 2].move);
        if (reason == TX_REASON_TIMEOUT)
            ck_assert_msg(strstr(r->rec.result.detail, "answered in"), "late answer, detail \"%s\"",
                          r->rec.result.detail);
    } else {
        check_no_answer_at(r, &e, 2 * (turn - 1));
    }
}

/* ---- the matrix: every fault, played, then re-fed ---- */

/* How a row's game compares with re-feeding player 1 its recorded inputs. */
enum refeed_check {
    REFEED_SAME,      /* same answers, same verdict and detail, same extra lines */
    REFEED_NOT_EXTRA, /* the same but for extra lines: see the row's why */
};

/* Each row: fault-bot's arguments for player 1 and player 2 (NULL: "play"),
 * the limits that differ from the defaults (0: the default), player 1's
 * turn at which it must lose (0: it does not lose, the game goes to its
 * end), the verdict, a part of the detail, the token the record must hold
 * for that turn (NULL: none, or not checked), and player 1's extra lines
 * (-1: at least one). Every mode of tests/fault-bot.c is here but play,
 * swapper and good, which do not misbehave. */
static const struct fault_case {
    const char *name;
    const char *mode, *opponent;
    int turn_ms, margin_ms, memory_mb, cpu_s;
    bool soft;
    int turn;
    enum tx_reason reason;
    const char *detail;
    const char *token;
    int extra;
    enum refeed_check refeed;
    const char *why; /* when re-feeding cannot give the same */
} fault_cases[] = {
    {.name = "crash by a signal",
     .mode = "crash-signal 2",
     .turn = 2,
     .reason = TX_REASON_CRASH,
     .detail = "killed by signal 11 (Segmentation fault)"},
    {.name = "crash by an exit status",
     .mode = "crash-exit 3",
     .turn = 3,
     .reason = TX_REASON_CRASH,
     .detail = "exit status 3 before answering"},
    {.name = "exit 0 before answering",
     .mode = "exit0 1",
     .turn = 1,
     .reason = TX_REASON_CRASH,
     .detail = "exit status 0"},
    {.name = "close stdout, keep running",
     .mode = "close-stdout 2",
     .turn = 2,
     .reason = TX_REASON_CRASH,
     .detail = "closed its output"},
    {.name = "close stdout after answering: seen at the next turn",
     .mode = "close-stdout 2 1",
     .turn = 3,
     .reason = TX_REASON_CRASH,
     .detail = "closed its output"},
    {.name = "exit after answering: seen at the next turn",
     .mode = "exit-after 2",
     .turn = 3,
     .reason = TX_REASON_CRASH,
     .detail = "exit status 0"},
    {.name = "close stdin: the next input cannot be written",
     .mode = "close-stdin 2",
     .turn = 3,
     .reason = TX_REASON_CRASH,
     .detail = "input"},
    {.name = "fork a child holding the pipes, then exit",
     .mode = "fork 2 0",
     .turn = 2,
     .reason = TX_REASON_CRASH,
     .detail = "exit status 0"},
    {.name = "over the memory limit",
     .mode = "memory 1",
     .memory_mb = 64,
     .turn = 1,
     .reason = TX_REASON_CRASH,
     .detail = "signal 6"},
    /* a niced bot on a busy machine takes a while to burn 1 s */
    {.name = "over the game's CPU limit",
     .mode = "spin 2",
     .cpu_s = 1,
     .turn_ms = 15000,
     .turn = 2,
     .reason = TX_REASON_CRASH,
     .detail = "signal"},
    {.name = "hang",
     .mode = "hang 2",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "no answer in 100 ms"},
    {.name = "ignore SIGTERM and hang",
     .mode = "ignore-term 2",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "no answer in 100 ms"},
    {.name = "sleep well over the limit",
     .mode = "sleep 2 400",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "no answer in 100 ms"},
    {.name = "a later turn at 900 ms",
     .mode = "sleep 3 900",
     .turn = 3,
     .reason = TX_REASON_TIMEOUT,
     .detail = "no answer in 300 ms"},
    {.name = "burn CPU",
     .mode = "spin 2",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "no answer in 100 ms"},
    {.name = "soft mode forgives 50 ms over, not 70",
     .mode = "sleep 2 170",
     .turn_ms = 100,
     .soft = true,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "limit 100 ms;"},
    {.name = "3 ms late: hard mode",
     .mode = "slow 2 103",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "limit 100 ms;"},
    {.name = "3 ms late every turn: soft mode forgives two",
     .mode = "slow 2 103",
     .turn_ms = 100,
     .soft = true,
     .turn = 4,
     .reason = TX_REASON_TIMEOUT,
     .detail = "limit 100 ms, a small overrun, but soft mode forgives only 2 a game;"},
    {.name = "a move without its newline, alive",
     .mode = "partial 2 0",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_TIMEOUT,
     .detail = "no answer in 100 ms"},
    {.name = "a move without its newline, then exit",
     .mode = "partial 2 1",
     .turn_ms = 100,
     .turn = 2,
     .reason = TX_REASON_CRASH,
     .detail = "exit status 0"},
    {.name = "flood stdout without a newline",
     .mode = "flood-stdout 2",
     .turn = 2,
     .reason = TX_REASON_INVALID,
     .detail = "line longer than 4096 bytes"},
    {.name = "flood stdout after answering, while the opponent thinks",
     .mode = "flood-stdout 1 1",
     .opponent = "sleep 1 500",
     .turn = 2,
     .reason = TX_REASON_INVALID,
     .detail = "line longer than 4096 bytes",
     .extra = 1,
     .refeed = REFEED_NOT_EXTRA,
     .why = "the endless line starts after turn 1's answer: in play while the opponent thinks, "
            "so in turn 1's window; re-fed, turn 2's input follows the answer at once"},
    {.name = "a line of 4097 bytes",
     .mode = "long-line 1 4097",
     .turn = 1,
     .reason = TX_REASON_INVALID,
     .detail = "line longer than 4096 bytes",
     .token = "B1"},
    {.name = "garbage",
     .mode = "garbage 1",
     .turn = 1,
     .reason = TX_REASON_INVALID,
     .detail = "not a move: \"#garbage!\"",
     .token = "#garbage!"},
    {.name = "invalid UTF-8 and control bytes",
     .mode = "binary 2",
     .turn = 2,
     .reason = TX_REASON_INVALID,
     .detail = "not a move"},
    {.name = "a NUL byte in the move",
     .mode = "nul 1",
     .turn = 1,
     .reason = TX_REASON_INVALID,
     .detail = "not a move",
     .token = "B\uFFFD1"},
    {.name = "an empty line",
     .mode = "empty 2",
     .turn = 2,
     .reason = TX_REASON_INVALID,
     .detail = "empty line"},
    {.name = "lower case",
     .mode = "lower 1",
     .turn = 1,
     .reason = TX_REASON_INVALID,
     .detail = "not a move: \"b1\"",
     .token = "b1"},
    {.name = "SWAP at move 3",
     .mode = "swap 2",
     .turn = 2,
     .reason = TX_REASON_INVALID,
     .detail = "SWAP not allowed at move 3",
     .token = "SWAP"},
    {.name = "an occupied hole",
     .mode = "occupied 2",
     .turn = 2,
     .reason = TX_REASON_INVALID,
     .detail = "occupied hole"},
    {.name = "a hole in the opponent's border",
     .mode = "border 1",
     .turn = 1,
     .reason = TX_REASON_INVALID,
     .detail = "hole L11 in the opponent's border",
     .token = "L11"},
    /* 1000 copies of turn 2's answer in one write: the second is turn 3's (occupied) */
    {.name = "the same answer 1000 times",
     .mode = "lines 2 1000",
     .turn = 3,
     .reason = TX_REASON_INVALID,
     .detail = "occupied hole",
     .extra = -1},
    /* The faults that do not lose a game. */
    {.name = "two lines in one write", .mode = "two-lines 2 0", .extra = 1},
    {.name = "two lines 20 ms apart, while the opponent thinks",
     .mode = "two-lines 2 20",
     .opponent = "sleep 2 100",
     .extra = 1,
     .refeed = REFEED_NOT_EXTRA,
     .why = "the second line comes 20 ms after the answer: in play while the opponent thinks, so "
            "in turn 2's window; re-fed, in turn 3's, as its answer"},
    {.name = "a move printed before its input", .mode = "early"},
    {.name = "fork a child holding the pipes, play on", .mode = "fork 2 1"},
    {.name = "fork a child that leaves the group", .mode = "fork 2 2"},
    {.name = "fork a daemon", .mode = "fork 2 3"},
    {.name = "a message over 20 characters", .mode = "message 1"},
    {.name = "a message of invalid UTF-8", .mode = "bad-message 1"},
    {.name = "CRLF line ends", .mode = "crlf"},
    {.name = "a line of exactly 4096 bytes", .mode = "long-line 1 4096"},
    {.name = "300 KB of stderr every turn", .mode = "flood-stderr 1 300000"},
    {.name = "stderr before and after each answer",
     .mode = "stderr-turns 1 20",
     .opponent = "sleep 1 100"},
    {.name = "close stderr", .mode = "close-stderr 2"},
    {.name = "report how it was started", .mode = "report 1"},
    {.name = "sleep under the limit", .mode = "sleep 2 120", .turn_ms = 200},
    {.name = "900 ms on the first turn", .mode = "sleep 1 900"},
    {.name = "over the limit, within the margin",
     .mode = "sleep 2 120",
     .turn_ms = 100,
     .margin_ms = 100},
};

/* Timeout details hold measured times: compared with every number hidden. */
static void without_numbers(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    while (*s && n + 1 < cap) {
        if ((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')) {
            out[n++] = '#';
            while ((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9'))
                s++;
        } else {
            out[n++] = *s++;
        }
    }
    out[n] = '\0';
}

static int own_turns(const struct tx_record *rec, int player)
{
    int n = 0;
    for (int i = 0; i < rec->nmoves; i++)
        n += rec->moves[i].player == player && !rec->moves[i].forced;
    return n;
}

/* Re-feeds player 1 of the played game its recorded inputs with the same
 * command and limits (refeed.h) and checks that it ends the same way: the
 * same answers, the losing turn's verdict and detail (timeouts' times
 * aside), and the same extra lines. */
static void check_refeed_same_as_play(struct run *r, const struct fault_case *c)
{
    const struct tx_record *rec = &r->rec;
    struct tx_refeed_config rc = {
        .geo = geo,
        .record = rec,
        .player = 0,
        .command = r->commands[0],
        .limits = r->config.limits,
    };
    struct tx_refeed_result res;
    char err[256];
    ck_assert_msg(tx_refeed_run(&rc, &res, err, sizeof err) == 0, "%s: %s", c->name, err);
    check_no_process(r);
    bool lost = rec->result.winner == 1 &&
                (rec->result.reason == TX_REASON_INVALID ||
                 rec->result.reason == TX_REASON_TIMEOUT || rec->result.reason == TX_REASON_CRASH);
    ck_assert_msg(res.nturns == own_turns(rec, 0), "%s: %d turns re-fed, %d played", c->name,
                  res.nturns, own_turns(rec, 0));
    for (int k = 0; k < res.nturns - (lost ? 1 : 0); k++)
        ck_assert_msg(res.turns[k].verdict == TX_REFEED_SAME,
                      "%s: re-fed move %d: %s \"%s\", played %s", c->name, res.turns[k].move,
                      tx_refeed_verdict_name(res.turns[k].verdict), res.turns[k].detail,
                      res.turns[k].recorded);
    if (lost) {
        const struct tx_refeed_turn *t = &res.turns[res.nturns - 1];
        enum tx_refeed_verdict want = rec->result.reason == TX_REASON_INVALID   ? TX_REFEED_ILLEGAL
                                      : rec->result.reason == TX_REASON_TIMEOUT ? TX_REFEED_TIMEOUT
                                                                                : TX_REFEED_CRASH;
        ck_assert_int_eq(t->move, rec->nmoves);
        char played[TX_VERDICT_DETAIL_MAX], refed[TX_VERDICT_DETAIL_MAX];
        bool timeout = rec->result.reason == TX_REASON_TIMEOUT;
        snprintf(played, sizeof played, "%s", rec->result.detail);
        snprintf(refed, sizeof refed, "%s", t->detail);
        if (timeout) {
            without_numbers(rec->result.detail, played, sizeof played);
            without_numbers(t->detail, refed, sizeof refed);
        }
        ck_assert_msg(t->verdict == want && !strcmp(played, refed),
                      "%s: played: %s \"%s\"; re-fed: %s \"%s\"", c->name,
                      tx_reason_name(rec->result.reason), rec->result.detail,
                      tx_refeed_verdict_name(t->verdict), t->detail);
    }
    if (c->refeed == REFEED_SAME)
        ck_assert_msg(res.extra_lines == rec->players[0].extra_lines,
                      "%s: %lld extra lines re-fed, %lld played", c->name,
                      (long long)res.extra_lines, (long long)rec->players[0].extra_lines);
    tx_refeed_result_free(&res);
}

START_TEST(fault_in_play_and_refed)
{
    const struct fault_case *c = &fault_cases[_i];
    struct run r;
    run_init(&r, c->mode, c->opponent ? c->opponent : "play");
    if (c->turn_ms)
        r.config.limits.turn_ms = c->turn_ms;
    r.config.limits.margin_ms = c->margin_ms;
    if (c->memory_mb)
        r.config.limits.memory_mb = c->memory_mb;
    r.config.limits.cpu_s = c->cpu_s;
    r.config.limits.soft = c->soft;
    case_name = c->name;
    if (c->turn > 0) {
        lose_at(&r, c->turn, c->reason, c->detail);
        const char *got = r.rec.moves[2 * c->turn - 2].move;
        if (c->token)
            ck_assert_msg(got && strcmp(got, c->token) == 0,
                          "%s: recorded move \"%s\", expected \"%s\"", c->name,
                          got ? got : "(null)", c->token);
    } else {
        run_game(&r);
        check_record(&r);
        ck_assert_msg(
            r.rec.result.reason == TX_REASON_CONNECTION || r.rec.result.reason == TX_REASON_DRAW,
            "%s: %s \"%s\"", c->name, tx_reason_name(r.rec.result.reason), r.rec.result.detail);
    }
    int64_t extra = r.rec.players[0].extra_lines;
    ck_assert_msg(c->extra < 0 ? extra >= 1 : extra == c->extra, "%s: %lld extra lines", c->name,
                  (long long)extra);
    ck_assert_int_eq(r.rec.players[1].extra_lines, 0);
    check_refeed_same_as_play(&r, c);
    run_free(&r);
}
END_TEST

/* ---- crashes ---- */

/* Player 1 dies after its answer, then player 2 never answers: the game
 * ends at player 2's turn, by its timeout; player 1's death would only
 * have counted at its own next turn. */
START_TEST(crash_after_answer_then_opponent_hangs)
{
    struct run r;
    struct expect e;
    run_init(&r, "exit-after 1", "hang 1");
    r.config.limits.first_turn_ms = 200;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 1);
    run_game(&r);
    check_verdict(&r, 0, TX_REASON_TIMEOUT, "200 ms");
    check_no_answer_at(&r, &e, 1);
    run_free(&r);
}
END_TEST

START_TEST(crash_player2)
{
    struct run r;
    struct expect e;
    run_init(&r, "play", "crash-exit 2");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 3);
    run_game(&r);
    check_verdict(&r, 0, TX_REASON_CRASH, "exit status 3");
    check_no_answer_at(&r, &e, 3);
    run_free(&r);
}
END_TEST

START_TEST(crash_memory_limit)
{
    struct run r;
    run_init(&r, "memory 1", "play");
    r.config.limits.memory_mb = 64;
    lose_at(&r, 1, TX_REASON_CRASH, "signal 6");
    ck_assert_int_eq(r.rec.players[0].extra_lines, 0);
    /* its last words were kept, as that turn's stderr */
    ck_assert_ptr_nonnull(r.rec.moves[0].stderr_text);
    ck_assert_ptr_nonnull(strstr(r.rec.moves[0].stderr_text, "out of memory"));
    ck_assert_int_gt(r.rec.players[0].stderr_bytes, 0);
    run_free(&r);
}
END_TEST

START_TEST(crash_missing_program)
{
    struct run r;
    run_init(&r, "/nonexistent/fault-bot play", "play");
    run_game(&r);
    check_verdict(&r, 1, TX_REASON_CRASH, "/nonexistent/fault-bot");
    ck_assert_msg(strstr(r.rec.result.detail, "No such file or directory"), "detail \"%s\"",
                  r.rec.result.detail);
    ck_assert_int_le(r.rec.nmoves, 1);
    if (r.rec.nmoves == 1)
        ck_assert_ptr_null(r.rec.moves[0].move);
    ck_assert_ptr_null(r.rec.players[0].sha256);
    run_free(&r);
}
END_TEST

/* Command lines that cannot be split into words: player 2 loses by crash
 * with a detail that says what is wrong with the line. */
START_TEST(crash_bad_command_line)
{
    static const char *const commands[] = {"/bin/echo \"unbalanced", "   "};
    static const char *const details[] = {"unbalanced", "empty"};
    struct run r;
    run_init(&r, "play", "play");
    snprintf(r.commands[1], sizeof r.commands[1], "%s", commands[_i]);
    run_game(&r);
    check_verdict(&r, 0, TX_REASON_CRASH, details[_i]);
    ck_assert_int_le(r.rec.nmoves, 2);
    run_free(&r);
}
END_TEST

/* When neither bot can start, player 1's failure is seen first. */
START_TEST(crash_both_missing)
{
    struct run r;
    run_init(&r, "/nonexistent/one", "/nonexistent/two");
    run_game(&r);
    check_verdict(&r, 1, TX_REASON_CRASH, "/nonexistent/one");
    run_free(&r);
}
END_TEST

START_TEST(crash_not_executable)
{
    struct run r;
    char path[64];
    snprintf(path, sizeof path, "/tmp/tx-faults-noexec-%d", (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "#!/bin/sh\necho F6\n", 18), 18);
    close(fd);
    run_init(&r, "play", path);
    run_game(&r);
    unlink(path);
    check_verdict(&r, 0, TX_REASON_CRASH, "Permission denied");
    ck_assert_msg(strstr(r.rec.result.detail, path), "detail \"%s\" lacks the path",
                  r.rec.result.detail);
    /* player 1 may have moved before the referee noticed */
    ck_assert_int_le(r.rec.nmoves, 2);
    run_free(&r);
}
END_TEST

/* ---- time ---- */

START_TEST(time_sleep_under_limit)
{
    struct run r;
    struct expect e;
    run_init(&r, "sleep 2 120", "play");
    r.config.limits.turn_ms = 200;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_int_ge(r.rec.moves[2].us, 115000); /* as in time_first_turn_900ms_allowed */
    check_quiet(&r);
    run_free(&r);
}
END_TEST

START_TEST(time_first_turn_900ms_allowed)
{
    struct run r;
    struct expect e;
    run_init(&r, "sleep 1 900", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    /* The clock starts when the write of the input has returned; the bot,
     * woken on the other core, may start its 900 ms sleep a little before
     * (0.4 ms seen under ASan): the referee never charges more than the
     * bot spent, and may charge a few milliseconds less. */
    ck_assert_int_ge(r.rec.moves[0].us, 895000);
    check_quiet(&r);
    run_free(&r);
}
END_TEST

/* Late by 3 ms (plus scheduling delays, which must stay under 47 ms) from
 * turn 2 on: forgiven twice in soft mode, the third overrun (turn 4, move
 * 7) is a timeout; in hard mode the first one is. */
START_TEST(time_soft_timeouts)
{
    struct run r;
    struct expect e;
    run_init(&r, "slow 2 103", "play");
    r.config.limits.turn_ms = 100;
    r.config.limits.soft = true;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 6);
    run_game(&r);
    check_verdict(&r, 1, TX_REASON_TIMEOUT, "100 ms");
    check_moves(&r, &e, 6);
    ck_assert_int_eq(r.rec.nmoves, 7);
    ck_assert_int_gt(r.rec.moves[2].us, 100000);
    ck_assert_int_gt(r.rec.moves[4].us, 100000);
    run_free(&r);
}
END_TEST

static void interrupt_case(const char *mode)
{
    struct run r;
    struct expect e;
    run_init(&r, mode, "play");
    r.config.limits.turn_ms = 5000;
    r.interrupt_ms = 300;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 2);
    run_game(&r);
    check_verdict(&r, -1, TX_REASON_INTERRUPTED, NULL);
    check_moves(&r, &e, 2);
    ck_assert_int_le(r.rec.nmoves, 3);
    run_free(&r);
}

START_TEST(time_interrupt_at_once)
{
    struct run r;
    run_init(&r, "play", "play");
    r.interrupt_ms = -1;
    run_game(&r);
    check_verdict(&r, -1, TX_REASON_INTERRUPTED, NULL);
    ck_assert_int_le(r.rec.nmoves, 1);
    run_free(&r);
}
END_TEST

START_TEST(time_margin)
{
    struct run r;
    struct expect e;
    run_init(&r, "sleep 2 120", "play");
    r.config.limits.turn_ms = 100;
    r.config.limits.margin_ms = 100;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    run_free(&r);
}
END_TEST

START_TEST(time_interrupt)
{
    interrupt_case("hang 2");
}
END_TEST

START_TEST(time_interrupt_ignoring_sigterm)
{
    interrupt_case("ignore-term 2");
}
END_TEST

/* ---- output ---- */

static long max_rss_kb(void)
{
    struct rusage u;
    ck_assert_int_eq(getrusage(RUSAGE_SELF, &u), 0);
    return u.ru_maxrss;
}

/* The bot answers turn 1, then writes one endless line for the half second
 * the opponent thinks (gigabytes at pipe speed): the referee reads it all
 * without keeping it, and the line is rejected at the bot's turn 2. */
START_TEST(output_flood_stdout_between_turns)
{
    struct run r;
    run_init(&r, "flood-stdout 1 1", "sleep 1 500");
    long rss = max_rss_kb();
    lose_at(&r, 2, TX_REASON_INVALID, "line longer than 4096 bytes");
    /* the endless line began in turn 1's window, after its answer */
    ck_assert_int_eq(r.rec.players[0].extra_lines, 1);
    ck_assert_int_eq(r.rec.players[0].stderr_bytes, 0);
    if (getenv("TX_FAULTS_VERBOSE"))
        fprintf(stderr, "peak RSS of the referee: %ld KiB before, %ld KiB after\n", rss,
                max_rss_kb());
    ck_assert_msg(max_rss_kb() - rss < 32 * 1024, "the referee grew from %ld to %ld KiB", rss,
                  max_rss_kb());
    run_free(&r);
}
END_TEST

START_TEST(output_flood_stderr)
{
    enum { PER_TURN = 300000 };
    struct run r;
    struct expect e;
    char mode[64];
    snprintf(mode, sizeof mode, "flood-stderr 1 %d", PER_TURN);
    run_init(&r, mode, "play");
    expect_init(&e);
    simulate(&e, GOOD, PLAY, TX_MOVES_MAX);
    ck_assert_int_eq(e.g->winner, 0); /* the plan wins against the lowest-hole bot */
    run_game(&r);
    check_whole_game(&r, &e);
    int turns = (e.g->nmoves + 1) / 2;
    ck_assert_int_eq(r.rec.players[0].stderr_bytes, (int64_t)turns * PER_TURN);
    ck_assert_int_eq(r.rec.players[1].stderr_bytes, 0);
    /* the first TX_BOT_STDERR_KEPT bytes were kept, split over the turns */
    size_t kept = 0;
    for (int i = 0; i < r.rec.nmoves; i += 2)
        kept += r.rec.moves[i].stderr_text ? strlen(r.rec.moves[i].stderr_text) : 0;
    ck_assert_uint_eq(kept, STDERR_KEPT_MAX);
    run_free(&r);
}
END_TEST

START_TEST(output_binary)
{
    struct run r;
    run_init(&r, "binary 2", "play");
    lose_at(&r, 2, TX_REASON_INVALID, "not a move");
    check_quiet(&r);
    /* invalid UTF-8 became U+FFFD: the record is valid (check_record) */
    ck_assert_ptr_nonnull(strstr(r.rec.moves[2].move, "\xef\xbf\xbd"));
    run_free(&r);
}
END_TEST

/* Turn 2 answers C1 and a second line; the second line is turn 3's answer
 * (the bot prints nothing at turn 3), as on CodinGame, and it is extra.
 * _i = 0: both lines in one write; _i = 1: the second 20 ms later, while
 * the opponent still thinks (100 ms). The referee can only tell a late
 * line of turn 2 from a quick answer to turn 3 by when it arrives (a
 * turn's window runs from its input to the next), hence the slow opponent. */
START_TEST(output_two_lines)
{
    struct run r;
    struct expect e;
    char mode[32];
    snprintf(mode, sizeof mode, "two-lines 2 %d", 20 * _i);
    run_init(&r, mode, _i == 0 ? "play" : "sleep 2 100");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 2);
    e.force[4] = highest_legal(e.g);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_int_eq(r.rec.players[0].extra_lines, 1);
    ck_assert_int_eq(r.rec.players[1].extra_lines, 0);
    ck_assert_ptr_nonnull(r.rec.moves[4].message);
    ck_assert_str_eq(r.rec.moves[4].message, "second");
    run_free(&r);
}
END_TEST

/* 1000 copies of turn 2's answer in one write: the first is the answer,
 * the second is turn 3's (an occupied hole); the queue stays bounded. */
START_TEST(output_many_lines)
{
    struct run r;
    struct expect e;
    char want[40], name[8];
    run_init(&r, "lines 2 1000", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 4);
    snprintf(want, sizeof want, "occupied hole %s", tx_hole_name(geo, tx_game_move(e.g, 2), name));
    run_game(&r);
    check_verdict(&r, 1, TX_REASON_INVALID, want);
    check_moves(&r, &e, 4);
    ck_assert_int_eq(r.rec.nmoves, 5);
    ck_assert_str_eq(r.rec.moves[4].move, name);
    ck_assert_int_ge(r.rec.players[0].extra_lines, 1);
    ck_assert_int_le(r.rec.players[0].extra_lines, 999);
    run_free(&r);
}
END_TEST

/* Each turn's stderr goes with that turn: "before T" is written before the
 * answer of turn T, "after T" after it, before the next input is read.
 * Every "before T" must be on turn T. "after T" comes right after the
 * answer and may arrive after the next input was written (then it counts
 * for turn T + 1: the referee only sees when bytes arrive), except when
 * the opponent is slower than the bot: _i = 1 checks all of turn 1's
 * stderr with "after 1" 20 ms late and an opponent thinking 100 ms. */
START_TEST(output_stderr_per_turn)
{
    struct run r;
    struct expect e;
    run_init(&r, _i == 0 ? "stderr-turns 1 0" : "stderr-turns 1 20",
             _i == 0 ? "play" : "sleep 1 100");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    int64_t all = 0;
    for (int i = 0; i < r.rec.nmoves; i += 2) {
        char want[48];
        int n = snprintf(want, sizeof want, "before %d\n", i / 2 + 1);
        int both = n + snprintf(want + n, sizeof want - (size_t)n, "after %d\n", i / 2 + 1);
        all += both;
        const char *got = r.rec.moves[i].stderr_text;
        const char *before = got ? strstr(got, "before") : NULL; /* an "after" may come first */
        ck_assert_msg(before && strncmp(before, want, (size_t)n) == 0,
                      "moves[%d].stderr_text \"%s\" lacks \"%.*s\"", i, got ? got : "(null)", n,
                      want);
        if (_i == 1 && i == 0)
            ck_assert_msg(strcmp(got, want) == 0, "moves[%d].stderr_text \"%s\", expected \"%s\"",
                          i, got, want);
    }
    int64_t last_after = (int64_t)strlen("after 66\n");
    ck_assert_int_ge(r.rec.players[0].stderr_bytes, all - last_after);
    ck_assert_int_le(r.rec.players[0].stderr_bytes, all);
    run_free(&r);
}
END_TEST

/* "F6 early" is printed before the first input arrives: it is the answer
 * to turn 1 (the bot prints nothing after reading it). One line per turn:
 * no extra line. */
START_TEST(output_move_before_input)
{
    struct run r;
    struct expect e;
    run_init(&r, "early", "play");
    expect_init(&e);
    e.force[0] = hole("F6");
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_ptr_nonnull(r.rec.moves[0].message);
    ck_assert_str_eq(r.rec.moves[0].message, "early");
    check_quiet(&r);
    run_free(&r);
}
END_TEST

START_TEST(output_message_cut)
{
    struct run r;
    struct expect e;
    run_init(&r, "message 1", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_ptr_nonnull(r.rec.moves[0].message);
    ck_assert_str_eq(r.rec.moves[0].message, "\xc3\xa9t\xc3\xa9 message de trent");
    ck_assert(r.rec.moves[0].message_cut);
    ck_assert_ptr_null(r.rec.moves[1].message);
    ck_assert(!r.rec.moves[1].message_cut);
    check_quiet(&r);
    run_free(&r);
}
END_TEST

/* A line of exactly TX_ANSWER_LINE_MAX bytes is a move (its message is
 * cut); one byte more is not. */
START_TEST(output_line_at_the_bound)
{
    struct run r;
    struct expect e;
    run_init(&r, "long-line 1 4096", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_ptr_nonnull(r.rec.moves[0].message);
    ck_assert_str_eq(r.rec.moves[0].message, "mmmmmmmmmmmmmmmmmmmm");
    ck_assert(r.rec.moves[0].message_cut);
    run_free(&r);
}
END_TEST

START_TEST(output_invalid_utf8_message)
{
    struct run r;
    struct expect e;
    run_init(&r, "bad-message 1", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_ptr_nonnull(r.rec.moves[0].message);
    ck_assert_str_eq(r.rec.moves[0].message, "\xef\xbf\xbd\xef\xbf\xbd ok \xef\xbf\xbd");
    ck_assert(!r.rec.moves[0].message_cut);
    run_free(&r);
}
END_TEST

/* Closing stderr is no crash: the game goes on. */
START_TEST(output_close_stderr)
{
    struct run r;
    struct expect e;
    run_init(&r, "close-stderr 2", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    check_quiet(&r);
    run_free(&r);
}
END_TEST

START_TEST(output_crlf)
{
    struct run r;
    struct expect e;
    run_init(&r, "crlf", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_ptr_null(r.rec.moves[0].message);
    check_quiet(&r);
    run_free(&r);
}
END_TEST

/* ---- moves against the rules ---- */

START_TEST(rules_swap_by_player2_at_move_4)
{
    struct run r;
    struct expect e;
    run_init(&r, "play", "swap 2");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 3);
    run_game(&r);
    check_verdict(&r, 0, TX_REASON_INVALID, "SWAP not allowed at move 4");
    check_moves(&r, &e, 3);
    ck_assert_int_eq(r.rec.nmoves, 4);
    run_free(&r);
}
END_TEST

START_TEST(rules_occupied_hole)
{
    struct run r;
    struct expect e;
    char want[40], name[8];
    expect_init(&e);
    simulate(&e, PLAY, PLAY, 2);
    int h = 0;
    while (tx_game_cell(e.g, h) == TX_EMPTY)
        h++;
    snprintf(want, sizeof want, "occupied hole %s", tx_hole_name(geo, h, name));
    run_init(&r, "occupied 2", "play");
    lose_at(&r, 2, TX_REASON_INVALID, want);
    check_quiet(&r);
    run_free(&r);
}
END_TEST

/* ---- processes ---- */

/* The child keeps the bot's pipes open and sleeps a minute while the bot
 * plays on: the game must end without waiting for EOF, and the child must
 * die with the group. */
START_TEST(process_fork_then_play_on)
{
    struct run r;
    struct expect e;
    run_init(&r, "fork 2 1", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_msg(r.seconds < 10, "the game took %.1f s", r.seconds);
    run_free(&r);
}
END_TEST

/* ---- openings and board sizes ---- */

/* Forced openings played by the referee (forced, no time) of 0 to 3 moves,
 * with player 2 answering SWAP at move 2 when it can (after 0 or 1 forced
 * moves). Both bots echo every input to stderr (fault-bot --echo), so each
 * turn's recorded stderr is the input the match sent: it must be what the
 * verifier rebuilds (tx_verify_turn_input, which re-feeding sends), byte
 * for byte, and each bot's first line must be RULES.md "Forced openings"'
 * (FIRST or SWAP for player 1, player 1's last hole for player 2). Then
 * each player is re-fed its first turns, which must echo the same bytes. */
static const struct {
    int nopening;
    bool swap;
    const char *first_line[2]; /* each player's first input's first line */
} forced_cases[] = {
    {0, false, {"FIRST\n", "B1\n"}}, {0, true, {"FIRST\n", "B1\n"}},
    {1, false, {"FIRST\n", "F6\n"}}, {1, true, {"SWAP\n", "F6\n"}},
    {2, false, {"FIRST\n", "B1\n"}}, {3, false, {"FIRST\n", "D5\n"}},
};

START_TEST(game_forced_opening)
{
    static int16_t opening[3];
    struct run r;
    struct expect e;
    bool swap = forced_cases[_i].swap;
    run_init(&r, "play --echo --seed={seed}", swap ? "swapper --echo" : "play --echo");
    r.config.run = "fingerprint-of-the-run";
    opening[0] = (int16_t)hole("F6");
    opening[1] = (int16_t)hole("G8");
    opening[2] = (int16_t)hole("D5");
    r.spec.nopening = forced_cases[_i].nopening;
    r.spec.opening = opening;
    expect_init(&e);
    for (int i = 0; i < r.spec.nopening; i++)
        e.force[i] = opening[i];
    simulate(&e, PLAY, swap ? SWAPPER : PLAY, TX_MOVES_MAX);
    run_game(&r);
    ck_assert_ptr_nonnull(strstr(r.rec.players[0].command, "play --echo --seed=12345 "));
    strcpy(r.commands[0], r.rec.players[0].command);
    check_whole_game(&r, &e);
    if (swap)
        ck_assert_str_eq(r.rec.moves[1].move, "SWAP");
    ck_assert_int_eq(r.rec.players[0].extra_lines, 0);
    ck_assert_int_eq(r.rec.players[1].extra_lines, 0);

    static char want[TX_INPUT_MAX];
    bool first[2] = {true, true};
    for (int i = r.spec.nopening; i < r.rec.nmoves; i++) {
        int p = r.rec.moves[i].player,
            len = tx_verify_turn_input(geo, &r.rec, i, want, sizeof want);
        const char *sent = r.rec.moves[i].stderr_text;
        ck_assert_int_gt(len, 0);
        ck_assert_msg(sent && !strcmp(sent, want),
                      "move %d: the match sent\n%s\nthe verifier rebuilds\n%s", i + 1,
                      sent ? sent : "(nothing)", want);
        if (first[p]) {
            const char *line = forced_cases[_i].first_line[p];
            ck_assert_msg(!strncmp(sent, line, strlen(line)), "player %d's first input:\n%s", p + 1,
                          sent);
            first[p] = false;
        }
    }
    /* Re-fed, each player's first two turns are the same bytes again. */
    for (int p = 0; p < 2; p++) {
        struct tx_refeed_config rc = {.geo = geo,
                                      .record = &r.rec,
                                      .player = p,
                                      .command = r.commands[p],
                                      .upto = r.spec.nopening + 4,
                                      .limits = r.config.limits};
        struct tx_refeed_result res;
        char err[256];
        ck_assert_msg(tx_refeed_run(&rc, &res, err, sizeof err) == 0, "%s", err);
        size_t n = 0;
        want[0] = '\0';
        for (int k = 0; k < res.nturns; k++) {
            ck_assert_int_eq(res.turns[k].verdict, TX_REFEED_SAME);
            int len =
                tx_verify_turn_input(geo, &r.rec, res.turns[k].move - 1, want + n, sizeof want - n);
            ck_assert_int_gt(len, 0);
            n += (size_t)len;
        }
        ck_assert_int_eq(res.nturns, 2);
        ck_assert_ptr_nonnull(res.stderr_tail);
        ck_assert_str_eq(res.stderr_tail, want);
        tx_refeed_result_free(&res);
    }
    check_no_process(&r);
    run_free(&r);
}
END_TEST

/* An illegal forced opening is the schedule's bug: refused, nothing runs. */
START_TEST(game_illegal_opening_refused)
{
    static const char *const openings[][2] = {{"F6", "F6"}, {"F6", "A1"}, {"A6", "F6"}};
    int16_t opening[2] = {(int16_t)hole(openings[_i][0]), (int16_t)hole(openings[_i][1])};
    struct run r;
    run_init(&r, "play", "play");
    r.spec.nopening = 2;
    r.spec.opening = opening;
    uv_loop_t warm;
    ck_assert_int_eq(uv_loop_init(&warm), 0);
    ck_assert_int_eq(uv_loop_close(&warm), 0);
    int fds = count_fds();
    ck_assert_int_eq(uv_loop_init(&r.loop), 0);
    ck_assert_int_eq(tx_match_start(&r.loop, &r.config, &r.spec, done_cb, &r, &r.match), -EINVAL);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(r.ndone, 0);
    ck_assert_int_eq(uv_loop_close(&r.loop), 0);
    ck_assert_int_eq(count_fds(), fds);
    ck_assert_int_ne(access(r.pid_file, F_OK), 0); /* no bot ran */
}
END_TEST

/* Other board sizes ({size} tells the bots): 5 (a win), 6 (a draw: the
 * player to move has no legal hole), 26 (a 649-move draw whose late
 * inputs are about 10 KB). */
START_TEST(game_board_sizes)
{
    static const int sizes[] = {5, 6, 26};
    struct run r;
    struct expect e;
    char want[32];
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(sizes[_i], sizes[_i], &geo)), 0);
    run_init(&r, "play --size={size}", "play --size={size}");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    snprintf(want, sizeof want, "play --size=%d ", sizes[_i]);
    ck_assert_ptr_nonnull(strstr(r.rec.players[0].command, want));
    strcpy(r.commands[0], r.rec.players[0].command);
    strcpy(r.commands[1], r.rec.players[1].command);
    check_whole_game(&r, &e);
    ck_assert_int_eq(r.rec.nmoves, e.g->nmoves);
    check_quiet(&r);
    run_free(&r);
}
END_TEST

/* The index of hole name in a list of n names, or -1. */
static int index_of(char names[][TX_HOLE_NAME_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* One side of an input (RULES.md "Input"): its pegs, in placement order,
 * and its links as pairs of indexes in that order. Reads from *at and
 * moves it past the side. */
struct side {
    int npegs, nlinks;
    char pegs[128][TX_HOLE_NAME_MAX];
    int links[256][2];
    char link_names[256][16];
};

static void read_side(const char **at, struct side *sd)
{
    int n = 0;
    ck_assert_int_eq(sscanf(*at, "%d\n%n", &sd->npegs, &n), 1);
    *at += n;
    for (int i = 0; i < sd->npegs; i++) {
        ck_assert_int_eq(sscanf(*at, "%5s\n%n", sd->pegs[i], &n), 1);
        *at += n;
    }
    ck_assert_int_eq(sscanf(*at, "%d\n%n", &sd->nlinks, &n), 1);
    *at += n;
    for (int i = 0; i < sd->nlinks; i++) {
        char a[8], b[8];
        ck_assert_int_eq(sscanf(*at, "%5s %5s\n%n", a, b, &n), 2);
        *at += n;
        sd->links[i][0] = index_of(sd->pegs, sd->npegs, a);
        sd->links[i][1] = index_of(sd->pegs, sd->npegs, b);
        snprintf(sd->link_names[i], sizeof sd->link_names[i], "%s %s", a, b);
    }
}

/* The links of a side are listed as RULES.md says, whatever edits made
 * them: the older peg first, by the placement of the newer peg, then of
 * the older one. Checked from the input's own lists, not with libtwixt. */
static void check_link_order(const struct side *sd, int move)
{
    for (int i = 0; i < sd->nlinks; i++) {
        const int *l = sd->links[i];
        ck_assert_msg(l[0] >= 0 && l[1] >= 0 && l[0] < l[1],
                      "move %d: link %s is not two pegs, the older first", move, sd->link_names[i]);
        if (i > 0) {
            const int *p = sd->links[i - 1];
            ck_assert_msg(p[1] < l[1] || (p[1] == l[1] && p[0] < l[0]),
                          "move %d: link %s listed after %s", move, sd->link_names[i],
                          sd->link_names[i - 1]);
        }
    }
}

/* Classic rules on a 9 x 7 board: fault-bot "editor" removes one of its
 * links, adds another and every third turn declines an automatic one, at
 * every turn; its opponent plays. Both echo their inputs. The record
 * verifies; each input is what the verifier rebuilds (so what re-feeding
 * sends), byte for byte; its link lists are in RULES.md's order; the
 * opponent sees the editor's links disappear and come back; and each
 * player re-fed its first turns gives the same answers, edits included,
 * and reads the same bytes. */
START_TEST(game_classic_link_edits)
{
    struct run r;
    static struct side sides[2];
    static char want[TX_INPUT_MAX];
    ck_assert_int_eq((tx_geometry_free(geo), tx_geometry_new(9, 7, &geo)), 0);
    run_init(&r, "editor --echo", "play --echo");
    tx_match_config_init(&r.config, geo, TX_RULES_CLASSIC);
    run_game(&r);
    check_record(&r);
    ck_assert_int_eq(r.rec.rules, TX_RULES_CLASSIC);
    int kinds[3] = {0, 0, 0}, gone = 0;
    for (int i = 0; i < r.rec.nmoves; i++)
        for (int k = 0; k < r.rec.moves[i].nedits; k++) {
            ck_assert_int_eq(r.rec.moves[i].player, 0);
            kinds[strchr("-+~", r.rec.moves[i].edits[k][0]) - "-+~"]++;
        }
    ck_assert_msg(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0, "edits - %d + %d ~ %d", kinds[0],
                  kinds[1], kinds[2]);
    char seen[256][16];
    int nseen = 0;
    for (int i = 0; i < r.rec.nmoves; i++) {
        const char *sent = r.rec.moves[i].stderr_text;
        int len = tx_verify_turn_input(geo, &r.rec, i, want, sizeof want);
        ck_assert_int_gt(len, 0);
        ck_assert_msg(sent && !strcmp(sent, want),
                      "move %d: the match sent\n%s\nthe verifier rebuilds\n%s", i + 1,
                      sent ? sent : "(nothing)", want);
        const char *at = strchr(sent, '\n') + 1;
        read_side(&at, &sides[0]);
        read_side(&at, &sides[1]);
        check_link_order(&sides[0], i + 1);
        check_link_order(&sides[1], i + 1);
        if (r.rec.moves[i].player != 1)
            continue;
        /* The editor's links as its opponent sees them: one seen at an
         * earlier turn and missing now was removed. */
        for (int k = 0; k < nseen; k++) {
            bool still = false;
            for (int j = 0; j < sides[1].nlinks && !still; j++)
                still = !strcmp(seen[k], sides[1].link_names[j]);
            gone += !still;
        }
        nseen = 0;
        for (int j = 0; j < sides[1].nlinks && nseen < 256; j++)
            snprintf(seen[nseen++], sizeof seen[0], "%s", sides[1].link_names[j]);
    }
    ck_assert_int_gt(gone, 0);
    for (int p = 0; p < 2; p++) {
        struct tx_refeed_config rc = {.geo = geo,
                                      .record = &r.rec,
                                      .player = p,
                                      .command = r.commands[p],
                                      .upto = 14,
                                      .limits = r.config.limits};
        struct tx_refeed_result res;
        char err[256];
        ck_assert_msg(tx_refeed_run(&rc, &res, err, sizeof err) == 0, "%s", err);
        size_t n = 0;
        for (int k = 0; k < res.nturns; k++) {
            ck_assert_msg(res.turns[k].verdict == TX_REFEED_SAME,
                          "player %d, move %d: %s%s, recorded %s%s", p + 1, res.turns[k].move,
                          res.turns[k].answer, res.turns[k].answer_edits, res.turns[k].recorded,
                          res.turns[k].recorded_edits);
            int len =
                tx_verify_turn_input(geo, &r.rec, res.turns[k].move - 1, want + n, sizeof want - n);
            ck_assert_int_gt(len, 0);
            n += (size_t)len;
        }
        ck_assert_int_eq(res.nturns, 7);
        ck_assert_ptr_nonnull(res.stderr_tail);
        ck_assert_str_eq(res.stderr_tail, want);
        tx_refeed_result_free(&res);
    }
    check_no_process(&r);
    run_free(&r);
}
END_TEST

/* The child calls setsid() (_i = 0), or is a daemon (_i = 1: double fork):
 * it leaves the bot's process group, so killing the group misses it. The
 * game must still end at once although the child holds the pipes, and the
 * child must be gone (the daemon: see check_no_process). */
START_TEST(process_fork_leaving_group)
{
    struct run r;
    struct expect e;
    run_init(&r, _i == 0 ? "fork 2 2" : "fork 2 3", "play");
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    ck_assert_msg(r.seconds < 10, "the game took %.1f s", r.seconds);
    run_free(&r);
}
END_TEST

/* How the launcher started the bot, as the bot itself sees it: below the
 * referee's priority, in the session and group its launcher leads (the
 * launcher stays as its keeper), holding only stdin, stdout and stderr,
 * under the memory limit, without core dumps. */
START_TEST(process_launcher_limits)
{
    struct run r;
    struct expect e;
    run_init(&r, "report 1", "play");
    r.config.limits.memory_mb = 100;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    run_game(&r);
    check_whole_game(&r, &e);
    const char *text = r.rec.moves[0].stderr_text;
    ck_assert_ptr_nonnull(text);
    int nice_value, group, session, fds, end = 0;
    long data_mb, core;
    ck_assert_msg(sscanf(text, "nice=%d group=%d session=%d fds=%d data_mb=%ld core=%ld\n%n",
                         &nice_value, &group, &session, &fds, &data_mb, &core, &end) == 6 &&
                      text[end] == '\0',
                  "the bot reported \"%s\"", text);
    errno = 0;
    int own_nice = getpriority(PRIO_PROCESS, 0);
    ck_assert_msg(nice_value > own_nice || own_nice == 19, "bot at nice %d, referee at %d",
                  nice_value, own_nice);
    ck_assert_int_eq(group, 0);
    ck_assert_int_eq(session, 0);
    ck_assert_msg(fds == 3, "the bot holds %d descriptors, not just stdin, stdout, stderr", fds);
    ck_assert_int_eq(data_mb, 100);
    ck_assert_int_eq(core, 0);
    run_free(&r);
}
END_TEST

/* Many games on one loop, as the tournament runs them: bots that hang,
 * flood, crash, fork and overrun in some games do not disturb the others,
 * and every game gets its own verdict. */
START_TEST(process_many_games_one_loop)
{
    static const struct {
        const char *bots[2];
        int winner; /* -2: the fault-free game (simulated) */
        enum tx_reason reason;
        const char *detail;
    } games[] = {
        {{"hang 2", "play"}, 1, TX_REASON_TIMEOUT, "200 ms"},
        {{"play", "play"}, -2, TX_REASON_CONNECTION, NULL},
        {{"flood-stdout 1 1", "play"}, 1, TX_REASON_INVALID, "longer than 4096"},
        {{"play", "crash-signal 3"}, 0, TX_REASON_CRASH, "signal 11"},
        {{"fork 2 1", "play"}, -2, TX_REASON_CONNECTION, NULL},
        {{"ignore-term 1", "play"}, 1, TX_REASON_TIMEOUT, "1000 ms"},
        {{"flood-stderr 1 100000", "play"}, 0, TX_REASON_CONNECTION, "F1-E12"},
        {{"play", "garbage 4"}, 0, TX_REASON_INVALID, "#garbage!"},
    };
    enum { NGAMES = sizeof games / sizeof games[0] };
    static struct run runs[NGAMES]; /* large: not on the stack */
    uv_loop_t warm;
    ck_assert_int_eq(uv_loop_init(&warm), 0);
    ck_assert_int_eq(uv_loop_close(&warm), 0);
    int fds = count_fds();
    uv_loop_t *loop = &runs[0].loop;
    for (int i = 0; i < NGAMES; i++) {
        run_init(&runs[i], games[i].bots[0], games[i].bots[1]);
        runs[i].config.limits.turn_ms = 200;
        runs[i].spec.index = i + 1;
    }
    ck_assert_int_eq(uv_loop_init(loop), 0);
    for (int i = 0; i < NGAMES; i++)
        ck_assert_int_eq(
            tx_match_start(loop, &runs[i].config, &runs[i].spec, done_cb, &runs[i], &runs[i].match),
            0);
    uv_run(loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(loop), 0);
    for (int i = 0; i < NGAMES; i++) {
        ck_assert_int_eq(runs[i].ndone, 1);
        check_no_process(&runs[i]);
    }
    ck_assert_int_eq(count_fds(), fds);
    struct expect e;
    expect_init(&e);
    simulate(&e, PLAY, PLAY, TX_MOVES_MAX);
    for (int i = 0; i < NGAMES; i++) {
        if (games[i].winner == -2)
            check_whole_game(&runs[i], &e);
        else
            check_verdict(&runs[i], games[i].winner, games[i].reason, games[i].detail);
        run_free(&runs[i]);
    }
}
END_TEST

/* Reads the pids of the bots noted in pid_file; returns how many. */
static int bot_pids(const char *pid_file, int *pids, int cap)
{
    FILE *f = fopen(pid_file, "re");
    int n = 0, pid;
    char kind[16];
    while (f && n < cap && fscanf(f, "%15s %d", kind, &pid) == 2)
        if (strcmp(kind, "bot") == 0)
            pids[n++] = pid;
    if (f)
        fclose(f);
    return n;
}

/* The referee itself is killed (SIGKILL: no cleanup at all) mid-game:
 * its bots must die with it (PR_SET_PDEATHSIG), not run on. */
START_TEST(process_referee_killed)
{
    struct run r;
    run_init(&r, "hang 1", "play");
    r.config.limits.first_turn_ms = 20000;
    pid_t referee = fork();
    ck_assert_int_ge(referee, 0);
    if (referee == 0) { /* the referee: plays until it is killed */
        if (uv_loop_init(&r.loop) == 0 &&
            tx_match_start(&r.loop, &r.config, &r.spec, done_cb, &r, &r.match) == 0)
            uv_run(&r.loop, UV_RUN_DEFAULT);
        _exit(3);
    }
    int pids[2], n = 0;
    for (int waited = 0; (n = bot_pids(r.pid_file, pids, 2)) < 2 && waited < 5000; waited += 10)
        usleep(10000);
    usleep(50000); /* player 1 is on move, hanging */
    kill(referee, SIGKILL);
    int status;
    ck_assert_int_eq(waitpid(referee, &status, 0), referee);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < n; i++) {
        int waited = 0;
        while (!is_zombie_or_gone(pids[i]) && waited < 1000) {
            usleep(10000);
            waited += 10;
        }
        if (!is_zombie_or_gone(pids[i]))
            kill(pids[i], SIGKILL);
        ck_assert_msg(waited < 1000, "bot %d outlived its referee by 1 s", pids[i]);
    }
    unlink(r.pid_file);
}
END_TEST

/* ---- a whole game against its golden record ---- */

static void replace_string(cJSON *obj, const char *key, const char *value)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, cJSON_CreateString(value));
}

/* The record with what changes from run to run replaced: times, start
 * time, version, hashes, the build directory and the pid file in command
 * lines. */
static char *normalised_json(const struct tx_record *rec)
{
    char *text = NULL;
    ck_assert_int_eq(tx_record_to_json(rec, &text), 0);
    cJSON *root = cJSON_Parse(text);
    ck_assert_ptr_nonnull(root);
    free(text);
    replace_string(root, "started", "2026-01-01T00:00:00Z");
    replace_string(root, "referee", "twixt-arena");
    cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "players"))
    {
        if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, "sha256")))
            replace_string(p, "sha256", /* a hash of nothing in particular, of the right form */
                           "0000000000000000000000000000000000000000000000000000000000000000");
        cJSON *cmd = cJSON_GetObjectItemCaseSensitive(p, "command");
        ck_assert(cJSON_IsString(cmd));
        const char *at = strstr(cmd->valuestring, FAULT_BOT_WORD);
        ck_assert_ptr_nonnull(at);
        char buf[600];
        snprintf(buf, sizeof buf, "fault-bot%s", at + strlen(FAULT_BOT_WORD));
        char *pid_file = strstr(buf, " --pid-file=");
        if (pid_file)
            *pid_file = '\0';
        replace_string(p, "command", buf);
    }
    cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(root, "moves"))
    {
        cJSON *us = cJSON_GetObjectItemCaseSensitive(m, "us");
        ck_assert(cJSON_IsNumber(us));
        if (us->valuedouble >= 0)
            cJSON_SetNumberValue(us, 1000);
    }
    char *out = cJSON_Print(root);
    cJSON_Delete(root);
    ck_assert_ptr_nonnull(out);
    return out;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Compares the normalised record with the golden file at path (after
 * writing it there when TX_UPDATE_GOLDEN=1), and reads the file back. */
static void check_golden(const struct tx_record *rec, const char *path)
{
    char *got = normalised_json(rec);
    if (getenv("TX_UPDATE_GOLDEN") && strcmp(getenv("TX_UPDATE_GOLDEN"), "1") == 0) {
        FILE *f = fopen(path, "we");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "%s\n", got);
        ck_assert_int_eq(fclose(f), 0);
    }
    char *want = read_file(path);
    ck_assert_msg(want, "cannot read %s (TX_UPDATE_GOLDEN=1 writes it)", path);
    size_t len = strlen(want);
    if (len > 0 && want[len - 1] == '\n')
        want[len - 1] = '\0';
    size_t at = 0;
    while (got[at] && got[at] == want[at])
        at++;
    ck_assert_msg(got[at] == want[at], "record differs from %s at byte %zu: got ...%.60s", path, at,
                  got + (at > 20 ? at - 20 : 0));
    struct tx_record back;
    char err[256];
    ck_assert_msg(tx_record_from_json(want, strlen(want), &back, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(back.nmoves, rec->nmoves);
    tx_record_free(&back);
    free(got);
    free(want);
}

/* A whole game won on merit, with a swap and {size} in the commands. */
START_TEST(golden_good_against_swapper)
{
    struct run r;
    struct expect e;
    run_init(&r, "good --size={size}", "swapper --size={size}");
    r.spec.seed = 42;
    r.spec.index = 1;
    run_game(&r);
    /* the command as recorded has the placeholder expanded */
    ck_assert_ptr_nonnull(strstr(r.rec.players[0].command, "good --size=12"));
    strcpy(r.commands[0], r.rec.players[0].command); /* for check_record */
    strcpy(r.commands[1], r.rec.players[1].command);
    expect_init(&e);
    simulate(&e, GOOD, SWAPPER, TX_MOVES_MAX);
    check_whole_game(&r, &e);
    ck_assert_str_eq(r.rec.moves[1].move, "SWAP");
    check_quiet(&r);
    check_golden(&r.rec, TX_GOLDEN_DIR "/good-vs-swapper.json");
    run_free(&r);
}
END_TEST

/* A lost game: a cut message, a rejected token, soft limits and a margin. */
START_TEST(golden_message_against_garbage)
{
    struct run r;
    run_init(&r, "message 2", "garbage 3");
    r.spec.seed = 43;
    r.spec.index = 2;
    r.config.limits.turn_ms = 250;
    r.config.limits.margin_ms = 20;
    r.config.limits.soft = true;
    run_game(&r);
    check_verdict(&r, 0, TX_REASON_INVALID, "not a move: \"#garbage!\"");
    ck_assert_int_eq(r.rec.nmoves, 6);
    ck_assert(r.rec.moves[2].message_cut);
    check_quiet(&r);
    check_golden(&r.rec, TX_GOLDEN_DIR "/message-vs-garbage.json");
    run_free(&r);
}
END_TEST

static TCase *tcase(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup_geometry, NULL);
    tcase_set_timeout(tc, CASE_TIMEOUT_S);
    return tc;
}

/* A program rewritten between two games, in place (the same inode), to the
 * same size and with its mtime put back (as cp -p, tar or rsync -t can):
 * the second record has the new program's hash, not the first's from the
 * cache of hashes (sha256.c keys it on the change time too). */
static void write_program(const char *path, const char *text, int flags)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0755);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(pwrite(fd, text, strlen(text), 0), (ssize_t)strlen(text));
    close(fd);
}

static void hash_text(const char *text, char hex[TX_SHA256_HEX])
{
    struct tx_sha256 s;
    tx_sha256_init(&s);
    tx_sha256_update(&s, text, strlen(text));
    tx_sha256_final(&s, hex);
}

START_TEST(process_rewritten_program_new_sha256)
{
    char path[64], first[256], second[256], hex[TX_SHA256_HEX];
    snprintf(path, sizeof path, "/tmp/tx-faults-rewritten-%d", (int)getpid());
    snprintf(first, sizeof first, "#!/bin/sh\nexec %s play # 1\n", FAULT_BOT_WORD);
    snprintf(second, sizeof second, "#!/bin/sh\nexec %s play # 2\n", FAULT_BOT_WORD);
    unlink(path);
    write_program(path, first, O_CREAT | O_EXCL);
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);

    struct run r;
    run_init(&r, path, "play");
    run_game(&r);
    hash_text(first, hex);
    ck_assert_ptr_nonnull(r.rec.players[0].sha256);
    ck_assert_str_eq(r.rec.players[0].sha256, hex);
    run_free(&r);

    write_program(path, second, 0);
    struct timespec times[2] = {before.st_atim, before.st_mtim};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert(after.st_ino == before.st_ino && after.st_size == before.st_size &&
              after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
              after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);

    run_init(&r, path, "play");
    run_game(&r);
    unlink(path);
    hash_text(second, hex);
    ck_assert_ptr_nonnull(r.rec.players[0].sha256);
    ck_assert_str_eq(r.rec.players[0].sha256, hex);
    run_free(&r);
}
END_TEST

static Suite *match_suite(void)
{
    Suite *s = suite_create("match");
    TCase *tc = tcase("matrix");
    tcase_add_loop_test(tc, fault_in_play_and_refed, 0,
                        (int)(sizeof fault_cases / sizeof fault_cases[0]));
    suite_add_tcase(s, tc);

    tc = tcase("crash");
    tcase_add_test(tc, crash_player2);
    tcase_add_test(tc, crash_after_answer_then_opponent_hangs);
    tcase_add_test(tc, crash_memory_limit);
    tcase_add_test(tc, crash_missing_program);
    tcase_add_test(tc, crash_not_executable);
    tcase_add_loop_test(tc, crash_bad_command_line, 0, 2);
    tcase_add_test(tc, crash_both_missing);
    suite_add_tcase(s, tc);

    tc = tcase("time");
    tcase_add_test(tc, time_sleep_under_limit);
    tcase_add_test(tc, time_first_turn_900ms_allowed);
    tcase_add_test(tc, time_soft_timeouts);
    tcase_add_test(tc, time_margin);
    tcase_add_test(tc, time_interrupt_at_once);
    tcase_add_test(tc, time_interrupt);
    tcase_add_test(tc, time_interrupt_ignoring_sigterm);
    suite_add_tcase(s, tc);

    tc = tcase("output");
    tcase_add_test(tc, output_flood_stdout_between_turns);
    tcase_add_test(tc, output_flood_stderr);
    tcase_add_test(tc, output_binary);
    tcase_add_loop_test(tc, output_two_lines, 0, 2);
    tcase_add_test(tc, output_many_lines);
    tcase_add_loop_test(tc, output_stderr_per_turn, 0, 2);
    tcase_add_test(tc, output_move_before_input);
    tcase_add_test(tc, output_message_cut);
    tcase_add_test(tc, output_line_at_the_bound);
    tcase_add_test(tc, output_invalid_utf8_message);
    tcase_add_test(tc, output_close_stderr);
    tcase_add_test(tc, output_crlf);
    suite_add_tcase(s, tc);

    tc = tcase("rules");
    tcase_add_test(tc, rules_swap_by_player2_at_move_4);
    tcase_add_test(tc, rules_occupied_hole);
    suite_add_tcase(s, tc);

    tc = tcase("process");
    tcase_add_test(tc, process_fork_then_play_on);
    tcase_add_loop_test(tc, process_fork_leaving_group, 0, 2);
    tcase_add_test(tc, process_many_games_one_loop);
    tcase_add_test(tc, process_rewritten_program_new_sha256);
    tcase_add_test(tc, process_referee_killed);
    tcase_add_test(tc, process_launcher_limits);
    suite_add_tcase(s, tc);

    tc = tcase("game");
    tcase_add_loop_test(tc, game_forced_opening, 0,
                        (int)(sizeof forced_cases / sizeof forced_cases[0]));
    tcase_add_loop_test(tc, game_board_sizes, 0, 3);
    tcase_add_test(tc, game_classic_link_edits);
    tcase_add_loop_test(tc, game_illegal_opening_refused, 0, 3);
    suite_add_tcase(s, tc);

    tc = tcase("golden");
    tcase_add_test(tc, golden_good_against_swapper);
    tcase_add_test(tc, golden_message_against_garbage);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(match_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
