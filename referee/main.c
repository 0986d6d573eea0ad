/* main.c - twixt-arena's entry point: picks the subcommand and runs it.
 *
 * Process-wide set-up lives here because it must happen before anything
 * else: SIGPIPE ignored (a write to a dead bot must fail with EPIPE, not kill
 * the referee) and every inherited descriptor above stderr marked
 * close-on-exec, so bots inherit nothing but their three pipes.
 *
 * `twixt-arena help COMMAND` runs COMMAND --help, so the two cannot differ;
 * `twixt-arena --help` and `help` list the subcommands from their command
 * lines (commands.h).
 */
#include <signal.h>
#include <stdbool.h>
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
    const struct tx_options_command *line;
    int (*run)(const char *program, int argc, char **argv);
} commands[] = {
    {&tx_cmd_play_line, tx_cmd_play},       {&tx_cmd_tournament_line, tx_cmd_tournament},
    {&tx_cmd_league_line, tx_cmd_league},   {&tx_cmd_validate_line, tx_cmd_validate},
    {&tx_cmd_replay_line, tx_cmd_replay},   {&tx_cmd_standings_line, tx_cmd_standings},
    {&tx_cmd_referee_line, tx_cmd_referee},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: twixt-arena COMMAND [ARGUMENTS] [OPTIONS]\n\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", commands[i].line->name, commands[i].line->operands);
        fprintf(out, "  %-24s  %s\n", left, commands[i].line->summary);
    }
    fprintf(out, "  %-24s  %s\n", "help [COMMAND]", "this help, or a command's options");
    fprintf(out, "  %-24s  %s\n", "version", "the version and the git revision it was built from");
    fprintf(out, "\nA BOT is a command line (\"python3 bot.py\"), optionally NAME=COMMAND.\n"
                 "twixt-arena COMMAND --help (or twixt-arena help COMMAND) lists its options;\n"
                 "twixt-arena --version prints the version.\n"
                 "Exit status: 0 success, 1 a check failed (validate, replay), 2 a usage or\n"
                 "input error, 128+N after signal N (130 for Ctrl-C).\n");
}

/* "twixt-arena: MESSAGE" and the hint, as options.h's usage errors. */
static int usage_error(const char *program, const char *what, const char *arg)
{
    char word[512];
    char *words[] = {(char *)program};
    if (!tx_options_shell_command(1, words, word, sizeof word))
        snprintf(word, sizeof word, "twixt-arena");
    fprintf(stderr, "twixt-arena: %s '%s'\n(%s --help lists the commands)\n", what, arg, word);
    return TX_EXIT_USAGE;
}

static void close_inherited_descriptors(void)
{
#ifdef SYS_close_range
    /* CLOSE_RANGE_CLOEXEC (4): keep them usable here, but never pass them on. */
    if (syscall(SYS_close_range, 3U, ~0U, 4U) == 0)
        return;
#endif
}

static int find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].line->name))
            return (int)i;
    return -1;
}

static bool is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    close_inherited_descriptors();
    const char *program = argc > 0 && argv[0] ? argv[0] : "twixt-arena";

    if (argc < 2) {
        usage(stderr);
        return TX_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--version") || !strcmp(name, "version"))
        return print_version();
    if (is_help(name) || (!strcmp(name, "help") && (argc == 2 || is_help(argv[2])))) {
        usage(stdout);
        return TX_EXIT_OK;
    }
    if (!strcmp(name, "help")) {
        int i = find_command(argv[2]);
        if (argc > 3)
            return usage_error(program, "help takes one COMMAND, got", argv[3]);
        if (i < 0)
            return usage_error(program, "unknown command", argv[2]);
        char *help_argv[] = {argv[2], (char *)"--help", NULL};
        return commands[i].run(program, 2, help_argv);
    }
    int i = find_command(name);
    if (i < 0)
        return usage_error(program, name[0] == '-' ? "unknown option" : "unknown command", name);
    return commands[i].run(program, argc - 1, argv + 1);
}
