/* screen_merge.c — a campaign's shards joined into the files one uninterrupted screen writes
 * (vsgrid.h, "shards of a campaign and their merge"; `vsgrid merge`).
 *
 * The parts' markers (PATH.done) are read first and checked against each other (format, one
 * fingerprint, one records_total, each part's ranges sorted, inside [0, T) and as many rows as
 * records); then every range of every part, sorted by its first record, makes one walk over
 * [0, T): a gap is a missing or unfinished shard (a PATH.partial beside the parts whose first
 * row falls in it is named), an overlap a doubled one. The walk reads each part's CSV and pose
 * file sequentially (a part with several ranges stays open until its last), so the merged files
 * come out in record order while only one CSV record and one record's poses are held:
 *   - CSV: the header of the first part (every part's must be the same), then each row as it is,
 *     after its first field was checked to be the next index of the range;
 *   - best_per_molecule: the rows go to the single run's table (vsg_mol_offer, screen_output.c),
 *     written at the end as the single run writes it;
 *   - top: a bounded heap of the best `top` rows on (score, index); with best_per_molecule a heap
 *     of names with a map of the names it holds, and a second pass over the parts that counts the
 *     chosen names' records (best_offer says why a name evicted and met again ends right);
 *   - poses: each record's poses (adjacent blocks: PDBQT MODEL..ENDMDL, SDF records) are read as
 *     one group, placed by their record index (PDBQT `REMARK VSGRID RECORD:`, SDF
 *     `<vsgrid_record>`), copied with PDBQT MODEL lines renumbered over the merged file; with
 *     poses_top a bounded heap of groups on (first pose's score, index).
 * Outputs are written as PATH.merging (PATH.merging.gz for a .gz) and renamed over PATH when all
 * went well; removed otherwise. */
#define _POSIX_C_SOURCE 200809L /* getline, strdup */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_internal.h"

#define OUT_BUFFER (1u << 20) /* stdio buffer of the outputs and the pose files read */

/* ---- small pieces ------------------------------------------------------------------------- */

typedef struct {
    char *p;
    size_t n, cap;
} sbuf;

static int sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->n + n + 1) c *= 2;
        char *t = realloc(b->p, c);
        if (!t) return 0;
        b->p = t, b->cap = c;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
    return 1;
}

static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcasecmp(s + n - k, suffix);
}

/* 1: .pdbqt, 2: .sdf (either .gz too), 0 neither. */
static int pose_kind(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    if (ends_with(buf, ".gz")) buf[strlen(buf) - 3] = '\0';
    return ends_with(buf, ".pdbqt") ? 1 : ends_with(buf, ".sdf") ? 2 : 0;
}

/* A number made of decimal digits only (the whole of s[0..n)). */
static int parse_size(const char *s, size_t n, size_t *out)
{
    size_t v = 0;
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        if (v > (SIZE_MAX - 9) / 10) return 0;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    *out = v;
    return 1;
}

static int quotes_odd(const char *s, size_t n)
{
    int odd = 0;
    const char *end = s + n;
    while ((s = memchr(s, '"', (size_t)(end - s))) != NULL) odd ^= 1, s++;
    return odd;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* ---- CSV records (RFC 4180: a quoted field may hold commas, quotes and line breaks) ---------- */

#define READ_BLOCK (1u << 20) /* bytes a read of a CSV part asks for */

/* Records read in blocks (no line-by-line stdio): a record is the bytes up to a newline outside
 * quotes. The rows that go to the output as they are are copied in runs (every record contiguous
 * in the block one write), which with the parsing of the index is the whole cost of a merge. */
typedef struct {
    FILE *f;
    char *buf;
    size_t cap, pos, end; /* unread: buf[pos, end); buf[end] = '\0' */
    int eof;
    char *rec;            /* the last record, with its newline, inside buf (writable) */
    size_t len;
    FILE *out;            /* rr_emit's: the records buf[pend, pend + plen) wait for it */
    size_t pend, plen;
} rec_reader;

/* Writes the records waiting. 0 on a write error. */
static int rr_flush(rec_reader *r)
{
    const size_t n = r->plen;
    r->plen = 0;
    return n == 0 || fwrite(r->buf + r->pend, 1, n, r->out) == n;
}

/* The last record goes to the output (with the ones before it when they are contiguous). */
static int rr_emit(rec_reader *r)
{
    const size_t at = (size_t)(r->rec - r->buf);
    if (r->plen && r->pend + r->plen == at) {
        r->plen += r->len;
        return 1;
    }
    if (!rr_flush(r)) return 0;
    r->pend = at, r->plen = r->len;
    return 1;
}

/* 1: a record in r->rec; 0: the end of the file; -1: the file ends inside a record (no newline,
 * or an open quote); -2: a read error (a corrupt gzip stream); -3: out of memory; -4: a write
 * error of the records waiting (rr_emit). */
static int rec_next(rec_reader *r)
{
    size_t scan = r->pos;
    int odd = 0;
    for (;;) {
        char *nl = r->end > scan ? memchr(r->buf + scan, '\n', r->end - scan) : NULL;
        if (nl) {
            const size_t after = (size_t)(nl - r->buf) + 1;
            odd ^= quotes_odd(r->buf + scan, after - scan);
            scan = after;
            if (odd) continue; /* a line break inside quotes */
            r->rec = r->buf + r->pos, r->len = scan - r->pos;
            r->pos = scan;
            return 1;
        }
        if (r->eof) {
            if (r->end == r->pos) return 0;
            r->pos = r->end;
            return -1;
        }
        if (!rr_flush(r)) return -4; /* before the block moves */
        const size_t keep = r->end - r->pos;
        if (keep && r->pos) memmove(r->buf, r->buf + r->pos, keep);
        scan -= r->pos;
        r->pos = 0, r->end = keep;
        if (r->cap - r->end < READ_BLOCK / 2 + 1) { /* a record longer than a block: room for it */
            const size_t nc = r->cap ? 2 * r->cap : READ_BLOCK + 1;
            char *t = realloc(r->buf, nc);
            if (!t) return -3;
            r->buf = t, r->cap = nc;
        }
        const size_t got = fread(r->buf + r->end, 1, r->cap - r->end - 1, r->f);
        r->end += got;
        r->buf[r->end] = '\0';
        if (got == 0) {
            if (ferror(r->f)) return -2;
            r->eof = 1;
        }
    }
}

static void rec_free(rec_reader *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

typedef struct {
    const char *p; /* raw, quotes included */
    size_t n;
} span;

/* The fields of a record (raw spans) up to max; returns how many it has (at most max). */
static int csv_split(const char *s, size_t len, span *f, int max)
{
    const char *end = s + len;
    while (end > s && (end[-1] == '\n' || end[-1] == '\r')) end--;
    int k = 0;
    const char *c = s;
    for (;;) {
        const char *start = c;
        if (c < end && *c == '"') {
            for (c++; c < end; c++)
                if (*c == '"') {
                    if (c + 1 < end && c[1] == '"') c++;
                    else {
                        c++;
                        break;
                    }
                }
        }
        while (c < end && *c != ',') c++;
        if (k < max) f[k].p = start, f[k].n = (size_t)(c - start);
        k++;
        if (c >= end || k >= max) break;
        c++; /* the comma */
    }
    return k < max ? k : max;
}

/* A field's text, unquoted, into b (NUL-terminated). */
static int unquote(span f, sbuf *b)
{
    b->n = 0;
    if (f.n == 0 || f.p[0] != '"') return sb_put(b, f.p, f.n);
    if (!sb_put(b, "", 0)) return 0;
    for (size_t i = 1; i < f.n; i++) {
        if (f.p[i] == '"') {
            if (i + 1 < f.n && f.p[i + 1] == '"') i++;
            else break;
        }
        if (!sb_put(b, f.p + i, 1)) return 0;
    }
    return 1;
}

/* ---- the best N (rows, names, pose groups): a max-heap with the worst kept on top ------------ */

typedef struct {
    double score;
    size_t key;   /* the record index: ties go to the lower one */
    sbuf text;    /* the row without its newline, or a record's poses */
    char *name;   /* by name: the molecule */
    size_t count; /* by name: its records (the counting pass) */
    size_t blocks;
} best;

typedef struct {
    best *e;     /* slots */
    size_t *h;   /* heap of slots */
    size_t *pos; /* slot -> heap position */
    size_t n, cap;
    size_t *tab; /* by name: name -> slot + 1 (linear probing), the names the heap holds */
    size_t mask;
} best_set;

static int worse(const best *a, const best *b)
{
    return a->score > b->score || (a->score == b->score && a->key > b->key);
}

static int best_init(best_set *s, size_t cap, int by_name)
{
    memset(s, 0, sizeof *s);
    s->cap = cap;
    s->e = calloc(cap, sizeof *s->e);
    s->h = malloc(sizeof *s->h * cap);
    s->pos = malloc(sizeof *s->pos * cap);
    if (!s->e || !s->h || !s->pos) return 0;
    if (by_name) {
        size_t nt = 16;
        while (nt < 2 * cap) nt *= 2;
        s->tab = calloc(nt, sizeof *s->tab);
        if (!s->tab) return 0;
        s->mask = nt - 1;
    }
    return 1;
}

static void best_free(best_set *s)
{
    for (size_t i = 0; s->e && i < s->cap; i++) free(s->e[i].text.p), free(s->e[i].name);
    free(s->e), free(s->h), free(s->pos), free(s->tab);
    memset(s, 0, sizeof *s);
}

static void heap_swap(best_set *s, size_t i, size_t j)
{
    const size_t t = s->h[i];
    s->h[i] = s->h[j], s->h[j] = t;
    s->pos[s->h[i]] = i, s->pos[s->h[j]] = j;
}

static void sift_up(best_set *s, size_t i)
{
    while (i > 0) {
        const size_t parent = (i - 1) / 2;
        if (!worse(&s->e[s->h[i]], &s->e[s->h[parent]])) return;
        heap_swap(s, i, parent);
        i = parent;
    }
}

static void sift_down(best_set *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->n && worse(&s->e[s->h[l]], &s->e[s->h[m]])) m = l;
        if (r < s->n && worse(&s->e[s->h[r]], &s->e[s->h[m]])) m = r;
        if (m == i) return;
        heap_swap(s, i, m);
        i = m;
    }
}

