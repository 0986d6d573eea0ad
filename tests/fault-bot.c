/* fault-bot.c - a Twixt-PP bot that misbehaves on purpose, for the fault
 * matrix of the referee's match (tests/test-match.c).
 *
 *   fault-bot MODE [K [N]] [--pid-file=PATH] [--size=S | --board=WxH] [--rules=R]
 *             [--seed=X] [--echo] [--choose=1|2]
 *
 * K is the bot's own turn (1-based) at which the fault happens (default 1),
 * N a parameter of the mode (milliseconds, bytes). On every other turn the
 * bot plays well enough to keep the game going: the lowest-index legal hole,
 * computed from its input with libtwixt exactly as a real bot would
 * (tx_input_parse, tx_game_from_input, tx_game_legal_moves). Only the mode
 * "swapper" ever answers SWAP legally, so every other game is predictable,
 * and test-match.c replays the same strategies in-process to know each
 * move the referee must record.
 *
 * With --pid-file the bot appends "bot PID" at start-up (and "child PID" for
 * a child it forks, "escaped PID" or "daemon PID" when it hides), so the
 * test can check that no process of the game survives it. With --echo it
 * copies every input it reads to stderr, byte for byte, before it answers
 * (the tests compare what the referee sent with what the verifier
 * rebuilds). The bot exits 0 when its stdin ends (the game is over).
 *
 * The board and the rule set are TWIXT_WIDTH, TWIXT_HEIGHT and TWIXT_RULES,
 * which the referee gives every bot, unless --size, --board or --rules say
 * otherwise. The "good" plan is a zigzag of knight links down the middle of
 * any board (for player 2, across it). Under classic rules the mode
 * "editor" makes link edits every turn (see edits_for), deterministic like
 * everything else here, so that its opponent's inputs show links that
 * disappear and come back.
 *
 * The opening and the seats are TWIXT_OPENING and TWIXT_TEAMS: the bot
 * learns its colour as bot-side.h says and plays every opening (pie: only
 * "swapper" and "swap" answer SWAP; cut: its first answer as player 1 is
 * a cut of the two lowest holes red may use, linked when they are a
 * knight's move apart, and the lowest black one; as player 2 it answers
 * CHOOSE 2, or CHOOSE 1 with --choose=1) and Double TwixT. The modes
 * "privilege", "bad-cut" and "bad-choose" misbehave in those.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "bot-side.h"
#include "game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"

/* What the bot does at its turn K (or from turn K on, for the "every turn"
 * modes). */
