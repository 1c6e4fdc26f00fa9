/* ligand_reader.c — the streaming ligand reader: walks the input files in order, reads each
 * through a buffered line source (files and standard input through inflate.h, ISA-L or zlib;
 * or memory), hands every record to the parser of the file's format, and numbers the records
 * over all inputs.
 *
 * Every record comes out, failed or not; so does every input that yields none: a file that
 * cannot be opened, or whose gzip stream breaks, becomes one record with status io, and a
 * file with no molecule at all (empty, only blank lines) one record with status no_atoms.
 * Memory: one 256 KiB input buffer (grown only for longer lines, up to 1 MiB) and the
 * record's own arrays, reused from record to record.
 *
 * For parsing in parallel the same reader also splits (vsg_ligand_reader_next_chunk): it cuts
 * the input into chunks of whole records as text, at the lines where the parsers end records,
 * and a chunk reader parses each chunk with the same parsers, starting at the chunk's line and
 * record number, so its records are the serial reader's. A chunk holds whole records: its
 * size is bounded by the caller's limits or by its one record.
 *
 * A reader restricted to ranges of records (vsg_ligand_reader_select, at the end of this file)
 * skips the records before each range with the same splitter, or from a library index's entry
 * (library_index.c), and parses only the records it hands out. */
#define _POSIX_C_SOURCE 200809L /* dup(), fstat() */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "ligands/readers/inflate.h"
#include "ligands/ligand.h"
#include "ligands/readers/ligand_reader.h"
#include "ligands/readers/reader_internal.h"


/* ---- the reader ----------------------------------------------------------------------------- */

struct vsg_ligand_reader {
    char **paths;
    uint64_t *sizes;           /* size of each regular file, 0 otherwise */
    vsg_ligand_format *formats; /* each path's format as sniffed from its content (else its
                                   extension's); NULL for memory and chunk readers */
    int npaths, cur, open;
    vsg_ligand_format format;  /* from the options (AUTO: per file) */
    int keep_text, max_atoms;
    int defer_smiles;          /* SMILES records left pending (vsg_ligand_reader_defer_smiles) */
    vsg_ligand_reader_options opt; /* as given (SMILES preparation, and for the readers it opens) */
    vsg_lig_ctx ctx;
    long file_records;         /* records the current file has yielded */
    size_t index, failed;
    uint64_t done_closed, total;
    const char *mem;           /* memory input, or NULL */
    size_t mem_len;
    /* a chunk reader: parses chunk (its path is borrowed, not owned) */
    const vsg_lig_chunk *chunk;
    int is_chunk_reader;
    /* the splitter: where the current file stands, and a record carried to the next chunk */
    long split_line, split_record, split_chunks;
    vsg_lig_models_state split_models; /* PDB/PDBQT: where the file stands */
    char split_name[128];              /* ... and its name outside records at the chunk start */
    int split_name_rank;
    char *carry;
    size_t carry_len, carry_cap, carry_lines;
    uint64_t carry_offset;             /* where the carried record starts in the file */
    size_t returned;                   /* records handed out (vsg_ligand_reader_count) */
    /* a selection (vsg_ligand_reader_select): index counts every record of the inputs, the
     * skipped ones too */
    int selected;
    vsg_record_range *ranges;
    int nranges, range;                /* the ranges, and the one being read */
    const vsg_library_index **idx;     /* each input's index, or NULL */
    vsg_lig_chunk scan;                /* the splitter's chunk while skipping */
    vsg_ligand_reader *tail;           /* parses a file's last chunk met while skipping */
    int tail_on;                       /* ... and has records of it left */
};

/* Path i's format: the options', else the content's (sniffed at open), else the extension's. */
static vsg_ligand_format path_format(const vsg_ligand_reader *r, int i)
{
    if (r->format != VSG_LIG_AUTO) return r->format;
    if (r->formats && i >= 0 && i < r->npaths && r->formats[i] != VSG_LIG_AUTO) return r->formats[i];
    return vsg_ligand_format_of(r->paths[i]);
}

/* The format of a file's content (issue 20: MOL2 in a .sd file is read as MOL2): its first
 * 64 KiB, inflated when gzipped. VSG_LIG_AUTO when it cannot be read or tells nothing. */
static vsg_ligand_format sniff_format(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-") || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return VSG_LIG_AUTO;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return VSG_LIG_AUTO;
    vsg_inflate *z = vsg_inflate_open(fd);
    if (!z) return VSG_LIG_AUTO;
    enum { N = 65536 };
    char *buf = malloc(N + 1);
    size_t len = 0;
    if (buf) {
        long got;
        while (len < N && (got = vsg_inflate_read(z, buf + len, N - len)) > 0) len += (size_t)got;
        buf[len] = '\0';
    }
    vsg_inflate_close(z);
    if (!buf) return VSG_LIG_AUTO;
    int sdf = 0, pdbqt = 0, pdb = 0, mol2 = 0;
    long lineno = 0;
    for (char *line = buf; line && *line && !mol2; lineno++) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (!end && len == N) break; /* a line cut by the 64 KiB */
        if (n && line[n - 1] == '\r') n--;
        if (!strncmp(line, "@<TRIPOS>", 9)) mol2 = 1;
        else if ((n == 6 && !strncmp(line, "M  END", 6)) || (n >= 5 && lineno == 3 &&
                 (!strncmp(line + n - 5, "V2000", 5) || !strncmp(line + n - 5, "V3000", 5))))
            sdf = 1;
        else if (!strncmp(line, "ROOT", 4) || !strncmp(line, "ENDROOT", 7) || !strncmp(line, "BRANCH", 6) ||
                 !strncmp(line, "TORSDOF", 7))
            pdbqt = 1;
        else if (!strncmp(line, "ATOM  ", 6) || !strncmp(line, "HETATM", 6)) {
            /* PDBQT: a partial charge in columns 71-76 (PDB has blanks or a segment id there) */
            if (n >= 78 && memchr(line + 70, '.', 6)) pdbqt = 1;
            else pdb = 1;
        }
        line = end ? end + 1 : NULL;
    }
    free(buf);
    return mol2 ? VSG_LIG_MOL2 : sdf ? VSG_LIG_SDF : pdbqt ? VSG_LIG_PDBQT : pdb ? VSG_LIG_PDB : VSG_LIG_AUTO;
}

