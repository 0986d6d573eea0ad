/* refeed-private.h - the inside of a re-feed, shared by refeed.c and refeed-probe.c.
 *
 * refeed.c drives the bot through its turns; refeed-probe.c watches, through
 * /proc, what it does once its stdin closes. Nothing else includes this
 * header: the contract for everyone else is refeed.h.
 */
#ifndef TX_REFEED_PRIVATE_H
#define TX_REFEED_PRIVATE_H

#include "bot.h"
#include "refeed.h"

/* Closes the running bot's stdin and waits, without running the loop, up to
 * TX_REFEED_EXIT_WAIT_MS for it to exit; fills res's probe fields (probed,
 * exited, exit_us, nleft, left_pids, left_names) and kills the descendants
 * that left its session or group. */
void tx_refeed_probe_exit(struct tx_bot *bot, struct tx_refeed_result *res);

#endif