enum mode {
    MODE_PLAY,         /* never misbehaves: lowest-index legal hole */
    MODE_SWAPPER,      /* SWAP when allowed, else like play */
    MODE_GOOD,         /* follows a short winning plan, else like play */
    MODE_FLOOD_STDERR, /* like good, and writes N bytes to stderr every turn from K */
    MODE_CRASH_SIGNAL, /* dies of SIGSEGV after reading input K */
    MODE_CRASH_EXIT,   /* exit status 3 after reading input K */
    MODE_EXIT0,        /* exit status 0 after reading input K */
    MODE_CLOSE_STDOUT, /* closes stdout at turn K and keeps running (N=1: after answering) */
    MODE_HANG,         /* never answers turn K */
    MODE_IGNORE_TERM,  /* ignores SIGTERM from the start, never answers turn K */
    MODE_SLEEP,        /* sleeps N ms before answering turn K */
    MODE_SLOW,         /* sleeps N ms before answering every turn from K */
    MODE_FLOOD_STDOUT, /* writes bytes without a newline at turn K until stopped
                          (N=1: after answering turn K, while the opponent thinks) */
    MODE_GARBAGE,      /* answers "#garbage!" at turn K */
    MODE_BINARY,       /* answers invalid UTF-8 and control bytes at turn K */
    MODE_NUL,          /* answers the hole name with a NUL byte inside at turn K */
    MODE_EMPTY,        /* answers an empty line at turn K */
    MODE_LOWER,        /* answers the hole name in lower case at turn K */
    MODE_TWO_LINES,    /* answers two lines at turn K (N ms apart), nothing at turn K + 1 */
    MODE_EARLY,        /* prints "F6 early" before reading input, skips answering turn 1 */
    MODE_FORK,         /* forks a child holding the pipes at turn K, then N=0: exits 0,
                          N=1: plays on, N=2: plays on and the child leaves the group (setsid),
                          N=3: plays on and the child is a daemon (double fork, setsid) */
    MODE_MEMORY,       /* allocates memory without end at turn K, aborts on failure */
    MODE_SWAP,         /* answers SWAP at turn K */
    MODE_OCCUPIED,     /* answers the lowest-index occupied hole at turn K */
    MODE_BORDER,       /* answers the highest vacant hole of the opponent's border at turn K */
    MODE_MESSAGE,      /* adds a 26-character UTF-8 message at turn K */
    MODE_CRLF,         /* ends every answer with "\r\n" */
    MODE_LINES,        /* prints its answer N times at turn K, in one write */
    MODE_CLOSE_STDIN,  /* closes stdin at turn K, answers and keeps running */
    MODE_EXIT_AFTER,   /* answers turn K, then exits 0 */
    MODE_STDERR_TURNS, /* writes "before T\n" to stderr, answers, writes "after T\n"
                          (N ms later at turn K) */
    MODE_SPIN,         /* burns CPU without end at turn K */
    MODE_LONG_LINE,    /* answers turn K with a line of exactly N bytes (a long message) */
    MODE_BAD_MESSAGE,  /* answers turn K with a message of invalid UTF-8 */
    MODE_REPORT,       /* at turn K, reports how it was started on stderr (see report) */
    MODE_CLOSE_STDERR, /* closes stderr at turn K and plays on */
    MODE_PARTIAL,      /* prints its move without "\n" at turn K, then N=0: hangs, N=1: exits 0 */
    MODE_EDITOR,       /* classic: like play, with link edits every turn from K (edits_for) */
    MODE_PRIVILEGE,    /* Double TwixT: calls !privilege at turn K (and at K + N when N > 0) */
    MODE_BAD_CUT,      /* cut: its cut at turn K names one hole twice */
    MODE_BAD_CHOOSE,   /* cut: answers a hole at turn K, where CHOOSE is expected */
};

static const char *const mode_names[] = {
    [MODE_PLAY] = "play",
    [MODE_SWAPPER] = "swapper",
    [MODE_GOOD] = "good",
    [MODE_FLOOD_STDERR] = "flood-stderr",
    [MODE_CRASH_SIGNAL] = "crash-signal",
    [MODE_CRASH_EXIT] = "crash-exit",
    [MODE_EXIT0] = "exit0",
    [MODE_CLOSE_STDOUT] = "close-stdout",
    [MODE_HANG] = "hang",
    [MODE_IGNORE_TERM] = "ignore-term",
    [MODE_SLEEP] = "sleep",
    [MODE_SLOW] = "slow",
    [MODE_FLOOD_STDOUT] = "flood-stdout",
    [MODE_GARBAGE] = "garbage",
    [MODE_BINARY] = "binary",
    [MODE_NUL] = "nul",
    [MODE_EMPTY] = "empty",
    [MODE_LOWER] = "lower",
    [MODE_TWO_LINES] = "two-lines",
    [MODE_EARLY] = "early",
    [MODE_FORK] = "fork",
    [MODE_MEMORY] = "memory",
    [MODE_SWAP] = "swap",
    [MODE_OCCUPIED] = "occupied",
    [MODE_BORDER] = "border",
    [MODE_MESSAGE] = "message",
    [MODE_CRLF] = "crlf",
    [MODE_LINES] = "lines",
    [MODE_CLOSE_STDIN] = "close-stdin",
    [MODE_EXIT_AFTER] = "exit-after",
    [MODE_STDERR_TURNS] = "stderr-turns",
    [MODE_SPIN] = "spin",
    [MODE_LONG_LINE] = "long-line",
    [MODE_BAD_MESSAGE] = "bad-message",
    [MODE_REPORT] = "report",
    [MODE_CLOSE_STDERR] = "close-stderr",
    [MODE_PARTIAL] = "partial",
    [MODE_EDITOR] = "editor",
    [MODE_PRIVILEGE] = "privilege",
    [MODE_BAD_CUT] = "bad-cut",
    [MODE_BAD_CHOOSE] = "bad-choose",
};