static long tab_find(const best_set *s, const char *name)
{
    for (size_t k = fnv1a(name) & s->mask; s->tab[k]; k = (k + 1) & s->mask)
        if (!strcmp(s->e[s->tab[k] - 1].name, name)) return (long)(s->tab[k] - 1);
    return -1;
}

static void tab_insert(best_set *s, size_t slot)
{
    size_t k = fnv1a(s->e[slot].name) & s->mask;
    while (s->tab[k]) k = (k + 1) & s->mask;
    s->tab[k] = slot + 1;
}

/* Removes a name, shifting back the entries after it that may move (no tombstones). */
static void tab_remove(best_set *s, const char *name)
{
    size_t k = fnv1a(name) & s->mask;
    while (s->tab[k] && strcmp(s->e[s->tab[k] - 1].name, name)) k = (k + 1) & s->mask;
    if (!s->tab[k]) return;
    s->tab[k] = 0;
    for (size_t j = (k + 1) & s->mask; s->tab[j]; j = (j + 1) & s->mask) {
        const size_t home = fnv1a(s->e[s->tab[j] - 1].name) & s->mask;
        /* the entry at j stays when its home lies cyclically in (k, j] */
        const int stays = k <= j ? (home > k && home <= j) : (home > k || home <= j);
        if (stays) continue;
        s->tab[k] = s->tab[j], s->tab[j] = 0;
        k = j;
    }
}

static int best_fill(best *b, double score, size_t key, const char *text, size_t len, size_t blocks)
{
    b->score = score, b->key = key, b->blocks = blocks;
    b->text.n = 0;
    return sb_put(&b->text, text, len);
}

/* Offers a candidate; name != NULL: by name (each name once, at its best). Returns 0 without memory.
 * Why by name the final set is right, though a name may be evicted and offered again later: every
 * held entry's key is one of its name's real records, so with the set full its worst key is at
 * least the worst of some `cap` distinct names' best keys. A name m among the true best `cap`
 * has fewer than `cap` other names with a best below its own best k*; so when the record with k*
 * comes, the set's worst (over `cap` names other than m, or m itself with a worse key) is worse
 * than k*, and m enters or improves to k* (keys are unique: the index breaks ties). Once held at
 * k*, m is evicted only by a key below k* while it is the worst held, which would make `cap`
 * names with keys below k*: impossible. So every true best name ends held at its best record,
 * and the set holds nothing else. */
static int best_offer(best_set *s, double score, size_t key, const char *text, size_t len, const char *name,
                      size_t blocks)
{
    best cand;
    cand.score = score, cand.key = key;
    if (name) {
        const long at = tab_find(s, name);
        if (at >= 0) {
            best *b = &s->e[at];
            if (!worse(b, &cand)) return 1;
            if (!best_fill(b, score, key, text, len, blocks)) return 0;
            sift_down(s, s->pos[at]); /* better: lower in the max-heap */
            return 1;
        }
    }
    size_t slot;
    const int evict = s->n == s->cap;
    if (!evict) {
        slot = s->n;
        s->h[s->n] = slot, s->pos[slot] = s->n;
        s->n++;
    } else {
        if (!worse(&s->e[s->h[0]], &cand)) return 1;
        slot = s->h[0]; /* the worst makes way */
        if (name) tab_remove(s, s->e[slot].name);
    }
    best *b = &s->e[slot];
    if (!best_fill(b, score, key, text, len, blocks)) return 0;
    if (name) {
        char *nm = strdup(name);
        if (!nm) return 0;
        free(b->name);
        b->name = nm;
        b->count = 0;
        tab_insert(s, slot);
    }
    if (evict) sift_down(s, 0);
    else sift_up(s, s->pos[slot]);
    return 1;
}

typedef struct {
    double score;
    size_t key, slot;
} sort_item;

static int by_key(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The held slots, best first, into s->h (which stops being a heap). Returns 0 without memory. */
static int best_sorted(best_set *s)
{
    sort_item *t = malloc(sizeof *t * (s->n ? s->n : 1));
    if (!t) return 0;
    for (size_t i = 0; i < s->n; i++)
        t[i].score = s->e[s->h[i]].score, t[i].key = s->e[s->h[i]].key, t[i].slot = s->h[i];
    qsort(t, s->n, sizeof *t, by_key);
    for (size_t i = 0; i < s->n; i++) s->h[i] = t[i].slot;
    free(t);
    return 1;
}

/* ---- pose files: blocks (PDBQT MODEL..ENDMDL, SDF record..$$$$) grouped by record ------------- */

typedef struct {
    FILE *f;
    const char *path;
    int sdf;
    char *line;
    size_t lcap;
    sbuf blk;        /* the block read ahead */
    long b_index;    /* its record index (-1: none written) */
    double b_score;
    int b_scored;
    long b_pose;     /* its pose number (SDF vsgrid_pose / pose_rank, PDBQT pose_rank), 0: none */
    int ahead;       /* blk holds the next group's first block */
    sbuf grp;        /* the group: one record's poses */
    long g_index;
    double g_score;
    int g_scored;
    size_t g_blocks;
    int have;        /* grp holds a group not yet placed */
    long last_index;
} pose_reader;

static int blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') return 0;
    return 1;
}

