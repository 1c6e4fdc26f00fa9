/* test_enrichment.c — the metrics of `vsgrid enrich` (engine/report/enrichment.c) on cases
 * computed by hand: perfect, reversed and all-tied rankings, a 10-molecule example, EF cuts
 * (with a tie across the cut), unscored molecules, BEDROC against a direct evaluation of
 * Truchon & Bayly's formula (with ties: the mean over the tied orderings), the bootstrap. */
#include "check.h"
#include "engine/report/enrichment.h"
#include "grids/base/vsgrid.h"

static const double ALPHA = 80.5;
#define RANDOM_LOGAUC (0.999 / (3.0 * log(10.0)))   /* 0.144620 */

/* BEDROC written out from Truchon & Bayly 2007 eq. 36, independent of the library's code. */
static double bedroc_direct(const int *ranks, int n, int N)
{
    double s = 0.0, ra = (double)n / N;
    for (int i = 0; i < n; i++) s += exp(-ALPHA * ranks[i] / N);
    double rie = s / ((double)n / N * (1.0 - exp(-ALPHA)) / (exp(ALPHA / N) - 1.0));
    return rie * ra * sinh(ALPHA / 2) / (cosh(ALPHA / 2) - cosh(ALPHA / 2 - ALPHA * ra)) + 1.0 / (1.0 - exp(ALPHA * (1 - ra)));
}

