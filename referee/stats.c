/* stats.c - Elo, error bars, LOS, SPRT and a rating fit (see stats.h).
 *
 * The formulas are the ones chess engine testers use, so that figures match
 * the tools people already trust:
 * - Elo and its interval: cutechess-cli, projects/lib/src/elo.cpp. The
 *   score s = (W + D/2) / N; the per-game score's variance
 *   var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N; the interval is
 *   s +- z sqrt(var / N), each end converted to Elo by -400 log10(1/s - 1).
 * - LOS: cutechess-cli, same file: 1/2 (1 + erf((W - L) / sqrt(2 (W + L)))).
 * - SPRT: the generalised SPRT on pentanomial pair counts as fishtest
 *   computes it (server/fishtest/stats/LLRcalc.py), after Michel Van den
 *   Bergh (support_MLE_multinomial.pdf, normalized_elo_practical.pdf): with
 *   pair scores k/4 (the pair's points over 2 games) and observed
 *   frequencies p_k, each hypothesis gets the maximum likelihood
 *   distribution q_h whose mean is the hypothesis's score (logistic Elo:
 *   1 / (1 + 10^(-elo / 400))) or whose t-value (mu - 1/2) / sigma is the
 *   hypothesis's (normalised Elo: nelo sqrt(2) ln(10) / 800), and
 *   LLR = pairs * sum p_k ln(q1_k / q0_k). fastchess's shortcut
 *   pairs / 2 * ln(var_0 / var_1) agrees to 1e-3 on ordinary samples but
 *   collapses when the pairs have almost no variance (a clean sweep never
 *   ended), hence the exact form. Empty counts weigh 1e-3 pairs (fishtest's
 *   regularize). Bounds: Wald's, ln(beta / (1 - alpha)), ln((1 - beta) / alpha).
 * - Ratings: the Bradley-Terry model (P(i beats j) = 1 / (1 + 10^((r_j - r_i)/400)))
 *   fitted by maximum likelihood with damped Newton steps, draws counted as
 *   half a win and half a loss. Intervals come from the inverse of the Fisher
 *   information, the usual asymptotic covariance of a maximum likelihood
 *   estimate; counting draws as halves slightly overstates them when draws
 *   are common (rare in Twixt). A team of two (Double TwixT) plays with the
 *   mean of its bots' strengths, which makes the fit a logistic regression
 *   whose rows weigh each bot +-1/2 (TrueSkill adds the skills of a team's
 *   players instead; the mean, so that a team of two copies of a bot plays
 *   like the bot, and team games and games of two rate on one scale).
 */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELO_PER_NEPER (400.0 / M_LN10) /* Elo points per unit of natural-log strength */
#define PRIOR_GAMES 1.0                /* virtual games (draws) against a bot rated 0 */
#define FIT_ITERATIONS 200             /* Newton steps; convergence takes far fewer */
#define FIT_TOLERANCE 1e-12 /* largest step, in natural-log strength, that ends the fit */
/* fishtest's stat_util.regularize: an empty pentanomial count weighs 1e-3
 * pairs, so that a clean sweep (no variance) still moves the LLR. */
#define SPRT_EPSILON 1e-3

