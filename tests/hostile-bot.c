/* hostile-bot.c - a Twixt-PP bot that attacks what surrounds it, for the
 * sandbox tests (tests/test-sandbox.c).
 *
 *   hostile-bot MODE [ARG]
 *
 * On every turn it plays the lowest-index legal hole (never SWAP), as
 * fault-bot's "play" does, so a game between two of them always goes the
 * same way. On its first turn, after reading the input and before
 * answering, it attacks (MODE), then writes one line on stderr saying how
 * the attack went ("killed 1", "connect: Connection refused", ...), which
 * the test reads back from the record:
 *
 *   play                (none: the honest opponent; "victim" in its words
 *                       lets the attacker find it)
 *   kill-opponent WORD  SIGKILL every process whose command line holds WORD
 *   inject WORD         write "A1\n" into /proc/PID/fd/1 of those processes
 *   signal PID|up       SIGSTOP and SIGKILL its parent and PID (the
 *                       referee; "up": its parent's parent)
 *   forge FILE          append a forged record line to FILE
 *   sleepers N          fork N processes that sleep forever
 *   sleepers-hang N     the same, then never answer (a game that lasts)
 *   connect PORT        a TCP connection to 127.0.0.1:PORT, and a line on it
 *   bigfile             write 1 GiB into $TMPDIR (SIGXFSZ ignored)
 *   malloc              malloc and touch 16 MiB blocks without end
 *   mmap                mmap 64 GiB with MAP_NORESERVE and touch it
 *   threads             up to 1000 threads, each touching 32 MiB
 *   daemon              a double-forked setsid() daemon, then exit at once
 *   hop                 a chain of processes, each forking the next and
 *                       exiting, every 10 ms, for ever
 *   thief N             N processes that spin, on the CPU, while the
 *                       opponent thinks: stopped (SIGSTOP) as each of its
 *                       own turns begins and resumed (SIGCONT) just before
 *                       it answers, so it loses no time itself
 *   write PATH          append a line to PATH on every turn (a debug log);
 *                       when that fails, say why on stderr and exit 1,
 *                       as a bot that cannot log would
 *   share MS            (on every turn, not just the first) spin MS ms of
 *                       wall time before answering, and put in its answer's
 *                       message the share of a CPU it got meanwhile, in
 *                       thousandths: "s=987" (the thief's opponent)
 *
 * Whatever happens, it plays on (unless the kernel kills it or it says
 * otherwise), and exits 0 when its stdin ends.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "game.h"
#include "geometry.h"
#include "hole.h"
#include "input.h"

static struct tx_geometry *geo;
static struct tx_game *game; /* sized for geo */
static struct tx_input in;
static char text[TX_INPUT_MAX + 64];
static size_t len;

static bool read_line(void)
{
    size_t room = sizeof text - len;
    if (room < 2 || !fgets(text + len, (int)room, stdin))
        return false;
    size_t n = strlen(text + len);
    if (n == 0 || text[len + n - 1] != '\n')
        return false;
    len += n;
    return true;
}

/* One turn's input: the last move, then four counted lists. */
static bool read_turn(int *me, bool first)
{
    len = 0;
    if (!read_line())
        return false;
    for (int list = 0; list < 4; list++) {
        size_t start = len;
        if (!read_line())
            return false;
        for (int i = atoi(text + start); i > 0; i--)
            if (!read_line())
                return false;
    }
    char err[128];
    if (tx_input_parse(geo, text, len, &in, err, sizeof err) < 0)
        return false;
    if (first)
        *me = tx_input_first_player(&in);
    return tx_game_from_input(game, geo, TX_RULES_PP, &in, *me) == 0;
}

static char message[32]; /* after the move in the answer, "" for none */

static void answer(void)
{
    int16_t moves[TX_MOVES_MAX];
    int n = tx_game_legal_moves(game, moves), best = -1;
    for (int i = 0; i < n; i++)
        if (moves[i] >= 0 && (best < 0 || moves[i] < best))
            best = moves[i];
    char name[TX_HOLE_NAME_MAX], line[80];
    snprintf(line, sizeof line, "%s%s%s\n", best >= 0 ? tx_hole_name(geo, best, name) : "A1",
             message[0] ? " " : "", message);
    if (write(STDOUT_FILENO, line, strlen(line)) < 0)
        exit(0);
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

/* ---- the attacks ---- */

/* Pids of the processes whose command line holds word but not mine (the
 * attacker's own, and its launcher's, hold the word too). */
static int find(const char *word, const char *mine, int *pids, int cap)
{
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d)) && n < cap;) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid == getpid())
            continue;
        char path[64], cmd[4096];
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        ssize_t got = read(fd, cmd, sizeof cmd - 1);
        close(fd);
        for (ssize_t i = 0; i < got; i++)
            if (!cmd[i])
                cmd[i] = ' ';
        cmd[got > 0 ? got : 0] = '\0';
        if (strstr(cmd, word) && !strstr(cmd, mine))
            pids[n++] = pid;
    }
    if (d)
        closedir(d);
    return n;
}

