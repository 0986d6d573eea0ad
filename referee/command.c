/* command.c - splitting bot command lines like sh, without running a shell,
 * and finding their programs.
 *
 * Users write bots as they would type them in a terminal, so the splitting
 * follows sh's quoting rules closely enough that copy-pasting a working
 * command works here too. Everything else a shell would do (variables,
 * globs, redirections) is deliberately absent: a bot command is a program
 * and its arguments, nothing more.
 *
 * The program lookup is here too, once: the CLI checks every bot before
 * anything starts (a typo is one message, not a tournament of crashes) and
 * the records hash the file that the same lookup finds.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "command.h"
#include "paths.h"

static void set_err(char *err, size_t errcap, const char *msg)
{
    if (err && errcap)
        snprintf(err, errcap, "%s", msg);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Inside double quotes a backslash escapes only these (POSIX sh). */
static bool escapable_in_double_quotes(char c)
{
    return c == '"' || c == '\\' || c == '$' || c == '`' || c == '\n';
}

void tx_command_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

int tx_command_split(const char *line, char ***ret_argv, int *ret_argc, char *err, size_t errcap)
{
    size_t len = strlen(line);
    /* No word is longer than the line, so one scratch buffer of len + 1 holds any word. */
    char *word = tx_xmalloc(len + 1);
    char **argv = tx_xmalloc(sizeof *argv * (TX_COMMAND_WORDS_MAX + 1));
    int argc = 0;
    const char *p = line;
    const char *why = NULL;

    for (;;) {
        while (*p && is_blank(*p))
            p++;
        if (!*p)
            break;
        size_t n = 0;
        while (*p && !is_blank(*p)) {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end) {
                    why = "unbalanced single quote";
                    goto error;
                }
                memcpy(word + n, p + 1, (size_t)(end - p - 1));
                n += (size_t)(end - p - 1);
                p = end + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && escapable_in_double_quotes(p[1])) {
                        if (p[1] != '\n') /* backslash-newline is a line continuation */
                            word[n++] = p[1];
                        p += 2;
                    } else {
                        word[n++] = *p++;
                    }
                }
                if (!*p) {
                    why = "unbalanced double quote";
                    goto error;
                }
                p++;
            } else if (*p == '\\') {
                if (!p[1]) {
                    why = "trailing backslash";
                    goto error;
                }
                if (p[1] != '\n')
                    word[n++] = p[1];
                p += 2;
            } else {
                word[n++] = *p++;
            }
        }
        if (argc == TX_COMMAND_WORDS_MAX) {
            why = "more than 256 words";
            goto error;
        }
        word[n] = '\0';
        argv[argc] = tx_xmalloc(n + 1);
        memcpy(argv[argc], word, n + 1);
        argc++;
    }
    if (argc == 0) {
        why = "empty command";
        goto error;
    }
    argv[argc] = NULL;
    free(word);
    *ret_argv = argv;
    *ret_argc = argc;
    return 0;

error:
    argv[argc] = NULL;
    tx_command_free(argv);
    free(word);
    set_err(err, errcap, why);
    return -EINVAL;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '+' || c == '-';
}

static const char *basename_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Programs whose first operand, not themselves, is the bot. */
static bool is_interpreter(const char *program)
{
    static const char *const names[] = {
        "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno",
        "java",   "ruby",    "perl",    "php",  "sh",    "bash", "dash",   "lua",
        "luajit", "Rscript", "dotnet",  "mono", "julia", "env",  "nice",
    };
    const char *base = basename_of(program);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        /* python3.11, pypy3.9: a version suffix is still the interpreter */
        if (strncmp(base, names[i], n))
            continue;
        bool versioned = base[n] == '.' && base[n + 1] >= '0' && base[n + 1] <= '9';
        if (base[n] == '\0' || versioned)
            return true;
    }
    return false;
}

static void copy_name(char *name, const char *src)
{
    const char *base = basename_of(src);
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    if (n >= TX_COMMAND_NAME_MAX)
        n = TX_COMMAND_NAME_MAX - 1;
    if (n == 0) {
        snprintf(name, TX_COMMAND_NAME_MAX, "bot");
        return;
    }
    memcpy(name, base, n);
    name[n] = '\0';
}

