/* main.c - twixt-arena's entry point: picks the subcommand and runs it.
 *
 * Process-wide set-up lives here because it must happen before anything
 * else: SIGPIPE ignored (a write to a dead bot must fail with EPIPE, not kill
 * the referee) and every inherited descriptor above stderr marked
 * close-on-exec, so bots inherit nothing but their three pipes.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "commands.h"
#include "version.h"

/* `twixt-arena version` and --version: the version, and the git revision
 * when built from a git checkout (version.h, made at build time). */
static int print_version(void)
{
    puts("twixt-arena " TX_VERSION " (" TX_REVISION ")");
    return TX_EXIT_OK;
}

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;
} commands[] = {
    {"play", tx_cmd_play, "BOT1 BOT2 [--games N] [--seed S] [-o FILE]   one match"},
    {"tournament", tx_cmd_tournament,
     "BOT... [--games-per-pair N] [--concurrency C] [-o FILE]   round robin with standings"},
    {"validate", tx_cmd_validate, "BOT [--games N] [--json]   is this bot legal and fast enough?"},
    {"replay", tx_cmd_replay,
     "FILE [--game K] [--format text|svg|html]   verify and render records"},
    {"standings", tx_cmd_standings, "FILE... [--json]   standings and crosstable from records"},
};

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: twixt-arena COMMAND [OPTIONS]   (twixt-arena COMMAND --help for its options)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].synopsis);
    fprintf(out, "  %-11s %s\n", "version", "the version and the git revision it was built from");
    fprintf(out, "\nBOT is a command line (\"python3 bot.py\"), optionally NAME=COMMAND.\n"
                 "Exit status: 0 success, 1 a check failed, 2 usage or input error.\n");
}

static void close_inherited_descriptors(void)
{
#ifdef SYS_close_range
    /* CLOSE_RANGE_CLOEXEC (4): keep them usable here, but never pass them on. */
    if (syscall(SYS_close_range, 3U, ~0U, 4U) == 0)
        return;
#endif
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    close_inherited_descriptors();

    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TX_EXIT_USAGE : TX_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))
        return print_version();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "twixt-arena: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return TX_EXIT_USAGE;
}
