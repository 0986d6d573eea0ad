/* proof.c - the three checks of a record read from a file (see proof.h).
 *
 * The identity is checked first because its failures say the most ("player
 * 1 is alpha, but game 3 of the pairing ... (players swapped?)"), then the
 * rules, then the place in the chain, which every edit breaks but which can
 * only say that something changed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pairing.h"
#include "proof.h"

void tx_proof_init(struct tx_proof *p)
{
    memset(p, 0, sizeof *p);
}

void tx_proof_free(struct tx_proof *p)
{
    tx_verify_geometries_free(&p->geos);
    memset(p, 0, sizeof *p);
}

int tx_proof_place(struct tx_proof *p, const char *line, size_t len, char *why, size_t cap)
{
    return tx_chain_walk_next(&p->chain, line, len, why, cap);
}

void tx_proof_other(struct tx_proof *p, const char *line, size_t len)
{
    tx_chain_walk_other(&p->chain, line, len);
}

int tx_proof_identity(struct tx_proof *p, const struct tx_record *r, char *why, size_t cap)
{
    const struct tx_geometry *geo = tx_verify_geometry(&p->geos, r->width, r->height);
    if (!geo) {
        snprintf(why, cap, "board %d x %d out of range", r->width, r->height);
        return -EINVAL;
    }
    return tx_pairing_check(geo, r, why, cap) < 0 ? -EINVAL : 0;
}

int tx_proof_record(struct tx_proof *p, const struct tx_record *r, const char *line, size_t len,
                    char *why, size_t cap)
{
    char place[256];
    int placed = tx_proof_place(p, line, len, place, sizeof place);
    if (tx_proof_identity(p, r, why, cap) < 0)
        return -EINVAL;
    const struct tx_geometry *geo = tx_verify_geometry(&p->geos, r->width, r->height);
    struct tx_verify_report report;
    if (tx_verify_record(geo, r, &report) < 0) {
        if (report.move > 0)
            snprintf(why, cap, "move %d: %s", report.move, report.what);
        else
            snprintf(why, cap, "%s", report.what);
        return -EINVAL;
    }
    if (placed < 0) {
        snprintf(why, cap, "%s", place);
        return -EINVAL;
    }
    return 0;
}