#define MODES ((int)(sizeof mode_names / sizeof mode_names[0]))
#define MEMORY_CAP_MB 1024 /* "memory" gives up here: the limit was not applied */

/* The plan of the "good" bots for player 0: a zigzag of knight links from
 * row 1 to the last row down the two middle columns, that the lowest-index
 * opponent never blocks: on 12 x 12 F1 G3 F5 G7 F9 G11 E12. Player 1 plays
 * the same plan across the board (x and y exchanged): on a square board the
 * mirror image (A6 C7 E6 G7 I6 K7 L5). */
#define PLAN_MAX (TX_SIDE_MAX / 2 + 2)

struct bot {
    enum mode mode;
    struct tx_variant variant; /* the board and the rule set */
    int k;                     /* the faulty turn */
    long n;                    /* the mode's parameter */
    const char *pid_file;      /* NULL: do not write pids */
    bool echo;                 /* --echo: copy each input to stderr */
    int turn;                  /* own turns read so far */
    int me;                    /* the colour it plays now, 0 or 1 (bot-side.h) */
    struct bot_side side;
    int choose;     /* its answer after a cut: 1 or 2 (--choose) */
    bool skip_next; /* the answer to this turn was already printed */
    struct tx_geometry *geo;
    struct tx_game *game; /* sized for geo */
    struct tx_input in;
    char text[TX_INPUT_MAX + 64];
    size_t len;
};

static struct bot bot; /* large: static storage, not the stack */

static void die(const char *what)
{
    fprintf(stderr, "fault-bot: %s\n", what);
    exit(4);
}

static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            exit(0); /* the referee is gone: nothing left to do */
        buf += n;
        len -= (size_t)n;
    }
}

static void say(const char *line)
{
    write_all(STDOUT_FILENO, line, strlen(line));
}

static void sleep_ms(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
        ;
}

static void hang(void)
{
    for (;;)
        pause();
}

static void note_pid(const char *kind)
{
    if (!bot.pid_file)
        return;
    int fd = open(bot.pid_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        die("cannot open the pid file");
    char line[64];
    int n = snprintf(line, sizeof line, "%s %d\n", kind, (int)getpid());
    write_all(fd, line, (size_t)n);
    close(fd);
}

/* Appends one line of stdin (with its "\n") to bot.text; false at EOF. */
static bool read_line(void)
{
    size_t room = sizeof bot.text - bot.len;
    if (room < 2 || !fgets(bot.text + bot.len, (int)room, stdin))
        return false;
    size_t n = strlen(bot.text + bot.len);
    if (n == 0 || bot.text[bot.len + n - 1] != '\n')
        return false;
    bot.len += n;
    return true;
}

/* Reads a count line and that many lines after it. */
static bool read_list(void)
{
    size_t start = bot.len;
    if (!read_line())
        return false;
    int count = atoi(bot.text + start);
    for (int i = 0; i < count; i++)
        if (!read_line())
            return false;
    return true;
}

/* Reads one turn's input; false when stdin ended (the game is over). */
static bool read_turn(void)
{
    bot.len = 0;
    if (!read_line())
        return false;
    for (int i = 0; i < 4; i++)
        if (!read_list())
            die("input ended in the middle of a turn");
    if (bot.echo)
        write_all(STDERR_FILENO, bot.text, bot.len);
    char err[128];
    if (tx_input_parse(bot.geo, bot.text, bot.len, &bot.in, err, sizeof err) < 0)
        die(err);
    bot_side_input(&bot.side, &bot.variant, &bot.in);
    bot.me = bot.side.colour;
    if (tx_game_from_input_variant(bot.game, bot.geo, &bot.variant, &bot.in, bot.me) < 0)
        die("tx_game_from_input refused the input");
    bot.turn++;
    return true;
}

/* The lowest-index legal hole (never SWAP), or -1. */
static int lowest_hole(void)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(bot.game, moves);
    int best = -1;
    for (int i = 0; i < n; i++)
        if (moves[i] >= 0 && (best < 0 || moves[i] < best))
            best = moves[i];
    return best;
}

static int highest_hole(void)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(bot.game, moves);
    int best = -1;
    for (int i = 0; i < n; i++)
        if (moves[i] > best)
            best = moves[i];
    return best;
}

