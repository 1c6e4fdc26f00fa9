/* cli_enrich.c — `vsgrid enrich`: how well a screen ranks known actives among decoys (issue 19):
 * ROC AUC, adjusted logAUC, EF at 0.5/1/2/5 %, BEDROC, with bootstrap 95 % intervals, a ROC
 * picture and a JSON summary. The metrics are engine/report/enrichment.c's. */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "engine/report/bitmap_font.h"
#include "engine/report/enrichment.h"
#include "grids/base/vsgrid.h"

static const char usage[] =
    "usage: vsgrid enrich RESULTS.csv (--actives LIST | --label-column C) [--score-column C]\n"
    "                     [--higher-better] [--name-column C] [--png ROC.png] [--json OUT.json]\n"
    "                     [--bootstrap N] [--seed N]\n"
    "\n"
    "How well a screen ranks known actives: ROC AUC, adjusted logAUC, enrichment factors and\n"
    "BEDROC, each with a bootstrap 95 % confidence interval; a small table on stdout.\n"
    "\n"
    "RESULTS.csv: a vsgrid screen / rescore / dock CSV, or any CSV with a header. Names repeat\n"
    "(protomers, tautomers, conformers, poses): each molecule counts once, at its best score.\n"
    "Rows with an empty or non-numeric score, or a status other than ok, outside (or empty),\n"
    "give no score; a molecule with no scored row ranks last, tied with the other such ones\n"
    "(counted and reported).\n"
    "\n"
    "Options:\n"
    "  --actives LIST      the actives' names: one a line; or a CSV (first field the name); or a\n"
    "                      SMILES file 'SMILES NAME [ID...]' (DUD-E's actives_final.ism: any\n"
    "                      field after the SMILES may match). Every other molecule is a decoy\n"
    "  --label-column C    instead: column C of RESULTS holds 1 (active) or 0 (decoy)\n"
    "  --score-column C    the score (default: the first of score_kcal_mol, energy_kcal_mol,\n"
    "                      score); lower is better unless --higher-better\n"
    "  --higher-better     higher scores rank first\n"
    "  --name-column C     the molecule's name (default: name, else the first column)\n"
    "  --png ROC.png       the ROC curve, FPR on a log axis from 0.001 to 1, and the random line\n"
    "  --json OUT.json     every number, the ROC curve's vertices included\n"
    "  --bootstrap N       resamplings for the confidence intervals (default 1000; 0: none)\n"
    "  --seed N            the resampling's seed (default 1): the same seed, the same intervals\n"
    "\n"
    "Metrics (N molecules, n actives; ties count as the mean over their orderings):\n"
    "  AUC          area under the ROC curve = P(an active ranks above a decoy), ties 1/2\n"
    "  logAUC       Mysinger & Shoichet 2010: area under TPR against log10(FPR) for FPR from\n"
    "               0.001 to 1, divided by 3, in %; adjusted = logAUC - 14.46 (random: 0,\n"
    "               perfect: 85.54)\n"
    "  EF x%        (actives among the best k / k) / (n / N), k = max(1, round(x% of N)),\n"
    "               halves rounded to even; actives tied across the cut count pro rata\n"
    "  BEDROC       Truchon & Bayly 2007 (eq. 36), alpha 80.5\n"
    "  95% CI       2.5th and 97.5th percentiles over bootstrap resamples of the molecules\n"
    "               (with replacement; resamples without actives or decoys left out)\n"
    "\n"
    "Exit codes: 0 ok, 2 usage, 3 bad input (unreadable file, no score column, a list that names\n"
    "no molecule of RESULTS, no actives or no decoys), 1 other failure.\n";

#define CMD "enrich"