int main(void)
{
    vsg_enrich_metrics m;
    double s[200];
    unsigned char a[200];

    /* Perfect: 2 actives best of 10. ROC (0,0) (0,1) (1,1): AUC 1, logAUC 100 %, adjusted
     * 100 − 14.462 = 85.538 %; EF (n = 1 at every cut for N = 10) = 1 / (2/10) = 5; BEDROC 1. */
    for (int i = 0; i < 10; i++) s[i] = i, a[i] = i < 2;
    CHECK(vsg_enrich_compute(s, a, 10, &m) == 0);
    CHECK_NEAR(m.auc, 1.0, 1e-12);
    CHECK_NEAR(m.logauc_percent, 100.0, 1e-9);
    CHECK_NEAR(m.adjusted_logauc_percent, 100.0 * (1.0 - RANDOM_LOGAUC), 1e-9);
    CHECK_NEAR(m.adjusted_logauc_percent, 85.538, 5e-4);
    for (int k = 0; k < VSG_ENRICH_NEF; k++) {
        CHECK_NEAR(m.ef[k], 5.0, 1e-12);
        CHECK(m.ef_top[k] == 1);
    }
    CHECK_NEAR(m.bedroc, 1.0, 1e-9);
    CHECK(m.molecules == 10 && m.actives == 2 && m.decoys == 8);

    /* Reversed: actives last. AUC 0, logAUC 0 (TPR 0 until FPR 1), adjusted −14.462, EF 0, BEDROC 0. */
    for (int i = 0; i < 10; i++) s[i] = -i;
    CHECK(vsg_enrich_compute(s, a, 10, &m) == 0);
    CHECK_NEAR(m.auc, 0.0, 1e-12);
    CHECK_NEAR(m.logauc_percent, 0.0, 1e-9);
    CHECK_NEAR(m.adjusted_logauc_percent, -100.0 * RANDOM_LOGAUC, 1e-9);
    for (int k = 0; k < VSG_ENRICH_NEF; k++) CHECK_NEAR(m.ef[k], 0.0, 1e-12);
    CHECK_NEAR(m.bedroc, 0.0, 1e-9);

    /* Higher-better = negated scores: the reversed list negated is perfect again. */
    for (int i = 0; i < 10; i++) s[i] = i;
    CHECK(vsg_enrich_compute(s, a, 10, &m) == 0 && fabs(m.auc - 1.0) < 1e-12);

    /* All tied: one diagonal ROC step, AUC ½, logAUC = the random curve's (adjusted 0), EF 1
     * (the best n hold n·2/10 actives on average), BEDROC = the mean over orderings, RIE = 1. */
    for (int i = 0; i < 10; i++) s[i] = -7.0;
    CHECK(vsg_enrich_compute(s, a, 10, &m) == 0);
    CHECK_NEAR(m.auc, 0.5, 1e-12);
    CHECK_NEAR(m.adjusted_logauc_percent, 0.0, 1e-9);
    for (int k = 0; k < VSG_ENRICH_NEF; k++) CHECK_NEAR(m.ef[k], 1.0, 1e-12);
    {   /* mean over the 45 placements of the 2 actives among 10 tied ranks */
        double sum = 0.0;
        int cnt = 0;
        for (int r1 = 1; r1 <= 10; r1++)
            for (int r2 = r1 + 1; r2 <= 10; r2++) {
                int rk[2] = {r1, r2};
                sum += bedroc_direct(rk, 2, 10), cnt++;
            }
        CHECK_NEAR(m.bedroc, sum / cnt, 1e-12);
    }

    /* One active and one decoy tied (scripts/enrichment.py's tie case): AUC ½. */
    {
        double t[2] = {-5, -5};
        unsigned char ta[2] = {1, 0};
        CHECK(vsg_enrich_compute(t, ta, 2, &m) == 0 && fabs(m.auc - 0.5) < 1e-12);
        CHECK_NEAR(m.ef[1], 1.0, 1e-12);   /* n = 1: half an active / (1/2) */
    }

    /* The 10-molecule example, by hand. Scores −10..−1 (lower better), actives at ranks 1, 3, 6:
     *   rank  1 2 3 4 5 6 7 8 9 10
     *         A D A D D A D D D D      3 actives, 7 decoys
     * AUC: the active at rank 1 beats 7 decoys, at 3 beats 6, at 6 beats 4: 17/21 = 0.8095238.
     * ROC: (0,0) (0,1/3) (1/7,1/3) (1/7,2/3) (2/7,2/3) (3/7,2/3) (3/7,1) (4/7,1) .. (1,1).
     * logAUC: horizontal pieces, TPR · log10(x1/x0) from FPR 0.001:
     *   [1/3 log10((1/7)/0.001) + 2/3 log10(3) + 1 · log10(7/3)] / 3
     *   = [1/3 · 2.1549020 + 2/3 · 0.4771213 + 0.3679768] / 3 = 0.4681201 → 46.812 %,
     *   adjusted 46.812 − 14.462 = 32.350 %.
     * EF: N = 10 → n = max(1, round(x% · 10)) = 1 at 0.5, 1, 2 and 5 % (0.5 rounds to even 0):
     *   the best one is active: (1/1) / (3/10) = 3.3333.
     * BEDROC: the formula with ranks {1, 3, 6}, N = 10. */
    for (int i = 0; i < 10; i++) s[i] = -10 + i, a[i] = (i == 0 || i == 2 || i == 5);
    CHECK(vsg_enrich_compute(s, a, 10, &m) == 0);
    CHECK_NEAR(m.auc, 17.0 / 21.0, 1e-12);
    CHECK_NEAR(m.auc, 0.8095238, 1e-7);
    double la = (log10((1.0 / 7) / 0.001) / 3 + 2.0 / 3 * log10(3.0) + log10(7.0 / 3)) / 3;
    CHECK_NEAR(m.logauc_percent, 100 * la, 1e-9);
    CHECK_NEAR(m.logauc_percent, 46.812, 1e-3);
    CHECK_NEAR(m.adjusted_logauc_percent, 32.350, 1e-3);
    for (int k = 0; k < VSG_ENRICH_NEF; k++) {
        CHECK_NEAR(m.ef[k], 10.0 / 3, 1e-12);
        CHECK(m.ef_top[k] == 1);
    }
    {
        int rk[3] = {1, 3, 6};
        CHECK_NEAR(m.bedroc, bedroc_direct(rk, 3, 10), 1e-12);
        double rr[3] = {1, 3, 6};
        CHECK_NEAR(vsg_enrich_bedroc_ranks(rr, 3, 10, ALPHA), bedroc_direct(rk, 3, 10), 1e-12);
    }
    {   /* the ROC vertices */
        double fpr[11], tpr[11];
        size_t np = vsg_enrich_roc(s, a, 10, fpr, tpr);
        CHECK(np == 11);
        CHECK_NEAR(fpr[1], 0.0, 1e-15);
        CHECK_NEAR(tpr[1], 1.0 / 3, 1e-15);
        CHECK_NEAR(fpr[6], 3.0 / 7, 1e-15);
        CHECK_NEAR(tpr[6], 1.0, 1e-15);
        CHECK_NEAR(fpr[10], 1.0, 1e-15);
    }

    /* EF cuts on 200 molecules, actives at ranks 1, 3, 5, 12, 100: n = 1, 2, 4, 10 at
     * 0.5, 1, 2, 5 %; actives / N = 1/40: EF0.5 = 1/1·40 = 40, EF1 = 1/2·40 = 20,
     * EF2 = 2/4·40 = 20, EF5 = 3/10·40 = 12. */
    for (int i = 0; i < 200; i++) s[i] = i + 1, a[i] = (i == 0 || i == 2 || i == 4 || i == 11 || i == 99);
    CHECK(vsg_enrich_compute(s, a, 200, &m) == 0);
    CHECK(m.ef_top[0] == 1 && m.ef_top[1] == 2 && m.ef_top[2] == 4 && m.ef_top[3] == 10);
    CHECK_NEAR(m.ef[0], 40.0, 1e-9);
    CHECK_NEAR(m.ef[1], 20.0, 1e-9);
    CHECK_NEAR(m.ef[2], 20.0, 1e-9);
    CHECK_NEAR(m.ef[3], 12.0, 1e-9);
    {
        int rk[5] = {1, 3, 5, 12, 100};
        CHECK_NEAR(m.bedroc, bedroc_direct(rk, 5, 200), 1e-12);
    }
    /* A tie across the EF5% cut: ranks 9..12 share one score, one active among them (the one
     * at 12). The best 10 take 2 of the 4 tied: 3 + 2 · 1/4 = 3.5 actives: EF5 = 3.5/10·40 = 14.
     * BEDROC: the active's term is the mean of e^(−α r/N) over r = 9..12. */
    for (int i = 8; i < 12; i++) s[i] = 9;
    CHECK(vsg_enrich_compute(s, a, 200, &m) == 0);
    CHECK_NEAR(m.ef[3], 14.0, 1e-9);
    {
        double sum = 0.0;
        for (int r = 9; r <= 12; r++) {
            int rk[5] = {1, 3, 5, r, 100};
            sum += bedroc_direct(rk, 5, 200);
        }
        CHECK_NEAR(m.bedroc, sum / 4, 1e-12);
    }

    /* Unscored (NaN) molecules rank last, tied: an active with NaN among 3 decoys with scores
     * and one NaN decoy: it beats no scored decoy and ties the NaN one: AUC = ½ · 1/4 = 0.125. */
    {
        double t[5] = {1, 2, 3, NAN, NAN};
        unsigned char ta[5] = {0, 0, 0, 1, 0};
        CHECK(vsg_enrich_compute(t, ta, 5, &m) == 0);
        CHECK_NEAR(m.auc, 0.125, 1e-12);
    }

    /* No actives / no decoys: −1 and NaN metrics. */
    for (int i = 0; i < 10; i++) s[i] = i, a[i] = 0;
    CHECK(vsg_enrich_compute(s, a, 10, &m) == -1 && isnan(m.auc) && m.decoys == 10);
    for (int i = 0; i < 10; i++) a[i] = 1;
    CHECK(vsg_enrich_compute(s, a, 10, &m) == -1 && m.actives == 10);

    /* Bootstrap: repeatable with a seed, another seed differs, the interval holds the point
     * estimate, every resample valid when actives are common; a perfect ranking stays perfect. */
    for (int i = 0; i < 200; i++) s[i] = sin(i * 1.7) + (i % 5 == 0 ? -0.8 : 0.0), a[i] = i % 5 == 0;
    vsg_enrich_metrics lo, hi, lo2, hi2, pt;
    int valid = 0, valid2 = 0;
    CHECK(vsg_enrich_compute(s, a, 200, &pt) == 0);
    CHECK(vsg_enrich_bootstrap(s, a, 200, 500, 42, &lo, &hi, &valid) == 0);
    CHECK(valid == 500);
    CHECK(lo.auc <= pt.auc && pt.auc <= hi.auc && hi.auc - lo.auc > 0.01 && hi.auc - lo.auc < 0.4);
    CHECK(lo.bedroc <= pt.bedroc && pt.bedroc <= hi.bedroc);
    CHECK(lo.adjusted_logauc_percent <= pt.adjusted_logauc_percent && pt.adjusted_logauc_percent <= hi.adjusted_logauc_percent);
    CHECK(lo.ef[3] <= pt.ef[3] && pt.ef[3] <= hi.ef[3]);
    CHECK(vsg_enrich_bootstrap(s, a, 200, 500, 42, &lo2, &hi2, &valid2) == 0);
    CHECK(lo2.auc == lo.auc && hi2.auc == hi.auc && lo2.ef[1] == lo.ef[1] && hi2.bedroc == hi.bedroc);
    CHECK(vsg_enrich_bootstrap(s, a, 200, 500, 43, &lo2, &hi2, &valid2) == 0);
    CHECK(lo2.auc != lo.auc || hi2.auc != hi.auc);
    for (int i = 0; i < 200; i++) s[i] = a[i] ? -1.0 - i : i;
    CHECK(vsg_enrich_bootstrap(s, a, 200, 200, 1, &lo, &hi, &valid) == 0);
    CHECK_NEAR(lo.auc, 1.0, 1e-12);
    CHECK_NEAR(hi.bedroc, 1.0, 1e-9);

    if (check_failures) fprintf(stderr, "test_enrichment: %d failure(s)\n", check_failures);
    else printf("test_enrichment: ok\n");
    return check_failures ? 1 : 0;
}
