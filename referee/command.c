/* command.c - splitting bot command lines like sh, without running a shell.
 *
 * Users write bots as they would type them in a terminal, so the splitting
 * follows sh's quoting rules closely enough that copy-pasting a working
 * command works here too. Everything else a shell would do (variables,
 * globs, redirections) is deliberately absent: a bot command is a program
 * and its arguments, nothing more.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"

static void set_err(char *err, size_t errcap, const char *msg)
{
    if (err && errcap)
        snprintf(err, errcap, "%s", msg);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort(); /* out of memory: the one place it is handled, like tx_strdup */
    return p;
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
    char *word = xmalloc(len + 1);
    char **argv = xmalloc(sizeof *argv * (TX_COMMAND_WORDS_MAX + 1));
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
        argv[argc] = xmalloc(n + 1);
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

char *tx_command_expand(const char *command, uint64_t seed, int size)
{
    char seed_text[24], size_text[16];
    snprintf(seed_text, sizeof seed_text, "%" PRIu64, seed);
    snprintf(size_text, sizeof size_text, "%d", size);

    /* Each placeholder is at least 6 bytes and expands to at most 20. */
    size_t cap = strlen(command) * 4 + 1;
    char *out = xmalloc(cap);
    size_t n = 0;
    for (const char *p = command; *p;) {
        const char *value = NULL;
        if (!strncmp(p, "{seed}", 6))
            value = seed_text;
        else if (!strncmp(p, "{size}", 6))
            value = size_text;
        if (value) {
            size_t vlen = strlen(value);
            memcpy(out + n, value, vlen);
            n += vlen;
            p += 6;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}