/* find, once the opponent itself is there: its launcher starts it at the
 * same time as ours starts us, and may not have exec'd it yet (its
 * command line is the launcher's until then). Gives up after a second:
 * in the sandbox there is nothing to find. */
static int find_opponent(const char *word, const char *mine, int *pids, int cap)
{
    for (int waited = 0;; waited += 10) {
        int n = find(word, mine, pids, cap);
        for (int i = 0; i < n; i++) {
            char path[64], cmd[4096];
            snprintf(path, sizeof path, "/proc/%d/cmdline", pids[i]);
            int fd = open(path, O_RDONLY);
            ssize_t got = fd < 0 ? -1 : read(fd, cmd, sizeof cmd - 1);
            if (fd >= 0)
                close(fd);
            cmd[got > 0 ? got : 0] = '\0'; /* argv[0] */
            if (got > 0 && !strstr(cmd, "twixt-launch"))
                return n;
        }
        if (waited >= 1000)
            return n;
        sleep_ms(10);
    }
}

static void kill_opponent(const char *word)
{
    int pids[64], n = find_opponent(word, "kill-opponent", pids, 64), killed = 0;
    for (int i = 0; i < n; i++)
        killed += kill(pids[i], SIGKILL) == 0;
    fprintf(stderr, "killed %d\n", killed);
}

static void inject(const char *word)
{
    int pids[64], n = find_opponent(word, "inject", pids, 64), injected = 0, err = 0;
    for (int i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/fd/1", pids[i]);
        int fd = open(path, O_WRONLY);
        if (fd < 0) {
            err = errno;
            continue;
        }
        injected += write(fd, "A1\n", 3) == 3;
        close(fd);
    }
    fprintf(stderr, "injected %d of %d (%s)\n", injected, n, err ? strerror(err) : "no error");
}

/* The parent of pid, from /proc/PID/stat; 0 when unknown. */
static int parent_of(int pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY), ppid = 0;
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    char *rp = strrchr(buf, ')');
    if (!rp || sscanf(rp + 1, " %*c %d", &ppid) != 1)
        return 0;
    return ppid;
}

/* "up": the referee is its parent's parent (its launcher's). The referee
 * dies first: killing our parent first would kill us (parent death). */
static void signal_referee(const char *arg)
{
    int parent = getppid(), referee = strcmp(arg, "up") ? atoi(arg) : parent_of(parent);
    int rstop = -1, rkill = -1, rerr = 0;
    int stop = kill(parent, SIGSTOP);
    if (referee > 0) {
        rstop = kill(referee, SIGSTOP);
        rerr = rstop < 0 ? errno : 0;
        rkill = kill(referee, SIGKILL);
    }
    int kill9 = kill(parent, SIGKILL);
    fprintf(stderr, "parent %d: stop %d kill %d; referee: stop %d kill %d (%s)\n", parent, stop,
            kill9, rstop, rkill, rerr ? strerror(rerr) : "no error");
}

static void forge(const char *file)
{
    int fd = open(file, O_WRONLY | O_APPEND);
    if (fd < 0) {
        fprintf(stderr, "forge: %s\n", strerror(errno));
        return;
    }
    const char *line = "{\"format\":\"twixt-arena/game/1\",\"game\":999,\"forged\":true}\n";
    ssize_t w = write(fd, line, strlen(line));
    fprintf(stderr, "forge: wrote %zd (%s)\n", w, w < 0 ? strerror(errno) : "no error");
    close(fd);
}

static void sleepers(int n)
{
    int started = 0, err = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (;;)
                pause();
        }
        if (pid < 0) {
            err = errno;
            break;
        }
        started++;
    }
    fprintf(stderr, "sleepers %d (%s)\n", started, err ? strerror(err) : "no error");
}

static void connect_to(int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
        fprintf(stderr, "connect: %s\n", strerror(errno));
    } else {
        ssize_t w = write(s, "hello\n", 6);
        fprintf(stderr, "connect: connected, wrote %zd\n", w);
    }
    if (s >= 0)
        close(s);
}

static void bigfile(void)
{
    signal(SIGXFSZ, SIG_IGN);
    const char *dir = getenv("TMPDIR");
    char path[4200];
    snprintf(path, sizeof path, "%s/big", dir ? dir : "/tmp");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        fprintf(stderr, "bigfile %s: %s\n", path, strerror(errno));
        return;
    }
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    long mib = 0;
    int err = 0;
    for (; mib < 1024; mib++)
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block) {
            err = errno;
            break;
        }
    close(fd);
    fprintf(stderr, "bigfile %s: %ld MiB (%s)\n", path, mib, err ? strerror(err) : "no error");
}

static void eat_malloc(void)
{
    void *blocks[4096];
    int n = 0;
    while (n < 4096) {
        volatile char *p = malloc(16 << 20);
        if (!p)
            break;
        for (size_t i = 0; i < (16 << 20); i += 4096)
            p[i] = 1;
        blocks[n++] = (void *)p;
    }
    fprintf(stderr, "malloc: %d MiB, then %s\n", n * 16, n == 4096 ? "gave up" : "refused");
    while (n > 0)
        free(blocks[--n]);
}

