/* sandbox.c - a run's sandbox settings: the contract of sandbox.h.
 *
 * Deciding is done here, once per run; isolating is the launcher's job, per
 * bot. Whether namespaces work is not guessed from sysctls and kernel
 * versions: the launcher is started once with --probe, which builds a real
 * sandbox and stops just before the exec, so "available" means exactly
 * "a bot can be started this way here". cgroups are found through
 * /proc/self/mountinfo and /proc/self/cgroup (v1: the memory, pids, cpu
 * and cpuset hierarchies; v2: our own cgroup, when memory and pids, and
 * cpu and cpuset if they can, are delegated below it) and tried by the
 * same probe; when they fail, the probe tries again without the cpu
 * controller, then without cgroups (rlimits then).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "alloc.h"
#include "command.h"
#include "paths.h"
#include "sandbox.h"

/* ---- the environment ---- */

static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (size_t i = 0; i < len; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9')))
            return false;
    return true;
}

bool tx_sandbox_env_valid(const char *item)
{
    const char *eq = strchr(item, '=');
    return valid_name(item, eq ? (size_t)(eq - item) : strlen(item));
}

/* Sets NAME=VALUE in env (n entries), replacing an entry of the same name. */
static void env_set(char **env, int *n, const char *name, size_t len, const char *value)
{
    size_t size = len + strlen(value) + 2;
    char *entry = tx_xmalloc(size);
    snprintf(entry, size, "%.*s=%s", (int)len, name, value);
    for (int i = 0; i < *n; i++)
        if (!strncmp(env[i], name, len) && env[i][len] == '=') {
            free(env[i]);
            env[i] = entry;
            return;
        }
    env[(*n)++] = entry;
}

/* The variables every bot gets before --bot-env's (build_env). */
#define BASE_ENV 5

/* PATH, HOME, LANG, TMPDIR and PYTHONUNBUFFERED, then --bot-env: nothing
 * else of ours. */
static int build_env(struct tx_sandbox *sb, const struct tx_sandbox_request *req, char *err,
                     size_t errcap)
{
    int n = 0;
    char **env = tx_xcalloc(BASE_ENV + TX_SANDBOX_ENV_MAX + 1, sizeof *env);
    sb->env = env;
    const char *path = getenv("PATH"), *home = getenv("HOME"), *lang = getenv("LANG");
    if (!home) {
        struct passwd *pw = getpwuid(getuid());
        home = pw && pw->pw_dir ? pw->pw_dir : "/";
    }
    env_set(env, &n, "PATH", 4, path && *path ? path : TX_SANDBOX_BOT_PATH);
    env_set(env, &n, "HOME", 4, home);
    env_set(env, &n, "LANG", 4, lang && *lang ? lang : "C.UTF-8");
    env_set(env, &n, "TMPDIR", 6, "/tmp"); /* the bot's own: see the launcher */
    /* CodinGame runs Python unbuffered: its stub prints without flush, and
     * a bot that then reads sys.stdin itself (not input(), which flushes)
     * would hold its answer in a pipe's buffer until the timeout. */
    env_set(env, &n, "PYTHONUNBUFFERED", 16, "1");
    for (int i = 0; i < req->nenv && i < TX_SANDBOX_ENV_MAX; i++) {
        const char *item = req->env[i], *eq = strchr(item, '=');
        size_t len = eq ? (size_t)(eq - item) : strlen(item);
        if (!tx_sandbox_env_valid(item)) {
            snprintf(err, errcap, "--bot-env: expected NAME=VALUE or NAME, got '%s'", item);
            return -EINVAL;
        }
        if (eq) {
            env_set(env, &n, item, len, eq + 1);
        } else {
            const char *value = getenv(item);
            if (value)
                env_set(env, &n, item, len, value);
        }
    }
    return 0;
}

char **tx_sandbox_bot_env(const struct tx_sandbox *sb, char *const *own)
{
    size_t n = 0, k = 0;
    while (sb->env[n])
        n++;
    while (own && own[k])
        k++;
    char **env = tx_xmalloc((n + k + 1) * sizeof *env);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        bool replaced = false;
        for (size_t j = 0; j < k && !replaced; j++) {
            size_t len = strcspn(own[j], "=");
            replaced = !strncmp(sb->env[i], own[j], len) && sb->env[i][len] == '=';
        }
        if (!replaced)
            env[m++] = sb->env[i];
    }
    for (size_t j = 0; j < k; j++)
        env[m++] = own[j];
    env[m] = NULL;
    return env;
}