/* 1: a block in pr->blk; 0: the end; -1: the file ends inside a block; -2: a read error; -3: no memory. */
static int block_read(pose_reader *pr)
{
    pr->blk.n = 0;
    pr->b_index = -1, pr->b_scored = 0, pr->b_pose = 0;
    int want = 0, data = 0, content = 0;
    ssize_t n;
    while ((n = getline(&pr->line, &pr->lcap, pr->f)) > 0) {
        if (!sb_put(&pr->blk, pr->line, (size_t)n)) return -3;
        const char *s = pr->line;
        if (s[n - 1] != '\n') return ferror(pr->f) ? -2 : -1;
        content |= !blank(s);
        if (pr->sdf) {
            if (want) { /* the value line of a data item */
                char *end;
                if (want == 1) {
                    long v = strtol(s, &end, 10);
                    if (end != s && v >= 0) pr->b_index = v;
                } else if (want == 2) {
                    double v = strtod(s, &end);
                    if (end != s) pr->b_score = v, pr->b_scored = 1;
                } else {
                    long v = strtol(s, &end, 10);
                    if (end != s) pr->b_pose = v;
                }
                want = 0;
            } else if (!strncmp(s, "$$$$", 4) && (s[4] == '\n' || s[4] == '\r')) {
                return 1;
            } else if (!strncmp(s, "M  END", 6)) {
                data = 1;
            } else if (data && s[0] == '>') { /* the last item of a name counts (an input's own come first) */
                if (strstr(s, "<vsgrid_record>")) want = 1;
                else if (strstr(s, "<vsgrid_score_kcal_mol>")) want = 2;
                else if (strstr(s, "<vsgrid_pose>") || strstr(s, "<vsgrid_pose_rank>")) want = 3;
            }
        } else if (!strncmp(s, "ENDMDL", 6)) {
            return 1;
        } else if (!strncmp(s, "REMARK", 6)) {
            char *end;
            if (!strncmp(s, "REMARK VSGRID RECORD:", 21)) {
                long v = strtol(s + 21, &end, 10);
                if (end != s + 21 && v >= 0) pr->b_index = v;
            } else if (!strncmp(s, "REMARK VINA RESULT:", 19)) { /* flexible docking */
                double v = strtod(s + 19, &end);
                if (end != s + 19) pr->b_score = v, pr->b_scored = 1;
            } else if (!strncmp(s, "REMARK  vsgrid score_kcal_mol = ", 32)) { /* rigid placement */
                double v = strtod(s + 32, &end);
                if (end != s + 32) pr->b_score = v, pr->b_scored = 1;
            } else if (!strncmp(s, "REMARK  vsgrid pose_rank = ", 27)) {
                pr->b_pose = strtol(s + 27, NULL, 10);
            }
        }
    }
    if (n < 0 && ferror(pr->f)) return -2;
    return content ? -1 : 0;
}

/* The next record's poses into pr->grp: the block read ahead and the blocks after it of the same
 * record (the same index; without indices, the blocks whose pose number is above 1). Same returns. */
static int group_next(pose_reader *pr)
{
    if (!pr->ahead) {
        const int r = block_read(pr);
        if (r <= 0) return r;
    }
    pr->ahead = 0;
    pr->grp.n = 0;
    if (!sb_put(&pr->grp, pr->blk.p, pr->blk.n)) return -3;
    pr->g_index = pr->b_index, pr->g_score = pr->b_score, pr->g_scored = pr->b_scored, pr->g_blocks = 1;
    for (;;) {
        const int r = block_read(pr);
        if (r < 0) return r;
        if (r == 0) break;
        const int same = pr->g_index >= 0 ? pr->b_index == pr->g_index : pr->b_index < 0 && pr->b_pose > 1;
        if (!same) {
            pr->ahead = 1;
            break;
        }
        if (!sb_put(&pr->grp, pr->blk.p, pr->blk.n)) return -3;
        pr->g_blocks++;
    }
    pr->have = 1;
    return 1;
}

static void pose_reader_free(pose_reader *pr)
{
    free(pr->line), free(pr->blk.p), free(pr->grp.p);
    memset(pr, 0, sizeof *pr);
}

/* Writes a record's poses; PDBQT MODEL lines numbered on from *model (the spacing kept: "MODEL n"
 * stays so, a right-aligned number keeps its field). Returns 0 on a write error. */
static int write_group(FILE *out, const char *t, size_t n, int pdbqt, long *model)
{
    if (!pdbqt) return fwrite(t, 1, n, out) == n;
    const char *end = t + n, *run = t; /* run: bytes not yet written, copied as they are */
    while (t < end) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        const char *next = nl ? nl + 1 : end;
        if (next - t >= 6 && !memcmp(t, "MODEL", 5) && (t[5] == ' ' || t[5] == '\t')) {
            const char *c = t + 5;
            while (c < next && (*c == ' ' || *c == '\t')) c++;
            const char *d = c;
            while (d < next && *d >= '0' && *d <= '9') d++;
            if (d > c) {
                const int spaces = (int)(c - (t + 5)), field = (int)(d - (t + 5));
                char num[48];
                ++*model;
                if (spaces == 1) snprintf(num, sizeof num, " %ld", *model);
                else snprintf(num, sizeof num, "%*ld", field, *model);
                if (num[0] != ' ') snprintf(num, sizeof num, " %ld", *model);
                if (fwrite(run, 1, (size_t)(t - run), out) != (size_t)(t - run)) return 0;
                if (fputs("MODEL", out) == EOF || fputs(num, out) == EOF) return 0;
                run = d; /* the rest of the line as it is */
            }
        }
        t = next;
    }
    return fwrite(run, 1, (size_t)(end - run), out) == (size_t)(end - run);
}

/* ---- parts and their markers -------------------------------------------------------------- */

typedef struct {
    char *path;       /* the CSV */
    char *marker;     /* PATH.done */
    char *dir;        /* its folder with a trailing '/', or "" */
    char fingerprint[40];
    size_t total, rows, records;
    vsg_record_range *r;
    int nr;
    char *poses;      /* the pose file's path, NULL without */
    char select[64];  /* poses_select */
    long select_top;  /* "top K": K */
    int merged;       /* 0: skipped (allow_partial: no marker) */
    size_t last_seg;  /* its last range's place in the walk */
    /* the walk */
    int opened;
    rec_reader rr;
    size_t rows_read;
    pose_reader pr;
} part;

typedef struct {
    size_t part;
    int range;
    size_t first;   /* the range's first record (the walk's order) */
    int contiguous; /* 1: from here to the part's last range, the walk holds only its ranges */
} segment;

static vsg_status marker_error(const part *p, int line, const char *what)
{
    return vsg_fail(VSG_E_FORMAT,
                    "%s:%d: %s (a shard marker: 'vsgrid-shard 1', fingerprint, records_total, range, rows, "
                    "csv, poses, poses_select lines)",
                    p->marker, line, what);
}

