/* fuzz_grid_readers.c — libFuzzer-style harness of the receptor and grid readers: the input
 * bytes are written to a file named for the format VSG_FUZZ_FORMAT names, then read by the
 * public reader a command would use; a reader must return a status (never crash, leak or read
 * out of bounds) and what it returns must be whole:
 *   pqr, pdbqt, mol2   vsg_molecule_read (receptor), every atom finite
 *   pdb                vsg_receptor_read (PDB preparation into PQR), vsg_outline_read
 *   cif                vsg_receptor_read (PDBx/mmCIF preparation into PQR)
 *   dx, vsg, map       vsg_grid_read / vsg_autogrid_map_read, node count and values walked
 *                      (.vsg: the header's CRC-32 made right again, so mutants reach the parser)
 *   fld                vsg_autogrid_fld_read, then vsg_mapset_read (its maps absent or fuzzed)
 *   gpf                vsg_gpf_read
 * Built by tests/fuzz/CMakeLists.txt with the mutation driver (fuzz_driver.c) or libFuzzer. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "grids/base/vsgrid.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *fmt = "pqr";
static char dir[256], path[400];

static void remove_dir(void)
{
    unlink(path);
    rmdir(dir);
}

/* VSG_FUZZ_WRITE_SEEDS=DIR: small grids written by the library's own writers (seed.vsg,
 * seed.dx, seed.e.map), so that the seeds follow the current file formats. */
static void write_seeds(const char *to)
{
    const int n[3] = {3, 3, 3};
    const double origin[3] = {1.0, -2.0, 0.5}, spacing[3] = {0.375, 0.375, 0.375};
    vsg_grid *g = vsg_grid_new(n, origin, spacing, "kT/e");
    char p[600];
    if (!g) abort();
    float *v = (float *)vsg_grid_values(g);
    for (int i = 0; i < 27; i++) v[i] = (float)(i % 7) * 0.25f - 0.5f;
    snprintf(p, sizeof p, "%s/seed.vsg", to);
    if (vsg_grid_write(g, p) != VSG_OK) abort();
    snprintf(p, sizeof p, "%s/seed.dx", to);
    if (vsg_grid_write(g, p) != VSG_OK) abort();
    snprintf(p, sizeof p, "%s/seed.e.map", to);
    if (vsg_autogrid_map_write(g, p, NULL) != VSG_OK) abort();
    vsg_grid_free(g);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char *const known[] = {"pqr", "pdbqt", "mol2", "pdb", "cif", "dx", "vsg", "map", "fld", "gpf"};
    const char *f = getenv("VSG_FUZZ_FORMAT"), *t = getenv("TMPDIR");
    size_t i;
    (void)argc, (void)argv;
    if (f) {
        for (i = 0; i < sizeof known / sizeof *known; i++)
            if (!strcmp(f, known[i])) fmt = known[i];
        if (strcmp(f, fmt) != 0) {
            fprintf(stderr, "VSG_FUZZ_FORMAT=%s: not one of pqr pdbqt mol2 pdb cif dx vsg map fld gpf\n", f);
            exit(2);
        }
    }
    if ((t = getenv("VSG_FUZZ_WRITE_SEEDS")) != NULL) write_seeds(t);
    t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/vsg-fuzz-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) abort();
    /* AutoGrid names: an .e.map (its units), the fld's maps next to it */
    snprintf(path, sizeof path, "%s/in.%s", dir,
             !strcmp(fmt, "map") ? "e.map" : !strcmp(fmt, "fld") ? "maps.fld" : fmt);
    atexit(remove_dir);
    return 0;
}

static void walk_molecule(vsg_molecule *m)
{
    size_t n = vsg_molecule_atom_count(m), i;
    vsg_atom_info a;
    if (n == 0) abort(); /* "no atoms" is an error, never an empty molecule */
    for (i = 0; i < n; i++) {
        if (vsg_molecule_atom(m, i, &a) != VSG_OK) abort();
    }
    if (vsg_molecule_atom(m, n, &a) == VSG_OK) abort();
    (void)vsg_molecule_net_charge(m);
    vsg_molecule_free(m);
}

