/* arena-test.c - the suites' shared helpers for running programs (see
 * arena-test.h).
 */
#include "arena-test.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void tx_test_build_path(char *buf, size_t cap, const char *rel)
{
    const char *build = getenv("TX_BUILD_DIR");
    ck_assert_msg(build != NULL, "TX_BUILD_DIR is not set (run through meson test)");
    ck_assert_uint_lt((size_t)snprintf(buf, cap, "%s/%s", build, rel), cap);
}

void tx_test_make_tmpdir(char *dir, size_t cap, const char *name)
{
    ck_assert_uint_lt((size_t)snprintf(dir, cap, "/tmp/%s-XXXXXX", name), cap);
    ck_assert_msg(mkdtemp(dir) != NULL, "cannot make %s: %s", dir, strerror(errno));
}

void tx_test_remove_tree(const char *dir)
{
    char *argv[] = {(char *)"/bin/rm", (char *)"-rf", (char *)dir, NULL};
    ck_assert_int_eq(tx_test_exit_status(tx_test_spawn(argv, NULL, NULL)), 0);
}

pid_t tx_test_spawn(char *const *argv, const char *out, const char *err)
{
    const int flags = O_WRONLY | O_CREAT | O_TRUNC;
    posix_spawn_file_actions_t fa;
    ck_assert_int_eq(posix_spawn_file_actions_init(&fa), 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null", flags, 0644);
    if (out && err && !strcmp(out, err))
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, err ? err : "/dev/null", flags, 0644);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    ck_assert_msg(rc == 0, "cannot start %s: %s", argv[0], strerror(rc));
    return pid;
}

int tx_test_wait(pid_t pid)
{
    int status;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    ck_assert_int_eq(got, pid);
    return status;
}

int tx_test_exit_status(pid_t pid)
{
    int status = tx_test_wait(pid);
    ck_assert_msg(WIFEXITED(status), "pid %d did not exit: wait status %d", (int)pid, status);
    return WEXITSTATUS(status);
}

char *tx_test_read_file(const char *path)
{
    FILE *f = fopen(path, "re");
    ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
    size_t len = 0, cap = 4096;
    char *text = malloc(cap);
    ck_assert_ptr_nonnull(text);
    for (size_t n; (n = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += n;
        if (cap - len - 1 == 0) {
            text = realloc(text, cap *= 2);
            ck_assert_ptr_nonnull(text);
        }
    }
    ck_assert_msg(!ferror(f), "cannot read %s", path);
    fclose(f);
    text[len] = '\0';
    return text;
}

void tx_test_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static char scratch[256];

void tx_test_scratch_begin(const char *name)
{
    tx_test_make_tmpdir(scratch, sizeof scratch, name);
}

void tx_test_scratch_end(void)
{
    tx_test_remove_tree(scratch);
    scratch[0] = '\0';
}

const char *tx_test_scratch_dir(void)
{
    ck_assert_msg(scratch[0], "no scratch directory (tx_test_scratch_begin)");
    return scratch;
}

const char *tx_test_file(const char *name)
{
    static char buf[64][1024];
    static int next;
    char *p = buf[next++ % 64];
    ck_assert_uint_lt((size_t)snprintf(p, 1024, "%s/%s", tx_test_scratch_dir(), name), 1024);
    return p;
}

int tx_test_run(const char *const *argv)
{
    return tx_test_exit_status(
        tx_test_spawn((char *const *)argv, tx_test_file("out.txt"), tx_test_file("err.txt")));
}

int tx_test_arena(const char *first, ...)
{
    enum { ARGS_MAX = 60 };
    static char arena[1024];
    if (!arena[0])
        tx_test_build_path(arena, sizeof arena, "referee/twixt-arena");
    const char *argv[ARGS_MAX + 2] = {arena, first};
    int argc = 2;
    va_list ap;
    va_start(ap, first);
    for (const char *a; (a = va_arg(ap, const char *));) {
        ck_assert_int_lt(argc, ARGS_MAX + 1);
        argv[argc++] = a;
    }
    va_end(ap);
    argv[argc] = NULL;
    return tx_test_run(argv);
}

void tx_test_assert_in(const char *name, const char *needle)
{
    char *text = tx_test_read_file(tx_test_file(name));
    ck_assert_msg(strstr(text, needle), "%s has no \"%s\":\n%s", name, needle, text);
    free(text);
}

const char *tx_test_bot(const char *spec)
{
    static char buf[8][2048];
    static int next;
    static char tiny[1024], fault[1024], cg[1024];
    if (!tiny[0]) {
        tx_test_build_path(tiny, sizeof tiny, "tests/tiny-bot");
        tx_test_build_path(fault, sizeof fault, "tests/fault-bot");
        const char *src = getenv("TX_SOURCE_DIR");
        ck_assert_msg(src != NULL, "TX_SOURCE_DIR is not set (run through meson test)");
        snprintf(cg, sizeof cg, "python3 %s/tests/cg-bot.py", src);
    }
    const struct {
        const char *word, *command;
    } words[] = {{"TINY", tiny}, {"FAULT", fault}, {"CG", cg}};
    const char *eq = strchr(spec, '=');
    ck_assert_msg(eq != NULL, "bot \"%s\" is not NAME=COMMAND", spec);
    eq++;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t len = strlen(words[i].word);
        if (!strncmp(eq, words[i].word, len) && (eq[len] == ' ' || eq[len] == '\0')) {
            char *out = buf[next++ % 8];
            ck_assert_uint_lt((size_t)snprintf(out, 2048, "%.*s%s%s", (int)(eq - spec), spec,
                                               words[i].command, eq + len),
                              2048);
            return out;
        }
    }
    ck_abort_msg("bot \"%s\": its command starts with none of TINY, FAULT, CG", spec);
    return NULL;
}

struct tx_record *tx_test_read_records(const char *file, int *n)
{
    FILE *f = fopen(file, "re");
    ck_assert_msg(f != NULL, "cannot open %s: %s", file, strerror(errno));
    struct tx_record *records = NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int count = 0;
    for (int lineno = 1; (len = getline(&line, &cap, f)) > 0; lineno++) {
        records = realloc(records, (size_t)(count + 1) * sizeof *records);
        ck_assert_ptr_nonnull(records);
        char why[256];
        ck_assert_msg(tx_record_from_json(line, (size_t)len, &records[count], why, sizeof why) == 0,
                      "%s:%d: %s", file, lineno, why);
        count++;
    }
    free(line);
    fclose(f);
    *n = count;
    return records;
}

void tx_test_free_records(struct tx_record *records, int n)
{
    for (int i = 0; i < n; i++)
        tx_record_free(&records[i]);
    free(records);
}

void tx_test_wait_catching(pid_t pid, int signum)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    for (int ms = 0; ms < 60000; ms++) {
        FILE *f = fopen(path, "re");
        if (!f)
            return; /* gone: its status says how it ended */
        char line[256];
        unsigned long long caught = 0;
        bool zombie = false;
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "State:\tZ", 8))
                zombie = true;
            sscanf(line, "SigCgt:\t%llx", &caught);
        }
        fclose(f);
        if (zombie || caught >> (signum - 1) & 1)
            return;
        tx_test_sleep_ms(1);
    }
    ck_abort_msg("process %d did not catch signal %d within 60 s", (int)pid, signum);
}
