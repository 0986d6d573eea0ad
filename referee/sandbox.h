/* sandbox.h - how a run's bots are isolated, limited and started.
 *
 * The options (--sandbox auto|on|off, --bot-network, --pin-cores,
 * --bot-env, --bot-cpus, --bot-writable) are resolved once per run into a
 * struct tx_sandbox: whether the machine can isolate bots (found by
 * starting the launcher once in its --probe mode), which cgroups will hold
 * their limits (memory, tasks, CPU), and the environment every bot gets. tx_sandbox_configure makes
 * it the process's current one, which every bot started afterwards uses (tx_bot_start, unless its
 * options name another): play, tournament and league (through setup.c), validate and replay --bot
 * call it once, after parsing their options. Before that, bots run without a sandbox but with the
 * clean environment (library users and tests).
 *
 * The clean environment (README "Untrusted bots"): PATH, HOME and LANG as
 * the referee has them (LANG C.UTF-8 when unset), TMPDIR (the bot's own),
 * PYTHONUNBUFFERED=1 (as CodinGame runs Python), then --bot-env's, which
 * may replace any of them, then the bot's own "env" of a bots file (that
 * bot only; it may replace any of the others).
 *
 * CPU (README "A fair share of the machine"): with a cgroup cpu controller
 * each sandboxed bot has a quota of --bot-cpus CPUs (default
 * TX_SANDBOX_CPUS, what CodinGame is said to give a bot), so that a bot and
 * everything it starts use at most that, and while it is not on move it
 * runs at idle priority (the seat writes its cgroup's cpu.idle): thinking
 * on its opponent's time, it only gets CPU no other program wants. A bot
 * without a quota (--bot-cpus 0) has neither. With
 * --pin-cores a game's two bots get cores of their own where the machine
 * has them (a cpuset when a cpuset hierarchy is usable, an affinity
 * otherwise).
 *
 * What a bot can and cannot do under each setting is README's threat
 * model; the launcher (launcher.c) does the isolating.
 */
#ifndef TX_SANDBOX_H
#define TX_SANDBOX_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#define TX_SANDBOX_ENV_MAX 32    /* --bot-env options */
#define TX_SANDBOX_TMP_MB 64     /* each sandboxed bot's /tmp */
#define TX_SANDBOX_TASKS 128     /* processes and threads of one sandboxed bot */
#define TX_SANDBOX_CGROUPS_MAX 4 /* cgroup hierarchies used at once (v1: memory, pids, cpu) */
#define TX_SANDBOX_CPUS 1        /* each bot's CPU quota, --bot-cpus's default */
#define TX_SANDBOX_CPUS_MIN                                                                        \
    0.1 /* the smallest quota (a cgroup's period is 10 ms, its                                     \
           quota at least 1 ms) */
#define TX_SANDBOX_CPUS_MAX 1024
#define TX_SANDBOX_CPUS_NONE (-1.0)                        /* --bot-cpus 0: no quota */
#define TX_SANDBOX_WRITABLE_MAX 8                          /* --bot-writable directories */
#define TX_SANDBOX_BOT_PATH "/usr/local/bin:/usr/bin:/bin" /* PATH when the referee has none */

enum tx_sandbox_mode {
    TX_SANDBOX_AUTO = 0, /* isolate when the machine can, else warn once and run without */
    TX_SANDBOX_ON,       /* isolate, or refuse to start */
    TX_SANDBOX_OFF,      /* no isolation (the environment is clean all the same) */
};

/* "auto", "on" or "off" into *mode: 0, or -EINVAL. */
int tx_sandbox_mode_parse(const char *text, enum tx_sandbox_mode *mode);

/* True for a --bot-env item: NAME=VALUE or NAME, NAME of letters, digits
 * and '_', not starting with a digit. */
bool tx_sandbox_env_valid(const char *item);

/* What the user asked for. */
struct tx_sandbox_request {
    enum tx_sandbox_mode mode;
    bool network;   /* --bot-network: bots keep the machine's network */
    bool pin_cores; /* --pin-cores: each game's bots on a core of their own */
    int nenv;
    const char *env[TX_SANDBOX_ENV_MAX]; /* --bot-env NAME=VALUE, or NAME (the referee's value) */
    const char *output;                  /* the records file, hidden from bots; may be NULL */
    const char *bots_file; /* --bots FILE (every bot's env), hidden too; may be NULL */
    double cpus;           /* --bot-cpus: 0 for TX_SANDBOX_CPUS, TX_SANDBOX_CPUS_NONE for none */
    int nwritable;
    const char *writable[TX_SANDBOX_WRITABLE_MAX]; /* --bot-writable DIR, as given */
};