static int input_error(const char *fmt, ...) VSG_PRINTF(1, 2);
static int input_error(const char *fmt, ...)
{
    va_list ap;
    fputs("vsgrid " CMD ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return VSG_EXIT_INPUT;
}

/* ---- a whole text file, as lines ---------------------------------------------------- */

typedef struct {
    char *data;
    char **line;
    size_t nlines;
} text;

static void text_free(text *t)
{
    free(t->data);
    free(t->line);
}

/* 0, or −1 with errno (ENOMEM as such). Lines lose their "\n" / "\r\n". */
static int text_read(const char *path, text *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) {
            fclose(f);
            errno = ENOMEM;
            return -1;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) break;
        char *nb = realloc(buf, 2 * cap + 1);
        if (!nb) free(buf);
        buf = nb, cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return -1;
    }
    buf[len] = '\0';
    size_t n = 1;
    for (size_t i = 0; i < len; i++) n += buf[i] == '\n';
    t->line = malloc(n * sizeof *t->line);
    if (!t->line) {
        free(buf);
        errno = ENOMEM;
        return -1;
    }
    t->data = buf;
    char *p = buf, *end = buf + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *e = nl ? nl : end;
        if (e > p && e[-1] == '\r') e[-1] = '\0';
        *e = '\0';
        t->line[t->nlines++] = p;
        p = e + 1;
    }
    return 0;
}

/* Splits a CSV line in place (RFC 4180 quotes, "" inside quotes) into at most max fields. */
static int csv_split(char *s, char **field, int max)
{
    int n = 0;
    for (;;) {
        char *out = s, *start = s;
        if (*s == '"') {
            s++;
            for (;;) {
                if (*s == '\0') break;
                if (*s == '"') {
                    if (s[1] == '"') { *out++ = '"'; s += 2; continue; }
                    s++;
                    break;
                }
                *out++ = *s++;
            }
            while (*s && *s != ',') s++;   /* anything between the closing quote and the comma */
        } else {
            while (*s && *s != ',') *out++ = *s++;
        }
        char sep = *s;
        *out = '\0';
        if (n < max) field[n++] = start;
        if (sep != ',') break;
        s++;
    }
    return n;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* ---- molecules by name ---------------------------------------------------------------- */

typedef struct {
    const char *name;
    double best;      /* lowest (sign-adjusted) valid score, NaN if none */
    int label;        /* −1 unknown, 0, 1 */
    size_t label_line;
} molecule;

typedef struct {
    molecule *mol;
    size_t n, cap;
    size_t *slot;     /* index + 1; 0 = empty */
    size_t nslots;
} table;

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t *find_slot(table *t, const char *name)
{
    size_t mask = t->nslots - 1, i = (size_t)hash(name) & mask;
    while (t->slot[i] && strcmp(t->mol[t->slot[i] - 1].name, name)) i = (i + 1) & mask;
    return &t->slot[i];
}

static molecule *table_find(table *t, const char *name)
{
    size_t *s = find_slot(t, name);
    return *s ? &t->mol[*s - 1] : NULL;
}

/* The molecule `name` (the string must outlive the table), added if new; NULL out of memory. */
static molecule *table_get(table *t, const char *name)
{
    size_t *s = find_slot(t, name);
    if (*s) return &t->mol[*s - 1];
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        molecule *m = realloc(t->mol, cap * sizeof *m);
        if (!m) return NULL;
        t->mol = m, t->cap = cap;
    }
    if (2 * (t->n + 1) > t->nslots) {   /* grow the index, keep the load under 1/2 */
        size_t ns = t->nslots * 2;
        size_t *old = t->slot, on = t->nslots;
        t->slot = calloc(ns, sizeof *t->slot);
        if (!t->slot) {
            t->slot = old;
            return NULL;
        }
        t->nslots = ns;
        for (size_t i = 0; i < on; i++)
            if (old[i]) *find_slot(t, t->mol[old[i] - 1].name) = old[i];
        free(old);
        s = find_slot(t, name);
    }
    molecule *m = &t->mol[t->n];
    m->name = name, m->best = NAN, m->label = -1, m->label_line = 0;
    *s = ++t->n;
    return m;
}

static int find_column(char **h, int nh, const char *name)
{
    for (int i = 0; i < nh; i++)
        if (!strcmp(h[i], name)) return i;
    return -1;
}