static double elo_of_score(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

/* Elo and interval from a mean score s and its standard error, over n
 * independent samples (games, or game pairs). A clean sweep (s is 0 or 1)
 * has no variance, so the normal interval would be the single point
 * +-inf: its open end stays infinite and the other is the exact one-sided
 * binomial bound instead, the score p at which n straight wins (or losses)
 * have a probability of 2.5%: p = 0.025^(1/n). */
static struct tx_stats_elo elo_from(double s, double stderr_score, double n)
{
    struct tx_stats_elo e = {.score = s};
    e.elo = elo_of_score(s);
    e.lo = elo_of_score(s - TX_STATS_Z95 * stderr_score);
    e.hi = elo_of_score(s + TX_STATS_Z95 * stderr_score);
    double sweep = pow(1.0 - TX_STATS_CONFIDENCE, 1.0 / n);
    if (s >= 1.0)
        e.lo = elo_of_score(sweep);
    else if (s <= 0.0)
        e.hi = elo_of_score(1.0 - sweep);
    e.margin = (e.hi - e.lo) / 2.0;
    return e;
}

struct tx_stats_elo tx_stats_elo(int64_t wins, int64_t draws, int64_t losses)
{
    double n = (double)(wins + draws + losses);
    if (n <= 0)
        return (struct tx_stats_elo){.score = 0.5};
    double w = (double)wins / n, d = (double)draws / n, l = (double)losses / n;
    double s = w + d / 2.0;
    double var = w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s;
    return elo_from(s, sqrt(var / n), n);
}

/* Pair frequencies, their mean score per game and its variance per pair.
 * With regularize, an empty count weighs SPRT_EPSILON pairs instead of 0. */
static double penta_moments(const int64_t penta[5], bool regularize, double p[5], double *ret_var)
{
    double count[5], pairs = 0, s = 0, var = 0;
    for (int k = 0; k < 5; k++) {
        count[k] = regularize && penta[k] == 0 ? SPRT_EPSILON : (double)penta[k];
        pairs += count[k];
    }
    for (int k = 0; k < 5; k++) {
        p[k] = pairs > 0 ? count[k] / pairs : 0;
        s += p[k] * k / 4.0;
    }
    for (int k = 0; k < 5; k++)
        var += p[k] * (k / 4.0 - s) * (k / 4.0 - s);
    *ret_var = var;
    return pairs;
}

struct tx_stats_elo tx_stats_elo_penta(const int64_t penta[5])
{
    double p[5], var;
    double pairs = penta_moments(penta, false, p, &var);
    if (pairs <= 0)
        return (struct tx_stats_elo){.score = 0.5};
    double s = p[1] * 0.25 + p[2] * 0.5 + p[3] * 0.75 + p[4];
    return elo_from(s, sqrt(var / pairs), pairs);
}

double tx_stats_los(int64_t wins, int64_t losses)
{
    if (wins + losses <= 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (double)(wins + losses))));
}

/* Solves the secular equation sum_k p_k b_k / (1 + x b_k) = 0 for x, with
 * min b < 0 < max b, on the interval where every 1 + x b_k > 0. The left
 * side decreases in x there, from +inf to -inf, so bisection is exact to
 * double precision in a bounded number of steps. */
static double secular(const double b[5], const double p[5])
{
    double bmin = b[0], bmax = b[0];
    for (int k = 1; k < 5; k++)
        bmin = fmin(bmin, b[k]), bmax = fmax(bmax, b[k]);
    double lo = -1.0 / bmax, hi = -1.0 / bmin;
    for (int i = 0; i < 200 && lo < hi; i++) {
        double x = lo + (hi - lo) / 2, f = 0;
        if (x <= lo || x >= hi)
            break; /* the interval cannot be halved further */
        for (int k = 0; k < 5; k++)
            f += p[k] * b[k] / (1 + x * b[k]);
        if (f > 0)
            lo = x;
        else
            hi = x;
    }
    return lo + (hi - lo) / 2;
}

/* The distribution q on pair scores k/4 closest (maximum likelihood) to the
 * observed p under the constraint E_q = s: q_k = p_k / (1 + x (k/4 - s)),
 * x from the secular equation (Van den Bergh, support_MLE_multinomial.pdf,
 * Proposition 1.1; fishtest LLRcalc.MLE_expected). */
static void mle_expected(const double p[5], double s, double q[5])
{
    double b[5];
    for (int k = 0; k < 5; k++)
        b[k] = k / 4.0 - s;
    double x = secular(b, p);
    for (int k = 0; k < 5; k++)
        q[k] = p[k] / (1 + x * b[k]);
}

/* One solution of the normalised constraint (mu - 1/2) / sigma = t near q,
 * by the fixed-point iteration of fishtest LLRcalc.MLE_tvalue: each step is
 * an expectation constraint linearised at the current q, and a q that stops
 * moving is a stationary point of the Lagrangian. Returns false (q
 * unchanged) when a linearised constraint has no solution: t is too far
 * from q's own t-value for one jump. */
static bool tvalue_near(const double p[5], double t, double q[5])
{
    double cur[5];
    memcpy(cur, q, sizeof cur);
    for (int it = 0; it < 100; it++) {
        double mu = 0, var = 0, b[5], bmin = INFINITY, bmax = -INFINITY, moved = 0;
        for (int k = 0; k < 5; k++)
            mu += cur[k] * k / 4.0;
        for (int k = 0; k < 5; k++)
            var += cur[k] * (k / 4.0 - mu) * (k / 4.0 - mu);
        double sigma = sqrt(var);
        if (!(sigma > 0))
            return false;
        for (int k = 0; k < 5; k++) {
            double z = (mu - k / 4.0) / sigma;
            b[k] = k / 4.0 - 0.5 - t * sigma * (1 + z * z) / 2;
            bmin = fmin(bmin, b[k]), bmax = fmax(bmax, b[k]);
        }
        if (!(bmin < 0 && bmax > 0))
            return false;
        double x = secular(b, p);
        for (int k = 0; k < 5; k++) {
            double next = p[k] / (1 + x * b[k]);
            if (!(next > 0) || !isfinite(next))
                return false;
            moved = fmax(moved, fabs(next - cur[k]));
            cur[k] = next;
        }
        if (moved < 1e-12)
            break;
    }
    memcpy(q, cur, sizeof cur);
    return true;
}