static const char *format_name(vsg_ligand_format f)
{
    return f == VSG_LIG_SDF ? "SDF" : f == VSG_LIG_MOL2 ? "MOL2" : f == VSG_LIG_PDBQT ? "PDBQT" : f == VSG_LIG_PDB ? "PDB"
         : f == VSG_LIG_SMILES ? "SMILES" : f == VSG_LIG_CSV ? "CSV" : "?";
}

static vsg_status reader_new(const vsg_ligand_reader_options *opt, int npaths, vsg_ligand_reader **out)
{
    /* several conformers or stereoisomers a SMILES record are RDKit's alone: asked for with Open
       Babel's builder, they would quietly be one */
    if (opt && opt->smiles.embed == VSG_EMBED_OPENBABEL &&
        (opt->smiles.conformers > 1 || opt->smiles.stereo == VSG_STEREO_ENUMERATE))
        return vsg_fail(VSG_E_ARG, "%s needs RDKit's embedding: not with --embed openbabel",
                        opt->smiles.conformers > 1 ? "--conformers" : "--stereo enumerate");
    vsg_ligand_reader *r = calloc(1, sizeof *r);
    if (!r) return vsg_fail(VSG_E_NOMEM, "out of memory for the ligand reader");
    r->paths = calloc((size_t)npaths, sizeof *r->paths);
    r->sizes = calloc((size_t)npaths, sizeof *r->sizes);
    r->formats = calloc((size_t)npaths, sizeof *r->formats);
    if (!r->paths || !r->sizes || !r->formats) {
        free(r->paths);
        free(r->sizes);
        free(r->formats);
        free(r);
        return vsg_fail(VSG_E_NOMEM, "out of memory for the ligand reader");
    }
    r->npaths = npaths;
    r->format = opt ? opt->format : VSG_LIG_AUTO;
    r->keep_text = opt ? opt->keep_text : 0;
    r->max_atoms = opt && opt->max_atoms > 0 ? opt->max_atoms : VSG_LIG_MAX_ATOMS_DEFAULT;
    if (opt) r->opt = *opt;
    r->opt.format = r->format;
    *out = r;
    return VSG_OK;
}

vsg_status vsg_ligand_reader_open(const char *const *paths, int npaths, const vsg_ligand_reader_options *opt,
                                  vsg_ligand_reader **out)
{
    vsg_ligand_reader *r;
    vsg_status st;
    int i;
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_ligand_reader_open: NULL argument");
    *out = NULL;
    if (!paths || npaths <= 0) return vsg_fail(VSG_E_ARG, "no ligand input given");
    if (opt && (opt->format < VSG_LIG_AUTO || opt->format > VSG_LIG_CSV))
        return vsg_fail(VSG_E_ARG, "unknown ligand format %d", (int)opt->format);
    const int sniff = !opt || opt->format == VSG_LIG_AUTO;
    for (i = 0; i < npaths; i++)
        if (!paths[i] || !paths[i][0]) return vsg_fail(VSG_E_ARG, "ligand input %d: empty path", i + 1);
    st = reader_new(opt, npaths, &r);
    if (st != VSG_OK) return st;
    for (i = 0; sniff && i < npaths; i++) { /* the content decides, whatever the extension says */
        const vsg_ligand_format ext = vsg_ligand_format_of(paths[i]);
        const vsg_ligand_format got = sniff_format(paths[i]);
        r->formats[i] = got != VSG_LIG_AUTO ? got : ext;
        if (r->formats[i] == VSG_LIG_AUTO) {
            vsg_ligand_reader_close(r);
            return vsg_fail(VSG_E_ARG,
                            strcmp(paths[i], "-") == 0
                                ? "%s: standard input needs a format: give --format sdf|mol2|pdbqt|pdb|smi|csv"
                                : "%s: unknown ligand format (not recognised from the content nor the extension "
                                  ".sdf/.sd/.mol, .mol2, .pdbqt, .pdb/.ent, .smi/.ism, .csv, optionally .gz): give "
                                  "--format sdf|mol2|pdbqt|pdb|smi|csv",
                            paths[i]);
        }
        if (ext != VSG_LIG_AUTO && got != VSG_LIG_AUTO && got != ext)
            vsg_warn("%s: the content is %s, not %s as the extension says: read as %s (--format forces a format)",
                     paths[i], format_name(got), format_name(ext), format_name(got));
    }
    for (i = 0; i < npaths; i++) {
        struct stat sb;
        r->paths[i] = malloc(strlen(paths[i]) + 1);
        if (!r->paths[i]) {
            vsg_ligand_reader_close(r);
            return vsg_fail(VSG_E_NOMEM, "out of memory for the ligand reader");
        }
        strcpy(r->paths[i], paths[i]);
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
            r->sizes[i] = (uint64_t)sb.st_size;
            r->total += r->sizes[i];
        }
    }
    *out = r;
    return VSG_OK;
}

