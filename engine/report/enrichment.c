/* enrichment.c — ROC AUC, adjusted logAUC, EF and BEDROC of a ranked screen, and their bootstrap
 * confidence intervals (definitions in enrichment.h). Everything works on the molecules sorted
 * once by score, with an integer weight per molecule (1, or its multiplicity in a bootstrap
 * resample), walking tie groups best first. */
#include "engine/report/enrichment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const double vsg_enrich_ef_percent[VSG_ENRICH_NEF] = {0.5, 1.0, 2.0, 5.0};

typedef struct {
    double score;
    unsigned char active;
} entry;

/* Ascending, NaN last (all NaNs equal). */
static int cmp_entry(const void *pa, const void *pb)
{
    double a = ((const entry *)pa)->score, b = ((const entry *)pb)->score;
    int na = isnan(a), nb = isnan(b);
    if (na || nb) return na - nb;
    return (a > b) - (a < b);
}

static int same_score(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static void set_nan(vsg_enrich_metrics *m)
{
    m->auc = m->logauc_percent = m->adjusted_logauc_percent = m->bedroc = NAN;
    for (int k = 0; k < VSG_ENRICH_NEF; k++) m->ef[k] = NAN, m->ef_top[k] = 0;
}

/* The random classifier's logAUC: ∫ x d(log10 x) / 3 over [λ, 1] = (1 − λ) / (3 ln 10). */
static double log_random(void)
{
    const double lam = VSG_ENRICH_LOG_LAMBDA;
    return (1.0 - lam) / (log(10.0) * log10(1.0 / lam));
}

/* The metrics of n sorted entries with weights w (NULL = all 1; 0 = absent). When fpr is not
 * NULL, the ROC vertices are stored there and in tpr, their number in *npts. */
static int metrics_sorted(const entry *e, const double *w, size_t n, vsg_enrich_metrics *m, double *fpr,
                          double *tpr, size_t *npts)
{
    double A = 0.0, D = 0.0;
    for (size_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (e[i].active) A += wi;
        else D += wi;
    }
    double N = A + D;
    m->molecules = N, m->actives = A, m->decoys = D;
    set_nan(m);
    if (npts) *npts = 0;
    if (A <= 0.0 || D <= 0.0) return -1;

    const double lam = VSG_ENRICH_LOG_LAMBDA, alpha = VSG_ENRICH_BEDROC_ALPHA;
    double nsel[VSG_ENRICH_NEF];
    int ef_done[VSG_ENRICH_NEF];
    for (int k = 0; k < VSG_ENRICH_NEF; k++) {
        nsel[k] = rint(vsg_enrich_ef_percent[k] / 100.0 * N);   /* halves to even */
        if (nsel[k] < 1.0) nsel[k] = 1.0;
        m->ef_top[k] = (long)nsel[k];
        ef_done[k] = 0;
    }
    double tp = 0.0, fp = 0.0, pos = 0.0, x0 = 0.0, y0 = 0.0, auc = 0.0, logsum = 0.0, bsum = 0.0;
    const double em1 = expm1(-alpha / N);   /* e^(−α/N) − 1 */
    if (fpr) fpr[0] = 0.0, tpr[0] = 0.0, *npts = 1;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double ag = 0.0, dg = 0.0;
        while (j < n && same_score(e[j].score, e[i].score)) {
            double wj = w ? w[j] : 1.0;
            if (e[j].active) ag += wj;
            else dg += wj;
            j++;
        }
        i = j;
        double g = ag + dg;
        if (g <= 0.0) continue;
        for (int k = 0; k < VSG_ENRICH_NEF; k++)
            if (!ef_done[k] && pos + g >= nsel[k]) {
                double hits = tp + (nsel[k] - pos) * ag / g;
                m->ef[k] = (hits / nsel[k]) / (A / N);
                ef_done[k] = 1;
            }
        if (ag > 0.0)   /* ranks pos+1 .. pos+g: mean of e^(−α r/N) times the group's actives */
            bsum += ag * exp(-alpha * (pos + 1.0) / N) * (expm1(-alpha * g / N) / (g * em1));
        tp += ag, fp += dg, pos += g;
        double x1 = fp / D, y1 = tp / A;
        auc += (x1 - x0) * (y0 + y1) / 2.0;
        if (!(x1 <= lam || x1 == x0)) {   /* ∫ TPR d(log10 FPR) over [max(x0, λ), x1] */
            double slope = (y1 - y0) / (x1 - x0);
            double a = x0 > lam ? x0 : lam;
            double ya = y0 + slope * (a - x0);
            logsum += ((ya - slope * a) * log(x1 / a) + slope * (x1 - a)) / log(10.0);
        }
        if (fpr) fpr[*npts] = x1, tpr[*npts] = y1, (*npts)++;
        x0 = x1, y0 = y1;
    }
    double la = logsum / log10(1.0 / lam);
    m->auc = auc;
    m->logauc_percent = 100.0 * la;
    m->adjusted_logauc_percent = 100.0 * (la - log_random());
    double ra = A / N;
    double rie = bsum / (ra * -expm1(-alpha) / expm1(alpha / N));
    m->bedroc = rie * ra * sinh(alpha / 2.0) / (cosh(alpha / 2.0) - cosh(alpha / 2.0 - alpha * ra)) +
                1.0 / (1.0 - exp(alpha * (1.0 - ra)));
    return 0;
}