static void walk_grid(vsg_grid *g)
{
    vsg_grid_shape s;
    if (vsg_grid_shape_of(g, &s) != VSG_OK) abort();
    if (s.n[0] < 1 || s.n[1] < 1 || s.n[2] < 1) abort();
    size_t nodes = (size_t)s.n[0] * (size_t)s.n[1] * (size_t)s.n[2];
    const float *v = vsg_grid_values(g);
    double sum = 0.0;
    for (size_t i = 0; i < nodes; i += 1 + nodes / 4096) sum += v[i];
    sum += v[nodes - 1];
    if (vsg_grid_metadata(g)) sum += (double)strlen(vsg_grid_metadata(g));
    if (sum == 1e300) abort(); /* keeps the reads */
    vsg_grid_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    uint8_t *fixed = NULL;
    if (!strcmp(fmt, "vsg") && size >= 20) { /* the header CRC-32 at 16 + H, H at 12 (little-endian) */
        uint32_t h = (uint32_t)data[12] | (uint32_t)data[13] << 8 | (uint32_t)data[14] << 16 | (uint32_t)data[15] << 24;
        if ((uint64_t)h + 20 <= size && (fixed = malloc(size)) != NULL) {
            memcpy(fixed, data, size);
            uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), fixed + 16, (uInt)h);
            for (int i = 0; i < 4; i++) fixed[16 + h + i] = (uint8_t)(c >> (8 * i));
            data = fixed;
        }
    }
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    free(fixed);
    fixed = NULL;
    if (!strcmp(fmt, "pqr") || !strcmp(fmt, "pdbqt") || !strcmp(fmt, "mol2")) {
        vsg_molecule *m = NULL;
        if (vsg_molecule_read(path, NULL, &m) == VSG_OK) walk_molecule(m);
        else if (m) abort();
    } else if (!strcmp(fmt, "pdb")) {
        vsg_molecule *m = NULL;
        char *report = NULL;
        if (vsg_receptor_read(path, VSG_PREP_PQR, &m, &report) == VSG_OK) walk_molecule(m);
        free(report);
        m = NULL;
        if (vsg_outline_read(path, &m) == VSG_OK) walk_molecule(m);
    } else if (!strcmp(fmt, "cif")) {
        vsg_molecule *m = NULL;
        char *report = NULL;
        if (vsg_receptor_read(path, VSG_PREP_PQR, &m, &report) == VSG_OK) walk_molecule(m);
        else if (m) abort();
        free(report);
    } else if (!strcmp(fmt, "dx") || !strcmp(fmt, "vsg")) {
        vsg_grid *g = NULL;
        if (vsg_grid_read(path, &g) == VSG_OK) walk_grid(g);
        else if (g) abort();
    } else if (!strcmp(fmt, "map")) {
        vsg_grid *g = NULL;
        if (vsg_autogrid_map_read(path, &g) == VSG_OK) walk_grid(g);
    } else if (!strcmp(fmt, "fld")) {
        vsg_fld fld;
        vsg_mapset *ms = NULL;
        if (vsg_autogrid_fld_read(path, &fld) == VSG_OK && (fld.n_maps < 0 || fld.n_maps > VSG_AG_MAX_MAPS)) abort();
        if (vsg_mapset_read(path, &ms) == VSG_OK) vsg_mapset_free(ms);
    } else if (!strcmp(fmt, "gpf")) {
        vsg_gpf g;
        if (vsg_gpf_read(path, &g) == VSG_OK &&
            (g.n_ligand_types < 0 || g.n_ligand_types > VSG_AG_MAX_MAPS || g.n_maps < 0 || g.n_maps > VSG_AG_MAX_MAPS))
            abort();
    }
    unlink(path);
    return 0;
}