void tx_command_derive_name(const char *command, char *name)
{
    char **argv;
    int argc;
    if (tx_command_split(command, &argv, &argc, NULL, 0) < 0) {
        snprintf(name, TX_COMMAND_NAME_MAX, "bot");
        return;
    }
    const char *pick = argv[0];
    int i = 0;
    /* Follow chains like "env python3 bot.py" or "nice -n 5 ./bot". */
    while (is_interpreter(argv[i])) {
        int j = i + 1;
        while (j < argc &&
               (argv[j][0] == '-' || strchr(argv[j], '=') || (j > 0 && !strcmp(argv[j - 1], "-n"))))
            j++;
        if (j >= argc)
            break;
        i = j;
        pick = argv[i];
    }
    copy_name(name, pick);
    tx_command_free(argv);
}

int tx_command_parse_bot(const char *arg, char *name, const char **ret_command, char *err,
                         size_t errcap)
{
    const char *p = arg;
    while (is_name_char(*p))
        p++;
    const char *command = arg;
    bool named = *p == '=' && p > arg;
    if (named) {
        size_t n = (size_t)(p - arg);
        if (n >= TX_COMMAND_NAME_MAX) {
            set_err(err, errcap, "name longer than 63 bytes");
            return -EINVAL;
        }
        command = p + 1;
    }

    char **argv;
    int argc;
    char why[64];
    if (tx_command_split(command, &argv, &argc, why, sizeof why) < 0) {
        if (err && errcap)
            snprintf(err, errcap, "bad command line \"%s\": %s", command, why);
        return -EINVAL;
    }
    tx_command_free(argv);

    if (named) {
        memcpy(name, arg, (size_t)(p - arg));
        name[p - arg] = '\0';
    } else {
        tx_command_derive_name(command, name);
    }
    *ret_command = command;
    return 0;
}

/* The placeholders, each with the text it is replaced by. */
struct placeholder {
    const char *name;
    char value[24];
};

#define NPLACEHOLDERS 7

static int placeholders(uint64_t seed, const struct tx_variant *v,
                        struct placeholder out[NPLACEHOLDERS])
{
    out[0] = (struct placeholder){"{seed}", ""};
    out[1] = (struct placeholder){"{size}", ""};
    out[2] = (struct placeholder){"{rules}", ""};
    out[3] = (struct placeholder){"{width}", ""};
    out[4] = (struct placeholder){"{height}", ""};
    out[5] = (struct placeholder){"{opening}", ""};
    out[6] = (struct placeholder){"{teams}", ""};
    snprintf(out[0].value, sizeof out[0].value, "%" PRIu64, seed);
    snprintf(out[1].value, sizeof out[1].value, "%d", v->width);
    snprintf(out[2].value, sizeof out[2].value, "%s", tx_ruleset(v->rules)->name);
    snprintf(out[3].value, sizeof out[3].value, "%d", v->width);
    snprintf(out[4].value, sizeof out[4].value, "%d", v->height);
    snprintf(out[5].value, sizeof out[5].value, "%s", tx_opening_rule_name(v->opening));
    snprintf(out[6].value, sizeof out[6].value, "%d", v->teams ? 1 : 0);
    return NPLACEHOLDERS;
}

