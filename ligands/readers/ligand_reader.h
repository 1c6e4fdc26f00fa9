/* ligand_reader.h — what the streaming ligand reader (vsgrid.h, "ligands and libraries") offers
 * inside vsgrid beyond the public calls: reading from memory, and cutting the input into chunks
 * of whole records so that several threads parse it (engine/screen). */
#ifndef VSG_LIGAND_READER_H
#define VSG_LIGAND_READER_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

/* In-memory input (fuzzing, tests): reads bytes[0..n) as one file in the given format.
 * The bytes must outlive the reader. */
vsg_status vsg_ligand_reader_open_memory(const void *bytes, size_t n, vsg_ligand_format format,
                                         const vsg_ligand_reader_options *opt, vsg_ligand_reader **out);

/* ---- SMILES preparation apart from reading (read_smiles.c) ---------------------------------- */

/* Preparing a SMILES record (3D build, force field, charges: milliseconds) costs a hundred times
 * its reading. With defer on, the reader hands SMILES/CSV records out parsed but not prepared
 * (status ok, code VSG_LIG_PENDING, no atoms, the SMILES as text; name, record, line and index
 * set), and the caller prepares them with vsg_ligand_prepare_pending on as many threads as it
 * likes while one thread reads on: what the flexible screen does to keep a GPU fed. */
#define VSG_LIG_PENDING "pending"
void vsg_ligand_reader_defer_smiles(vsg_ligand_reader *r, int on);
int vsg_ligand_is_pending(const vsg_ligand *lig);
/* Prepares a pending record in place, as the reader would have with opt (the reader's options),
 * in worker `slot` of w (ligands/prepare/prepare_workers.h; w NULL: in this process): its
 * status after (VSG_OK: prepared). Other records are left as they are. Thread-safe: it touches
 * lig alone (and the slot's worker). */
typedef struct vsg_prep_workers vsg_prep_workers;
vsg_status vsg_ligand_prepare_pending(vsg_ligand *lig, const vsg_ligand_reader_options *opt, vsg_prep_workers *w,
                                      int slot);

/* ---- chunks: one input cut at record boundaries, for parsing in parallel ------------------ */

/* A run of whole records of one input file, as text, with what a reader needs to parse it as
 * the serial reader would: messages say the real path and line, records keep their numbers.
 * The splitter (vsg_ligand_reader_next_chunk) fills it; a chunk reader (open_chunk/set_chunk)
 * parses it. Cuts: SDF after "$$$$", MOL2 before "@<TRIPOS>MOLECULE", PDB/PDBQT where
 * vsg_lig_models_step says a record ends; the one state the parsers carry across records
 * (a PDB/PDBQT name given outside any record) travels with the chunk. */
typedef struct {
    char *text;                 /* whole lines, each ended by '\n' */
    size_t len, cap;
    const char *source;         /* the path as given, owned by the splitting reader */
    vsg_ligand_format format;
    uint64_t offset;            /* where the chunk starts in the file's (uncompressed) text */
    long first_line;            /* lines of the file before the chunk */
    long first_record;          /* records of the file before the chunk */
    long records;               /* records ended in the chunk (exact unless last_in_file) */
    size_t lines;
    int first_in_file, last_in_file;
    int open_failed;            /* the file cannot be opened: err_msg says why */
    char file_name[128];        /* PDB/PDBQT: the file's name so far (ctx file_name) */
    int file_name_rank;
    vsg_status err;             /* input error after the chunk's lines (VSG_OK: none) */
    char err_msg[240];
} vsg_lig_chunk;

/* 1 when every input can be cut into chunks (not for memory input). */
int vsg_ligand_reader_splittable(const vsg_ligand_reader *r);
/* The next chunk: at most max_records records and max_lines lines, except that a single record
 * longer than max_lines makes a chunk of its own. 1 with a chunk, 0 when every input is done,
 * <0 out of memory. */
int vsg_ligand_reader_next_chunk(vsg_ligand_reader *r, vsg_lig_chunk *ch, long max_records, size_t max_lines);
void vsg_lig_chunk_free(vsg_lig_chunk *ch);
/* A reader of chunks (no chunk yet); set_chunk points it at one (which must outlive the reading).
 * Records come out as the splitting reader's would, except `index`, which counts from 0 in
 * each chunk (the caller numbers rows over all inputs). */
vsg_status vsg_ligand_reader_open_chunk(const vsg_ligand_reader_options *opt, vsg_ligand_reader **out);
void vsg_ligand_reader_set_chunk(vsg_ligand_reader *r, const vsg_lig_chunk *ch);
/* The records a chunk yields, as the chunk reader parses it (exact also for the last chunk of a
 * file, where ch->records is not: what is left after the last record boundary may be a record
 * or nothing, and a file without records yields one no_atoms record); -1 out of memory. */
long vsg_lig_chunk_count(const vsg_lig_chunk *ch, const vsg_ligand_reader_options *opt);
/* The format input i is read in (the options', else the content's, else the extension's). */
vsg_ligand_format vsg_ligand_reader_format(const vsg_ligand_reader *r, int i);

/* ---- library indexes (library_index.c), for vsg_ligand_reader_select --------------------- */

/* Where a record starts: what a reader needs to parse the file from there as a full read would
 * (the chunk fields offset, first_line, first_record, file_name). */
typedef struct {
    uint64_t offset;        /* byte offset of its first line in the file's uncompressed text */
    long line;              /* lines of the file before it */
    long record;            /* records of the file before it (0-based number of this one) */
    int name_rank;          /* PDB/PDBQT: the name given outside any record so far ... */
    char *name;             /* ... (NULL when name_rank is 0) */
} vsg_lix_entry;

struct vsg_library_index {
    char *library;          /* the path it was made from, as given */
    int exists;             /* the file could be stat'ed (size and mtime mean something) */
    uint64_t size;          /* bytes as stored */
    int64_t mtime_s;        /* modification time, seconds and nanoseconds */
    long mtime_ns;
    uint64_t head;          /* FNV-1a 64 of the first VSG_LIX_HEAD bytes as stored */
    int gzip;               /* starts with the gzip magic: offsets are of the inflated text */
    vsg_ligand_format format; /* the format it was read in (record boundaries depend on it) */
    long every;             /* records between entries */
    size_t records;         /* records the file yields (the reader's count) */
    vsg_lix_entry *e;       /* entries, record 0, every, 2·every, ... (by record) */
    size_t n, cap;
};
#define VSG_LIX_HEAD 65536

/* A file's identity as an index records it (index_entries.c): a regular file's size, mtime, the
 * FNV-1a 64 of its first VSG_LIX_HEAD bytes, gzip or not; exists 0 for anything else. */
typedef struct {
    int exists;
    uint64_t size;
    int64_t mtime_s;
    long mtime_ns;
    uint64_t head;
    int gzip;
} vsg_lix_identity;
void vsg_lix_identify(const char *path, vsg_lix_identity *id);
/* 0 when ix describes path as it is now (size, mtime, first bytes); else -1 with the reason. */
int vsg_lix_matches(const vsg_library_index *ix, const char *path, char *why, size_t len);
/* The last entry at or before record k of the file (0-based); NULL when none. */
const vsg_lix_entry *vsg_lix_entry_before(const vsg_library_index *ix, long k);

#endif