/* ---- cgroups ---- */

/* The mount point and root of the first mount of fstype whose super
 * options hold option (NULL: any), from /proc/self/mountinfo. */
static bool find_mount(const char *fstype, const char *option, char *point, char *root, size_t cap)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        /* ID PARENT MAJ:MIN ROOT POINT OPTIONS [TAGS...] - FSTYPE SOURCE SUPER */
        char r[PATH_MAX], p[PATH_MAX], type[64], super[1024];
        const char *dash = strstr(line, " - ");
        if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", r, p) != 2 ||
            sscanf(dash + 3, "%63s %*s %1023s", type, super) != 2 || strcmp(type, fstype))
            continue;
        if (option) {
            bool has = false;
            for (char *save = NULL, *o = strtok_r(super, ",", &save); o && !has;
                 o = strtok_r(NULL, ",", &save))
                has = !strcmp(o, option);
            if (!has)
                continue;
        }
        snprintf(point, cap, "%s", p);
        snprintf(root, cap, "%s", r);
        found = true;
    }
    fclose(f);
    return found;
}

/* Our path in the hierarchy that holds controller ("" for v2's), from
 * /proc/self/cgroup. */
static bool own_cgroup(const char *controller, char *buf, size_t cap)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *list = c1 + 1;
        if (!*controller) {
            found = !strcmp(line, "0") && !*list;
        } else {
            char copy[256];
            snprintf(copy, sizeof copy, "%s", list);
            for (char *save = NULL, *o = strtok_r(copy, ",", &save); o && !found;
                 o = strtok_r(NULL, ",", &save))
                found = !strcmp(o, controller);
        }
        if (found)
            snprintf(buf, cap, "%s", c2 + 1);
    }
    fclose(f);
    return found;
}

/* point + (path below root): where our cgroup is in the file system. */
static bool cgroup_dir(const char *point, const char *root, const char *path, char *buf, size_t cap)
{
    size_t rl = strlen(root);
    if (strcmp(root, "/") && (strncmp(path, root, rl) || (path[rl] && path[rl] != '/')))
        return false; /* our cgroup is outside what is mounted */
    const char *below = strcmp(root, "/") ? path + rl : path;
    if (!strcmp(below, "/"))
        below = "";
    return (size_t)snprintf(buf, cap, "%s%s", point, below) < cap;
}

static bool file_has_word(const char *path, const char *word)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    char buf[1024], *save = NULL;
    bool has = false;
    if (fgets(buf, sizeof buf, f))
        for (char *w = strtok_r(buf, " \n", &save); w && !has; w = strtok_r(NULL, " \n", &save))
            has = !strcmp(w, word);
    fclose(f);
    return has;
}

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = write(fd, text, strlen(text));
    int e = n < 0 ? -errno : 0;
    close(fd);
    return e;
}

/* True when our cgroup holds this process and nothing else. */
static bool alone_in(const char *own)
{
    char path[PATH_MAX + 32], line[32];
    snprintf(path, sizeof path, "%s/cgroup.procs", own);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    int n = 0;
    bool only_us = true;
    while (fgets(line, sizeof line, f)) {
        n++;
        only_us &= atoi(line) == (int)getpid();
    }
    fclose(f);
    return n == 1 && only_us;
}

/* cgroup v2 allows controllers below a cgroup only when it holds no
 * process, so the referee moves into a leaf of its own first, and bots'
 * cgroups become that leaf's siblings. Only a cgroup that holds nothing
 * but the referee is rearranged so (what `systemd-run --user --scope -p
 * Delegate=yes twixt-arena ...` gives), never a terminal's or a session's.
 * memory and pids must be delegated; cpu and cpuset are enabled too when
 * they are (*cpu says whether cpu is). Any failure puts everything back. */