char *tx_command_expand(const char *command, uint64_t seed, const struct tx_variant *v)
{
    struct placeholder ph[NPLACEHOLDERS];
    int nph = placeholders(seed, v, ph);

    /* Each placeholder is at least 6 bytes and expands to at most 20. */
    size_t cap = strlen(command) * 4 + 1;
    char *out = tx_xmalloc(cap);
    size_t n = 0;
    for (const char *p = command; *p;) {
        const char *value = NULL;
        size_t len = 0;
        for (int i = 0; *p == '{' && i < nph && !value; i++) {
            len = strlen(ph[i].name);
            if (!strncmp(p, ph[i].name, len))
                value = ph[i].value;
        }
        if (value) {
            size_t vlen = strlen(value);
            memcpy(out + n, value, vlen);
            n += vlen;
            p += len;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}

static bool is_placeholder_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

int tx_command_check_placeholders(const char *command, char *err, size_t errcap)
{
    for (const char *p = strchr(command, '{'); p; p = strchr(p + 1, '{')) {
        const char *q = p + 1;
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
            continue; /* "{}", "{ x }", "{1}": not a placeholder's shape, left alone */
        while (is_placeholder_char(*q))
            q++;
        size_t len = (size_t)(q - p + 1);
        if (*q != '}' || !strncmp(p, "{seed}", len) || !strncmp(p, "{size}", len) ||
            !strncmp(p, "{rules}", len) || !strncmp(p, "{width}", len) ||
            !strncmp(p, "{height}", len) || !strncmp(p, "{opening}", len) ||
            !strncmp(p, "{teams}", len))
            continue;
        if (err && errcap)
            snprintf(err, errcap,
                     "unknown placeholder %.*s (the placeholders are " TX_COMMAND_PLACEHOLDERS ")",
                     (int)(len < 40 ? len : 40), p);
        return -EINVAL;
    }
    return 0;
}

bool tx_command_has_size(const char *command)
{
    return strstr(command, "{size}") != NULL;
}

bool tx_command_knows_board(const char *command)
{
    if (tx_command_has_size(command) || strstr(command, "{width}") || strstr(command, "{height}"))
        return true;
    char **argv, path[PATH_MAX], bundled[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
    int argc;
    bool known = false;
    if (tx_command_split(command, &argv, &argc, NULL, 0) < 0)
        return false;
    if (argc < 1) {
        tx_command_free(argv);
        return false;
    }
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    /* A bundled bot, by its name and by where it is: the same file. */
    if (!strncmp(base, "twixt-", 6) &&
        tx_command_find_program(argv[0], path, sizeof path, NULL, 0) == 0 &&
        tx_paths_bundled_bot(base, bundled, sizeof bundled, NULL) == 0 && realpath(path, a) &&
        realpath(bundled, b))
        known = !strcmp(a, b);
    tx_command_free(argv);
    return known;
}

static bool is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Why the file at a path (a word with a '/') cannot be run, or NULL. */
static const char *path_problem(const char *file, int *rc)
{
    struct stat st;
    if (stat(file, &st) < 0) {
        *rc = -errno;
        return errno == ENOENT || errno == ENOTDIR ? "no such file" : strerror(errno);
    }
    if (S_ISDIR(st.st_mode)) {
        *rc = -EISDIR;
        return "is a directory";
    }
    if (!S_ISREG(st.st_mode) || access(file, X_OK) < 0) {
        *rc = -EACCES;
        return "not executable: chmod +x it, or name its interpreter";
    }
    return NULL;
}

int tx_command_find_program(const char *program, char *path, size_t cap, char *err, size_t errcap)
{
    int rc = 0;
    if (strchr(program, '/')) {
        const char *why = path_problem(program, &rc);
        if (!why && (size_t)snprintf(path, cap, "%s", program) >= cap) {
            rc = -ENAMETOOLONG;
            why = strerror(ENAMETOOLONG);
        }
        if (why && err && errcap && rc == -EACCES)
            snprintf(err, errcap, "%s (e.g. \"python3 %.200s\")", why, program);
        else if (why && err && errcap)
            snprintf(err, errcap, "%s", why);
        return rc;
    }
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/bin:/usr/bin"; /* what execvp uses when PATH is unset */
    for (const char *dir = *program ? dirs : NULL; dir;) {
        const char *end = strchrnul(dir, ':');
        size_t n = (size_t)(end - dir);
        /* An empty PATH entry means the current directory, as for execvp. */
        int w = n ? snprintf(path, cap, "%.*s/%s", (int)n, dir, program)
                  : snprintf(path, cap, "./%s", program);
        if (w > 0 && (size_t)w < cap && is_executable_file(path))
            return 0;
        dir = *end ? end + 1 : NULL;
    }
    if (err && errcap)
        snprintf(err, errcap, "not found in PATH (for a file here, write ./%.200s)", program);
    return -ENOENT;
}

/* A "#!" script whose interpreter is missing fails with ENOENT although the
 * script exists: say which file is missing. Returns 0 when the file is not
 * such a script or its interpreter exists. */
static int check_interpreter(const char *file, char *interp, size_t cap)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0; /* executable but unreadable: exec will say */
    char head[256];
    ssize_t n = read(fd, head, sizeof head - 1);
    close(fd);
    if (n < 2 || head[0] != '#' || head[1] != '!')
        return 0;
    head[n] = '\0';
    const char *p = head + 2;
    p += strspn(p, " \t");
    size_t len = strcspn(p, " \t\r\n");
    snprintf(interp, cap, "%.*s", (int)len, p);
    return len > 0 && access(interp, F_OK) < 0 ? -ENOENT : 0;
}

/* Interpreters whose first argument that is not an option is the script
 * they run ("python3 bot.py"): a typo in that name would otherwise pass the
 * program lookup and lose every game by crash. Each with the options that
 * give it code inline instead (then there is no script to check). */
static const struct {
    const char *name;
    const char *inline_options; /* " -c -m ": space-separated, spaces around */
} script_runners[] = {
    {"python", " -c -m "},
    {"python2", " -c -m "},
    {"python3", " -c -m "},
    {"pypy", " -c -m "},
    {"pypy3", " -c -m "},
    {"node", " -e --eval -p --print "},
    {"nodejs", " -e --eval -p --print "},
    {"ruby", " -e "},
    {"perl", " -e -E "},
    {"php", " -r "},
    {"lua", " -e "},
    {"bash", " -c "},
    {"sh", " -c "},
    {"dash", " -c "},
    {"Rscript", " -e "},
};

/* Options of those interpreters that take the next word as their value. */
static bool option_takes_value(const char *option)
{
    return !strcmp(option, "-W") || !strcmp(option, "-X") || !strcmp(option, "-r") ||
           !strcmp(option, "--require") || !strcmp(option, "-I");
}

/* The script an interpreter command names, or NULL when there is none to
 * check: not an interpreter, code given inline, or no argument. */
static const char *script_of(char **argv, int argc)
{
    const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    const char *inline_options = NULL;
    for (size_t i = 0; i < sizeof script_runners / sizeof script_runners[0]; i++) {
        size_t n = strlen(script_runners[i].name);
        /* python3.11 is python3 */
        if (!strncmp(base, script_runners[i].name, n) &&
            (base[n] == '\0' || (base[n] == '.' && isdigit((unsigned char)base[n + 1]))))
            inline_options = script_runners[i].inline_options;
    }
    for (int i = 1; inline_options && i < argc; i++) {
        const char *a = argv[i];
        char word[64];
        snprintf(word, sizeof word, " %s ", a);
        if (strstr(inline_options, word) || !strcmp(a, "-") || !strcmp(a, "--"))
            return NULL;
        if (a[0] != '-')
            return a;
        if (option_takes_value(a))
            i++;
    }
    return NULL;
}

/* A relative path of the command, as the bot's working directory dir sees
 * it ("" dir: the current one), into buf. */
static const char *in_dir(const char *dir, const char *file, char *buf, size_t cap)
{
    if (!dir || !*dir || file[0] == '/')
        return file;
    snprintf(buf, cap, "%s/%s", dir, file);
    return buf;
}

int tx_command_check(const char *command, const struct tx_variant *v, const char *dir, char *err,
                     size_t errcap)
{
    char *line = tx_command_expand(command, 1, v);
    char **argv, why[256], path[4096], interp[256], buf[4096];
    int argc;
    int rc = tx_command_split(line, &argv, &argc, why, sizeof why);
    if (rc < 0) {
        snprintf(err, errcap, "bad command line: %s", why);
        free(line);
        return rc;
    }
    /* a path is the bot's working directory's; a bare name is PATH's */
    const char *program = strchr(argv[0], '/') ? in_dir(dir, argv[0], buf, sizeof buf) : argv[0];
    const char *where = dir && *dir ? " in " : "", *shown_dir = dir && *dir ? dir : "";
    rc = tx_command_find_program(program, path, sizeof path, why, sizeof why);
    if (rc == 0 && check_interpreter(path, interp, sizeof interp) < 0) {
        rc = -ENOENT;
        snprintf(why, sizeof why, "its interpreter '%.200s' (on its #! line) was not found",
                 interp);
    }
    if (rc < 0)
        snprintf(err, errcap, "cannot run '%.200s'%s%.200s: %s", argv[0], where, shown_dir, why);
    const char *script = rc == 0 ? script_of(argv, argc) : NULL;
    if (script && access(in_dir(dir, script, buf, sizeof buf), F_OK) < 0) {
        rc = -ENOENT;
        snprintf(err, errcap, "cannot run '%.200s %.200s'%s%.200s: no such file '%.200s'", argv[0],
                 script, where, shown_dir, script);
    }
    tx_command_free(argv);
    free(line);
    return rc;
}