/* Reads p's marker. VSG_E_DATA with *unfinished = 1 when there is none (the message says why). */
static vsg_status marker_read(part *p, int *unfinished)
{
    *unfinished = 0;
    FILE *f = fopen(p->marker, "r");
    if (!f) {
        if (errno != ENOENT) return vsg_fail(VSG_E_IO, "cannot read %s: %s", p->marker, strerror(errno));
        char partial[4200];
        snprintf(partial, sizeof partial, "%s.partial", p->path);
        struct stat sb;
        const int has_partial = stat(partial, &sb) == 0, has_csv = stat(p->path, &sb) == 0;
        *unfinished = 1;
        if (has_partial)
            return vsg_fail(VSG_E_DATA,
                            "%s: unfinished shard (%s is there, no %s): let it finish or run it again, or merge "
                            "the others with --allow-partial",
                            p->path, partial, p->marker);
        if (!has_csv) {
            *unfinished = 0;
            return vsg_fail(VSG_E_IO, "cannot read %s: no such file (nor %s)", p->path, partial);
        }
        return vsg_fail(VSG_E_DATA,
                        "%s: no marker %s: the shard did not finish (or the file is not a shard's CSV); run "
                        "it again, or merge the others with --allow-partial",
                        p->path, p->marker);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int ln = 0, have_fp = 0, have_total = 0, have_rows = 0, have_csv = 0, rcap = 0;
    vsg_status st = VSG_OK;
    snprintf(p->select, sizeof p->select, "all");
    while (st == VSG_OK && (n = getline(&line, &cap, f)) > 0) {
        ln++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (ln == 1) {
            if (strncmp(line, "vsgrid-shard ", 13)) st = marker_error(p, ln, "not a shard marker");
            else if (strcmp(line + 13, "1"))
                st = vsg_fail(VSG_E_FORMAT, "%s: a shard marker of format %s (this vsgrid reads format 1)", p->marker,
                              line + 13);
            continue;
        }
        if (n == 0) continue;
        char *val = strchr(line, ' ');
        if (!val) {
            st = marker_error(p, ln, "a line without a value");
            break;
        }
        *val++ = '\0';
        if (!strcmp(line, "fingerprint")) {
            const size_t k = strlen(val);
            int hex = k > 0 && k < sizeof p->fingerprint;
            for (size_t i = 0; hex && i < k; i++) hex = strchr("0123456789abcdefABCDEF", val[i]) != NULL;
            if (!hex) st = marker_error(p, ln, "fingerprint: not a hexadecimal number");
            else snprintf(p->fingerprint, sizeof p->fingerprint, "%s", val), have_fp = 1;
        } else if (!strcmp(line, "records_total")) {
            if (!parse_size(val, strlen(val), &p->total)) st = marker_error(p, ln, "records_total: not a count");
            have_total = 1;
        } else if (!strcmp(line, "rows")) {
            if (!parse_size(val, strlen(val), &p->rows)) st = marker_error(p, ln, "rows: not a count");
            have_rows = 1;
        } else if (!strcmp(line, "range")) {
            char *sp = strchr(val, ' ');
            vsg_record_range r;
            if (!sp || !parse_size(val, (size_t)(sp - val), &r.first) ||
                !parse_size(sp + 1, strlen(sp + 1), &r.count)) {
                st = marker_error(p, ln, "range: not 'FIRST COUNT'");
                break;
            }
            if (r.count == 0) continue;
            if (p->nr == rcap) {
                rcap = rcap ? 2 * rcap : 4;
                vsg_record_range *t = realloc(p->r, sizeof *t * (size_t)rcap);
                if (!t) {
                    st = vsg_fail(VSG_E_NOMEM, "out of memory");
                    break;
                }
                p->r = t;
            }
            p->r[p->nr++] = r;
        } else if (!strcmp(line, "csv")) {
            const char *base = strrchr(p->path, '/');
            base = base ? base + 1 : p->path;
            if (strcmp(val, base))
                st = vsg_fail(VSG_E_FORMAT, "%s names the CSV %s, not %s: a marker of another file (renamed?)",
                              p->marker, val, base);
            have_csv = 1;
        } else if (!strcmp(line, "poses")) {
            free(p->poses);
            p->poses = NULL;
            if (strcmp(val, "-")) {
                if (strchr(val, '/')) st = marker_error(p, ln, "poses: a file name beside the marker, not a path");
                else if (!(p->poses = malloc(strlen(p->dir) + strlen(val) + 1)))
                    st = vsg_fail(VSG_E_NOMEM, "out of memory");
                else strcat(strcpy(p->poses, p->dir), val);
            }
        } else if (!strcmp(line, "poses_select")) {
            char *end;
            if (!strcmp(val, "all")) snprintf(p->select, sizeof p->select, "all");
            else if (!strncmp(val, "top ", 4) && (p->select_top = strtol(val + 4, &end, 10)) > 0 && !*end)
                snprintf(p->select, sizeof p->select, "%.60s", val);
            else if (!strncmp(val, "below ", 6) && (strtod(val + 6, &end), end != val + 6 && !*end))
                snprintf(p->select, sizeof p->select, "%.60s", val);
            else st = marker_error(p, ln, "poses_select: not all, top K or below S");
        } /* other keys: a later format's additions, ignored */
    }
    if (st == VSG_OK && ferror(f)) st = vsg_fail(VSG_E_IO, "cannot read %s", p->marker);
    free(line);
    fclose(f);
    if (st != VSG_OK) return st;
    if (ln == 0) return marker_error(p, 1, "empty");
    if (!have_fp || !have_total || !have_rows || !have_csv)
        return marker_error(p, ln, !have_fp ? "no fingerprint line" : !have_total ? "no records_total line"
                                   : !have_rows ? "no rows line" : "no csv line");
    size_t sum = 0;
    for (int i = 0; i < p->nr; i++) {
        const vsg_record_range *r = &p->r[i];
        if (r->first > p->total || r->count > p->total - r->first)
            return vsg_fail(VSG_E_FORMAT, "%s: range %zu %zu goes past records_total %zu", p->marker, r->first,
                            r->count, p->total);
        if (i > 0 && r->first < p->r[i - 1].first + p->r[i - 1].count)
            return vsg_fail(VSG_E_FORMAT, "%s: its ranges are not sorted or overlap (%zu %zu after %zu %zu)", p->marker,
                            r->first, r->count, p->r[i - 1].first, p->r[i - 1].count);
        sum += r->count;
    }
    if (sum != p->rows)
        return vsg_fail(VSG_E_FORMAT,
                        "%s: rows %zu, but its ranges hold %zu records (a finished shard has a row for each)",
                        p->marker, p->rows, sum);
    p->records = sum;
    return VSG_OK;
}

static vsg_status part_init(part *p, const char *given)
{
    memset(p, 0, sizeof *p);
    p->merged = 1;
    char *path = strdup(given);
    if (!path) return vsg_fail(VSG_E_NOMEM, "out of memory");
    if (ends_with(path, ".done")) path[strlen(path) - 5] = '\0'; /* a marker named: its CSV */
    else if (ends_with(path, ".partial")) path[strlen(path) - 8] = '\0';
    p->path = path;
    p->marker = malloc(strlen(path) + 6);
    const char *slash = strrchr(path, '/');
    const size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    p->dir = malloc(dl + 1);
    if (!p->marker || !p->dir) return vsg_fail(VSG_E_NOMEM, "out of memory");
    strcat(strcpy(p->marker, path), ".done");
    memcpy(p->dir, path, dl);
    p->dir[dl] = '\0';
    return VSG_OK;
}

static void part_close_files(part *p)
{
    if (p->rr.f) fclose(p->rr.f);
    if (p->pr.f) fclose(p->pr.f);
    rec_free(&p->rr);
    pose_reader_free(&p->pr);
    p->opened = 0;
}

static void part_free(part *p)
{
    part_close_files(p);
    free(p->path), free(p->marker), free(p->dir), free(p->r), free(p->poses);
}

/* "[a, b)" ranges as text for messages: the records from a to b - 1. */
static void range_text(char *buf, size_t len, size_t a, size_t b)
{
    if (b - a == 1) snprintf(buf, len, "record %zu", a);
    else snprintf(buf, len, "records %zu to %zu (%zu)", a, b - 1, b - a);
}

/* The unfinished shards (PATH.partial CSVs) beside the parts whose rows would start in [a, b),
 * or that have no row yet, named into buf (empty when none). */
static void partial_hint(const part *parts, size_t nparts, size_t a, size_t b, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < nparts; i++) {
        int seen = 0; /* each folder once */
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(parts[j].dir, parts[i].dir);
        if (seen) continue;
        DIR *d = opendir(parts[i].dir[0] ? parts[i].dir : ".");
        if (!d) continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            const char *nm = e->d_name;
            if (!ends_with(nm, ".partial")) continue; /* a CSV's (its header says so), not a pose file's */
            char path[4200];
            snprintf(path, sizeof path, "%s%s", parts[i].dir, nm);
            gzFile g = gzopen(path, "rb"); /* plain or gzipped alike */
            if (!g) continue;
            char line[4096];
            int cut = 0;
            const int is_csv = gzgets(g, line, sizeof line) && !strncmp(line, "index,", 6);
            size_t first = 0;
            int rows = 0;
            if (is_csv && gzgets(g, line, sizeof line)) {
                char *end;
                unsigned long long v = strtoull(line, &end, 10);
                if (end != line && *end == ',') first = (size_t)v, rows = 1;
            }
            gzclose(g);
            if (!is_csv || (rows && (first < a || first >= b))) continue;
            char what[64];
            if (rows) snprintf(what, sizeof what, "its rows start at %zu", first);
            else snprintf(what, sizeof what, "no row yet");
            const int w = snprintf(buf + used, len - used, "%s%s (%s)", used ? ", " : "", path, what);
            if (w < 0 || (size_t)w >= len - used) cut = 1;
            else used += (size_t)w;
            if (cut) break;
        }
        closedir(d);
    }
}

