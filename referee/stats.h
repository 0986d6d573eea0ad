/* stats.h - the statistics of game results: Elo, error bars, LOS, SPRT and
 * a rating fit for many bots. Pure math: no I/O, no allocation but the
 * rating fit's work space.
 *
 * Conventions (those of chess testing tools, so figures can be compared
 * with cutechess-cli and fastchess output): a win scores 1, a draw 1/2, a
 * loss 0; Elo differences are logistic, a score s meaning
 * -400 log10(1/s - 1); intervals are 95% two-sided normal intervals.
 */
#ifndef TX_STATS_H
#define TX_STATS_H

#include <stddef.h>
#include <stdint.h>

#define TX_STATS_Z95 1.959963984540054 /* the 97.5% quantile of the normal distribution */
#define TX_STATS_CONFIDENCE 0.975      /* each end of a 95% two-sided interval */

/* An Elo difference with its 95% interval. */
struct tx_stats_elo {
    double score;  /* (wins + draws / 2) / games */
    double elo;    /* -400 log10(1/score - 1); +-INFINITY for a score of 1 or 0, 0 for no games */
    double lo, hi; /* the 95% interval's ends in Elo: hi is +INFINITY when the normal
                      interval reaches a score of 1 (lo likewise); after a clean
                      sweep the finite end is the exact one-sided binomial bound */
    double margin; /* (hi - lo) / 2, as cutechess-cli prints "+- margin"; infinite when
                      an end is */
};

/* Elo difference of the side that scored wins/draws/losses, as
 * cutechess-cli computes it (trinomial, games independent). */
struct tx_stats_elo tx_stats_elo(int64_t wins, int64_t draws, int64_t losses);

/* elo as people read it, after label: "Elo +12.3 +- 20.1" with the given
 * decimals, without a "-0". When the 95% interval is open on one side (a
 * lopsided result, or a clean sweep, which has no finite estimate), the
 * finite end is given as a one-sided bound instead of dropping the error
 * bar: "Elo +585, at least +312 (95%)"; a sweep reads "Elo +inf (every
 * UNIT won), at least ...". */
void tx_stats_elo_format(const struct tx_stats_elo *elo, const char *label, int decimals,
                         const char *unit, char *buf, size_t cap);

/* Elo difference from colour-exchanged game pairs: penta[k] is the number
 * of pairs in which the side scored k/2 points (k = 0..4). The interval
 * comes from the variance of the pair scores (pentanomial model). */
struct tx_stats_elo tx_stats_elo_penta(const int64_t penta[5]);

/* Likelihood of superiority in [0, 1]: 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))),
 * draws ignored; 0.5 without decisive games. */
double tx_stats_los(int64_t wins, int64_t losses);

/* How the SPRT's Elo bounds are read. */
enum tx_stats_elo_model {
    TX_STATS_NORMALIZED = 0, /* normalised Elo (fastchess's default "normalized") */
    TX_STATS_LOGISTIC,       /* plain logistic Elo */
};

enum tx_stats_sprt_verdict {
    TX_STATS_SPRT_CONTINUE = 0, /* LLR between the bounds: play on */
    TX_STATS_SPRT_H0,           /* LLR <= lower: accept elo0 (no gain of elo1) */
    TX_STATS_SPRT_H1,           /* LLR >= upper: accept elo1 */
};

struct tx_stats_sprt {
    double llr;          /* log-likelihood ratio of elo1 against elo0 */
    double lower, upper; /* log(beta / (1 - alpha)), log((1 - beta) / alpha) */
    enum tx_stats_sprt_verdict verdict;
};

/* Sequential probability ratio test on pentanomial pair counts (penta as
 * for tx_stats_elo_penta): the generalised log-likelihood ratio of the
 * maximum likelihood distributions under elo1 and elo0, as fishtest computes
 * it. alpha and beta in (0, 1), elo0 < elo1. Empty counts are regularised
 * (1e-3 pairs) so a clean sweep decides too; llr is 0 before the first pair. */
struct tx_stats_sprt tx_stats_sprt(const int64_t penta[5], double elo0, double elo1, double alpha,
                                   double beta, enum tx_stats_elo_model model);

/* One result for tx_stats_fit: games between two sides, each one bot or a
 * team of two (Double TwixT) whose strength is the mean of its two bots'
 * ratings: a team of two copies of one bot is as strong as the bot. */
struct tx_stats_match {
    int a[2], b[2]; /* each side's bots (0 to n - 1); the second is -1 for a side of one */
    double points;  /* side a's: its wins and half its draws */
    double games;
};

/* Ratings of n bots from results between sides of one or two bots: the
 * Bradley-Terry model of tx_stats_ratings, a side's strength being the mean
 * of its bots' (natural-log strengths, so Elo: a team of +100 and -100 plays
 * like a bot rated 0), fitted by maximum likelihood with the same virtual
 * draw per bot, shifted to a mean of 0; ret_margin[i] the half-width of bot
 * i's 95% interval from the inverse of the observed information. A bot that
 * only ever played beside one partner, against the same opponents, is told
 * apart from it only by the prior: its interval says so (hundreds of Elo).
 * Returns 0, -EINVAL for n < 1 or a bot index out of range, or -ENOMEM. */
int tx_stats_fit(int n, const struct tx_stats_match *matches, int nmatches, double *ret_elo,
                 double *ret_margin);

/* Ratings of n bots from a round robin (or any schedule): points[i * n + j]
 * is what bot i scored against bot j (draws as halves) and games[i * n + j]
 * how many games they played (symmetric). Fits a Bradley-Terry model by
 * maximum likelihood, each bot given one virtual draw against a bot rated 0
 * (so that a bot that won or lost every game still has a finite rating),
 * then shifts the ratings to a mean of 0. ret_elo[i] is bot i's rating,
 * ret_margin[i] the half-width of its 95% interval (relative to the mean).
 * Returns 0, -EINVAL for n < 1, or -ENOMEM. */
int tx_stats_ratings(int n, const double *points, const double *games, double *ret_elo,
                     double *ret_margin);

#endif
