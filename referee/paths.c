/* paths.c - the launcher and bundled-bot lookup of paths.h.
 *
 * Everything starts from /proc/self/exe, which names the program file
 * itself (symbolic links resolved), so a symlink in ~/bin to an installed
 * twixt-arena finds the real prefix.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

/* Set by referee/meson.build from bindir and libexecdir. */
#ifndef TX_LIBEXEC_FROM_BINDIR
#define TX_LIBEXEC_FROM_BINDIR "../libexec/twixt-arena"
#endif
#define LAUNCHER_NAME "twixt-launch"

static int self_dir(char *buf, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -ENOENT;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -ENOENT;
    *slash = '\0';
    return (size_t)snprintf(buf, cap, "%s", self) < cap ? 0 : -ENOENT;
}

/* Writes "DIR/NAME" into buf, DIR with its ".." resolved; true when it fits
 * and is an executable file. */
static bool executable_at(char *buf, size_t cap, const char *dir, const char *name)
{
    char real[PATH_MAX];
    return realpath(dir, real) && (size_t)snprintf(buf, cap, "%s/%s", real, name) < cap &&
           access(buf, X_OK) == 0;
}

/* Writes DIR with its ".." resolved into buf (DIR as it is when it does not
 * exist); false when it does not fit. */
static bool resolved(char *buf, size_t cap, const char *dir)
{
    char real[PATH_MAX];
    return (size_t)snprintf(buf, cap, "%s", realpath(dir, real) ? real : dir) < cap;
}

int tx_paths_find(struct tx_paths *p)
{
    char dir[PATH_MAX + 64];
    memset(p, 0, sizeof *p);
    if (self_dir(p->self_dir, sizeof p->self_dir) == 0) {
        snprintf(dir, sizeof dir, "%s/" TX_LIBEXEC_FROM_BINDIR, p->self_dir);
        if (executable_at(p->launcher, sizeof p->launcher, dir, LAUNCHER_NAME)) {
            p->layout = TX_PATHS_INSTALLED;
            snprintf(p->bots_dir, sizeof p->bots_dir, "%s", p->self_dir);
            return 0;
        }
        snprintf(dir, sizeof dir, "%s/../referee", p->self_dir);
        if (executable_at(p->launcher, sizeof p->launcher, dir, LAUNCHER_NAME)) {
            p->layout = TX_PATHS_BUILD;
            snprintf(dir, sizeof dir, "%s/../bots", p->self_dir);
            if (!resolved(p->bots_dir, sizeof p->bots_dir, dir))
                p->bots_dir[0] = '\0';
            return 0;
        }
    }
    const char *env = getenv("TX_LAUNCHER");
    if (env && env[0] &&
        (size_t)snprintf(p->launcher, sizeof p->launcher, "%s", env) < sizeof p->launcher &&
        access(p->launcher, X_OK) == 0) {
        p->layout = TX_PATHS_ENV;
        return 0;
    }
    p->layout = TX_PATHS_NOT_FOUND;
    /* Each directory cut at 1900 bytes, so that the sentence always fits. */
    snprintf(p->launcher, sizeof p->launcher,
             "no " LAUNCHER_NAME " in %.1900s/" TX_LIBEXEC_FROM_BINDIR
             " (installed), in %.1900s/../referee (build tree) or in $TX_LAUNCHER",
             p->self_dir[0] ? p->self_dir : "?", p->self_dir[0] ? p->self_dir : "?");
    return -ENOENT;
}

const char *tx_paths_layout_name(enum tx_paths_layout layout)
{
    switch (layout) {
    case TX_PATHS_INSTALLED:
        return "installed";
    case TX_PATHS_BUILD:
        return "build tree";
    case TX_PATHS_ENV:
        return "$TX_LAUNCHER";
    case TX_PATHS_NOT_FOUND:
        break;
    }
    return "not found";
}

int tx_paths_bundled_bot(const char *name, char *buf, size_t cap, enum tx_paths_layout *layout)
{
    struct tx_paths p;
    if (tx_paths_find(&p) < 0 || !p.bots_dir[0] || !executable_at(buf, cap, p.bots_dir, name))
        return -ENOENT;
    if (layout)
        *layout = p.layout;
    return 0;
}