/* ---- outputs ------------------------------------------------------------------------------ */

typedef struct {
    const char *path; /* as asked */
    char *tmp;        /* written here, renamed over path at the end (NULL: written in place) */
    FILE *f;
} output;

static vsg_status out_open(output *o, const char *path)
{
    o->path = path, o->tmp = NULL, o->f = NULL;
    if (!path) return VSG_OK;
    struct stat sb;
    /* a device or pipe (/dev/null, a FIFO) is written in place: never renamed over */
    if (strcmp(path, "-") && !(stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))) {
        o->tmp = malloc(strlen(path) + 16);
        if (!o->tmp) return vsg_fail(VSG_E_NOMEM, "out of memory");
        sprintf(o->tmp, "%s.merging%s", path, ends_with(path, ".gz") ? ".gz" : "");
    }
    o->f = vsg_fopen_out(o->tmp ? o->tmp : path, "w");
    if (!o->f) {
        const int e = errno;
        free(o->tmp), o->tmp = NULL;
        return vsg_fail(VSG_E_IO, "cannot write %s: %s", path, strerror(e));
    }
    if (!ends_with(path, ".gz")) setvbuf(o->f, NULL, _IOFBF, OUT_BUFFER);
    return VSG_OK;
}

/* Closes the output: st, or the write error it reports. */
static vsg_status out_close(output *o, vsg_status st)
{
    if (!o->f) return st;
    const int bad = ferror(o->f);
    const int e0 = errno;
    const int rc = fclose(o->f);
    const int e = rc != 0 ? errno : e0;
    o->f = NULL;
    if (st == VSG_OK && (bad || rc != 0)) st = vsg_fail(VSG_E_IO, "cannot write %s: %s", o->path, strerror(e ? e : EIO));
    return st;
}

/* After every output was closed: renamed over its path when all went well, else removed. */
static vsg_status out_commit(output *o, vsg_status st)
{
    if (o->tmp) {
        if (st == VSG_OK && rename(o->tmp, o->path) != 0)
            st = vsg_fail(VSG_E_IO, "cannot write %s (renaming %s): %s", o->path, o->tmp, strerror(errno));
        if (st != VSG_OK) unlink(o->tmp);
    }
    free(o->tmp), o->tmp = NULL;
    return st;
}

static vsg_status write_error(const output *o)
{
    return vsg_fail(VSG_E_IO, "cannot write %s: %s", o->path, strerror(errno ? errno : EIO));
}

/* ---- the merge ---------------------------------------------------------------------------- */

typedef struct {
    const vsg_merge_options *o;
    part *parts;
    size_t nparts;
    segment *seg;
    size_t nseg;
    output csv, top, poses;
    int pdbqt;            /* the poses' kind */
    long poses_top;       /* in effect (0: every pose) */
    int poses_sorted;     /* the shards' pose files hold their best only, best first (poses_select top K) */
    sbuf header;          /* the first part's header, with its newline */
    int score_col, status_col; /* for best_per_molecule and top */
    mol_table *mols;
    best_set top_rows, top_poses;
    sbuf scratch, name;
    span *fields;
    int maxf;
    long model;
    size_t seq;           /* pose groups met */
    vsg_merge_report *rep;
} merge;

static int field_index(const char *header, size_t len, const char *name)
{
    span f[512];
    const int n = csv_split(header, len, f, 512);
    for (int i = 0; i < n; i++)
        if (f[i].n == strlen(name) && !memcmp(f[i].p, name, f[i].n)) return i;
    return -1;
}

/* Opens a part's CSV (and poses) and checks its header. */
static vsg_status part_open(merge *m, part *p)
{
    p->rr.f = vsg_fopen_in(p->path);
    if (!p->rr.f) return vsg_fail(VSG_E_IO, "cannot read %s: %s", p->path, strerror(errno));
    p->rr.out = m->csv.f;
    p->opened = 1;
    const int r = rec_next(&p->rr);
    if (r == -3) return vsg_fail(VSG_E_NOMEM, "out of memory");
    if (r == -2) return vsg_fail(VSG_E_IO, "cannot read %s: %s", p->path, strerror(errno ? errno : EIO));
    if (r != 1 || strncmp(p->rr.rec, "index,name,", 11))
        return vsg_fail(VSG_E_FORMAT, "%s: %s: not a screen's CSV (its first line is not a header 'index,name,...')",
                        p->path, r == 1 ? "bad header" : "empty or cut");
    if (!m->header.p) {
        if (!sb_put(&m->header, p->rr.rec, p->rr.len)) return vsg_fail(VSG_E_NOMEM, "out of memory");
        const int bpm = m->o->best_per_molecule;
        if (bpm || m->o->top > 0) {
            m->score_col = field_index(p->rr.rec, p->rr.len, "score_kcal_mol");
            m->status_col = field_index(p->rr.rec, p->rr.len, "status");
            if (m->score_col < 0 || m->status_col < 0)
                return vsg_fail(VSG_E_FORMAT,
                                "%s: no score_kcal_mol or status column: best per molecule and top need them", p->path);
            m->maxf = (m->score_col > m->status_col ? m->score_col : m->status_col) + 1;
            if (m->maxf < 2) m->maxf = 2;
            if (!(m->fields = malloc(sizeof *m->fields * (size_t)m->maxf)))
                return vsg_fail(VSG_E_NOMEM, "out of memory");
        }
        size_t hl = m->header.n;
        while (hl > 0 && (m->header.p[hl - 1] == '\n' || m->header.p[hl - 1] == '\r')) hl--;
        if (m->csv.f) {
            if (bpm) fprintf(m->csv.f, "%.*s,records\n", (int)hl, m->header.p);
            else fwrite(m->header.p, 1, m->header.n, m->csv.f);
        }
        if (m->top.f) {
            if (bpm) fprintf(m->top.f, "%.*s,records\n", (int)hl, m->header.p);
            else fwrite(m->header.p, 1, m->header.n, m->top.f);
        }
    } else if (m->header.n != p->rr.len || memcmp(m->header.p, p->rr.rec, p->rr.len)) {
        return vsg_fail(VSG_E_DATA, "%s: its header differs from the first part's (%s): shards of different screens",
                        p->path, m->parts[m->seg[0].part].path);
    }
    if (m->poses.path) {
        p->pr.path = p->poses;
        p->pr.sdf = !m->pdbqt;
        p->pr.last_index = -1;
        p->pr.f = vsg_fopen_in(p->poses);
        if (!p->pr.f)
            return vsg_fail(VSG_E_IO, "cannot read %s (the poses of %s): %s", p->poses, p->path, strerror(errno));
        if (!ends_with(p->poses, ".gz")) setvbuf(p->pr.f, NULL, _IOFBF, OUT_BUFFER);
    }
    return VSG_OK;
}