/* What bots get. Owned strings; tx_sandbox_free. */
struct tx_sandbox {
    enum tx_sandbox_mode mode; /* as requested */
    bool active;               /* bots run in their own namespaces */
    bool network;
    bool pin_cores;
    int ncgroups; /* > 0: memory and tasks are limited by cgroups, else by rlimits */
    char *cgroups[TX_SANDBOX_CGROUPS_MAX]; /* the directories each bot's cgroups are made in */
    bool cpu;      /* one of them has the cpu controller: quotas, idle priority off move */
    char *cpuset;  /* where pinned bots' cpusets are made (--pin-cores), or NULL */
    double cpus;   /* each bot's quota unless its own says otherwise; 0 for none */
    int nwritable; /* --bot-writable directories, absolute */
    char *writable[TX_SANDBOX_WRITABLE_MAX];
    char *output;      /* absolute path of the records file, or NULL */
    char *bots_file;   /* absolute path of the bots file, or NULL */
    char **env;        /* every bot's environment: NULL-terminated NAME=VALUE */
    char why[384];     /* why the sandbox is not active although asked for, "" otherwise */
    char cpu_why[256]; /* why bots have no CPU quota although active, "" otherwise */
};

/* Resolves req: builds the environment, and unless req->mode is off,
 * probes the machine. Returns 0 (for auto, sb->active says whether it
 * worked and sb->why why not), or -ENOTSUP for on when bots cannot be
 * isolated (the reason in err), -EINVAL for a bad --bot-env or a
 * --bot-writable that is not a directory. Free sb with tx_sandbox_free in
 * every case. */
int tx_sandbox_init(struct tx_sandbox *sb, const struct tx_sandbox_request *req, char *err,
                    size_t errcap);

void tx_sandbox_free(struct tx_sandbox *sb);

/* tx_sandbox_init into the process's current sandbox. With auto and no
 * sandbox possible, prints one warning on stderr prefixed with who
 * ("twixt-arena play"), saying why and what to do; with a sandbox but no
 * CPU quota possible (no usable cgroup cpu controller), one saying that.
 * Returns what tx_sandbox_init returned (the caller prints err and exits
 * 2). */
int tx_sandbox_configure(const struct tx_sandbox_request *req, const char *who, char *err,
                         size_t errcap);

/* The process's current sandbox: the configured one, or none with the
 * default environment. */
const struct tx_sandbox *tx_sandbox_current(void);

/* One line for people and reports: "on (own PID, mount, IPC, UTS, cgroup,
 * user and network namespaces; files read-only, private /tmp of 64 MiB;
 * memory and 128 tasks limited by cgroups)", "off", "off (not available:
 * ...)". */
void tx_sandbox_describe(const struct tx_sandbox *sb, char *buf, size_t cap);

/* "auto", "on" or "off". */
const char *tx_sandbox_mode_name(enum tx_sandbox_mode mode);

/* One bot's environment: sb's, with own's NAME=VALUE items (a bots file's
 * "env"; may be NULL) added or replacing those of the same name. A
 * malloc'ed NULL-terminated array of pointers into both: free() it alone,
 * while sb and own still live. */
char **tx_sandbox_bot_env(const struct tx_sandbox *sb, char *const *own);

/* One bot as the launcher isolates it. */
struct tx_sandbox_bot {
    char *const *argv;          /* its words */
    const char *dir;            /* its working directory (its words are found there), NULL:
                                   the referee's */
    char *const *opponent_argv; /* the opponent's words: its files are hidden; may be NULL */
    const char *opponent_dir;   /* the opponent's working directory, or NULL */
    double cpus;                /* its own quota (a bots file's): 0 the run's,
                                   TX_SANDBOX_CPUS_NONE none */
    char *const *writable;      /* its own writable directories (a bots file's, absolute),
                                   NULL-terminated, or NULL */
    bool pinned;                /* --pin-cores: it runs on `cores` only */
    const cpu_set_t *cores;
};

/* The launcher options that isolate bot: --sandbox, --network, --tmp-mb,
 * --tasks, --cpus, --cgroup (the cpuset's too when pinned), --hide (the
 * records file, the bots file and the files the opponent's command names,
 * unless this bot's command names them too), --keep (this bot's own files
 * and its working directory under /tmp, which the sandbox's /tmp would
 * cover), --writable (--bot-writable's and its own). Nothing when sb is
 * not active. Returns a malloc'ed NULL-terminated array of malloc'ed
 * strings: free it with tx_command_free. */
char **tx_sandbox_launcher_args(const struct tx_sandbox *sb, const struct tx_sandbox_bot *bot);

/* The quota a bot gets: its own (a bots file's cpus; 0: not given), else
 * sb's. 0 for none. */
double tx_sandbox_bot_cpus(const struct tx_sandbox *sb, double own);

/* With --pin-cores, the cores of one bot that may use cpus CPUs (0: one
 * core): as many allowed cores as cpus rounded up, those fewest running
 * bots use, taking one of avoid (its opponent's, may be NULL) only when
 * no other core is left. Returns false, *ret untouched, when cores are
 * not pinned. Give them back when the game ends. */
bool tx_sandbox_take_cores(double cpus, const cpu_set_t *avoid, cpu_set_t *ret);
void tx_sandbox_give_cores(const cpu_set_t *cores);

#endif