static bool delegate_v2(const char *own, bool *cpu)
{
    char leaf[PATH_MAX + 64], path[PATH_MAX + 96], controllers[64] = "+memory +pids";
    snprintf(path, sizeof path, "%s/cgroup.controllers", own);
    if (!file_has_word(path, "memory") || !file_has_word(path, "pids") || !alone_in(own))
        return false;
    *cpu = file_has_word(path, "cpu");
    if (*cpu)
        strcat(controllers, " +cpu");
    if (file_has_word(path, "cpuset"))
        strcat(controllers, " +cpuset");
    snprintf(leaf, sizeof leaf, "%s/twixt-arena-%d", own, (int)getpid());
    if (mkdir(leaf, 0755) < 0)
        return false;
    snprintf(path, sizeof path, "%s/cgroup.procs", leaf);
    if (write_text(path, "0") == 0) {
        snprintf(path, sizeof path, "%s/cgroup.subtree_control", own);
        if (write_text(path, controllers) == 0)
            return true;
        *cpu = false; /* cpu or cpuset refused: memory and pids alone */
        if (write_text(path, "+memory +pids") == 0)
            return true;
        snprintf(path, sizeof path, "%s/cgroup.procs", own);
        write_text(path, "0");
    }
    rmdir(leaf);
    return false;
}

/* Our own writable cgroup directory in the v1 hierarchy of controller. */
static bool v1_dir(const char *controller, char *dir, size_t cap)
{
    char point[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
    return find_mount("cgroup", controller, point, root, sizeof point) &&
           own_cgroup(controller, path, sizeof path) && cgroup_dir(point, root, path, dir, cap) &&
           access(dir, W_OK) == 0;
}

/* Removes the bots' cgroups that keepers killed with SIGKILL (by a user,
 * or with their whole run) could not: twixt-bot-PID-* under dir whose
 * keeper PID is gone. rmdir takes only an empty cgroup, so a running
 * bot's is never touched, and one whose keeper lives (it may be about to
 * put its bot in) is not tried. */
static void remove_stale_cgroups(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        int pid;
        char rest;
        if (sscanf(e->d_name, "twixt-bot-%d-%c", &pid, &rest) != 2 || pid <= 1)
            continue;
        if (kill(pid, 0) == 0 || errno != ESRCH)
            continue; /* that pid lives (its keeper, or another process now) */
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path)
            rmdir(path);
    }
    closedir(d);
}

/* The directories bots' cgroups can be made in: v2 with memory and pids
 * (and cpu, cpuset) delegated, else v1's memory, pids and cpu hierarchies,
 * and its cpuset hierarchy for pinned bots. */
static void find_cgroups(struct tx_sandbox *sb)
{
    char point[PATH_MAX], root[PATH_MAX], path[PATH_MAX], dir[PATH_MAX];
    if (find_mount("cgroup2", NULL, point, root, sizeof point) &&
        own_cgroup("", path, sizeof path) && cgroup_dir(point, root, path, dir, sizeof dir) &&
        access(dir, W_OK) == 0 && delegate_v2(dir, &sb->cpu)) {
        sb->cgroups[sb->ncgroups++] = tx_strdup(dir);
    } else {
        static const char *const controllers[] = {"memory", "pids", "cpu"};
        for (size_t i = 0; i < sizeof controllers / sizeof controllers[0]; i++)
            if (v1_dir(controllers[i], dir, sizeof dir)) {
                sb->cgroups[sb->ncgroups++] = tx_strdup(dir);
                sb->cpu |= !strcmp(controllers[i], "cpu");
            }
        if (sb->pin_cores && v1_dir("cpuset", dir, sizeof dir))
            sb->cpuset = tx_strdup(dir);
    }
    for (int i = 0; i < sb->ncgroups; i++)
        remove_stale_cgroups(sb->cgroups[i]);
    if (sb->cpuset)
        remove_stale_cgroups(sb->cpuset);
}

/* Forgets the cgroups of controller kind: "cpu" (the cpu hierarchy, or
 * the cpu controller of v2's one directory), "cpuset", or NULL: all. */
