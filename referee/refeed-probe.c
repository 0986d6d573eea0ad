/* refeed-probe.c - the exit probe of a re-feed: does the bot exit when its
 * stdin closes, and what does it leave behind?
 *
 * The probe does not run the loop while it waits: libuv reaps children
 * only from the loop, so the bot's launcher, which exits right after the
 * bot, stays a zombie and /proc tells that it exited. What the bot left
 * running, the launcher has named on its status pipe (and killed) by then.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "proc.h"
#include "refeed-private.h"

#define PROBE_POLL_US 2000 /* /proc is looked at this often while waiting for the exit */

static void sleep_us(long us)
{
    struct timespec t = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    while (nanosleep(&t, &t) < 0 && errno == EINTR)
        ;
}

void tx_refeed_probe_exit(struct tx_bot *bot, struct tx_refeed_result *res)
{
    res->probed = true;
    tx_bot_close_input(bot);
    uint64_t t0 = uv_hrtime(), wait_ns = (uint64_t)TX_REFEED_EXIT_WAIT_MS * 1000000u;
    for (;;) {
        char state;
        uint64_t now = uv_hrtime();
        if (tx_proc_stat(bot->pid, &state, NULL, 0) < 0 || state == 'Z' || state == 'X') {
            res->exited = true;
            res->exit_us = (int64_t)((now - t0) / 1000);
            break;
        }
        if (now - t0 >= wait_ns)
            break;
        sleep_us(PROBE_POLL_US);
    }
    /* The launcher named what the bot left running before killing it. */
    tx_bot_read_status(bot);
    res->nleft = bot->left_total;
    for (int i = 0; i < bot->left_total && i < TX_REFEED_LEFT_MAX && i < TX_BOT_LEFT_MAX; i++) {
        res->left_pids[i] = bot->left_pids[i];
        snprintf(res->left_names[i], sizeof res->left_names[0], "%s", bot->left_names[i]);
    }
}