/* One row: written, or offered to the molecules' table and the best rows. */
static vsg_status take_row(merge *m, part *p, size_t index)
{
    const vsg_merge_options *o = m->o;
    char *rec = p->rr.rec;
    const size_t len = p->rr.len;
    if (m->csv.f && !o->best_per_molecule && !rr_emit(&p->rr)) return write_error(&m->csv);
    if (!o->best_per_molecule && o->top <= 0) return VSG_OK;
    const int nf = csv_split(rec, len, m->fields, m->maxf);
    if (nf < m->maxf)
        return vsg_fail(VSG_E_FORMAT, "%s: the row of record %zu has %d fields, fewer than its header's", p->path,
                        index, nf);
    if (!unquote(m->fields[m->status_col], &m->scratch)) return vsg_fail(VSG_E_NOMEM, "out of memory");
    int scored = !strcmp(m->scratch.p, VSG_LIG_OK) || !strcmp(m->scratch.p, VSG_LIG_OUTSIDE);
    double score = 0.0;
    if (scored) {
        if (!unquote(m->fields[m->score_col], &m->scratch)) return vsg_fail(VSG_E_NOMEM, "out of memory");
        char *end;
        score = strtod(m->scratch.p, &end);
        scored = end != m->scratch.p && !*end && isfinite(score);
    }
    if (!unquote(m->fields[1], &m->name)) return vsg_fail(VSG_E_NOMEM, "out of memory");
    const size_t tl = len - (rec[len - 1] == '\n'); /* the row without its newline, as the single run keeps it */
    const char saved = rec[tl];
    rec[tl] = '\0';
    vsg_status st = VSG_OK;
    if (m->mols && !vsg_mol_offer(m->mols, m->name.p, rec, scored, scored ? score : 0.0))
        st = vsg_fail(VSG_E_NOMEM, "out of memory for the molecules' table (--best-per-molecule keeps a row per name)");
    if (st == VSG_OK && o->top > 0 && scored &&
        !best_offer(&m->top_rows, score, index, rec, tl, o->best_per_molecule ? m->name.p : NULL, 0))
        st = vsg_fail(VSG_E_NOMEM, "out of memory for the best %ld rows", o->top);
    rec[tl] = saved;
    return st;
}

static vsg_status pose_read_error(const part *p, int r)
{
    if (r == -3) return vsg_fail(VSG_E_NOMEM, "out of memory");
    if (r == -2) return vsg_fail(VSG_E_IO, "cannot read %s: %s", p->poses, strerror(errno ? errno : EIO));
    return vsg_fail(VSG_E_DATA,
                    "%s (the poses of %s): cut short, it ends inside a pose (%s): not what the finished shard "
                    "wrote",
                    p->poses, p->path, p->pr.sdf ? "no $$$$" : "no ENDMDL");
}

static int in_ranges(const part *p, long index)
{
    for (int i = 0; i < p->nr; i++)
        if ((size_t)index >= p->r[i].first && (size_t)index - p->r[i].first < p->r[i].count) return 1;
    return 0;
}

/* The held group: written (or offered to the best poses). */
static vsg_status place_group(merge *m, part *p)
{
    pose_reader *pr = &p->pr;
    pr->have = 0;
    m->seq++;
    if (m->poses_top > 0) {
        if (!pr->g_scored) return VSG_OK; /* no score: not among the best */
        const size_t key = pr->g_index >= 0 ? (size_t)pr->g_index : m->seq;
        if (!best_offer(&m->top_poses, pr->g_score, key, pr->grp.p, pr->grp.n, NULL, pr->g_blocks))
            return vsg_fail(VSG_E_NOMEM, "out of memory for the best %ld records' poses", m->poses_top);
        return VSG_OK;
    }
    if (!write_group(m->poses.f, pr->grp.p, pr->grp.n, m->pdbqt, &m->model)) return write_error(&m->poses);
    m->rep->poses += pr->g_blocks;
    return VSG_OK;
}

/* The poses of segment s (range rg of part p): the groups whose index lies in it. */
static vsg_status poses_segment(merge *m, part *p, size_t s, const vsg_record_range *rg)
{
    pose_reader *pr = &p->pr;
    const int last = s == p->last_seg;
    if (m->poses_sorted) { /* best first, not in record order: all of them at the part's last range */
        if (!last) return VSG_OK;
        for (;;) {
            const int r = group_next(pr);
            if (r < 0) return pose_read_error(p, r);
            if (r == 0) return VSG_OK;
            if (pr->g_index >= 0 && !in_ranges(p, pr->g_index))
                return vsg_fail(VSG_E_DATA, "%s: poses of record %ld, which is not in %s's ranges", p->poses,
                                pr->g_index, p->path);
            vsg_status st = place_group(m, p);
            if (st != VSG_OK) return st;
        }
    }
    for (;;) {
        if (!pr->have) {
            const int r = group_next(pr);
            if (r < 0) return pose_read_error(p, r);
            if (r == 0) return VSG_OK;
        }
        if (pr->g_index >= 0) {
            if (pr->g_index <= pr->last_index || (size_t)pr->g_index < rg->first || !in_ranges(p, pr->g_index))
                return vsg_fail(VSG_E_DATA, "%s: poses of record %ld %s: not the poses of %s's rows in order", p->poses,
                                pr->g_index, pr->g_index <= pr->last_index ? "out of order" : "outside its ranges",
                                p->path);
            if ((size_t)pr->g_index - rg->first >= rg->count) return VSG_OK; /* a later range's */
            pr->last_index = pr->g_index;
        } else if (!last) {
            if (m->seg[s].contiguous) return VSG_OK; /* nothing of another part before its next range */
            return vsg_fail(VSG_E_FORMAT,
                            "%s: poses without record indices (REMARK VSGRID RECORD / vsgrid_record) in a "
                            "shard of ranges apart: they cannot be placed",
                            p->poses);
        }
        vsg_status st = place_group(m, p);
        if (st != VSG_OK) return st;
    }
}

/* After a part's last range: nothing more in its files. */
static vsg_status part_finish(merge *m, part *p)
{
    int r = rec_next(&p->rr);
    if (r == 1)
        return vsg_fail(VSG_E_DATA,
                        "%s: more rows than its marker's %zu (row %zu and after): not the rows of its ranges", p->path,
                        p->rows, p->rows_read + 1);
    if (r == -3) return vsg_fail(VSG_E_NOMEM, "out of memory");
    if (r == -2) return vsg_fail(VSG_E_IO, "cannot read %s: %s", p->path, strerror(errno ? errno : EIO));
    if (r == -1) return vsg_fail(VSG_E_DATA, "%s: a cut row after its %zu rows", p->path, p->rows_read);
    if (m->poses.path) {
        pose_reader *pr = &p->pr;
        if (!pr->have) {
            r = group_next(pr);
            if (r < 0) return pose_read_error(p, r);
        }
        if (pr->have)
            return vsg_fail(VSG_E_DATA, "%s: poses of record %ld after the last of %s's ranges", p->poses, pr->g_index,
                            p->path);
    }
    part_close_files(p);
    return VSG_OK;
}

static int seg_cmp(const void *a, const void *b)
{
    const segment *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return x->part < y->part ? -1 : x->part > y->part;
}

