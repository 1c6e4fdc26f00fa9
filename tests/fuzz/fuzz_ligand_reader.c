/* fuzz_ligand_reader.c — libFuzzer harness for the ligand readers: the input bytes are read as
 * one in-memory file (vsg_ligand_reader_open_memory, no temporary files) in each format, or
 * in the one format named by VSG_FUZZ_FORMAT (sdf, mol2, pdbqt, pdb), with text kept and a
 * small atom limit so that the too-many-atoms path is reached too. Every record is walked:
 * counts, indices and statuses must agree, atoms and bonds must lie inside their arrays; each
 * record's copy then gets its missing polar hydrogens (vsg_ligand_complete_hydrogens: the added
 * atoms and bonds must stay consistent) and is written as SDF (the molfile perception of
 * elements, bonds and formal charges, engine/screen/molfile_chemistry.c).
 * VSG_FUZZ_FORMAT=gz: the bytes are a gzip file, read from disk as in.sdf.gz and in.mol2.gz (the
 * inflater: ISA-L or zlib, as built). Built by tests/fuzz/CMakeLists.txt (with the mutation
 * driver, fuzz_driver.c, or with libFuzzer: VSG_FUZZ=ON under clang); run by scripts/fuzz.sh and
 * ctest -L fuzz. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/screen/screen.h"
#include "ligands/ligand.h"
#include "ligands/readers/ligand_reader.h"

static vsg_ligand_format only = VSG_LIG_AUTO;
static int gz;
static char gz_dir[256];
static void remove_dir(void) { rmdir(gz_dir); }

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *f = getenv("VSG_FUZZ_FORMAT");
    (void)argc, (void)argv;
    if (f && strcmp(f, "sdf") == 0) only = VSG_LIG_SDF;
    if (f && strcmp(f, "mol2") == 0) only = VSG_LIG_MOL2;
    if (f && strcmp(f, "pdbqt") == 0) only = VSG_LIG_PDBQT;
    if (f && strcmp(f, "pdb") == 0) only = VSG_LIG_PDB;
    if (f && strcmp(f, "gz") == 0) {
        const char *t = getenv("TMPDIR");
        gz = 1;
        snprintf(gz_dir, sizeof gz_dir, "%s/vsg-fuzz-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(gz_dir)) abort();
        atexit(remove_dir);
    }
    return 0;
}

static void read_as(const uint8_t *data, size_t size, vsg_ligand_format fmt, const char *path)
{
    vsg_ligand_reader_options opt;
    vsg_ligand_reader *r;
    vsg_ligand lig, copy;
    size_t n = 0, failed = 0, count, nf;
    memset(&opt, 0, sizeof opt);
    opt.keep_text = 1;
    opt.max_atoms = 64;
    if (path) {
        if (vsg_ligand_reader_open(&path, 1, &opt, &r) != VSG_OK) abort();
    } else if (vsg_ligand_reader_open_memory(data, size, fmt, &opt, &r) != VSG_OK) {
        abort();
    }
    vsg_ligand_init(&lig);
    vsg_ligand_init(&copy);
    while (vsg_ligand_reader_next(r, &lig)) {
        int i;
        if (lig.index != n) abort();
        if (lig.natoms < 0 || lig.natoms > 64 || lig.natoms > lig.atoms_cap) abort();
        if (lig.nbonds < 0 || lig.nbonds > lig.bonds_cap) abort();
        if ((lig.status == VSG_OK) != (lig.message[0] == '\0')) abort();
        for (i = 0; i < lig.nbonds; i++)
            if (lig.bonds[i].a < 0 || lig.bonds[i].a >= lig.natoms || lig.bonds[i].b < 0 ||
                lig.bonds[i].b >= lig.natoms)
                abort();
        if (lig.text && lig.text_len != strlen(lig.text) && memchr(lig.text, '\0', lig.text_len) == NULL) abort();
        if (lig.status != VSG_OK) failed++;
        if (vsg_ligand_copy(&copy, &lig) != VSG_OK) abort();
        if (copy.status == VSG_OK) { /* polar hydrogens added, then the record as SDF */
            int added = 0, before = copy.natoms;
            vsg_status hs = vsg_ligand_complete_hydrogens(&copy, &added, 0);
            if (hs != VSG_OK && hs != VSG_E_DATA && hs != VSG_E_NOMEM) abort();
            if (hs == VSG_OK && copy.natoms != before + added) abort();
            for (i = 0; i < copy.nbonds; i++)
                if (copy.bonds[i].a < 0 || copy.bonds[i].a >= copy.natoms || copy.bonds[i].b < 0 ||
                    copy.bonds[i].b >= copy.natoms)
                    abort();
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            if (m) {
                vsg_sdf_write_record(m, &copy, NULL, 0);
                fclose(m);
            }
            free(buf);
        }
        n++;
        if (!path && n > size + 1) abort(); /* every record consumes at least one line */
    }
    count = vsg_ligand_reader_count(r, &nf);
    if (count != n || nf != failed) abort();
    vsg_ligand_release(&lig);
    vsg_ligand_release(&copy);
    vsg_ligand_reader_close(r);
}

static void read_gz(const uint8_t *data, size_t size, const char *name)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", gz_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    read_as(data, size, VSG_LIG_AUTO, path);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (gz) {
        read_gz(data, size, "in.sdf.gz");
        read_gz(data, size, "in.mol2.gz");
    } else if (only != VSG_LIG_AUTO) {
        read_as(data, size, only, NULL);
    } else {
        read_as(data, size, VSG_LIG_SDF, NULL);
        read_as(data, size, VSG_LIG_MOL2, NULL);
        read_as(data, size, VSG_LIG_PDBQT, NULL);
        read_as(data, size, VSG_LIG_PDB, NULL);
    }
    return 0;
}