/* The maximum likelihood distribution under (mu - 1/2) / sigma = t. The
 * observed p solves its own t-value exactly, so start there and walk t to
 * the target (continuation), halving the stride whenever a jump is too far
 * and doubling it after each success: a target far from the data (a large
 * elo1, a clean sweep) cannot be reached in one jump from a uniform start,
 * where fishtest's iteration has no solution. Returns false if the walk
 * stalls (never seen: it would need a stride under 1e-9). */
static bool mle_tvalue(const double p[5], double t, double q[5])
{
    double mu = 0, var = 0;
    for (int k = 0; k < 5; k++)
        mu += p[k] * k / 4.0;
    for (int k = 0; k < 5; k++)
        var += p[k] * (k / 4.0 - mu) * (k / 4.0 - mu);
    double at = (mu - 0.5) / sqrt(var), stride = t - at;
    memcpy(q, p, 5 * sizeof *q);
    for (int walk = 0; walk < 10000 && at != t; walk++) {
        double next = fabs(t - at) <= fabs(stride) ? t : at + stride;
        if (tvalue_near(p, next, q)) {
            at = next;
            stride *= 2;
        } else if (fabs(stride /= 2) < 1e-9) {
            return false;
        }
    }
    return at == t;
}

/* The maximum likelihood distribution under the hypothesis that the Elo
 * difference is elo. Normalised Elo is t sqrt(2) (800 / ln 10) in units of
 * the pair score's standard deviation: a pair averages two games. */
static bool hypothesis_pdf(const double p[5], double elo, enum tx_stats_elo_model model,
                           double q[5])
{
    if (model == TX_STATS_NORMALIZED)
        return mle_tvalue(p, elo * M_SQRT2 / (800.0 / M_LN10), q);
    mle_expected(p, 1.0 / (1.0 + pow(10.0, -elo / 400.0)), q);
    return true;
}

struct tx_stats_sprt tx_stats_sprt(const int64_t penta[5], double elo0, double elo1, double alpha,
                                   double beta, enum tx_stats_elo_model model)
{
    struct tx_stats_sprt r = {
        .lower = log(beta / (1.0 - alpha)),
        .upper = log((1.0 - beta) / alpha),
    };
    int64_t total = 0;
    for (int k = 0; k < 5; k++)
        total += penta[k];
    if (total <= 0)
        return r; /* no pair played yet */
    double p[5], var, q0[5], q1[5];
    penta_moments(penta, true, p, &var);
    if (!hypothesis_pdf(p, elo0, model, q0) || !hypothesis_pdf(p, elo1, model, q1))
        return r; /* no estimate: play on rather than decide on a guess */
    /* The generalised log-likelihood ratio of the two MLE distributions. */
    for (int k = 0; k < 5; k++)
        r.llr += p[k] * log(q1[k] / q0[k]);
    r.llr *= (double)total;
    if (r.llr >= r.upper)
        r.verdict = TX_STATS_SPRT_H1;
    else if (r.llr <= r.lower)
        r.verdict = TX_STATS_SPRT_H0;
    return r;
}

/* Inverts the n x n symmetric positive definite matrix a in place
 * (Gauss-Jordan with partial pivoting; n is at most a few hundred).
 * Returns false when it is singular. */
static bool invert(int n, double *a, double *work)
{
    double *inv = work;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            inv[i * n + j] = i == j;
    for (int c = 0; c < n; c++) {
        int pivot = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[pivot * n + c]))
                pivot = r;
        if (fabs(a[pivot * n + c]) < 1e-300)
            return false;
        for (int j = 0; j < n && pivot != c; j++) {
            double t = a[c * n + j];
            a[c * n + j] = a[pivot * n + j], a[pivot * n + j] = t;
            t = inv[c * n + j];
            inv[c * n + j] = inv[pivot * n + j], inv[pivot * n + j] = t;
        }
        double d = a[c * n + c];
        for (int j = 0; j < n; j++)
            a[c * n + j] /= d, inv[c * n + j] /= d;
        for (int r = 0; r < n; r++) {
            double f = a[r * n + c];
            if (r == c || f == 0)
                continue;
            for (int j = 0; j < n; j++)
                a[r * n + j] -= f * a[c * n + j], inv[r * n + j] -= f * inv[c * n + j];
        }
    }
    for (int i = 0; i < n * n; i++)
        a[i] = inv[i];
    return true;
}