/* The markers: read, compared, and their ranges laid along [0, T). */
static vsg_status plan(merge *m)
{
    const vsg_merge_options *o = m->o;
    const part *ref = NULL;
    size_t nr = 0;
    for (size_t i = 0; i < m->nparts; i++) {
        part *p = &m->parts[i];
        int unfinished = 0;
        vsg_status st = marker_read(p, &unfinished);
        if (st != VSG_OK && unfinished && o->allow_partial) {
            vsg_warn("%s (left out)", vsg_last_error());
            p->merged = 0;
            continue;
        }
        if (st != VSG_OK) return st;
        if (!ref) {
            ref = p;
        } else if (strcasecmp(p->fingerprint, ref->fingerprint)) {
            return vsg_fail(VSG_E_DATA,
                            "%s: fingerprint %s, but %s has %s: shards of different screens (other options or "
                            "libraries)",
                            p->marker, p->fingerprint, ref->marker, ref->fingerprint);
        } else if (p->total != ref->total) {
            return vsg_fail(VSG_E_DATA, "%s: records_total %zu, but %s has %zu: shards of different libraries",
                            p->marker, p->total, ref->marker, ref->total);
        }
        nr += (size_t)p->nr;
    }
    if (!ref) return vsg_fail(VSG_E_DATA, "no finished shard among the %zu parts", m->nparts);
    m->rep->records_total = ref->total;
    if (o->poses) {
        for (size_t i = 0; i < m->nparts; i++) {
            const part *p = &m->parts[i];
            if (!p->merged) continue;
            if (!p->poses)
                return vsg_fail(VSG_E_DATA, "%s: the shard wrote no poses (its marker says poses -)", p->path);
            if (pose_kind(p->poses) != pose_kind(o->poses))
                return vsg_fail(VSG_E_ARG, "%s: its poses are %s, the merged poses %s: one format", p->poses,
                                pose_kind(p->poses) == 1 ? "PDBQT" : "SDF", pose_kind(o->poses) == 1 ? "PDBQT" : "SDF");
            if (strcmp(p->select, ref->select))
                return vsg_fail(VSG_E_DATA, "%s: poses_select %s, but %s has %s", p->marker, p->select, ref->marker,
                                ref->select);
        }
        m->pdbqt = pose_kind(o->poses) == 1;
        m->poses_top = o->poses_top;
        if (ref->select_top > 0) { /* each shard kept its best K, best first: the merged set is the best K of them */
            if (m->poses_top > ref->select_top)
                return vsg_fail(VSG_E_ARG,
                                "poses top %ld: the shards kept only their best %ld records' poses (poses_select "
                                "%s)",
                                m->poses_top, ref->select_top, ref->select);
            if (m->poses_top <= 0) m->poses_top = ref->select_top;
            m->poses_sorted = 1;
        }
    }
    m->seg = malloc(sizeof *m->seg * (nr ? nr : 1));
    if (!m->seg) return vsg_fail(VSG_E_NOMEM, "out of memory");
    for (size_t i = 0; i < m->nparts; i++)
        for (int k = 0; m->parts[i].merged && k < m->parts[i].nr; k++) {
            m->seg[m->nseg].part = i, m->seg[m->nseg].range = k, m->seg[m->nseg].contiguous = 0;
            m->seg[m->nseg].first = m->parts[i].r[k].first;
            m->nseg++;
        }
    qsort(m->seg, m->nseg, sizeof *m->seg, seg_cmp);
    size_t next = 0, missing = 0;
    char hint[700], what[96];
    for (size_t s = 0; s <= m->nseg; s++) {
        const size_t first = s < m->nseg ? m->parts[m->seg[s].part].r[m->seg[s].range].first : ref->total;
        if (first > next) { /* a gap */
            range_text(what, sizeof what, next, first);
            partial_hint(m->parts, m->nparts, next, first, hint, sizeof hint);
            if (!o->allow_partial)
                return vsg_fail(VSG_E_DATA, "%s of the %zu are in no finished shard given%s%s%s", what, ref->total,
                                hint[0] ? ": unfinished: " : " (a shard missing from the list, or never run)", hint,
                                hint[0] ? "" : "; merge what is there with --allow-partial");
            vsg_warn("%s of the %zu have no row (no finished shard holds them)%s%s", what, ref->total,
                     hint[0] ? "; unfinished: " : "", hint);
            missing += first - next;
        } else if (first < next) { /* an overlap with an earlier range */
            const segment *cur = &m->seg[s];
            const vsg_record_range *rc = &m->parts[cur->part].r[cur->range];
            for (size_t t = s; t-- > 0;) {
                const vsg_record_range *rt = &m->parts[m->seg[t].part].r[m->seg[t].range];
                if (rt->first + rt->count > rc->first) {
                    const size_t hi = rt->first + rt->count < rc->first + rc->count ? rt->first + rt->count
                                                                                      : rc->first + rc->count;
                    range_text(what, sizeof what, rc->first, hi);
                    return vsg_fail(VSG_E_DATA,
                                    "%s are in two shards: %s and %s (a shard given twice, or shards of two "
                                    "different cuts)",
                                    what, m->parts[m->seg[t].part].path, m->parts[cur->part].path);
                }
            }
        }
        if (s < m->nseg) {
            const vsg_record_range *r = &m->parts[m->seg[s].part].r[m->seg[s].range];
            if (r->first + r->count > next) next = r->first + r->count;
            m->parts[m->seg[s].part].last_seg = s;
        }
    }
    for (size_t s = m->nseg; s-- > 0;) {
        const part *p = &m->parts[m->seg[s].part];
        m->seg[s].contiguous = s == p->last_seg || (m->seg[s + 1].part == m->seg[s].part && m->seg[s + 1].contiguous);
    }
    m->rep->missing = missing;
    for (size_t i = 0; i < m->nparts; i++) m->rep->parts += m->parts[i].merged;
    return VSG_OK;
}

/* The walk over [0, T): every range's rows (and poses) in record order. */
static vsg_status walk(merge *m)
{
    for (size_t s = 0; s < m->nseg; s++) {
        part *p = &m->parts[m->seg[s].part];
        const vsg_record_range *rg = &p->r[m->seg[s].range];
        vsg_status st = VSG_OK;
        if (!p->opened && (st = part_open(m, p)) != VSG_OK) return st;
        for (size_t k = 0; k < rg->count; k++) {
            const int r = rec_next(&p->rr);
            if (r == -4) return write_error(&m->csv);
            if (r == -3) return vsg_fail(VSG_E_NOMEM, "out of memory");
            if (r == -2) return vsg_fail(VSG_E_IO, "cannot read %s: %s (a cut or corrupt file)", p->path,
                                         strerror(errno ? errno : EIO));
            if (r != 1)
                return vsg_fail(
                    VSG_E_DATA, "%s: %s after %zu rows, its marker says %zu (records %zu to %zu): truncated", p->path,
                    r == 0 ? "ends" : "ends inside a row", p->rows_read, p->rows, rg->first, rg->first + rg->count - 1);
            p->rows_read++;
            const char *rec = p->rr.rec;
            const char *comma = memchr(rec, ',', p->rr.len);
            size_t idx;
            if (!comma || !parse_size(rec, (size_t)(comma - rec), &idx))
                return vsg_fail(VSG_E_FORMAT, "%s: row %zu: its first field is not a record index", p->path,
                                p->rows_read);
            if (idx != rg->first + k)
                return vsg_fail(VSG_E_DATA,
                                "%s: row %zu has index %zu where its marker's range (%zu %zu) puts record %zu: "
                                "the rows are not those of its ranges",
                                p->path, p->rows_read, idx, rg->first, rg->count, rg->first + k);
            if ((st = take_row(m, p, idx)) != VSG_OK) return st;
            m->rep->rows++;
            if ((m->rep->rows & 0xffff) == 0 && m->csv.f && ferror(m->csv.f)) return write_error(&m->csv);
        }
        if (!rr_flush(&p->rr)) return write_error(&m->csv); /* before another part's rows */
        if (m->poses.path && (st = poses_segment(m, p, s, rg)) != VSG_OK) return st;
        if (s == p->last_seg && (st = part_finish(m, p)) != VSG_OK) return st;
    }
    for (size_t i = 0; i < m->nparts && !m->header.p; i++) { /* no records at all: the header still */
        part *p = &m->parts[i];
        if (!p->merged) continue;
        vsg_status st = part_open(m, p);
        if (st == VSG_OK) st = part_finish(m, p);
        if (st != VSG_OK) return st;
    }
    return VSG_OK;
}