static void eat_mmap(void)
{
    size_t size = (size_t)64 << 30;
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "mmap: %s\n", strerror(errno));
        return;
    }
    volatile char *v = p;
    size_t touched = 0;
    for (; touched < ((size_t)4 << 30); touched += 4096) /* never more than 4 GiB */
        v[touched] = 1;
    fprintf(stderr, "mmap: touched %zu MiB\n", touched >> 20);
    munmap(p, size);
}

static void *thread_eat(void *arg)
{
    (void)arg;
    volatile char *p = malloc(32 << 20); /* volatile: the compiler may not skip it */
    for (size_t i = 0; p && i < (32 << 20); i += 4096)
        p[i] = 1;
    for (;;)
        pause();
    return NULL;
}

static void threads(void)
{
    int n = 0, err = 0;
    for (; n < 1000; n++) {
        pthread_t t;
        if ((err = pthread_create(&t, NULL, thread_eat, NULL)) != 0)
            break;
        pthread_detach(t);
    }
    sleep_ms(200);
    fprintf(stderr, "threads %d (%s)\n", n, err ? strerror(err) : "no error");
}

static void daemon_then_exit(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            for (;;)
                pause();
        }
        _exit(0);
    }
    sleep_ms(100);
    fprintf(stderr, "daemon started, exiting\n");
    exit(0);
}

static void hop(void)
{
    if (fork() != 0)
        return;
    for (;;) {
        sleep_ms(10);
        pid_t next = fork();
        if (next != 0)
            _exit(0); /* the child goes on under another pid */
    }
}

/* thief: its spinners, stopped during its own turns. */
static pid_t spinners[64];
static int nspinners;

static void thief_start(int n)
{
    for (; nspinners < n && nspinners < 64; nspinners++) {
        pid_t pid = fork();
        if (pid == 0)
            for (volatile unsigned long x = 0;; x++)
                ;
        spinners[nspinners] = pid;
    }
}

static void thief_signal(int sig)
{
    for (int i = 0; i < nspinners; i++)
        kill(spinners[i], sig);
}

static uint64_t clock_ns(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* share: spins ms of wall time; the thousandths of a CPU it got. */
static int spin_share(long ms)
{
    uint64_t wall0 = clock_ns(CLOCK_MONOTONIC), cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    uint64_t end = wall0 + (uint64_t)ms * 1000000u, now;
    while ((now = clock_ns(CLOCK_MONOTONIC)) < end)
        ;
    return (int)((clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0) * 1000 / (now - wall0));
}

/* write: one more line in its log, or the reason it cannot. */
static void write_log(const char *path, int turn)
{
    FILE *f = fopen(path, "a");
    if (!f || fprintf(f, "turn %d\n", turn) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "play", *arg = argc > 2 ? argv[2] : "";
    (tx_geometry_free(geo), tx_geometry_new(TX_SIZE_DEFAULT, TX_SIZE_DEFAULT, &geo));
    game = tx_game_new(geo, TX_RULES_PP);
    setvbuf(stderr, NULL, _IONBF, 0);
    int me = 0;
    for (int turn = 1; read_turn(&me, turn == 1); turn++) {
        if (!strcmp(mode, "thief"))
            thief_signal(SIGSTOP); /* its own turn: all the CPU for itself */
        if (!strcmp(mode, "write"))
            write_log(arg, turn);
        if (!strcmp(mode, "share"))
            snprintf(message, sizeof message, "s=%d", spin_share(atol(arg)));
        if (turn == 1) {
            if (!strcmp(mode, "kill-opponent"))
                kill_opponent(arg);
            else if (!strcmp(mode, "inject"))
                inject(arg);
            else if (!strcmp(mode, "signal"))
                signal_referee(arg);
            else if (!strcmp(mode, "forge"))
                forge(arg);
            else if (!strcmp(mode, "sleepers") || !strcmp(mode, "sleepers-hang"))
                sleepers(atoi(arg));
            if (!strcmp(mode, "sleepers-hang"))
                for (;;)
                    pause();
            else if (!strcmp(mode, "connect"))
                connect_to(atoi(arg));
            else if (!strcmp(mode, "bigfile"))
                bigfile();
            else if (!strcmp(mode, "malloc"))
                eat_malloc();
            else if (!strcmp(mode, "mmap"))
                eat_mmap();
            else if (!strcmp(mode, "threads"))
                threads();
            else if (!strcmp(mode, "daemon"))
                daemon_then_exit();
            else if (!strcmp(mode, "hop"))
                hop();
            else if (!strcmp(mode, "thief"))
                thief_start(atoi(arg));
        }
        if (!strcmp(mode, "thief"))
            thief_signal(SIGCONT); /* the opponent's turn comes */
        answer();
    }
    return 0;
}