/* The hole a along the plan's cross direction, b along its length. */
static int plan_at(int me, int a, int b)
{
    return me == 0 ? tx_geometry_hole(bot.geo, a, b) : tx_geometry_hole(bot.geo, b, a);
}

/* The plan's holes for player me, in order (-1: off a small board);
 * returns how many. Player 0's plan goes down the rows, player 1's across
 * the columns. */
static int plan(int me, int *out)
{
    int across = me == 0 ? bot.geo->width : bot.geo->height;
    int along = me == 0 ? bot.geo->height : bot.geo->width;
    int n = 0;
    for (int i = 0, b = 0; b < along; i++, b += 2) {
        int a = across / 2 - 1 + i % 2;
        out[n++] = plan_at(me, a, b);
        if (b + 2 >= along && b != along - 1) /* the last line is one row further */
            out[n++] = plan_at(me, a >= 2 ? a - 2 : a + 2, along - 1);
    }
    return n;
}

static int plan_hole(void)
{
    int holes[PLAN_MAX], n = plan(bot.me, holes);
    for (int i = 0; i < n; i++) {
        int h = holes[i];
        if (h < 0)
            break; /* a board too small for the plan */
        if (tx_game_cell(bot.game, h) == bot.me + 1)
            continue;
        if (tx_game_check(bot.game, h) == TX_LEGAL)
            return h;
        break; /* blocked: give up the plan */
    }
    return lowest_hole();
}

/* The lowest vacant hole colour may use, other than not, or -1. */
static int lowest_for(int colour, int not )
{
    for (int h = 0; h < bot.geo->holes; h++)
        if (h != not &&tx_geometry_playable(bot.geo, colour, h) &&
            tx_game_cell(bot.game, h) == TX_EMPTY)
            return h;
    return -1;
}

/* The cut opening's first answer: the lowest red hole, its lowest red
 * knight neighbour (linked) or else the next red hole, and the lowest
 * black hole; with `twice` the first red hole twice (an invalid cut). */
static char *cut_answer(char *buf, bool twice)
{
    int r1 = lowest_for(0, -1), r2 = -1;
    for (int k = 0; k < 8 && r2 < 0; k++) {
        int q = bot.geo->neighbour[r1][k];
        if (q >= 0 && tx_geometry_playable(bot.geo, 0, q))
            r2 = q;
    }
    bool linked = r2 >= 0;
    if (!linked)
        r2 = lowest_for(0, r1);
    int b1 = lowest_for(1, -1);
    if (b1 == r1 || b1 == r2)
        b1 = lowest_for(1, b1);
    char a[TX_HOLE_NAME_MAX], b[TX_HOLE_NAME_MAX], c[TX_HOLE_NAME_MAX];
    tx_hole_name(bot.geo, r1, a);
    tx_hole_name(bot.geo, twice ? r1 : r2, b);
    tx_hole_name(bot.geo, b1, c);
    if (linked && !twice)
        sprintf(buf, "CUT %s %s %s +%s:%s", a, b, c, a, b);
    else
        sprintf(buf, "CUT %s %s %s", a, b, c);
    return buf;
}

/* The move this bot makes when it behaves, as a hole name in buf (room
 * for a cut: 64 bytes). */
static char *good_move(char *buf)
{
    int16_t moves[TX_MOVES_MAX];
    if (bot.game->phase == TX_PHASE_CUT)
        return cut_answer(buf, false);
    if (bot.game->phase == TX_PHASE_CHOOSE) {
        sprintf(buf, "CHOOSE %d", bot.choose);
        return buf;
    }
    if (bot.mode == MODE_SWAPPER && tx_game_legal_moves(bot.game, moves) > 0 &&
        moves[0] == TX_MOVE_SWAP)
        return strcpy(buf, "SWAP");
    int h = (bot.mode == MODE_GOOD || bot.mode == MODE_FLOOD_STDERR) ? plan_hole() : lowest_hole();
    if (h < 0)
        die("no legal move");
    return tx_hole_name(bot.geo, h, buf);
}