/* best_per_molecule top: the chosen names' records counted over every part again. */
static vsg_status count_names(merge *m)
{
    for (size_t i = 0; i < m->nparts; i++) {
        part *p = &m->parts[i];
        if (!p->merged) continue;
        rec_reader rr = {0};
        rr.f = vsg_fopen_in(p->path);
        if (!rr.f) return vsg_fail(VSG_E_IO, "cannot read %s: %s", p->path, strerror(errno));
        if (!ends_with(p->path, ".gz")) setvbuf(rr.f, NULL, _IOFBF, OUT_BUFFER);
        int r = rec_next(&rr); /* the header */
        vsg_status st = VSG_OK;
        while (r == 1 && (r = rec_next(&rr)) == 1) {
            span f[2];
            if (csv_split(rr.rec, rr.len, f, 2) < 2) continue;
            if (!unquote(f[1], &m->name)) {
                st = vsg_fail(VSG_E_NOMEM, "out of memory");
                break;
            }
            const long at = tab_find(&m->top_rows, m->name.p);
            if (at >= 0) m->top_rows.e[at].count++;
        }
        if (st == VSG_OK && r != 0) st = vsg_fail(VSG_E_IO, "cannot read %s again (changed while merging?)", p->path);
        fclose(rr.f);
        rec_free(&rr);
        if (st != VSG_OK) return st;
    }
    return VSG_OK;
}

static vsg_status finish(merge *m)
{
    const vsg_merge_options *o = m->o;
    vsg_status st = VSG_OK;
    if (m->mols && m->csv.f) vsg_mol_write(m->mols, m->csv.f);
    if (o->top > 0 && m->top.f) {
        if (o->best_per_molecule && (st = count_names(m)) != VSG_OK) return st;
        if (!best_sorted(&m->top_rows)) return vsg_fail(VSG_E_NOMEM, "out of memory");
        for (size_t i = 0; i < m->top_rows.n; i++) {
            const best *b = &m->top_rows.e[m->top_rows.h[i]];
            if (o->best_per_molecule) fprintf(m->top.f, "%s,%zu\n", b->text.p, b->count);
            else fprintf(m->top.f, "%s\n", b->text.p);
        }
    }
    if (m->poses_top > 0 && m->poses.f) {
        if (!best_sorted(&m->top_poses)) return vsg_fail(VSG_E_NOMEM, "out of memory");
        for (size_t i = 0; i < m->top_poses.n; i++) {
            const best *b = &m->top_poses.e[m->top_poses.h[i]];
            if (!write_group(m->poses.f, b->text.p, b->text.n, m->pdbqt, &m->model)) return write_error(&m->poses);
            m->rep->poses += b->blocks;
        }
    }
    return VSG_OK;
}

/* The input an output path is (the same file), or NULL. */
static const char *same_file(const merge *m, const char *out)
{
    struct stat so, si;
    if (!out || !strcmp(out, "-") || stat(out, &so) != 0 || !S_ISREG(so.st_mode)) return NULL;
    for (size_t i = 0; i < m->nparts; i++) {
        const part *p = &m->parts[i];
        if (stat(p->path, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) return p->path;
        if (stat(p->marker, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) return p->marker;
        if (p->poses && stat(p->poses, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) return p->poses;
    }
    return NULL;
}

vsg_status vsg_screen_merge(const vsg_merge_options *o, vsg_merge_report *rep)
{
    const double t0 = vsg_now();
    vsg_merge_report dummy;
    if (!rep) rep = &dummy;
    memset(rep, 0, sizeof *rep);
    if (!o || !o->parts || o->nparts <= 0) return vsg_fail(VSG_E_ARG, "merge: no parts given");
    if (o->top < 0 || o->poses_top < 0) return vsg_fail(VSG_E_ARG, "merge: top and poses_top must not be negative");
    if (o->top > 0 && !o->top_csv)
        return vsg_fail(VSG_E_ARG, "merge: top %ld needs top_csv, the file of the best rows", o->top);
    if (o->top_csv && o->top <= 0) return vsg_fail(VSG_E_ARG, "merge: top_csv needs top > 0");
    if (o->poses_top > 0 && !o->poses) return vsg_fail(VSG_E_ARG, "merge: poses_top needs poses, the merged pose file");
    if (o->poses && !pose_kind(o->poses))
        return vsg_fail(VSG_E_ARG, "merge: %s is not a .sdf or .pdbqt file (.gz too)", o->poses);
    if (o->poses && !strcmp(o->poses, "-"))
        return vsg_fail(VSG_E_ARG, "merge: poses go to a file, not standard output");
    if ((size_t)o->top > SIZE_MAX / 4 / sizeof(best) || (size_t)o->poses_top > SIZE_MAX / 4 / sizeof(best))
        return vsg_fail(VSG_E_LIMIT, "merge: top %ld / poses_top %ld: too many", o->top, o->poses_top);
    for (int i = 0; i < o->nparts; i++)
        if (!o->parts[i]) return vsg_fail(VSG_E_ARG, "merge: part %d is NULL", i + 1);
    merge m;
    memset(&m, 0, sizeof m);
    m.o = o, m.rep = rep, m.nparts = (unsigned)o->nparts;
    vsg_status st = VSG_OK;
    m.parts = calloc(m.nparts, sizeof *m.parts);
    if (!m.parts) return vsg_fail(VSG_E_NOMEM, "out of memory");
    for (size_t i = 0; i < m.nparts && st == VSG_OK; i++) st = part_init(&m.parts[i], o->parts[i]);
    if (st == VSG_OK) st = plan(&m);
    const char *outs[3] = {o->csv, o->top > 0 ? o->top_csv : NULL, o->poses};
    for (int k = 0; k < 3 && st == VSG_OK; k++) {
        const char *in = same_file(&m, outs[k]);
        if (in) st = vsg_fail(VSG_E_ARG, "merge: the output %s is the input %s", outs[k], in);
        for (int j = 0; j < k && st == VSG_OK && outs[k]; j++)
            if (outs[j] && !strcmp(outs[j], outs[k]))
                st = vsg_fail(VSG_E_ARG, "merge: %s named for two outputs", outs[k]);
    }
    if (st == VSG_OK && o->best_per_molecule && o->csv && !(m.mols = vsg_mol_table_new()))
        st = vsg_fail(VSG_E_NOMEM, "out of memory");
    if (st == VSG_OK && o->top > 0 && !best_init(&m.top_rows, (size_t)o->top, o->best_per_molecule))
        st = vsg_fail(VSG_E_NOMEM, "out of memory for the best %ld rows", o->top);
    if (st == VSG_OK && m.poses_top > 0 && !best_init(&m.top_poses, (size_t)m.poses_top, 0))
        st = vsg_fail(VSG_E_NOMEM, "out of memory for the best %ld records' poses", m.poses_top);
    if (st == VSG_OK) st = out_open(&m.csv, o->csv);
    if (st == VSG_OK) st = out_open(&m.top, o->top > 0 ? o->top_csv : NULL);
    if (st == VSG_OK) st = out_open(&m.poses, o->poses);
    if (st == VSG_OK) st = walk(&m);
    if (st == VSG_OK) st = finish(&m);
    st = out_close(&m.csv, st);
    st = out_close(&m.top, st);
    st = out_close(&m.poses, st);
    st = out_commit(&m.csv, st);
    st = out_commit(&m.top, st);
    st = out_commit(&m.poses, st);
    for (size_t i = 0; i < m.nparts; i++) part_free(&m.parts[i]);
    free(m.parts), free(m.seg), free(m.header.p), free(m.scratch.p), free(m.name.p), free(m.fields);
    vsg_mol_table_free(m.mols);
    best_free(&m.top_rows), best_free(&m.top_poses);
    rep->seconds = vsg_now() - t0;
    return st;
}