static entry *sorted_entries(const double *score, const unsigned char *active, size_t n)
{
    entry *e = malloc((n ? n : 1) * sizeof *e);
    if (!e) return NULL;
    for (size_t i = 0; i < n; i++) e[i].score = score[i], e[i].active = active[i] != 0;
    qsort(e, n, sizeof *e, cmp_entry);
    return e;
}

int vsg_enrich_compute(const double *score, const unsigned char *active, size_t n, vsg_enrich_metrics *m)
{
    memset(m, 0, sizeof *m);
    set_nan(m);
    entry *e = sorted_entries(score, active, n);
    if (!e) return -2;
    int rc = metrics_sorted(e, NULL, n, m, NULL, NULL, NULL);
    free(e);
    return rc;
}

size_t vsg_enrich_roc(const double *score, const unsigned char *active, size_t n, double *fpr, double *tpr)
{
    entry *e = sorted_entries(score, active, n);
    if (!e) return 0;
    vsg_enrich_metrics m;
    size_t np = 0;
    if (metrics_sorted(e, NULL, n, &m, fpr, tpr, &np) != 0) np = 0;
    free(e);
    return np;
}

double vsg_enrich_bedroc_ranks(const double *rank, size_t nactive, size_t N, double alpha)
{
    double n = (double)nactive, NN = (double)N, ra = n / NN, s = 0.0;
    for (size_t i = 0; i < nactive; i++) s += exp(-alpha * rank[i] / NN);
    double rie = s / (n / NN * (1.0 - exp(-alpha)) / (exp(alpha / NN) - 1.0));
    return rie * ra * sinh(alpha / 2.0) / (cosh(alpha / 2.0) - cosh(alpha / 2.0 - alpha * ra)) +
           1.0 / (1.0 - exp(alpha * (1.0 - ra)));
}

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64. */
typedef struct {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return out;
}

/* Uniform in [0, bound), bound ≥ 1, without modulo bias. */
static uint64_t rng_below(rng *r, uint64_t bound)
{
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold) return x % bound;
    }
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Percentile p (0..1) of the k sorted values v. */
static double percentile(const double *v, size_t k, double p)
{
    if (k == 0) return NAN;
    double h = (double)(k - 1) * p;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= k) return v[k - 1];
    return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

/* The 2.5th and 97.5th percentiles of v[0..n), NaNs left out (v is reordered). */
static void ci95(double *v, size_t n, double *lo, double *hi)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i])) v[k++] = v[i];
    qsort(v, k, sizeof *v, cmp_double);
    *lo = percentile(v, k, 0.025);
    *hi = percentile(v, k, 0.975);
}

enum { NMET = 4 + VSG_ENRICH_NEF };

static void metric_values(const vsg_enrich_metrics *m, double *v)
{
    v[0] = m->auc, v[1] = m->logauc_percent, v[2] = m->adjusted_logauc_percent, v[3] = m->bedroc;
    for (int k = 0; k < VSG_ENRICH_NEF; k++) v[4 + k] = m->ef[k];
}

static void set_values(vsg_enrich_metrics *m, const double *v)
{
    m->auc = v[0], m->logauc_percent = v[1], m->adjusted_logauc_percent = v[2], m->bedroc = v[3];
    for (int k = 0; k < VSG_ENRICH_NEF; k++) m->ef[k] = v[4 + k];
}

int vsg_enrich_bootstrap(const double *score, const unsigned char *active, size_t n, int samples, uint64_t seed,
                         vsg_enrich_metrics *lo, vsg_enrich_metrics *hi, int *valid)
{
    *valid = 0;
    int rc = vsg_enrich_compute(score, active, n, lo);
    *hi = *lo;
    if (rc != 0) return rc;
    if (samples <= 0) {
        set_nan(lo), set_nan(hi);
        for (int k = 0; k < VSG_ENRICH_NEF; k++) lo->ef_top[k] = hi->ef_top[k] = 0;
        return 0;
    }
    long top[VSG_ENRICH_NEF];
    memcpy(top, lo->ef_top, sizeof top);
    entry *e = sorted_entries(score, active, n);
    double *w = malloc(n * sizeof *w), *vals = malloc((size_t)samples * NMET * sizeof *vals);
    if (!e || !w || !vals) {
        free(e), free(w), free(vals);
        return -2;
    }
    rng r;
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r.s[i] = splitmix64(&x);
    int nv = 0;
    for (int s = 0; s < samples; s++) {
        memset(w, 0, n * sizeof *w);
        for (size_t i = 0; i < n; i++) w[rng_below(&r, n)] += 1.0;
        vsg_enrich_metrics m;
        if (metrics_sorted(e, w, n, &m, NULL, NULL, NULL) != 0) continue;
        double v[NMET];
        metric_values(&m, v);
        for (int k = 0; k < NMET; k++) vals[(size_t)k * samples + nv] = v[k];
        nv++;
    }
    double vl[NMET], vh[NMET];
    for (int k = 0; k < NMET; k++) {
        ci95(vals + (size_t)k * samples, (size_t)nv, &vl[k], &vh[k]);
    }
    set_values(lo, vl), set_values(hi, vh);
    memcpy(lo->ef_top, top, sizeof top), memcpy(hi->ef_top, top, sizeof top);
    *valid = nv;
    free(e), free(w), free(vals);
    return 0;
}