vsg_status vsg_ligand_reader_open_memory(const void *bytes, size_t n, vsg_ligand_format format,
                                         const vsg_ligand_reader_options *opt, vsg_ligand_reader **out)
{
    vsg_ligand_reader *r;
    vsg_status st;
    if (!out || (!bytes && n) || format <= VSG_LIG_AUTO || format > VSG_LIG_CSV)
        return vsg_fail(VSG_E_ARG, "vsg_ligand_reader_open_memory: bad argument");
    st = reader_new(opt, 1, &r);
    if (st != VSG_OK) return st;
    r->paths[0] = malloc(sizeof "<memory>");
    if (!r->paths[0]) {
        vsg_ligand_reader_close(r);
        return vsg_fail(VSG_E_NOMEM, "out of memory for the ligand reader");
    }
    strcpy(r->paths[0], "<memory>");
    r->format = format;
    r->opt.format = format;
    r->mem = bytes ? bytes : "";
    r->mem_len = n;
    r->sizes[0] = n;
    r->total = n;
    *out = r;
    return VSG_OK;
}

/* The file name without folders and without .gz and the format extension. */
static void base_name(char *dst, size_t cap, const char *path)
{
    const char *slash = strrchr(path, '/'), *end, *dot;
    size_t n;
    if (strcmp(path, "-") == 0) path = "stdin";
    else if (slash) path = slash + 1;
    end = path + strlen(path);
    if (end - path > 3 && strcmp(end - 3, ".gz") == 0) end -= 3;
    for (dot = end; dot > path && dot[-1] != '.'; dot--) {}
    if (dot > path + 1) end = dot - 1;
    n = (size_t)(end - path);
    vsg_lig_set_name(dst, cap, path, n);
}

/* Opens input r->cur, at the start or (at, from an index) where a record starts: a plain file
 * read from that byte, a gzipped one inflated from its start and the bytes before dropped. 0 on
 * success, else the error message in *why. */
