/* ligand.h — one record of a ligand library (a molecule or a docking pose) and the streaming
 * reader that yields them, in input order, from SDF, MOL2, PDBQT and PDB files (plain or
 * gzip, several files, "-" for standard input).
 *
 * Contract: every input record yields exactly one vsg_ligand, whatever is wrong with it. A
 * record that cannot be scored still comes out, with status != VSG_OK, a short code and a
 * one-line message naming file, record and line; the reader then resynchronises on the next
 * record boundary ($$$$, @<TRIPOS>MOLECULE, MODEL/ENDMDL, END). A file that cannot be opened,
 * or a gzip stream that ends early, yields one record with that status (so it gets its row)
 * and reading goes on with the next file. Memory is bounded by the largest record, never by
 * the library.
 */
#ifndef VSG_LIGAND_H
#define VSG_LIGAND_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

typedef enum {
    VSG_LIG_AUTO = 0, /* from the extension (.sdf/.sd/.mol, .mol2, .pdbqt, .pdb/.ent, with .gz) */
    VSG_LIG_SDF,
    VSG_LIG_MOL2,
    VSG_LIG_PDBQT,
    VSG_LIG_PDB
} vsg_ligand_format;

/* Bond orders as read: 1, 2, 3; VSG_BOND_AROMATIC for SDF type 4 and MOL2 "ar";
 * VSG_BOND_AMIDE for MOL2 "am" (single, planar). */
enum { VSG_BOND_AROMATIC = 4, VSG_BOND_AMIDE = 5 };

typedef struct {
    double x, y, z;   /* Å */
    double charge;    /* e (partial charge as read or assigned; 0 when none) */
    int line;         /* 1-based line of the atom in its file */
    int formal;       /* formal charge (SDF M  CHG / atom block, MOL2 none) */
    char name[8];     /* atom name ("C1", "CA"), may be "" */
    char element[3];  /* element symbol, capitalised ("C", "Cl"); "" when unknown */
    char ad_type[3];  /* AutoDock 4 type: from PDBQT, or assigned by vsg_ligand_assign_ad_types */
} vsg_lig_atom;

typedef struct {
    int a, b;         /* 0-based atom indices */
    int order;        /* 1, 2, 3, VSG_BOND_AROMATIC, VSG_BOND_AMIDE */
} vsg_lig_bond;

/* Short status codes, the CSV's `status` column. */
#define VSG_LIG_OK "ok"
#define VSG_LIG_PARSE "parse"           /* malformed record */
#define VSG_LIG_IO "io"                 /* file unreadable, truncated or corrupt gzip */
#define VSG_LIG_NO_ATOMS "no_atoms"
#define VSG_LIG_NO_CHARGES "no_charges" /* no charges in the file and none assigned */
#define VSG_LIG_ZERO_CHARGES "zero_charges" /* every charge exactly 0: flagged, never scored */
#define VSG_LIG_BAD_COORD "bad_coord"   /* NaN/inf coordinate */
#define VSG_LIG_TOO_MANY "too_many_atoms"
#define VSG_LIG_TYPE "untyped"          /* AD4 scoring: an atom type with no map */
#define VSG_LIG_OUTSIDE "outside"       /* atoms outside the grid (scored by the stated rule) */

typedef struct {
    /* identity */
    size_t index;          /* 0-based position over all inputs, in input order */
    const char *source;    /* path as given ("-" = stdin); owned by the reader, valid until close */
    long record;           /* 1-based record number within its file */
    long line;             /* 1-based line where the record starts */
    vsg_ligand_format format;
    char name[128];        /* SDF title line, MOL2 molecule name, PDBQT "REMARK Name =" or
                              COMPND, else ""; control characters replaced by blanks */
    /* content */
    int natoms, nbonds;
    vsg_lig_atom *atoms;   /* owned; capacity managed by the reader */
    vsg_lig_bond *bonds;
    int atoms_cap, bonds_cap;
    int has_charges;       /* 1 when charges came from the file (MOL2/PDBQT columns, SDF tags) */
    int model;             /* PDBQT/PDB MODEL number, 0 when none */
    /* the record's text exactly as read (keep_text), for SDF output that keeps the molecule */
    char *text;
    size_t text_len, text_cap;
    /* outcome */
    vsg_status status;     /* VSG_OK, or why this record cannot be scored */
    char code[16];         /* one of VSG_LIG_* */
    char message[256];     /* "path:line: record N: what is wrong" (empty when ok) */
} vsg_ligand;

typedef struct {
    vsg_ligand_format format; /* VSG_LIG_AUTO: from each file's extension; "-" needs a format */
    int keep_text;            /* keep each record's text in vsg_ligand.text */
    int max_atoms;            /* records with more atoms get VSG_LIG_TOO_MANY (0 = 100000) */
} vsg_ligand_reader_options;

typedef struct vsg_ligand_reader vsg_ligand_reader;

/* Opens a reader over paths[0..npaths) read in order. Fails only on bad arguments (VSG_E_ARG);
 * unreadable files become records with status VSG_E_IO when reached. */
vsg_status vsg_ligand_reader_open(const char *const *paths, int npaths, const vsg_ligand_reader_options *opt,
                                  vsg_ligand_reader **out);
/* Fills *lig with the next record (its buffers are reused: initialise with
 * vsg_ligand_init, free with vsg_ligand_release). Returns 1 with a record (check
 * lig->status), 0 after the last record of the last file. */
int vsg_ligand_reader_next(vsg_ligand_reader *r, vsg_ligand *lig);
/* Records and failed records so far. */
size_t vsg_ligand_reader_count(const vsg_ligand_reader *r, size_t *failed);
/* Bytes consumed so far over all inputs (compressed bytes for .gz), and the total size of the
 * regular files among the inputs (0 when unknown), for progress and ETA. */
void vsg_ligand_reader_progress(const vsg_ligand_reader *r, uint64_t *done, uint64_t *total);
void vsg_ligand_reader_close(vsg_ligand_reader *r);

void vsg_ligand_init(vsg_ligand *lig);
void vsg_ligand_release(vsg_ligand *lig);
/* Deep copy (for queues): dst's buffers are grown as needed. */
vsg_status vsg_ligand_copy(vsg_ligand *dst, const vsg_ligand *src);
/* Marks lig as failed: status, code and a printf-style message. */
void vsg_ligand_fail(vsg_ligand *lig, vsg_status st, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The format a path implies (VSG_LIG_AUTO when unknown). */
vsg_ligand_format vsg_ligand_format_of(const char *path);
const char *vsg_ligand_format_name(vsg_ligand_format f);

/* AutoDock 4 atom types from elements and bonds (SDF/MOL2 input; PDBQT keeps its own):
 * C/A (aromatic carbon), N/NA (acceptor), OA, SA, HD (polar H) / H, F, Cl, Br, I, P, ...
 * Returns VSG_OK, or VSG_E_DATA with a message for an element AutoDock has no type for. */
vsg_status vsg_ligand_assign_ad_types(vsg_ligand *lig);
/* AutoDock's ligand preparation merges non-polar hydrogens into their heavy atom (charge
 * added, atom removed); AD4 maps assume it. Keeps atom order otherwise. */
void vsg_ligand_merge_nonpolar_h(vsg_ligand *lig);

/* Gasteiger–Marsili charges through Open Babel (ligands/typing/charges_obabel.cpp). VSG_E_UNSUPPORTED
 * when this build has no Open Babel. */
int vsg_ligand_gasteiger_available(void);
vsg_status vsg_ligand_gasteiger(vsg_ligand *lig);

#endif