/* "1"/"0" and the like: 1, 0, or −1 if not a label. */
static int parse_label(const char *s)
{
    static const char *yes[] = {"1", "1.0", "true", "True", "TRUE", "active", "yes"},
                      *no[] = {"0", "0.0", "false", "False", "FALSE", "decoy", "inactive", "no"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (!strcmp(s, yes[i])) return 1;
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (!strcmp(s, no[i])) return 0;
    return -1;
}

/* ---- the ROC picture ------------------------------------------------------------------ */

static void put(uint8_t *rgb, int w, int h, int x, int y, const uint8_t c[3])
{
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    memcpy(rgb + 3 * ((size_t)y * w + x), c, 3);
}

static void vspan(uint8_t *rgb, int w, int h, int x, int y0, int y1, int thick, const uint8_t c[3])
{
    if (y0 > y1) { int t = y0; y0 = y1; y1 = t; }
    for (int y = y0; y <= y1; y++)
        for (int d = 0; d < thick; d++) put(rgb, w, h, x, y + d - thick / 2, c), put(rgb, w, h, x + d - thick / 2, y, c);
}

static void hline(uint8_t *rgb, int w, int h, int x0, int x1, int y, const uint8_t c[3])
{
    for (int x = x0; x <= x1; x++) put(rgb, w, h, x, y, c);
}

static vsg_status roc_png(const char *path, const double *fpr, const double *tpr, size_t np,
                          const vsg_enrich_metrics *m, const char *caption)
{
    enum { W = 760, H = 580, L = 90, R = 30, T = 70, B = 80, S = 2 };
    const int pw = W - L - R, ph = H - T - B, x1 = L + pw, y1 = T + ph;
    static const uint8_t black[3] = {0, 0, 0}, grey[3] = {150, 150, 150}, light[3] = {225, 225, 225},
                         blue[3] = {31, 90, 200};
    uint8_t *rgb = malloc((size_t)W * H * 3);
    if (!rgb) return vsg_fail(VSG_E_NOMEM, "no memory for the ROC picture");
    memset(rgb, 255, (size_t)W * H * 3);
    char buf[160];
    /* grid: FPR decades, TPR quarters */
    for (int d = 0; d <= 3; d++) {
        int x = L + (int)lround(pw * d / 3.0);
        vspan(rgb, W, H, x, T, y1, 1, light);
        static const char *lab[] = {"0.001", "0.01", "0.1", "1"};
        int tw = vsg_font_text_width(lab[d], S);   /* the end labels inside the axis' span */
        vsg_font_draw(rgb, W, H, d == 0 ? x : d == 3 ? x - tw : x - tw / 2, y1 + 10, lab[d], S, black);
        for (int k = 2; k <= 9 && d < 3; k++) {   /* minor ticks */
            int xm = L + (int)lround(pw * (d + log10((double)k)) / 3.0);
            vspan(rgb, W, H, xm, y1 - 5, y1, 1, black);
        }
    }
    for (int q = 0; q <= 4; q++) {
        int y = y1 - (int)lround(ph * q / 4.0);
        hline(rgb, W, H, L, x1, y, light);
        snprintf(buf, sizeof buf, "%g", q / 4.0);
        vsg_font_draw(rgb, W, H, L - 8 - vsg_font_text_width(buf, S), y - vsg_font_text_height(S) / 2, buf, S, black);
    }
    /* the random line TPR = FPR, dashed, and the curve: per pixel column, TPR at that FPR
     * (linear between the vertices; the top of a vertical step), joined column to column */
    int prev_r = -1, prev_c = -1;
    size_t k = 0;
    for (int x = L; x <= x1; x++) {
        double f = pow(10.0, -3.0 + 3.0 * (x - L) / pw);
        if (x == x1) f = 1.0;
        int yr = y1 - (int)lround(ph * f);
        if (((x - L) / 6) % 2 == 0) vspan(rgb, W, H, x, prev_r < 0 ? yr : prev_r, yr, 2, grey);
        prev_r = yr;
        while (k + 1 < np && fpr[k + 1] <= f) k++;
        double t = tpr[k];
        if (k + 1 < np && fpr[k + 1] > fpr[k])
            t = tpr[k] + (f - fpr[k]) * (tpr[k + 1] - tpr[k]) / (fpr[k + 1] - fpr[k]);
        int yc = y1 - (int)lround(ph * (t < 0 ? 0 : t > 1 ? 1 : t));
        vspan(rgb, W, H, x, prev_c < 0 ? yc : prev_c, yc, 3, blue);
        prev_c = yc;
    }
    /* frame, labels, title, legend */
    hline(rgb, W, H, L, x1, T, black), hline(rgb, W, H, L, x1, y1, black);
    vspan(rgb, W, H, L, T, y1, 1, black), vspan(rgb, W, H, x1, T, y1, 1, black);
    const char *xl = "false positive rate (log scale)";
    vsg_font_draw(rgb, W, H, L + pw / 2 - vsg_font_text_width(xl, S) / 2, y1 + 36, xl, S, black);
    vsg_font_draw(rgb, W, H, 8, T - 26, "TPR", S, black);
    snprintf(buf, sizeof buf, "AUC %.3f  adj. logAUC %.1f%%  EF1%% %.1f  BEDROC %.3f", m->auc,
             m->adjusted_logauc_percent, m->ef[1], m->bedroc);
    vsg_font_draw(rgb, W, H, L, 12, caption, S, black);
    vsg_font_draw(rgb, W, H, L, 12 + vsg_font_text_height(S) + 4, buf, S, black);
    int lx = L + 16, ly = T + 14;
    hline(rgb, W, H, lx, lx + 30, ly + 6, blue), hline(rgb, W, H, lx, lx + 30, ly + 7, blue);
    vsg_font_draw(rgb, W, H, lx + 40, ly, "screen", S, black);
    for (int x = lx; x <= lx + 30; x++)
        if (((x - lx) / 6) % 2 == 0) put(rgb, W, H, x, ly + 30, grey), put(rgb, W, H, x, ly + 31, grey);
    vsg_font_draw(rgb, W, H, lx + 40, ly + 24, "random", S, black);
    vsg_status st = vsg_png_write_rgb(path, rgb, W, H);
    free(rgb);
    return st;
}

/* ---- the command ------------------------------------------------------------------------ */

static void json_ci(vsg_json *j, const char *key, double lo, double hi)
{
    vsg_json_array(j, key);
    vsg_json_num(j, NULL, lo);
    vsg_json_num(j, NULL, hi);
    vsg_json_end(j, ']');
}

int vsg_cmd_enrich(int argc, char **argv)
{
    const char *results = NULL, *actives_path = NULL, *label_col = NULL, *score_col = NULL, *name_col = NULL,
               *png = NULL, *json = NULL, *boot_s = NULL, *seed_s = NULL;
    int higher = 0;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        const char **target = NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            return VSG_EXIT_OK;
        }
        if (vsg_arg_is(&a, "--actives")) target = &actives_path;
        else if (vsg_arg_is(&a, "--label-column")) target = &label_col;
        else if (vsg_arg_is(&a, "--score-column")) target = &score_col;
        else if (vsg_arg_is(&a, "--name-column")) target = &name_col;
        else if (vsg_arg_is(&a, "--png")) target = &png;
        else if (vsg_arg_is(&a, "--json")) target = &json;
        else if (vsg_arg_is(&a, "--bootstrap")) target = &boot_s;
        else if (vsg_arg_is(&a, "--seed")) target = &seed_s;
        else if (vsg_arg_is(&a, "--higher-better")) { higher = 1; continue; }
        if (target) {
            if (!(*target = vsg_arg_value(&a, CMD))) return VSG_EXIT_USAGE;
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error(CMD, "unknown option %s", arg);
        if (results) return vsg_cli_usage_error(CMD, "one results file only (got %s and %s)", results, arg);
        results = arg;
    }
    if (!results) return vsg_cli_usage_error(CMD, "no results CSV given");
    if (!actives_path == !label_col)
        return vsg_cli_usage_error(CMD, "give the actives: either --actives LIST or --label-column C");
    double x;
    int samples = 1000;
    uint64_t seed = 1;
    if (boot_s) {
        if (!vsg_parse_number(boot_s, &x) || x < 0 || x > 1e7 || x != floor(x))
            return vsg_cli_usage_error(CMD, "--bootstrap: '%s' is not a whole number in 0..10000000", boot_s);
        samples = (int)x;
    }
    if (seed_s) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(seed_s, &end, 10);
        if (end == seed_s || *end || errno || seed_s[0] == '-')
            return vsg_cli_usage_error(CMD, "--seed: '%s' is not a whole number >= 0", seed_s);
        seed = (uint64_t)v;
    }
    double t0 = vsg_now();

    text rt, lt;
    memset(&lt, 0, sizeof lt);
    if (text_read(results, &rt) != 0) return input_error("cannot read %s: %s", results, strerror(errno));
    table tab = {0};
    int rc = VSG_EXIT_OK;
    double *score = NULL;
    unsigned char *active = NULL;
    double *fpr = NULL, *tpr = NULL;
    char **fields = NULL;
    enum { MAXF = 4096 };
    tab.nslots = 2048;
    tab.slot = calloc(tab.nslots, sizeof *tab.slot);
    fields = malloc(MAXF * sizeof *fields);
    if (!tab.slot || !fields) { rc = input_error("out of memory"); goto done; }

    /* the header */
    size_t first = 0;
    while (first < rt.nlines && !trim(rt.line[first])[0]) first++;
    if (first == rt.nlines) { rc = input_error("%s: empty file (a CSV with a header is needed)", results); goto done; }
    int nh = csv_split(rt.line[first], fields, MAXF);
    char **head = malloc((size_t)nh * sizeof *head);
    if (!head) { rc = input_error("out of memory"); goto done; }
    for (int i = 0; i < nh; i++) head[i] = trim(fields[i]);
    int nc = name_col ? find_column(head, nh, name_col) : find_column(head, nh, "name");
    if (!name_col && nc < 0) nc = 0;
    static const char *score_names[] = {"score_kcal_mol", "energy_kcal_mol", "score"};
    int sc = -1;
    if (score_col) sc = find_column(head, nh, score_col);
    else
        for (int i = 0; i < 3 && sc < 0; i++)
            if ((sc = find_column(head, nh, score_names[i])) >= 0) score_col = score_names[i];
    int stc = find_column(head, nh, "status");
    int lc = label_col ? find_column(head, nh, label_col) : -1;
    free(head);
    if (nc < 0) { rc = input_error("%s: no column '%s' (--name-column)", results, name_col); goto done; }
    if (sc < 0) {
        if (score_col) rc = input_error("%s: no column '%s' (--score-column)", results, score_col);
        else rc = input_error("%s: no score column (score_kcal_mol, energy_kcal_mol or score; give --score-column C)", results);
        goto done;
    }
    if (label_col && lc < 0) { rc = input_error("%s: no column '%s' (--label-column)", results, label_col); goto done; }

    /* the rows: the best valid score of each name */
    size_t rows = 0, rows_failed = 0, rows_unnamed = 0;
    for (size_t li = first + 1; li < rt.nlines; li++) {
        if (!trim(rt.line[li])[0]) continue;
        int nf = csv_split(rt.line[li], fields, MAXF);
        rows++;
        const char *name = nc < nf ? trim(fields[nc]) : "";
        if (!name[0]) { rows_unnamed++; continue; }
        molecule *m = table_get(&tab, name);
        if (!m) { rc = input_error("out of memory"); goto done; }
        const char *sv = sc < nf ? trim(fields[sc]) : "", *stv = stc >= 0 && stc < nf ? trim(fields[stc]) : "";
        char *end;
        double v = strtod(sv, &end);
        int ok = sv[0] && !*end && isfinite(v) && (!stv[0] || !strcmp(stv, "ok") || !strcmp(stv, "outside"));
        if (!ok) rows_failed++;
        else {
            if (higher) v = -v;
            if (isnan(m->best) || v < m->best) m->best = v;
        }
        if (lc >= 0) {
            const char *lv = lc < nf ? trim(fields[lc]) : "";
            int lab = parse_label(lv);
            if (lab < 0) {
                rc = input_error("%s:%zu: label '%s' in column %s is not 1 (active) or 0 (decoy)", results, li + 1, lv,
                                 label_col);
                goto done;
            }
            if (m->label >= 0 && m->label != lab) {
                rc = input_error("%s:%zu: molecule %s labelled %d here and %d on line %zu", results, li + 1, name, lab,
                                 m->label, m->label_line);
                goto done;
            }
            m->label = lab, m->label_line = li + 1;
        }
    }
    if (tab.n == 0) { rc = input_error("%s: no molecules (no named rows under the header)", results); goto done; }

    /* the actives list */
    size_t list_entries = 0, list_missing = 0;
    const char *missing_example = NULL;
    if (actives_path) {
        if (text_read(actives_path, &lt) != 0) {
            rc = input_error("cannot read %s: %s", actives_path, strerror(errno));
            goto done;
        }
        for (size_t i = 0; i < tab.n; i++) tab.mol[i].label = 0;
        for (size_t li = 0; li < lt.nlines; li++) {
            char *s = trim(lt.line[li]);
            if (!s[0] || s[0] == '#') continue;
            int found = 0, nf;
            if (strchr(s, ',')) {   /* CSV: the first field */
                nf = csv_split(s, fields, MAXF);
                char *nm = trim(fields[0]);
                if (li == 0 && (!strcmp(nm, "name") || !strcmp(nm, "Name") || !strcmp(nm, "id"))) continue;  /* a header */
                molecule *m = nm[0] ? table_find(&tab, nm) : NULL;
                if (m) m->label = 1, found = 1;
            } else {                /* NAME, or SMILES NAME [ID ...] */
                nf = 0;
                for (char *tok = strtok(s, " \t"); tok && nf < MAXF; tok = strtok(NULL, " \t")) fields[nf++] = tok;
                for (int f = nf == 1 ? 0 : 1; f < nf; f++) {
                    molecule *m = table_find(&tab, fields[f]);
                    if (m) m->label = 1, found = 1;
                }
            }
            list_entries++;
            if (!found) {
                list_missing++;
                if (!missing_example) missing_example = nf > 1 && !strchr(s, ',') ? fields[1] : fields[0];
            }
        }
        if (list_entries == 0) { rc = input_error("%s: no names (an empty list)", actives_path); goto done; }
        if (list_missing == list_entries) {
            rc = input_error("%s names no molecule of %s (%zu entries, e.g. '%s'; check the names or --name-column)",
                             actives_path, results, list_entries, missing_example);
            goto done;
        }
    }

    /* the metrics */
    size_t n = tab.n, nact = 0, unscored = 0, unscored_act = 0;
    score = malloc(n * sizeof *score);
    active = malloc(n);
    fpr = malloc((n + 1) * sizeof *fpr);
    tpr = malloc((n + 1) * sizeof *tpr);
    if (!score || !active || !fpr || !tpr) { rc = input_error("out of memory"); goto done; }
    for (size_t i = 0; i < n; i++) {
        score[i] = tab.mol[i].best;
        active[i] = tab.mol[i].label == 1;
        nact += active[i];
        if (isnan(score[i])) unscored++, unscored_act += active[i];
    }
    if (nact == 0) {
        rc = input_error("%s: no actives among the %zu molecules%s", results, n, label_col ? " (every label 0)" : "");
        goto done;
    }
    if (nact == n) { rc = input_error("%s: no decoys: all %zu molecules are actives", results, n); goto done; }
    vsg_enrich_metrics m, lo, hi;
    int valid = 0;
    if (vsg_enrich_compute(score, active, n, &m) != 0 ||
        vsg_enrich_bootstrap(score, active, n, samples, seed, &lo, &hi, &valid) != 0) {
        rc = input_error("out of memory");
        goto done;
    }
    size_t np = vsg_enrich_roc(score, active, n, fpr, tpr);

    /* the table */
    printf("%s: %zu molecules (%zu actives, %zu decoys) from %zu rows; score %s, %s better\n", results, n, nact,
           n - nact, rows, score_col, higher ? "higher" : "lower");
    if (rows_failed || unscored)
        printf("  %zu rows without a valid score; %zu molecules without one rank last (%zu actives)\n", rows_failed,
               unscored, unscored_act);
    if (rows_unnamed) printf("  %zu rows without a name ignored\n", rows_unnamed);
    if (list_missing)
        printf("  %zu of %zu entries of %s name no molecule of the results (e.g. %s)\n", list_missing, list_entries,
               actives_path, missing_example);
    if (samples > 0) printf("%-22s %9s   95%% CI (%d of %d bootstrap resamples, seed %llu)\n", "metric", "value", valid,
                            samples, (unsigned long long)seed);
    else printf("%-22s %9s\n", "metric", "value");
    char label[64];
