/* paths.h - where twixt-arena's own parts are at run time: the bot launcher
 * and the bundled bots, found from the running program's directory.
 *
 * Two layouts, told apart by where the launcher is:
 * - installed: PREFIX/bin/twixt-arena with the bundled bots next to it, the
 *   launcher in libexecdir/twixt-arena/. The path from bindir to that
 *   directory is computed at build time (TX_LIBEXEC_FROM_BINDIR, e.g.
 *   "../libexec/twixt-arena"), so a prefix staged with DESTDIR or moved
 *   elsewhere still works.
 * - the build tree: build/referee/twixt-arena and twixt-launch, the bots in
 *   build/bots/; test programs in build/tests/ find them the same way,
 *   through "../referee" and "../bots".
 * No absolute path is compiled in: an installed program never reaches into
 * the tree it was built in.
 */
#ifndef TX_PATHS_H
#define TX_PATHS_H

#include <limits.h>
#include <stddef.h>

enum tx_paths_layout {
    TX_PATHS_NOT_FOUND,
    TX_PATHS_INSTALLED, /* launcher in libexecdir, bots next to the program */
    TX_PATHS_BUILD,     /* launcher in ../referee, bots in ../bots */
    TX_PATHS_ENV,       /* launcher from $TX_LAUNCHER; no bundled bots */
};

struct tx_paths {
    enum tx_paths_layout layout;
    char self_dir[PATH_MAX]; /* directory of the running program */
    char launcher[PATH_MAX]; /* twixt-launch */
    char bots_dir[PATH_MAX]; /* the bundled bots; "" for TX_PATHS_ENV */
};

/* Finds the launcher: the installed layout first, then the build tree, then
 * $TX_LAUNCHER. Returns 0, or -ENOENT with p->layout TX_PATHS_NOT_FOUND and
 * p->launcher a sentence naming where it looked. */
int tx_paths_find(struct tx_paths *p);

/* "installed", "build tree", "$TX_LAUNCHER" or "not found", for reports. */
const char *tx_paths_layout_name(enum tx_paths_layout layout);

/* The path of the bundled bot `name` ("twixt-random") in the layout found
 * by tx_paths_find, into buf. Returns 0 with *layout set (may be NULL), or
 * -ENOENT when there is no such executable file. */
int tx_paths_bundled_bot(const char *name, char *buf, size_t cap, enum tx_paths_layout *layout);

#endif