static void drop_cgroups(struct tx_sandbox *sb, const char *kind)
{
    if (!kind || !strcmp(kind, "cpuset")) {
        free(sb->cpuset);
        sb->cpuset = NULL;
    }
    if (kind && !strcmp(kind, "cpuset"))
        return;
    for (int i = 0; kind && i < sb->ncgroups; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/cpu.shares", sb->cgroups[i]);
        if (access(path, F_OK) == 0) { /* v1's cpu hierarchy */
            free(sb->cgroups[i]);
            sb->cgroups[i--] = sb->cgroups[--sb->ncgroups];
        }
    }
    sb->cpu = false;
    if (!kind) {
        for (int i = 0; i < sb->ncgroups; i++)
            free(sb->cgroups[i]);
        sb->ncgroups = 0;
    }
}

/* ---- the probe ---- */

/* Starts the launcher in --probe mode with these settings: 0 when it built
 * the whole sandbox, else -1 with its reason in why. */
static int probe(const struct tx_sandbox *sb, const char *launcher, char *why, size_t cap)
{
    const char *const base[] = {launcher,      "--status-fd", "3",       "--sandbox", "--probe",
                                "--memory-mb", "64",          "--tasks", "16"};
    enum { NBASE = sizeof base / sizeof base[0] };
    const char *args[NBASE + 2 * TX_SANDBOX_CGROUPS_MAX + 12];
    char core[16];
    int n = 0;
    for (int i = 0; i < NBASE; i++)
        args[n++] = base[i];
    if (sb->network)
        args[n++] = "--network";
    for (int i = 0; i < sb->ncgroups; i++) {
        args[n++] = "--cgroup";
        args[n++] = sb->cgroups[i];
    }
    if (sb->cpu) {
        args[n++] = "--cpus";
        args[n++] = "1";
    }
    cpu_set_t allowed;
    if (sb->cpuset && sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        int c = 0;
        while (c < CPU_SETSIZE - 1 && !CPU_ISSET(c, &allowed))
            c++;
        snprintf(core, sizeof core, "%d", c);
        args[n++] = "--cgroup";
        args[n++] = sb->cpuset;
        args[n++] = "--core";
        args[n++] = core;
    }
    args[n++] = "--";
    args[n++] = "true";
    args[n] = NULL;

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(why, cap, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 3);
    pid_t pid;
    int r = posix_spawn(&pid, launcher, &actions, NULL, (char *const *)args, sb->env);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (r != 0) {
        close(fds[0]);
        snprintf(why, cap, "cannot start the launcher %s: %s", launcher, strerror(r));
        return -1;
    }
    char out[1024];
    size_t len = 0;
    ssize_t got;
    while ((got = read(fds[0], out + len, sizeof out - 1 - len)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0)
            len += (size_t)got;
    close(fds[0]);
    out[len] = '\0';
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    const char *error = strstr(out, "error ");
    if (error && (error == out || error[-1] == '\n')) {
        error += 6;
        snprintf(why, cap, "%.*s", (int)strcspn(error, "\n"), error);
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, cap, "the launcher's probe ended with status %d", status);
        return -1;
    }
    return 0;
}

/* ---- settings ---- */

/* path made absolute, whether it exists yet or not (the records file is
 * created after the sandbox is configured): a launcher looks for it from
 * its bot's working directory, which may be a bots file's dir. */
static char *absolute(const char *path)
{
    char buf[PATH_MAX], cwd[PATH_MAX];
    if (realpath(path, buf))
        return tx_strdup(buf);
    if (path[0] != '/' && getcwd(cwd, sizeof cwd) &&
        (size_t)snprintf(buf, sizeof buf, "%s/%s", cwd, path) < sizeof buf)
        return tx_strdup(buf);
    return tx_strdup(path);
}

static const char *const mode_names[] = {"auto", "on", "off"}; /* enum tx_sandbox_mode */

int tx_sandbox_mode_parse(const char *text, enum tx_sandbox_mode *mode)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(text, mode_names[i])) {
            *mode = (enum tx_sandbox_mode)i;
            return 0;
        }
    return -EINVAL;
}

const char *tx_sandbox_mode_name(enum tx_sandbox_mode mode)
{
    return (unsigned)mode < 3 ? mode_names[mode] : "?";
}

