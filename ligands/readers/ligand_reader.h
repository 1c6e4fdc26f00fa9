/* ligand_reader.h — what the streaming ligand reader (vsgrid.h, "ligands and libraries") offers
 * inside vsgrid beyond the public calls: reading from memory, and cutting the input into chunks
 * of whole records so that several threads parse it (engine/screen). */
#ifndef VSG_LIGAND_READER_H
#define VSG_LIGAND_READER_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

/* In-memory input (fuzzing, tests): reads bytes[0..n) as one file in the given format.
 * The bytes must outlive the reader. */
vsg_status vsg_ligand_reader_open_memory(const void *bytes, size_t n, vsg_ligand_format format,
                                         const vsg_ligand_reader_options *opt, vsg_ligand_reader **out);

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

#endif