/* The edit of kind joining holes a and b. */
static struct tx_edit edit_of(char kind, int a, int b)
{
    const struct tx_geometry *g = bot.geo;
    return (struct tx_edit){kind, (int16_t)tx_geometry_x(g, a), (int16_t)tx_geometry_y(g, a),
                            (int16_t)tx_geometry_x(g, b), (int16_t)tx_geometry_y(g, b)};
}

/* "editor": the link edits that go with hole move, each kept only when the
 * answer stays legal: remove its first listed link; add the first link
 * missing between two of its pegs (the new one included) that may be added,
 * not the one just removed; every third turn, decline the new peg's first
 * automatic link. Appends them (" -A1:B3 +C4:D6") to line. */
static void edits_for(int move, char *line, size_t cap)
{
    static int16_t links[2 * 4 * TX_HOLES_MAX], pegs[TX_HOLES_MAX + 1];
    struct tx_edit e[3];
    int n = 0, nlinks = tx_game_links(bot.game, bot.me, links);
    int npegs = tx_game_pegs(bot.game, bot.me, pegs);
    pegs[npegs++] = (int16_t)move;
    if (nlinks > 0) {
        e[n] = edit_of('-', links[0], links[1]);
        n += tx_game_check_edits(bot.game, move, e, n + 1, NULL) == TX_LEGAL;
    }
    int removed = nlinks > 0 ? tx_geometry_link(bot.geo, links[0], links[1]) : -1;
    for (int i = 0; i < npegs && n < 2; i++)
        for (int k = 0; k < 8 && n < 2; k++) {
            int q = bot.geo->neighbour[pegs[i]][k];
            if (q < 0 || (tx_game_cell(bot.game, q) != bot.me + 1 && q != move))
                continue;
            int link = tx_geometry_link(bot.geo, pegs[i], q);
            if (link == removed || tx_game_has_link(bot.game, link))
                continue;
            e[n] = edit_of('+', pegs[i], q);
            n += tx_game_check_edits(bot.game, move, e, n + 1, NULL) == TX_LEGAL;
        }
    for (int k = 0; k < 8 && bot.turn % 3 == 0; k++) {
        int q = bot.geo->neighbour[move][k];
        if (q >= 0 && tx_game_cell(bot.game, q) == bot.me + 1) {
            e[n] = edit_of('~', move, q);
            n += tx_game_check_edits(bot.game, move, e, n + 1, NULL) == TX_LEGAL;
            break;
        }
    }
    for (int i = 0; i < n; i++) {
        char name[TX_EDIT_NAME_MAX];
        size_t at = strlen(line);
        snprintf(line + at, cap - at, " %s", tx_edit_name(&e[i], name));
    }
}

static void answer(const char *move, const char *message)
{
    /* The side it plays after its own answer (bot-side.h). */
    int m = !strcmp(move, "SWAP")           ? TX_MOVE_SWAP
            : !strncmp(move, "CHOOSE 1", 8) ? TX_MOVE_CHOOSE_RED
            : !strncmp(move, "CHOOSE 2", 8) ? TX_MOVE_CHOOSE_BLACK
                                            : 0;
    bot_side_answer(&bot.side, &bot.variant, m);
    char line[256];
    snprintf(line, sizeof line, "%s%s%s%s", move, message ? " " : "", message ? message : "",
             bot.mode == MODE_CRLF ? "\r\n" : "\n");
    say(line);
}

static void crash_by_signal(int sig)
{
    signal(sig, SIG_DFL); /* a sanitizer runtime may have a handler */
    raise(sig);
    die("still alive after raise");
}

static void flood_stdout(void)
{
    static char chunk[65536];
    memset(chunk, 'x', sizeof chunk);
    for (;;)
        write_all(STDOUT_FILENO, chunk, sizeof chunk);
}

static void flood_stderr(long bytes)
{
    static const char line[] = "fault-bot flooding stderr, line of 64 bytes ................\n";
    while (bytes > 0) {
        size_t n = bytes < (long)sizeof line - 1 ? (size_t)bytes : sizeof line - 1;
        write_all(STDERR_FILENO, line, n);
        bytes -= (long)n;
    }
}