static int open_current(vsg_ligand_reader *r, const vsg_lix_entry *at, char *why, size_t whylen)
{
    vsg_lig_ctx *c = &r->ctx;
    const char *path = r->paths[r->cur];
    int is_stdin = strcmp(path, "-") == 0 && !r->mem;
    int fd = -1;
    memset(c, 0, sizeof *c);
    c->path = path;
    c->display = strcmp(path, "-") == 0 ? "<stdin>" : path; /* a chunk of standard input too */
    if (r->chunk && r->chunk->open_failed) {
        snprintf(why, whylen, "%.190s", r->chunk->err_msg);
        return -1;
    }
    base_name(c->base, sizeof c->base, path);
    c->format = path_format(r, r->cur);
    c->keep_text = r->keep_text;
    c->max_atoms = r->max_atoms;
    vsg_lig_smiles_options(&r->opt.smiles, r->max_atoms, &c->smi);
    c->defer_smiles = r->defer_smiles;
    c->src.cap = VSG_LIG_SRC_CHUNK + 1;
    c->src.buf = malloc(c->src.cap);
    if (!c->src.buf) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (r->mem) {
        c->src.mem = r->mem;
        c->src.mem_len = r->mem_len;
        if (r->chunk) { /* continue the file where the chunk starts, its input error at the end */
            c->src.line = r->chunk->first_line;
            c->record = r->chunk->first_record;
            c->src.err = r->chunk->err;
            snprintf(c->src.err_msg, sizeof c->src.err_msg, "%s", r->chunk->err_msg);
            memcpy(c->file_name, r->chunk->file_name, sizeof c->file_name);
            c->file_name_rank = r->chunk->file_name_rank;
        }
        return 0;
    }
    errno = 0;
    if (is_stdin) {
        fd = dup(0); /* closing the source must not close the process's standard input */
    } else {
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            errno = EISDIR;
        else
            fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    int gz = 0;
    if (fd >= 0 && at && at->offset > 0) {
        unsigned char magic[2];
        gz = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
        if (!gz && lseek(fd, (off_t)at->offset, SEEK_SET) < 0) {
            close(fd);
            fd = -1;
        }
    }
    if (fd >= 0) {
        /* read (and inflated) ahead by a thread of its own (read_ahead.h), for the serial
         * reader and the splitter alike, in the same blocks, so both see the same bytes before
         * a gzip error (the inflater drops what the failing call inflated, so that depends on
         * the size asked); a plain file read from the middle is never taken for gzip */
        vsg_inflate *z = at && at->offset > 0 && !gz ? vsg_inflate_open_plain(fd, at->offset)
                                                     : vsg_inflate_open(fd); /* closes fd when it fails */
        c->src.ra = z ? vsg_read_ahead_open(z) : NULL;
        if (z && !c->src.ra) vsg_inflate_close(z);
        if (!c->src.ra) errno = ENOMEM;
    }
    if (!c->src.ra) {
        snprintf(why, whylen, "cannot open: %s", errno ? strerror(errno) : "out of memory");
        free(c->src.buf);
        c->src.buf = NULL;
        return -1;
    }
    if (at && at->offset > 0) {
        if (!gz) {
            c->src.base = at->offset;
        } else if (vsg_lig_src_skip(&c->src, at->offset) != 0) { /* the index said more bytes */
            snprintf(why, whylen, "ends before byte %llu where its index says record %ld starts: run `vsgrid index` again",
                     (unsigned long long)at->offset, at->record + 1);
            vsg_lig_src_close(&c->src);
            return -1;
        }
    }
    if (at) { /* continue the file where the entry stands, as a chunk reader does */
        c->src.line = at->line;
        c->record = at->record;
        if (at->name_rank > 0 && at->name) {
            snprintf(c->file_name, sizeof c->file_name, "%s", at->name);
            c->file_name_rank = at->name_rank;
        }
    }
    return 0;
}

static void close_current(vsg_ligand_reader *r)
{
    uint64_t off = vsg_lig_src_offset(&r->ctx.src);
    r->done_closed += r->sizes[r->cur] ? r->sizes[r->cur] : off;
    vsg_lig_src_close(&r->ctx.src);
    free(r->ctx.ids);
    free(r->ctx.join);
    memset(&r->ctx, 0, sizeof r->ctx);
    r->open = 0;
    r->cur++;
}

/* Clears a record for reuse, keeping its buffers. */
static void reset_record(vsg_ligand *lig)
{
    lig->record = 0;
    lig->line = 0;
    lig->name[0] = '\0';
    lig->natoms = lig->nbonds = 0;
    lig->has_charges = 0;
    lig->model = 0;
    lig->text_len = 0;
    if (lig->text) lig->text[0] = '\0';
    lig->status = VSG_OK;
    strcpy(lig->code, VSG_LIG_OK);
    lig->message[0] = '\0';
    free(lig->conformers);
    lig->conformers = NULL, lig->nconformers = 0;
}

static void finish(vsg_ligand_reader *r, vsg_ligand *lig, const char *source, vsg_ligand_format f)
{
    lig->index = r->index++;
    lig->source = source;
    lig->rigid_macrocycles = r->opt.rigid_macrocycles;
    lig->format = f == VSG_LIG_SMILES || f == VSG_LIG_CSV ? VSG_LIG_SDF : f; /* prepared: an SDF record */
}

/* The next record of the inputs in order (the serial reader): 1, or 0 after the last. */
static int next_record(vsg_ligand_reader *r, vsg_ligand *lig)
{
    for (;;) {
        vsg_lig_ctx *c = &r->ctx;
        int got = 0;
        if (r->cur >= r->npaths) return 0;
        reset_record(lig);
        if (!r->open) {
            char why[200];
            if (open_current(r, NULL, why, sizeof why) != 0) {
                const char *path = r->paths[r->cur];
                lig->record = 1;
                lig->line = 0;
                vsg_ligand_fail(lig, VSG_E_IO, VSG_LIG_IO, "%s: %s", strcmp(path, "-") ? path : "<stdin>", why);
                finish(r, lig, path, path_format(r, r->cur));
                memset(&r->ctx, 0, sizeof r->ctx);
                r->cur++;
                return 1;
            }
            r->open = 1;
            r->file_records = r->chunk && !r->chunk->first_in_file; /* earlier chunks had records */
        }
        switch (c->format) {
        case VSG_LIG_SDF: got = vsg_lig_read_sdf(c, lig); break;
        case VSG_LIG_MOL2: got = vsg_lig_read_mol2(c, lig); break;
        case VSG_LIG_PDBQT: got = vsg_lig_read_pdbqt(c, lig); break;
        case VSG_LIG_PDB: got = vsg_lig_read_pdb(c, lig); break;
        case VSG_LIG_SMILES:
        case VSG_LIG_CSV: got = vsg_lig_read_smiles(c, lig); break;
        default: break;
        }
        if (!got && c->src.err_out && lig->status == VSG_OK) {
            /* a parser that ran into the error while looking for a record */
            vsg_lig_fail_input(c, lig);
            got = 1;
        }
        if (got) {
            const char *source = r->paths[r->cur];
            vsg_ligand_format f = c->format;
            r->file_records++;
            if (c->src.err_out) close_current(r); /* nothing more can be read from it */
            finish(r, lig, source, f);
            return 1;
        }
        if (r->file_records == 0) {
            const char *source = r->paths[r->cur];
            vsg_ligand_format f = c->format;
            reset_record(lig);
            lig->record = 1;
            lig->line = 1;
            vsg_ligand_fail(lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, "%s: no molecule in the file (%d lines)",
                            c->display, (int)c->src.line);
            close_current(r);
            finish(r, lig, source, f);
            return 1;
        }
        close_current(r);
    }
}

static int skip_records(vsg_ligand_reader *r, vsg_ligand *lig, size_t need);

/* The next record of a selected reader: 1, or 0 past the last range or the last input. */
static int next_selected(vsg_ligand_reader *r, vsg_ligand *lig)
{
    for (;;) {
        const vsg_record_range *rg;
        while (r->range < r->nranges && r->index >= r->ranges[r->range].first + r->ranges[r->range].count)
            r->range++;
        if (r->range >= r->nranges) return 0;
        rg = &r->ranges[r->range];
        if (r->index < rg->first) {
            const int s = skip_records(r, lig, rg->first - r->index);
            if (s < 0) { /* no memory for a chunk: where the file stands is lost */
                vsg_fail(VSG_E_NOMEM, "out of memory while skipping to record %zu: the reading stops", rg->first);
                r->nranges = 0;
            }
            if (s <= 0) return 0;
            continue;
        }
        if (r->tail_on) { /* the rest of a file's last chunk, parsed by the tail reader */
            if (vsg_ligand_reader_next(r->tail, lig)) {
                lig->index = r->index++;
                return 1;
            }
            r->tail_on = 0;
            continue;
        }
        return next_record(r, lig);
    }
}

int vsg_ligand_reader_next(vsg_ligand_reader *r, vsg_ligand *lig)
{
    int got;
    if (!r || !lig) return 0;
    got = r->selected ? next_selected(r, lig) : next_record(r, lig);
    if (got) {
        lig->rigid_macrocycles = r->opt.rigid_macrocycles;
        r->returned++;
        if (lig->status != VSG_OK) r->failed++;
    }
    return got;
}

size_t vsg_ligand_reader_count(const vsg_ligand_reader *r, size_t *failed)
{
    if (failed) *failed = r ? r->failed : 0;
    return r ? r->returned : 0;
}

void vsg_ligand_reader_progress(const vsg_ligand_reader *r, uint64_t *done, uint64_t *total)
{
    uint64_t d = 0;
    if (r) {
        d = r->done_closed;
        if (r->open) d += vsg_lig_src_offset(&r->ctx.src);
    }
    if (done) *done = d;
    if (total) *total = r ? r->total : 0;
}

void vsg_ligand_reader_close(vsg_ligand_reader *r)
{
    int i;
    if (!r) return;
    if (r->open) {
        vsg_lig_src_close(&r->ctx.src);
        free(r->ctx.ids);
        free(r->ctx.join);
    }
    if (r->paths && !r->is_chunk_reader)
        for (i = 0; i < r->npaths; i++) free(r->paths[i]);
    vsg_ligand_reader_close(r->tail);
    vsg_lig_chunk_free(&r->scan);
    free(r->ranges);
    free(r->idx);
    free(r->carry);
    free(r->paths);
    free(r->sizes);
    free(r->formats);
    free(r);
}

/* ---- chunks: the splitter and the chunk reader ---------------------------------------------- */

int vsg_ligand_reader_splittable(const vsg_ligand_reader *r)
{
    int i;
    if (!r || r->mem) return 0;
    for (i = 0; i < r->npaths; i++) {
        vsg_ligand_format f = path_format(r, i);
        if (f != VSG_LIG_SDF && f != VSG_LIG_MOL2 && f != VSG_LIG_PDBQT && f != VSG_LIG_PDB && f != VSG_LIG_SMILES &&
            f != VSG_LIG_CSV)
            return 0;
        /* a CSV chunk reads its header from the file itself (read_smiles.c): not standard input */
        if (f == VSG_LIG_CSV && !strcmp(r->paths[i], "-")) return 0;
    }
    return 1;
}

void vsg_lig_chunk_free(vsg_lig_chunk *ch)
{
    free(ch->text);
    memset(ch, 0, sizeof *ch);
}

static int chunk_put(vsg_lig_chunk *ch, const char *s, size_t n)
{
    if (ch->len + n + 1 > ch->cap) {
        size_t cap = ch->cap ? ch->cap : 1u << 20;
        char *t;
        while (cap < ch->len + n + 1) cap *= 2;
        t = realloc(ch->text, cap);
        if (!t) return 0;
        ch->text = t;
        ch->cap = cap;
    }
    memcpy(ch->text + ch->len, s, n);
    ch->len += n;
    ch->text[ch->len] = '\0';
    return 1;
}

/* The next line of the splitter's source, with the line source's pushback (as vsg_lig_next). */
static int split_next(vsg_lig_src *s, char **line, size_t *len)
{
    int r;
    if (s->pushed) {
        s->pushed = 0;
        *line = s->last;
        *len = s->last_len;
        s->line++;
        return 1;
    }
    r = vsg_lig_src_slow(s, line, len);
    if (r == 1) s->last = *line, s->last_len = *len;
    return r;
}

/* Appends a line so that the chunk reader hands it out exactly as the source did: the source
 * strips one '\r' before the newline, so a line that still ends in '\r' gets one more. */
static int chunk_put_line(vsg_lig_chunk *ch, const char *line, size_t n)
{
    if (!chunk_put(ch, line, n)) return 0;
    if (n > 0 && line[n - 1] == '\r' && !chunk_put(ch, "\r", 1)) return 0;
    ch->lines++;
    return chunk_put(ch, "\n", 1);
}

/* Moves the chunk's text after mark to the carry (the first record of the next chunk), which
 * starts at byte mark_off of the file. */
static int carry_tail(vsg_ligand_reader *r, vsg_lig_chunk *ch, size_t mark, size_t mark_lines, uint64_t mark_off)
{
    size_t n = ch->len - mark;
    if (n + 1 > r->carry_cap) {
        char *t = realloc(r->carry, n + 1);
        if (!t) return 0;
        r->carry = t;
        r->carry_cap = n + 1;
    }
    memcpy(r->carry, ch->text + mark, n);
    r->carry_len = n;
    r->carry_lines = ch->lines - mark_lines;
    r->carry_offset = mark_off;
    ch->len = mark;
    ch->lines = mark_lines;
    ch->text[ch->len] = '\0';
    return 1;
}

/* A record of the chunk ends at its current end, byte `off` of the file: 1 when the chunk is
 * full (cut it there, or at the record before with this one carried when it would overflow), 0
 * to go on, -1 no memory. */
static int record_ends(vsg_ligand_reader *r, vsg_lig_chunk *ch, long *recs, size_t *mark, size_t *mark_lines,
                       uint64_t *mark_off, uint64_t off, char *mark_name, int *mark_rank, long max_records,
                       size_t max_lines)
{
    (*recs)++;
    if (*recs >= 2 && ch->lines > max_lines) { /* the record just ended does not fit */
        if (!carry_tail(r, ch, *mark, *mark_lines, *mark_off)) return -1;
        (*recs)--;
        return 1;
    }
    *mark = ch->len;
    *mark_lines = ch->lines;
    *mark_off = off;
    memcpy(mark_name, r->split_models.file_name, sizeof r->split_models.file_name);
    *mark_rank = r->split_models.file_name_rank;
    return *recs >= max_records || ch->lines >= max_lines;
}

int vsg_ligand_reader_next_chunk(vsg_ligand_reader *r, vsg_lig_chunk *ch, long max_records, size_t max_lines)
{
    vsg_lig_ctx *c = &r->ctx;
    size_t mark = 0, mark_lines = 0;
    uint64_t mark_off = 0;
    long recs = 0;
    int open_rec = 0, mark_rank = 0;
    char mark_name[128];
    ch->len = ch->lines = 0;
    ch->records = 0;
    ch->first_in_file = ch->last_in_file = ch->open_failed = 0;
    ch->err = VSG_OK;
    ch->err_msg[0] = '\0';
    if (ch->text) ch->text[0] = '\0';
    if (r->cur >= r->npaths) return 0;
    if (!r->open) {
        char why[200];
        if (open_current(r, NULL, why, sizeof why) != 0) {
            ch->source = r->paths[r->cur];
            ch->format = path_format(r, r->cur);
            ch->offset = 0;
            ch->first_line = ch->first_record = 0;
            ch->first_in_file = ch->last_in_file = ch->open_failed = 1;
            snprintf(ch->err_msg, sizeof ch->err_msg, "%s", why);
            memset(&r->ctx, 0, sizeof r->ctx);
            r->cur++;
            return 1;
        }
        r->open = 1;
        r->split_line = r->split_record = r->split_chunks = 0;
        r->carry_len = 0;
        memset(&r->split_models, 0, sizeof r->split_models);
        r->split_name[0] = '\0';
        r->split_name_rank = 0;
    }
    ch->source = r->paths[r->cur];
    ch->format = c->format;
    ch->offset = r->carry_len > 0 ? r->carry_offset : vsg_lig_src_tell(&c->src);
    mark_off = ch->offset;
    ch->first_line = r->split_line;
    ch->first_record = r->split_record;
    ch->first_in_file = r->split_chunks == 0;
    memcpy(ch->file_name, r->split_name, sizeof ch->file_name);
    ch->file_name_rank = r->split_name_rank;
    /* the name state where the last whole record ends (where a cut may fall) */
    memcpy(mark_name, r->split_name, sizeof mark_name);
    mark_rank = r->split_name_rank;
    if (r->carry_len > 0) { /* a whole record cut off the last chunk */
        if (!chunk_put(ch, r->carry, r->carry_len)) return -1;
        ch->lines = r->carry_lines;
        r->carry_len = 0;
        recs = 1;
        mark = ch->len;
        mark_lines = ch->lines;
        mark_off = vsg_lig_src_tell(&c->src);
        memcpy(mark_name, r->split_models.file_name, sizeof mark_name);
        mark_rank = r->split_models.file_name_rank;
        if (recs >= max_records || ch->lines >= max_lines) goto cut_here;
    }
    for (;;) {
        char *line;
        size_t n;
        int got = split_next(&c->src, &line, &n), before = 0, after = 0;
        if (got != 1) { /* end of the file, or its input error (after the complete lines) */
            if (got < 0) {
                ch->err = c->src.err ? c->src.err : VSG_E_IO;
                snprintf(ch->err_msg, sizeof ch->err_msg, "%s", c->src.err_msg);
            } else if (recs > 0 && ch->len > mark && ch->lines > max_lines) {
                /* the last record would overflow the chunk: it goes alone into the next one */
                if (!carry_tail(r, ch, mark, mark_lines, mark_off)) return -1;
                goto cut;
            }
            ch->records = recs + (ch->len > mark);
            ch->last_in_file = 1;
            close_current(r);
            return 1;
        }
        switch (c->format) {
        case VSG_LIG_SDF: after = vsg_lig_is_sdf_end(line, n); break;
        case VSG_LIG_SMILES:
        case VSG_LIG_CSV: after = vsg_lig_smiles_is_record(c->format, c->src.line, line, n); break;
        case VSG_LIG_MOL2:
            if (vsg_lig_is_mol2_start(line, n)) {
                before = open_rec;
                open_rec = 1;
            }
            break;
        default:
            vsg_lig_models_step(&r->split_models, line, n, c->format == VSG_LIG_PDBQT, &before, &after);
            break;
        }
        if (before) { /* the record before this line is complete */
            const uint64_t line_off = c->src.base + (uint64_t)(line - c->src.buf);
            int full = record_ends(r, ch, &recs, &mark, &mark_lines, &mark_off, line_off, mark_name, &mark_rank,
                                   max_records, max_lines);
            if (full < 0) return -1;
            if (full) { /* this line starts the next chunk */
                c->src.pushed = 1;
                c->src.line--;
                goto cut;
            }
            if (c->format == VSG_LIG_PDB || c->format == VSG_LIG_PDBQT)
                vsg_lig_models_step(&r->split_models, line, n, c->format == VSG_LIG_PDBQT, &before, &after);
        }
        if (!chunk_put_line(ch, line, n)) return -1;
        if (after) {
            int full = record_ends(r, ch, &recs, &mark, &mark_lines, &mark_off, vsg_lig_src_tell(&c->src), mark_name,
                                   &mark_rank, max_records, max_lines);
            if (full < 0) return -1;
            if (full) goto cut;
        }
    }
cut:
    /* the next chunk starts where this one ends: at mark when a record was carried */
    if (r->carry_len > 0) {
        memcpy(r->split_name, mark_name, sizeof r->split_name);
        r->split_name_rank = mark_rank;
    } else {
cut_here:
        memcpy(r->split_name, r->split_models.file_name, sizeof r->split_name);
        r->split_name_rank = r->split_models.file_name_rank;
    }
    ch->records = recs;
    r->split_line += (long)ch->lines;
    r->split_record += recs;
    r->split_chunks++;
    return 1;
}

vsg_status vsg_ligand_reader_open_chunk(const vsg_ligand_reader_options *opt, vsg_ligand_reader **out)
{
    vsg_ligand_reader *r = NULL;
    vsg_status st;
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_ligand_reader_open_chunk: bad argument");
    st = reader_new(opt, 1, &r);
    if (st != VSG_OK) return st;
    r->is_chunk_reader = 1;
    r->cur = r->npaths; /* nothing to read before set_chunk */
    *out = r;
    return VSG_OK;
}

void vsg_ligand_reader_set_chunk(vsg_ligand_reader *r, const vsg_lig_chunk *ch)
{
    if (r->open) {
        vsg_lig_src_close(&r->ctx.src);
        free(r->ctx.ids);
        free(r->ctx.join);
        memset(&r->ctx, 0, sizeof r->ctx);
        r->open = 0;
    }
    r->chunk = ch;
    r->paths[0] = (char *)ch->source; /* borrowed: the splitting reader owns it */
    r->format = ch->format;
    r->opt.format = ch->format;
    r->mem = ch->text ? ch->text : "";
    r->mem_len = ch->len;
    r->cur = 0;
    r->index = 0;
    r->failed = 0;
    r->returned = 0;
}

long vsg_lig_chunk_count(const vsg_lig_chunk *ch, const vsg_ligand_reader_options *opt)
{
    vsg_ligand_reader *cr = NULL;
    vsg_ligand lig;
    long n = 0;
    if (ch->format == VSG_LIG_SMILES || ch->format == VSG_LIG_CSV) {
        /* one record a record line (failed or not): counted without preparing the molecules, as
         * the chunk reader would yield them (an input error one more, a file without any one) */
        long lineno = ch->first_line;
        if (ch->open_failed) return 1;
        for (size_t i = 0; i < ch->len;) {
            const char *l = ch->text + i, *nl = memchr(l, '\n', ch->len - i);
            size_t len = nl ? (size_t)(nl - l) : ch->len - i;
            i += len + 1;
            if (len > 0 && l[len - 1] == '\r') len--;
            n += vsg_lig_smiles_is_record(ch->format, ++lineno, l, len);
        }
        if (ch->err) n++;
        if (n == 0 && ch->first_in_file) n = 1;
        return n;
    }
    vsg_ligand_reader_options o = opt ? *opt : (vsg_ligand_reader_options){.format = VSG_LIG_AUTO};
    o.keep_text = 0;
    if (vsg_ligand_reader_open_chunk(&o, &cr) != VSG_OK) return -1;
    vsg_ligand_reader_set_chunk(cr, ch);
    vsg_ligand_init(&lig);
    while (vsg_ligand_reader_next(cr, &lig)) n++;
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(cr);
    return n;
}

vsg_ligand_format vsg_ligand_reader_format(const vsg_ligand_reader *r, int i)
{
    return r && i >= 0 && i < r->npaths ? path_format(r, i) : VSG_LIG_AUTO;
}

/* ---- record selection (vsg_ligand_reader_select) ---------------------------------------------
 *
 * A selected reader numbers every record of its inputs (r->index) but parses only those of its
 * ranges. Before a range, records are skipped: a file whose count an index knows is skipped
 * whole; else the file is opened (at the index entry before the range, if any) and the splitter
 * cuts records off it without parsing (vsg_ligand_reader_next_chunk), which counts exactly every
 * record a record boundary ends. What follows the file's last boundary (a last record without
 * its end, blank lines, an input error, or nothing at all: no_atoms) is the splitter's last
 * chunk, which the tail reader parses, so that the count is the serial reader's there too. The
 * splitter and the parser share the line source, so each goes on where the other stopped. */

#define SKIP_CHUNK_RECORDS 1024 /* records the splitter cuts at a time while skipping */

/* The splitter goes on where the parser stands (between two records). */
static void split_resume(vsg_ligand_reader *r)
{
    vsg_lig_ctx *c = &r->ctx;
    r->split_line = c->src.line;
    r->split_record = c->record;
    r->split_chunks = c->record > 0; /* a chunk after records is not first_in_file */
    r->carry_len = 0;
    memset(&r->split_models, 0, sizeof r->split_models);
    memcpy(r->split_models.file_name, c->file_name, sizeof r->split_models.file_name);
    r->split_models.file_name_rank = c->file_name_rank;
    memcpy(r->split_name, c->file_name, sizeof r->split_name);
    r->split_name_rank = c->file_name_rank;
}

/* The parser goes on where the splitter cut (a chunk that was not the file's last). */
static void parse_resume(vsg_ligand_reader *r)
{
    vsg_lig_ctx *c = &r->ctx;
    c->record = r->split_record;
    r->file_records = r->split_record;
    memcpy(c->file_name, r->split_name, sizeof c->file_name);
    c->file_name_rank = r->split_name_rank;
}

/* Closes the current input without moving on to the next. */
static void drop_current(vsg_ligand_reader *r)
{
    vsg_lig_src_close(&r->ctx.src);
    free(r->ctx.ids);
    free(r->ctx.join);
    memset(&r->ctx, 0, sizeof r->ctx);
    r->open = 0;
}

/* Skips up to need (> 0) records: 1 after some progress (call again), 0 when the inputs are
 * done, -1 out of memory (the splitter's chunk could not grow). */
static int skip_records(vsg_ligand_reader *r, vsg_ligand *lig, size_t need)
{
    const vsg_library_index *ix;
    const vsg_lix_entry *e;
    char why[200];
    if (r->tail_on) { /* a record of a file's last chunk, parsed, dropped */
        if (vsg_ligand_reader_next(r->tail, lig)) r->index++;
        else r->tail_on = 0;
        return 1;
    }
    if (r->cur >= r->npaths) return 0;
    ix = r->idx ? r->idx[r->cur] : NULL;
    if (!r->open) {
        if (ix && ix->records <= need) { /* the whole file, counted by its index */
            r->index += ix->records;
            r->cur++;
            return 1;
        }
        e = ix ? vsg_lix_entry_before(ix, (long)need) : NULL;
        if (e && e->record == 0) e = NULL;
        if (open_current(r, e, why, sizeof why) != 0) { /* its one io record is skipped */
            drop_current(r);
            r->cur++;
            r->index++;
            return 1;
        }
        r->open = 1;
        r->file_records = e ? e->record : 0;
        r->index += (size_t)r->file_records;
        return 1;
    }
    if (ix && ix->records <= (size_t)r->ctx.record + need) { /* the rest of the file, by its count */
        r->index += ix->records - (size_t)r->ctx.record;
        close_current(r);
        return 1;
    }
    if (ix && !ix->gzip && !r->mem) { /* a plain file: jump to a later entry rather than scan */
        const long here = r->ctx.record;
        e = vsg_lix_entry_before(ix, here + (long)(need < (size_t)LONG_MAX / 2 ? need : (size_t)LONG_MAX / 2));
        if (e && e->record > here) {
            drop_current(r);
            if (open_current(r, e, why, sizeof why) != 0) { /* it was there a moment ago */
                drop_current(r);
                r->cur++;
                r->index += ix->records > (size_t)here ? ix->records - (size_t)here : 0;
                return 1;
            }
            r->open = 1;
            r->file_records = e->record;
            r->index += (size_t)(e->record - here);
            return 1;
        }
    }
    split_resume(r);
    const int got = vsg_ligand_reader_next_chunk(r, &r->scan, need < SKIP_CHUNK_RECORDS ? (long)need : SKIP_CHUNK_RECORDS,
                                                 (size_t)-1);
    if (got < 0) return -1;
    if (got == 0) return 0;
    if (!r->scan.last_in_file) { /* whole records, ended by their boundaries: an exact count */
        r->index += (size_t)r->scan.records;
        parse_resume(r);
        return 1;
    }
    /* the file's last chunk (the splitter has closed the file): parsed to count it exactly */
    vsg_ligand_reader_set_chunk(r->tail, &r->scan);
    r->tail_on = 1;
    return 1;
}

vsg_status vsg_ligand_reader_select(vsg_ligand_reader *r, const vsg_record_range *ranges, int n,
                                    const vsg_library_index *const *idx)
{
    int i;
    if (!r || n < 0 || (n > 0 && !ranges)) return vsg_fail(VSG_E_ARG, "vsg_ligand_reader_select: bad argument");
    if (r->is_chunk_reader) return vsg_fail(VSG_E_ARG, "vsg_ligand_reader_select: a chunk reader");
    if (r->selected || r->open || r->cur > 0 || r->index > 0)
        return vsg_fail(VSG_E_ARG, "vsg_ligand_reader_select: the reader has been read from (select before the first record)");
    for (i = 0; i < n; i++) {
        if (ranges[i].count > SIZE_MAX - ranges[i].first)
            return vsg_fail(VSG_E_ARG, "record range %d (%zu, %zu) ends past the largest record number", i + 1,
                            ranges[i].first, ranges[i].count);
        if (i > 0 && ranges[i].first < ranges[i - 1].first + ranges[i - 1].count)
            return vsg_fail(VSG_E_ARG,
                            "record ranges must be sorted and must not overlap: range %d starts at record %zu, "
                            "before the end of range %d (%zu)",
                            i + 1, ranges[i].first, i, ranges[i - 1].first + ranges[i - 1].count);
    }
    for (i = 0; idx && i < r->npaths; i++) {
        char why[300];
        if (!idx[i]) continue;
        if (r->mem || !strcmp(r->paths[i], "-"))
            return vsg_fail(VSG_E_ARG, "%s: an index for an input that is not a file", r->paths[i]);
        if (vsg_lix_matches(idx[i], r->paths[i], why, sizeof why) != 0)
            return vsg_fail(VSG_E_ARG, "%s: index of another file: %s", r->paths[i], why);
        if (idx[i]->format != path_format(r, i))
            return vsg_fail(VSG_E_ARG, "%s: the index was made reading it as %s, the reader reads %s", r->paths[i],
                            vsg_ligand_format_name(idx[i]->format), vsg_ligand_format_name(path_format(r, i)));
    }
    /* what skipping needs, now: the tail reader and the splitter's first chunk buffer */
    vsg_ligand_reader_options o = r->opt;
    if (n > 0 && !(r->ranges = malloc((size_t)n * sizeof *r->ranges))) goto nomem;
    if (n > 0) memcpy(r->ranges, ranges, (size_t)n * sizeof *r->ranges);
    if (idx && !(r->idx = calloc((size_t)r->npaths, sizeof *r->idx))) goto nomem;
    for (i = 0; idx && i < r->npaths; i++) r->idx[i] = idx[i];
    if (vsg_ligand_reader_open_chunk(&o, &r->tail) != VSG_OK) goto nomem;
    r->tail->defer_smiles = r->defer_smiles;
    if (!chunk_put(&r->scan, "", 0)) goto nomem;
    r->nranges = n;
    r->range = 0;
    r->selected = 1;
    return VSG_OK;
nomem:
    free(r->ranges);
    free(r->idx);
    vsg_ligand_reader_close(r->tail);
    r->ranges = NULL;
    r->idx = NULL;
    r->tail = NULL;
    return vsg_fail(VSG_E_NOMEM, "out of memory for a record selection");
}

void vsg_ligand_reader_defer_smiles(vsg_ligand_reader *r, int on)
{
    if (!r) return;
    r->defer_smiles = r->ctx.defer_smiles = on != 0; /* the file open now too */
    if (r->tail) vsg_ligand_reader_defer_smiles(r->tail, on);
}