int tx_sandbox_init(struct tx_sandbox *sb, const struct tx_sandbox_request *req, char *err,
                    size_t errcap)
{
    memset(sb, 0, sizeof *sb);
    sb->mode = req->mode;
    sb->network = req->network;
    sb->pin_cores = req->pin_cores;
    int r = build_env(sb, req, err, errcap);
    if (r < 0)
        return r;
    if (req->output)
        sb->output = absolute(req->output);
    if (req->bots_file)
        sb->bots_file = absolute(req->bots_file);
    sb->cpus = req->cpus == 0 ? TX_SANDBOX_CPUS : req->cpus < 0 ? 0 : req->cpus;
    for (int i = 0; i < req->nwritable && i < TX_SANDBOX_WRITABLE_MAX; i++) {
        struct stat st;
        int found = stat(req->writable[i], &st) < 0 ? -errno : 0;
        if (found == -ENOENT) {
            snprintf(err, errcap,
                     "--bot-writable: no such directory '%s' (make it first: mkdir -p %s)",
                     req->writable[i], req->writable[i]);
            return -EINVAL;
        }
        if (found < 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errcap, "--bot-writable: '%s' is not a directory", req->writable[i]);
            return -EINVAL;
        }
        sb->writable[sb->nwritable++] = absolute(req->writable[i]);
    }
    if (req->mode == TX_SANDBOX_OFF)
        return 0;

    struct tx_paths paths; /* the launcher, installed or in the build tree */
    char why[sizeof sb->why];
    const char *launcher = paths.launcher;
    if (tx_paths_find(&paths) < 0) {
        snprintf(why, sizeof why, "%.300s", launcher);
    } else {
        find_cgroups(sb);
        bool had_cpu = sb->cpu;
        /* Namespaces may work where some cgroups do not: the pinned
         * cpuset goes first, then the cpu controller, then every cgroup
         * (rlimits then). */
        static const char *const fallback[] = {"cpuset", "cpu", NULL};
        sb->active = probe(sb, launcher, why, sizeof why) == 0;
        for (size_t i = 0; !sb->active && i < sizeof fallback / sizeof *fallback; i++) {
            if (!sb->ncgroups && !sb->cpuset)
                break;
            drop_cgroups(sb, fallback[i]);
            sb->active = probe(sb, launcher, why, sizeof why) == 0;
        }
        if (sb->active && !sb->cpu)
            snprintf(sb->cpu_why, sizeof sb->cpu_why, "%s",
                     had_cpu ? "the cgroup cpu controller refused the bots' cgroups"
                     : sb->ncgroups
                         ? "no cgroup cpu controller is usable here (cgroup v2 without cpu "
                           "delegated, or a v1 cpu hierarchy this user cannot write to)"
                         : "no cgroup hierarchy is writable here (it takes root with cgroup "
                           "v1, or a delegated cgroup v2: see README)");
    }
    if (sb->active)
        return 0;
    snprintf(sb->why, sizeof sb->why, "%s", why);
    if (req->mode == TX_SANDBOX_ON) {
        snprintf(err, errcap, "--sandbox on: bots cannot be isolated on this machine: %s", why);
        return -ENOTSUP;
    }
    return 0;
}

void tx_sandbox_free(struct tx_sandbox *sb)
{
    for (int i = 0; i < sb->ncgroups; i++)
        free(sb->cgroups[i]);
    free(sb->cpuset);
    for (int i = 0; i < sb->nwritable; i++)
        free(sb->writable[i]);
    tx_command_free(sb->env);
    free(sb->output);
    free(sb->bots_file);
    memset(sb, 0, sizeof *sb);
}

static struct tx_sandbox current;
static bool configured;

int tx_sandbox_configure(const struct tx_sandbox_request *req, const char *who, char *err,
                         size_t errcap)
{
    if (configured)
        tx_sandbox_free(&current);
    int r = tx_sandbox_init(&current, req, err, errcap);
    configured = r == 0;
    if (r == 0 && req->mode == TX_SANDBOX_AUTO && !current.active)
        fprintf(stderr,
                "%s: warning: bots run without a sandbox (they can see and signal other "
                "processes, use the network and read and write your files): %s; see README "
                "\"Threat model\", or give --sandbox off to run so without this warning\n",
                who, current.why);
    if (r == 0 && current.active && current.cpu_why[0] && current.cpus > 0)
        fprintf(stderr,
                "%s: warning: bots run in the sandbox without their CPU quota of --bot-cpus "
                "%g (a bot may take CPU from its opponent while the opponent thinks): %s; "
                "see README \"A fair share of the machine\", or give --bot-cpus 0 to run so "
                "without this warning\n",
                who, current.cpus, current.cpu_why);
    if (r == 0 && req->mode == TX_SANDBOX_OFF && req->cpus > 0) /* given, and not applied */
        fprintf(stderr,
                "%s: warning: --bot-cpus %g applies in the sandbox only: with --sandbox off, "
                "bots run without a CPU quota\n",
                who, req->cpus);
    return r;
}