static void eat_memory(void)
{
    const size_t chunk = 1 << 20;
    for (int mb = 0; mb < MEMORY_CAP_MB; mb++) {
        char *p = malloc(chunk);
        if (!p) {
            fprintf(stderr, "fault-bot: out of memory after %d MiB\n", mb);
            abort();
        }
        memset(p, 0x5a, chunk); /* touch it: make the pages real */
    }
    fprintf(stderr, "fault-bot: %d MiB allocated, no memory limit\n", MEMORY_CAP_MB);
}

/* How the child of "fork" hides (its N): not at all, in its own session,
 * or as a daemon (double fork: its parent exits at once, so it is adopted
 * by init and nothing links it to the bot any more). */
enum hide { HIDE_NOT = 1, HIDE_SESSION = 2, HIDE_DAEMON = 3 };

/* Forks a child that keeps stdin, stdout and stderr open and sleeps; returns
 * in the parent once the child has noted its pid. */
static void fork_child(enum hide hide)
{
    int sync[2];
    if (pipe(sync) < 0)
        die("pipe");
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        close(sync[0]);
        if (hide == HIDE_DAEMON && fork() != 0)
            _exit(0); /* the intermediate parent: gone before anyone looks */
        if (hide != HIDE_NOT)
            setsid();
        note_pid(hide == HIDE_NOT ? "child" : hide == HIDE_SESSION ? "escaped" : "daemon");
        close(sync[1]);
        sleep_ms(60000);
        _exit(0);
    }
    close(sync[1]);
    char c; /* EOF once every copy of the write end is closed */
    while (read(sync[0], &c, 1) < 0 && errno == EINTR)
        ;
    waitpid(pid, NULL, WNOHANG); /* the daemon's intermediate parent */
    close(sync[0]);
}

/* What the launcher did, on one stderr line: niceness, whether the bot leads
 * its own session and process group, how many descriptors it holds, and its
 * RLIMIT_DATA (MiB, -1 for none) and RLIMIT_CORE. */
static void report(void)
{
    int fds = -1; /* the directory's own descriptor is not counted */
    DIR *d = opendir("/proc/self/fd");
    for (struct dirent *e; d && (e = readdir(d));)
        fds += e->d_name[0] != '.';
    if (d)
        closedir(d);
    struct rlimit data, core;
    getrlimit(RLIMIT_DATA, &data);
    getrlimit(RLIMIT_CORE, &core);
    errno = 0;
    int nice_value = getpriority(PRIO_PROCESS, 0);
    fprintf(stderr, "nice=%d group=%d session=%d fds=%d data_mb=%ld core=%ld\n", nice_value,
            getpgid(0) == getpid(), getsid(0) == getpid(), fds,
            data.rlim_cur == RLIM_INFINITY ? -1L : (long)(data.rlim_cur >> 20),
            (long)core.rlim_cur);
}

