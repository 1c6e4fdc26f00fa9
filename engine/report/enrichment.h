/* enrichment.h — how well a virtual screen ranks known actives among decoys: ROC AUC,
 * adjusted logAUC, enrichment factors, BEDROC, and bootstrap confidence intervals. Pure
 * functions of (score, active) pairs, no I/O (`vsgrid enrich`, engine/cli/cli_enrich.c).
 *
 * Conventions. One entry per molecule; LOWER scores rank better (negate for higher-better
 * scores). A NaN score ranks last, all NaNs tied with each other (a molecule without a valid
 * score). Tied scores are handled as the expected value over the tied orderings: the ROC curve
 * takes one diagonal step over a tie group (so AUC counts an active–decoy tie as ½), an EF cut
 * that falls inside a tie group counts its actives pro rata, and BEDROC averages e^(−α r/N) over
 * the group's ranks.
 *
 *   AUC       area under the ROC curve (FPR, TPR) = P(active ranks above decoy), ties ½.
 *   logAUC    Mysinger & Shoichet, J Chem Inf Model 50 (2010) 1561: ∫ TPR d(log10 FPR) over
 *             FPR ∈ [0.001, 1], divided by log10(1000) = 3, exact for the piecewise-linear ROC
 *             curve; adjusted logAUC = logAUC − (1 − 0.001)/(3 ln 10) (the random curve's
 *             0.14462), both in %: random ≈ 0, perfect 85.54.
 *   EF x%     (actives among the best n / n) / (actives / N), n = max(1, round(x/100 · N)),
 *             round = to nearest, halves to even (as Python's round, scripts/enrichment.py).
 *   BEDROC    Truchon & Bayly, J Chem Inf Model 47 (2007) 488, eq. 36, α = 80.5 (the top ~2%
 *             weighs 80%): with r_i the 1-based ranks of the n actives among N, Ra = n/N,
 *             RIE = Σ e^(−α r_i/N) / [Ra (1 − e^(−α)) / (e^(α/N) − 1)],
 *             BEDROC = RIE · Ra sinh(α/2) / (cosh(α/2) − cosh(α/2 − α Ra)) + 1 / (1 − e^(α(1 − Ra))).
 */
#ifndef VSG_ENRICHMENT_H
#define VSG_ENRICHMENT_H

#include <stddef.h>
#include <stdint.h>

#define VSG_ENRICH_NEF 4              /* EF at 0.5, 1, 2, 5 % */
#define VSG_ENRICH_LOG_LAMBDA 0.001   /* logAUC's lowest FPR */
#define VSG_ENRICH_BEDROC_ALPHA 80.5
extern const double vsg_enrich_ef_percent[VSG_ENRICH_NEF];

typedef struct {
    double molecules, actives, decoys; /* weights (counts) */
    double auc;                        /* 0..1 */
    double logauc_percent;             /* 100 · logAUC */
    double adjusted_logauc_percent;    /* 100 · (logAUC − random) */
    double ef[VSG_ENRICH_NEF];         /* at vsg_enrich_ef_percent[] */
    long ef_top[VSG_ENRICH_NEF];       /* n of each EF */
    double bedroc;                     /* α = VSG_ENRICH_BEDROC_ALPHA */
} vsg_enrich_metrics;

/* The metrics of n molecules (score[i], active[i] ≠ 0 for an active). 0 on success, −1 when
 * there are no actives or no decoys (m then holds the counts and NaN metrics), −2 when out of
 * memory. */
int vsg_enrich_compute(const double *score, const unsigned char *active, size_t n, vsg_enrich_metrics *m);

/* The ROC curve's vertices: (0,0), then one point after each tie group, best first: at most
 * n + 1 points into fpr[], tpr[] (n + 1 each). Returns the number of points, or 0 when there
 * are no actives or no decoys, or no memory. */
size_t vsg_enrich_roc(const double *score, const unsigned char *active, size_t n, double *fpr, double *tpr);

/* BEDROC of n actives at the given 1-based ranks among N molecules (no ties), evaluated
 * term by term: the formula above, for checking and for callers that have ranks. */
double vsg_enrich_bedroc_ranks(const double *rank, size_t nactive, size_t N, double alpha);

/* Percentile bootstrap: `samples` resamplings of the n molecules with replacement (a
 * xoshiro256** stream seeded by `seed`); lo / hi get the 2.5th and 97.5th percentiles of each
 * metric (linear interpolation between order statistics) over the resamples that hold both
 * actives and decoys, their number in *valid. ef_top of lo / hi are the point estimate's.
 * 0 on success, −1 no actives or decoys, −2 out of memory. */
int vsg_enrich_bootstrap(const double *score, const unsigned char *active, size_t n, int samples, uint64_t seed,
                         vsg_enrich_metrics *lo, vsg_enrich_metrics *hi, int *valid);

#endif