#define ROW(lab, v, l, h, fmt)                                                                 \
    do {                                                                                      \
        printf("%-22s " fmt, lab, v);                                                         \
        if (samples > 0) printf("   " fmt " .. " fmt, l, h);                                  \
        putchar('\n');                                                                        \
    } while (0)
    ROW("ROC AUC", m.auc, lo.auc, hi.auc, "%9.4f");
    ROW("adjusted logAUC %", m.adjusted_logauc_percent, lo.adjusted_logauc_percent, hi.adjusted_logauc_percent, "%9.2f");
    ROW("logAUC %", m.logauc_percent, lo.logauc_percent, hi.logauc_percent, "%9.2f");
    for (int k = 0; k < VSG_ENRICH_NEF; k++) {
        snprintf(label, sizeof label, "EF %g%% (top %ld)", vsg_enrich_ef_percent[k], m.ef_top[k]);
        ROW(label, m.ef[k], lo.ef[k], hi.ef[k], "%9.2f");
    }
    snprintf(label, sizeof label, "BEDROC (alpha %g)", VSG_ENRICH_BEDROC_ALPHA);
    ROW(label, m.bedroc, lo.bedroc, hi.bedroc, "%9.4f");
#undef ROW

    if (png) {
        const char *base = strrchr(results, '/');
        char cap[200];
        snprintf(cap, sizeof cap, "%s: %zu actives, %zu decoys", base ? base + 1 : results, nact, n - nact);
        vsg_status st = roc_png(png, fpr, tpr, np, &m, cap);
        if (st != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    }
    if (json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(json, &j, CMD);
        if (!f) { rc = VSG_EXIT_FAILURE; goto done; }
        vsg_json_str(&j, "results", results);
        if (actives_path) vsg_json_str(&j, "actives_file", actives_path);
        else vsg_json_str(&j, "label_column", label_col);
        vsg_json_str(&j, "score_column", score_col);
        vsg_json_bool(&j, "higher_better", higher);
        vsg_json_int(&j, "rows", (long long)rows);
        vsg_json_int(&j, "rows_failed", (long long)rows_failed);
        vsg_json_int(&j, "rows_unnamed", (long long)rows_unnamed);
        vsg_json_int(&j, "molecules", (long long)n);
        vsg_json_int(&j, "actives", (long long)nact);
        vsg_json_int(&j, "decoys", (long long)(n - nact));
        vsg_json_int(&j, "unscored", (long long)unscored);
        vsg_json_int(&j, "unscored_actives", (long long)unscored_act);
        if (actives_path) {
            vsg_json_int(&j, "list_entries", (long long)list_entries);
            vsg_json_int(&j, "list_entries_not_found", (long long)list_missing);
        }
        vsg_json_num(&j, "auc", m.auc);
        json_ci(&j, "auc_ci95", lo.auc, hi.auc);
        vsg_json_num(&j, "logauc_percent", m.logauc_percent);
        json_ci(&j, "logauc_percent_ci95", lo.logauc_percent, hi.logauc_percent);
        vsg_json_num(&j, "adjusted_logauc_percent", m.adjusted_logauc_percent);
        json_ci(&j, "adjusted_logauc_percent_ci95", lo.adjusted_logauc_percent, hi.adjusted_logauc_percent);
        vsg_json_num(&j, "logauc_fpr_min", VSG_ENRICH_LOG_LAMBDA);
        vsg_json_array(&j, "ef");
        for (int k = 0; k < VSG_ENRICH_NEF; k++) {
            vsg_json_object(&j, NULL);
            vsg_json_num(&j, "percent", vsg_enrich_ef_percent[k]);
            vsg_json_int(&j, "top", m.ef_top[k]);
            vsg_json_num(&j, "value", m.ef[k]);
            json_ci(&j, "ci95", lo.ef[k], hi.ef[k]);
            vsg_json_end(&j, '}');
        }
        vsg_json_end(&j, ']');
        vsg_json_num(&j, "bedroc", m.bedroc);
        json_ci(&j, "bedroc_ci95", lo.bedroc, hi.bedroc);
        vsg_json_num(&j, "bedroc_alpha", VSG_ENRICH_BEDROC_ALPHA);
        vsg_json_int(&j, "bootstrap_samples", samples);
        vsg_json_int(&j, "bootstrap_valid", valid);
        vsg_json_int(&j, "seed", (long long)seed);
        if (png) vsg_json_str(&j, "png", png);
        vsg_json_object(&j, "roc");
        vsg_json_array(&j, "fpr");
        for (size_t i = 0; i < np; i++) vsg_json_num(&j, NULL, fpr[i]);
        vsg_json_end(&j, ']');
        vsg_json_array(&j, "tpr");
        for (size_t i = 0; i < np; i++) vsg_json_num(&j, NULL, tpr[i]);
        vsg_json_end(&j, ']');
        vsg_json_end(&j, '}');
        vsg_cli_json_finish(&j, f, json, vsg_now() - t0);
    }

done:
    free(score), free(active), free(fpr), free(tpr), free(fields);
    free(tab.mol), free(tab.slot);
    text_free(&rt), text_free(&lt);
    return rc;
}