const struct tx_sandbox *tx_sandbox_current(void)
{
    if (!configured) {
        struct tx_sandbox_request off = {.mode = TX_SANDBOX_OFF};
        char err[64];
        tx_sandbox_init(&current, &off, err, sizeof err);
        configured = true;
    }
    return &current;
}

void tx_sandbox_describe(const struct tx_sandbox *sb, char *buf, size_t cap)
{
    if (!sb->active) {
        if (sb->mode == TX_SANDBOX_OFF || !sb->why[0])
            snprintf(buf, cap, "off");
        else
            snprintf(buf, cap, "off (not available: %s)", sb->why);
        return;
    }
    char cpu[96] = "; no CPU quota";
    if (sb->cpu && sb->cpus > 0)
        snprintf(cpu, sizeof cpu, "; %g CPU%s per bot (cgroup quota), idle priority off move",
                 sb->cpus, sb->cpus == 1 ? "" : "s");
    snprintf(buf, cap,
             "on (own PID, mount, IPC, UTS, cgroup%s namespaces; files read-only%s, private "
             "/tmp of %d MiB; memory and %d tasks limited by %s%s)",
             sb->network ? " and user" : ", user and network",
             sb->nwritable ? " but --bot-writable's" : "", TX_SANDBOX_TMP_MB, TX_SANDBOX_TASKS,
             sb->ncgroups ? "cgroups" : "rlimits", cpu);
}

/* ---- one bot's launcher options ---- */

struct list {
    char **items;
    int n, cap;
};

static void push(struct list *l, const char *s)
{
    if (l->n + 2 > l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->items = tx_xrealloc(l->items, sizeof *l->items * (size_t)l->cap);
    }
    l->items[l->n++] = tx_strdup(s);
    l->items[l->n] = NULL;
}

/* path as seen from dir (NULL: our working directory) into buf. */
static bool in_dir(const char *dir, const char *path, char *buf, size_t cap)
{
    if (!dir || path[0] == '/')
        return (size_t)snprintf(buf, cap, "%s", path) < cap;
    return (size_t)snprintf(buf, cap, "%s/%s", dir, path) < cap;
}

/* The file a command word names, resolved: argv[0] without a '/' through
 * PATH, anything else as a path from dir (the bot's working directory,
 * NULL: ours). False when it names no existing file. */
static bool resolve(const char *word, bool program, const char *dir, char *buf)
{
    char full[PATH_MAX];
    if (program && !strchr(word, '/')) {
        const char *path = getenv("PATH");
        for (const char *p = path ? path : TX_SANDBOX_BOT_PATH; *p;) {
            size_t n = strcspn(p, ":");
            char entry[PATH_MAX];
            snprintf(entry, sizeof entry, "%.*s/%s", (int)n, n ? p : ".", word);
            if (in_dir(dir, entry, full, sizeof full) && access(full, X_OK) == 0 &&
                realpath(full, buf))
                return true;
            p += n + (p[n] == ':');
        }
        return false;
    }
    return in_dir(dir, word, full, sizeof full) && realpath(full, buf) != NULL;
}

static bool named_by(char *const *argv, const char *dir, const char *real)
{
    char buf[PATH_MAX];
    for (int i = 0; argv && argv[i]; i++)
        if (resolve(argv[i], i == 0, dir, buf) && !strcmp(buf, real))
            return true;
    return false;
}

static bool under_tmp(const char *path)
{
    return !strncmp(path, "/tmp/", 5) && path[5];
}

double tx_sandbox_bot_cpus(const struct tx_sandbox *sb, double own)
{
    return own > 0 ? own : own < 0 ? 0 : sb->cpus;
}