/* Plays turn bot.turn, misbehaving when it is the faulty one. */
static void play_turn(void)
{
    char move[64];
    if (bot.skip_next) {
        bot.skip_next = false;
        return;
    }
    bool fault = bot.turn == bot.k;
    if (bot.mode == MODE_STDERR_TURNS) {
        fprintf(stderr, "before %d\n", bot.turn);
        answer(good_move(move), NULL);
        if (fault)
            sleep_ms(bot.n);
        fprintf(stderr, "after %d\n", bot.turn);
        return;
    }
    if (bot.mode == MODE_FLOOD_STDERR && bot.turn >= bot.k)
        flood_stderr(bot.n);
    if (bot.mode == MODE_SLOW && bot.turn >= bot.k)
        sleep_ms(bot.n);
    if (bot.mode == MODE_EDITOR && bot.turn >= bot.k) {
        char line[256];
        int h = lowest_hole();
        if (h < 0)
            die("no legal move");
        tx_hole_name(bot.geo, h, line);
        if (bot.variant.rules == TX_RULES_CLASSIC)
            edits_for(h, line, sizeof line);
        answer(line, NULL);
        return;
    }
    if (bot.mode == MODE_PRIVILEGE && (fault || (bot.n > 0 && bot.turn == bot.k + bot.n))) {
        good_move(move);
        strcat(move, " " TX_ANSWER_PRIVILEGE);
        answer(move, NULL);
        return;
    }
    if (!fault) {
        answer(good_move(move), NULL);
        return;
    }
    switch (bot.mode) {
    case MODE_CRASH_SIGNAL:
        crash_by_signal(SIGSEGV);
        break;
    case MODE_CRASH_EXIT:
        exit(3);
    case MODE_EXIT0:
        exit(0);
    case MODE_CLOSE_STDOUT:
        if (bot.n == 1)
            answer(good_move(move), NULL);
        close(STDOUT_FILENO);
        hang();
        break;
    case MODE_HANG:
    case MODE_IGNORE_TERM:
        hang();
        break;
    case MODE_SLEEP:
        sleep_ms(bot.n);
        answer(good_move(move), NULL);
        break;
    case MODE_FLOOD_STDOUT:
        if (bot.n == 1)
            answer(good_move(move), NULL);
        flood_stdout();
        break;
    case MODE_GARBAGE:
        say("#garbage!\n");
        break;
    case MODE_BINARY: {
        static const char bytes[] = "\x80\xff\xfe\x01\x1b[31m\n";
        write_all(STDOUT_FILENO, bytes, sizeof bytes - 1);
        break;
    }
    case MODE_NUL:
        good_move(move);
        write_all(STDOUT_FILENO, move, 1);
        write_all(STDOUT_FILENO, "", 1); /* the NUL */
        say(move + 1);
        say("\n");
        break;
    case MODE_EMPTY:
        say("\n");
        break;
    case MODE_LOWER:
        good_move(move);
        for (char *c = move; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        answer(move, NULL);
        break;
    case MODE_TWO_LINES: {
        /* One write, as a bot that flushes once per turn does; with N > 0
         * the second line follows N ms later, still before the next input
         * is read. */
        char lines[64], second[TX_HOLE_NAME_MAX];
        int n = snprintf(lines, sizeof lines, "%s\n", good_move(move));
        snprintf(lines + n, sizeof lines - (size_t)n, "%s second\n",
                 tx_hole_name(bot.geo, highest_hole(), second));
        if (bot.n > 0) {
            write_all(STDOUT_FILENO, lines, (size_t)n);
            sleep_ms(bot.n);
            say(lines + n);
        } else {
            say(lines);
        }
        bot.skip_next = true;
        break;
    }
    case MODE_FORK:
        fork_child(bot.n == 0 ? HIDE_NOT : (enum hide)bot.n);
        if (bot.n == 0)
            exit(0);
        answer(good_move(move), NULL);
        break;
    case MODE_MEMORY:
        eat_memory();
        answer(good_move(move), NULL);
        break;
    case MODE_SWAP:
        answer("SWAP", NULL);
        break;
    case MODE_OCCUPIED:
        for (int h = 0; h < bot.geo->holes; h++)
            if (tx_game_cell(bot.game, h) != TX_EMPTY) {
                answer(tx_hole_name(bot.geo, h, move), NULL);
                return;
            }
        die("no occupied hole yet");
        break;
    case MODE_BORDER:
        for (int h = bot.geo->holes - 1; h >= 0; h--)
            if (!(bot.geo->zone[h] & TX_ZONE_CORNER) && !tx_geometry_playable(bot.geo, bot.me, h) &&
                tx_game_cell(bot.game, h) == TX_EMPTY) {
                answer(tx_hole_name(bot.geo, h, move), NULL);
                return;
            }
        die("no vacant hole in the opponent's border");
        break;
    case MODE_LINES: {
        size_t len = strlen(good_move(move)) + 1, total = len * (size_t)bot.n;
        char *lines = malloc(total ? total : 1);
        if (!lines)
            die("out of memory");
        for (size_t at = 0; at < total; at += len) {
            memcpy(lines + at, move, len - 1);
            lines[at + len - 1] = '\n';
        }
        write_all(STDOUT_FILENO, lines, total);
        free(lines);
        break;
    }
    case MODE_CLOSE_STDIN:
        close(STDIN_FILENO); /* before answering: the next input cannot be written */
        answer(good_move(move), NULL);
        hang();
        break;
    case MODE_EXIT_AFTER:
        answer(good_move(move), NULL);
        exit(0);
    case MODE_LONG_LINE: {
        static char line[1 << 16];
        size_t len = bot.n > 0 && bot.n < (long)sizeof line - 1 ? (size_t)bot.n : 8;
        size_t at = strlen(good_move(move));
        memset(line, 'm', len);
        memcpy(line, move, at);
        line[at] = ' ';
        line[len] = '\n';
        write_all(STDOUT_FILENO, line, len + 1);
        break;
    }
    case MODE_CLOSE_STDERR:
        close(STDERR_FILENO);
        answer(good_move(move), NULL);
        break;
    case MODE_PARTIAL:
        say(good_move(move));
        if (bot.n == 1)
            exit(0);
        hang();
        break;
    case MODE_REPORT:
        report();
        answer(good_move(move), NULL);
        break;
    case MODE_BAD_MESSAGE:
        answer(good_move(move), "\xff\xfe ok \xc3");
        break;
    case MODE_SPIN:
        for (volatile unsigned long i = 0;; i++)
            ;
        break;
    case MODE_MESSAGE:
        answer(good_move(move), "\xc3\xa9t\xc3\xa9 message de trente car.");
        break;
    case MODE_BAD_CUT:
        answer(cut_answer(move, true), NULL);
        break;
    case MODE_BAD_CHOOSE:
        answer(tx_hole_name(bot.geo, lowest_for(1, -1), move), NULL);
        break;
    default:
        answer(good_move(move), NULL);
        break;
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: fault-bot MODE [K [N]] [--pid-file=PATH] [--size=S | --board=WxH] "
                    "[--rules=R] [--seed=X] [--echo] [--choose=1|2]\nmodes:");
    for (int i = 0; i < MODES; i++)
        fprintf(stderr, " %s", mode_names[i]);
    fprintf(stderr, "\n");
    exit(2);
}

static void parse_args(int argc, char **argv)
{
    struct tx_variant *v = &bot.variant;
    const char *rules = getenv("TWIXT_RULES"), *w = getenv("TWIXT_WIDTH"),
               *h = getenv("TWIXT_HEIGHT");
    int npos = 0;
    const char *pos[3] = {NULL, "1", "0"};
    *v = TX_VARIANT_DEFAULT;
    bot_side_variant(v); /* TWIXT_OPENING, TWIXT_TEAMS */
    bot.side.colour = -1;
    bot.choose = 2;
    if (w)
        v->width = atoi(w);
    if (h)
        v->height = atoi(h);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--pid-file=", 11) == 0)
            bot.pid_file = argv[i] + 11;
        else if (strncmp(argv[i], "--size=", 7) == 0)
            v->width = v->height = atoi(argv[i] + 7);
        else if (strncmp(argv[i], "--board=", 8) == 0) {
            if (sscanf(argv[i] + 8, "%dx%d", &v->width, &v->height) != 2)
                usage();
        } else if (strncmp(argv[i], "--rules=", 8) == 0)
            rules = argv[i] + 8;
        else if (strncmp(argv[i], "--seed=", 7) == 0)
            continue; /* accepted like a real bot's, not needed */
        else if (strcmp(argv[i], "--echo") == 0)
            bot.echo = true;
        else if (strncmp(argv[i], "--choose=", 9) == 0)
            bot.choose = atoi(argv[i] + 9);
        else if (npos < 3)
            pos[npos++] = argv[i];
        else
            usage();
    }
    if (!pos[0])
        usage();
    int mode = 0;
    while (mode < MODES && strcmp(mode_names[mode], pos[0]) != 0)
        mode++;
    if (mode == MODES)
        usage();
    bot.mode = (enum mode)mode;
    bot.k = atoi(pos[1]);
    bot.n = atol(pos[2]);
    int r = rules ? tx_rules_from_name(rules) : TX_RULES_PP;
    if (r < 0 || tx_geometry_new(v->width, v->height, &bot.geo) < 0)
        usage();
    v->rules = (enum tx_rules)r;
    bot.game = tx_game_new(bot.geo, v->rules);
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    note_pid("bot");
    if (bot.mode == MODE_IGNORE_TERM)
        signal(SIGTERM, SIG_IGN);
    if (bot.mode == MODE_EARLY) {
        say("F6 early\n");
        bot.skip_next = true;
    }
    while (read_turn())
        play_turn();
    return 0;
}