/* ln(1 / (1 + e^-x)), without overflow for large |x|. */
static double log_sigmoid(double x)
{
    return x > 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

/* A match as the fit sees it: side a's strength minus side b's is
 * sum w[k] theta[bot[k]], over at most four distinct bots (a bot on both
 * sides, or twice in a team, is one term). */
struct term {
    int nbots;
    int bot[4];
    double w[4];
    double points, games;
};

static void add_weight(struct term *t, int bot, double w)
{
    for (int k = 0; k < t->nbots; k++)
        if (t->bot[k] == bot) {
            t->w[k] += w;
            return;
        }
    t->bot[t->nbots] = bot;
    t->w[t->nbots++] = w;
}

/* The terms of the matches that were played; -EINVAL for a bot out of range. */
static int make_terms(int n, const struct tx_stats_match *m, int nm, struct term *terms,
                      int *ret_nterms)
{
    int nt = 0;
    for (int i = 0; i < nm; i++) {
        if (!(m[i].games > 0))
            continue;
        const int *sides[2] = {m[i].a, m[i].b};
        struct term t = {.points = m[i].points, .games = m[i].games};
        for (int side = 0; side < 2; side++) {
            const int *bots = sides[side];
            if (bots[0] < 0 || bots[0] >= n || bots[1] < -1 || bots[1] >= n)
                return -EINVAL;
            double w = (side ? -1.0 : 1.0) / (bots[1] < 0 ? 1.0 : 2.0);
            add_weight(&t, bots[0], w);
            if (bots[1] >= 0)
                add_weight(&t, bots[1], w);
        }
        terms[nt++] = t;
    }
    *ret_nterms = nt;
    return 0;
}

static double difference(const struct term *t, const double *theta)
{
    double d = 0;
    for (int k = 0; k < t->nbots; k++)
        d += t->w[k] * theta[t->bot[k]];
    return d;
}

/* The log-likelihood of strengths theta (natural log units), the prior's
 * virtual draws included. */
static double log_likelihood(int n, const struct term *terms, int nt, const double *theta)
{
    double ll = 0;
    for (int i = 0; i < n; i++)
        ll += PRIOR_GAMES / 2.0 * (log_sigmoid(theta[i]) + log_sigmoid(-theta[i]));
    for (int m = 0; m < nt; m++) {
        double d = difference(&terms[m], theta);
        ll +=
            terms[m].points * log_sigmoid(d) + (terms[m].games - terms[m].points) * log_sigmoid(-d);
    }
    return ll;
}

/* Gradient g and information h (n x n) of the log-likelihood at theta: a
 * match of difference d = w . theta adds w (points - games p) to g and
 * games p (1 - p) w w^T to h, p = 1 / (1 + e^-d). (For the logistic model
 * the observed and the expected (Fisher) information are the same.) */
static void derivatives(int n, const struct term *terms, int nt, const double *theta, double *g,
                        double *h)
{
    for (int i = 0; i < n; i++) {
        double pi = 1.0 / (1.0 + exp(-theta[i]));
        g[i] = PRIOR_GAMES * (0.5 - pi);
        for (int j = 0; j < n; j++)
            h[i * n + j] = 0;
        h[i * n + i] = PRIOR_GAMES * pi * (1 - pi);
    }
    for (int m = 0; m < nt; m++) {
        const struct term *t = &terms[m];
        double p = 1.0 / (1.0 + exp(-difference(t, theta)));
        double residual = t->points - t->games * p, weight = t->games * p * (1 - p);
        for (int k = 0; k < t->nbots; k++) {
            g[t->bot[k]] += t->w[k] * residual;
            for (int l = 0; l < t->nbots; l++)
                h[t->bot[k] * n + t->bot[l]] += weight * t->w[k] * t->w[l];
        }
    }
}

int tx_stats_fit(int n, const struct tx_stats_match *matches, int nmatches, double *ret_elo,
                 double *ret_margin)
{
    if (n < 1 || nmatches < 0)
        return -EINVAL;
    size_t nn = (size_t)n * (size_t)n;
    double *theta = calloc((size_t)n, sizeof(double));
    double *trial = malloc((size_t)n * sizeof(double));
    double *g = malloc((size_t)n * sizeof(double));
    double *step = malloc((size_t)n * sizeof(double));
    double *h = malloc(nn * sizeof(double));
    double *work = malloc(nn * sizeof(double));
    struct term *terms = malloc(((size_t)nmatches + 1) * sizeof *terms);
    int r = -ENOMEM, nt = 0;
    if (!theta || !trial || !g || !step || !h || !work || !terms)
        goto out;
    if ((r = make_terms(n, matches, nmatches, terms, &nt)) < 0)
        goto out;

    /* Damped Newton: the log-likelihood is strictly concave (the prior sees
     * to that), so a step that does not raise it is halved until it does.
     * Quadratic convergence: a few dozen iterations even for 100% scores. */
    double ll = log_likelihood(n, terms, nt, theta);
    for (int it = 0; it < FIT_ITERATIONS; it++) {
        derivatives(n, terms, nt, theta, g, h);
        r = -EINVAL;
        if (!invert(n, h, work))
            goto out;
        double size = 0;
        for (int i = 0; i < n; i++) {
            step[i] = 0;
            for (int j = 0; j < n; j++)
                step[i] += h[i * n + j] * g[j];
            size = fmax(size, fabs(step[i]));
        }
        if (size < FIT_TOLERANCE)
            break;
        for (double t = 1.0; t > 1e-9; t /= 2) {
            for (int i = 0; i < n; i++)
                trial[i] = theta[i] + t * step[i];
            double next = log_likelihood(n, terms, nt, trial);
            if (next >= ll) {
                ll = next;
                for (int i = 0; i < n; i++)
                    theta[i] = trial[i];
                break;
            }
        }
    }

    /* Covariance: the inverse of the information at the optimum. */
    derivatives(n, terms, nt, theta, g, h);
    r = -EINVAL;
    if (!invert(n, h, work))
        goto out;

    /* Anchor: ratings relative to their mean. The variance of
     * theta_i - mean(theta) is C_ii - 2/n sum_k C_ik + 1/n^2 sum_kl C_kl. */
    double mean = 0, total = 0;
    for (int i = 0; i < n; i++) {
        mean += theta[i] / n;
        for (int k = 0; k < n; k++)
            total += h[i * n + k];
    }
    for (int i = 0; i < n; i++) {
        double row = 0;
        for (int k = 0; k < n; k++)
            row += h[i * n + k];
        double var = h[i * n + i] - 2.0 * row / n + total / ((double)n * n);
        ret_elo[i] = ELO_PER_NEPER * (theta[i] - mean);
        ret_margin[i] = TX_STATS_Z95 * ELO_PER_NEPER * sqrt(fmax(var, 0.0));
    }
    r = 0;
out:
    free(theta);
    free(trial);
    free(g);
    free(step);
    free(h);
    free(work);
    free(terms);
    return r;
}

int tx_stats_ratings(int n, const double *points, const double *games, double *ret_elo,
                     double *ret_margin)
{
    if (n < 1)
        return -EINVAL;
    /* each pair once: i's points against j, and the games they played */
    struct tx_stats_match *m = malloc(((size_t)n * (size_t)(n - 1) / 2 + 1) * sizeof *m);
    if (!m)
        return -ENOMEM;
    int nm = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (games[i * n + j] > 0)
                m[nm++] =
                    (struct tx_stats_match){{i, -1}, {j, -1}, points[i * n + j], games[i * n + j]};
    int r = tx_stats_fit(n, m, nm, ret_elo, ret_margin);
    free(m);
    return r;
}

void tx_stats_elo_format(const struct tx_stats_elo *elo, const char *label, int decimals,
                         const char *unit, char *buf, size_t cap)
{
    double shown = fabs(elo->elo) < 0.5 * pow(10, -decimals) ? 0.0 : elo->elo;
    char value[96];
    const char *space = label[0] ? " " : "";
    if (isfinite(elo->elo))
        snprintf(value, sizeof value, "%s%s%+.*f", label, space, decimals, shown);
    else
        snprintf(value, sizeof value, "%s%s%s (every %s %s)", label, space,
                 elo->elo > 0 ? "+inf" : "-inf", unit, elo->elo > 0 ? "won" : "lost");
    if (isfinite(elo->margin))
        snprintf(buf, cap, "%s +- %.*f", value, decimals, elo->margin);
    else if (isfinite(elo->lo))
        snprintf(buf, cap, "%s, at least %+.*f (95%%)", value, decimals, elo->lo);
    else if (isfinite(elo->hi))
        snprintf(buf, cap, "%s, at most %+.*f (95%%)", value, decimals, elo->hi);
    else
        snprintf(buf, cap, "%s", value);
}