char **tx_sandbox_launcher_args(const struct tx_sandbox *sb, const struct tx_sandbox_bot *bot)
{
    struct list l = {.items = tx_xcalloc(1, sizeof(char *)), .cap = 1};
    char buf[PATH_MAX], number[32];
    char *const *argv = bot->argv, *const *opponent_argv = bot->opponent_argv;
    const char *dir = bot->dir, *opponent_dir = bot->opponent_dir;
    if (!sb->active)
        return l.items;
    push(&l, "--sandbox");
    if (sb->network)
        push(&l, "--network");
    push(&l, "--tmp-mb");
    snprintf(number, sizeof number, "%d", TX_SANDBOX_TMP_MB);
    push(&l, number);
    push(&l, "--tasks");
    snprintf(number, sizeof number, "%d", TX_SANDBOX_TASKS);
    push(&l, number);
    for (int i = 0; i < sb->ncgroups; i++) {
        push(&l, "--cgroup");
        push(&l, sb->cgroups[i]);
    }
    double cpus = tx_sandbox_bot_cpus(sb, bot->cpus);
    if (sb->cpu && cpus > 0) {
        push(&l, "--cpus");
        snprintf(number, sizeof number, "%g", cpus);
        push(&l, number);
    }
    if (sb->cpuset && bot->pinned) {
        push(&l, "--cgroup");
        push(&l, sb->cpuset);
    }
    for (int i = 0; i < sb->nwritable; i++) {
        push(&l, "--writable");
        push(&l, sb->writable[i]);
    }
    for (int i = 0; bot->writable && bot->writable[i]; i++) {
        char *path = absolute(bot->writable[i]);
        push(&l, "--writable");
        push(&l, path);
        free(path);
    }
    /* The records, and the bots file: every bot's env (tokens) is in it. */
    const char *runs[] = {sb->output, sb->bots_file};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
        if (runs[i]) {
            push(&l, "--hide");
            push(&l, runs[i]);
        }
    /* The opponent's files: those its command names as paths (an
     * interpreter found in PATH is everybody's), unless ours are the same. */
    for (int i = 0; opponent_argv && opponent_argv[i]; i++) {
        struct stat st;
        if ((i == 0 && !strchr(opponent_argv[i], '/')) ||
            !resolve(opponent_argv[i], false, opponent_dir, buf) || stat(buf, &st) < 0 ||
            !S_ISREG(st.st_mode) || named_by(argv, dir, buf))
            continue;
        push(&l, "--hide");
        push(&l, buf);
    }
    /* Our own files under /tmp, and the working directory, stay visible
     * over the sandbox's fresh /tmp. */
    for (int i = 0; argv[i]; i++)
        if (resolve(argv[i], i == 0, dir, buf) && under_tmp(buf)) {
            push(&l, "--keep");
            push(&l, buf);
        }
    if ((dir ? realpath(dir, buf) != NULL : getcwd(buf, sizeof buf) != NULL) && under_tmp(buf)) {
        push(&l, "--keep");
        push(&l, buf);
    }
    return l.items;
}

/* ---- cores ---- */

static int core_bots[CPU_SETSIZE]; /* running bots pinned to each core */

bool tx_sandbox_take_cores(double cpus, const cpu_set_t *avoid, cpu_set_t *ret)
{
    cpu_set_t allowed;
    if (!tx_sandbox_current()->pin_cores || sched_getaffinity(0, sizeof allowed, &allowed) < 0)
        return false;
    int want = cpus > 1 ? (int)cpus + (cpus > (int)cpus) : 1;
    CPU_ZERO(ret);
    for (int taken = 0; taken < want; taken++) {
        int best = -1;
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (!CPU_ISSET(c, &allowed) || CPU_ISSET(c, ret))
                continue;
            /* An opponent's core counts as busier than any other. */
            bool theirs = avoid && CPU_ISSET(c, avoid),
                 best_theirs = best >= 0 && avoid && CPU_ISSET(best, avoid);
            if (best < 0 || (best_theirs && !theirs) ||
                (best_theirs == theirs && core_bots[c] < core_bots[best]))
                best = c;
        }
        if (best < 0)
            break; /* fewer cores than it may use: all of them */
        CPU_SET(best, ret);
        core_bots[best]++;
    }
    return true;
}

void tx_sandbox_give_cores(const cpu_set_t *cores)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, cores) && core_bots[c] > 0)
            core_bots[c]--;
}
