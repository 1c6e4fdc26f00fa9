/* test_ligand_readers.c — the streaming ligand readers (ligands/ligand.h): real libraries from
 * shared/data (SDF, MOL2, PDBQT poses, PDB; gzipped and not; counts checked against
 * independent counts made with awk/grep on the files), and a malformed corpus written here
 * into the build directory, each case with its exact sequence of statuses and record count:
 * truncated and corrupt gzip, empty and blank files, bad counts, letters and NaN in
 * coordinates, too many atoms, empty molecules, missing $$$$, V3000, MOL2 without its BOND
 * section, PDBQT without the last ENDMDL, a missing file, and standard input. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "ligands/ligand.h"
#include "grids/base/vsgrid.h"

/* ---- helpers --------------------------------------------------------------------------- */

static const char *data_path(const char *rel)
{
    static char buf[8][1024];
    static int slot;
    const char *dir = shared_data_dir();
    if (!dir) return NULL;
    slot = (slot + 1) % 8;
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", dir, rel);
    return buf[slot];
}

static const char *scratch(const char *name)
{
    static char buf[16][1024];
    static int slot;
    slot = (slot + 1) % 16;
    snprintf(buf[slot], sizeof buf[slot], "%s", scratch_path(name));
    return buf[slot];
}

static const char *write_bytes(const char *name, const void *bytes, size_t n)
{
    const char *path = scratch(name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path);
        check_failures++;
    }
    if (f) fclose(f);
    return path;
}

static const char *write_text(const char *name, const char *text) { return write_bytes(name, text, strlen(text)); }

/* gzip of text (one member per piece when pieces > 1) into memory; returns the size. */
static size_t gzip_pieces(const char *const *pieces, int npieces, unsigned char *out, size_t cap)
{
    size_t used = 0;
    int i;
    for (i = 0; i < npieces; i++) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
        z.next_in = (unsigned char *)pieces[i];
        z.avail_in = (unsigned)strlen(pieces[i]);
        z.next_out = out + used;
        z.avail_out = (unsigned)(cap - used);
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
            deflateEnd(&z);
            return 0;
        }
        used += z.total_out;
        deflateEnd(&z);
    }
    return used;
}

/* Reads every record of paths; stores "code,code,..." in codes, returns the record count. */
typedef struct {
    int n;
    char codes[2048];
    int natoms[64], has_charges[64], model[64];
    char names[64][128];
    char messages[64][256];
} run_result;

static int read_all(const char *const *paths, int npaths, vsg_ligand_format fmt, int max_atoms, run_result *res)
{
    vsg_ligand_reader_options opt;
    vsg_ligand_reader *r;
    vsg_ligand lig;
    size_t count, failed, nfailed = 0;
    memset(res, 0, sizeof *res);
    memset(&opt, 0, sizeof opt);
    opt.format = fmt;
    opt.max_atoms = max_atoms;
    if (vsg_ligand_reader_open(paths, npaths, &opt, &r) != VSG_OK) {
        fprintf(stderr, "open failed: %s\n", vsg_last_error());
        check_failures++;
        return -1;
    }
    vsg_ligand_init(&lig);
    while (vsg_ligand_reader_next(r, &lig)) {
        int k = res->n;
        if (k < 64) {
            res->natoms[k] = lig.natoms;
            res->has_charges[k] = lig.has_charges;
            res->model[k] = lig.model;
            snprintf(res->names[k], sizeof res->names[k], "%s", lig.name);
            snprintf(res->messages[k], sizeof res->messages[k], "%s", lig.message);
        }
        CHECK(lig.index == (size_t)k);
        CHECK((lig.status == VSG_OK) == (strcmp(lig.code, "ok") == 0));
        CHECK((lig.status == VSG_OK) == (lig.message[0] == '\0'));
        if (lig.status != VSG_OK) nfailed++;
        if (strlen(res->codes) + 20 < sizeof res->codes) {
            if (k) strcat(res->codes, ",");
            strcat(res->codes, lig.code);
        }
        res->n++;
    }
    count = vsg_ligand_reader_count(r, &failed);
    CHECK(count == (size_t)res->n);
    CHECK(failed == nfailed);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);
    return res->n;
}

static void expect_codes(const char *what, const char *const *paths, int npaths, vsg_ligand_format fmt,
                         int max_atoms, const char *expected, run_result *res)
{
    read_all(paths, npaths, fmt, max_atoms, res);
    if (strcmp(res->codes, expected) != 0) {
        int i;
        fprintf(stderr, "%s: got statuses [%s], expected [%s]\n", what, res->codes, expected);
        for (i = 0; i < res->n && i < 64; i++)
            if (res->messages[i][0]) fprintf(stderr, "   %d: %s\n", i, res->messages[i]);
        check_failures++;
    } else {
        printf("  %-34s %2d records: %s\n", what, res->n, expected);
    }
}

/* ---- the malformed corpus ------------------------------------------------------------------ */

#define MOL_OK                                                            \
    "water\n  test\n\n"                                                   \
    "  3  2  0  0  0  0            999 V2000\n"                           \
    "    0.0000    0.0000    0.1173 O   0  0  0  0  0  0\n"               \
    "    0.0000    0.7572   -0.4692 H   0  0  0  0  0  0\n"               \
    "    0.0000   -0.7572   -0.4692 H   0  0  0  0  0  0\n"               \
    "  1  2  1  0\n  1  3  1  0\nM  END\n"

static const char *sdf_corpus =
    MOL_OK "$$$$\n"
    /* 2: letters in the counts line */
    "badcount\n\n\n  x  2  0  0  0  0            999 V2000\n"
    "    0.0000    0.0000    0.1173 O   0  0  0  0  0  0\nM  END\n$$$$\n"
    /* 3: letters in a coordinate */
    "letters\n\n\n  1  0  0  0  0  0            999 V2000\n"
    "    0.0000    0.0a00    0.1173 O   0  0  0  0  0  0\nM  END\n$$$$\n"
    /* 4: NaN coordinate */
    "nan\n\n\n  1  0  0  0  0  0            999 V2000\n"
    "    0.0000       nan    0.1173 O   0  0  0  0  0  0\nM  END\n$$$$\n"
    /* 5: more atoms than the limit (12 > 10) */
    "big\n\n\n 12  0  0  0  0  0            999 V2000\n"
    "    0.0000    0.0000    0.0000 C   0  0\n    1.0000    0.0000    0.0000 C   0  0\n"
    "    2.0000    0.0000    0.0000 C   0  0\n    3.0000    0.0000    0.0000 C   0  0\n"
    "    4.0000    0.0000    0.0000 C   0  0\n    5.0000    0.0000    0.0000 C   0  0\n"
    "    6.0000    0.0000    0.0000 C   0  0\n    7.0000    0.0000    0.0000 C   0  0\n"
    "    8.0000    0.0000    0.0000 C   0  0\n    9.0000    0.0000    0.0000 C   0  0\n"
    "   10.0000    0.0000    0.0000 C   0  0\n   11.0000    0.0000    0.0000 C   0  0\n"
    "M  END\n$$$$\n"
    /* 6: empty molecule */
    "empty\n\n\n  0  0  0  0  0  0            999 V2000\nM  END\n$$$$\n"
    /* 7: atom count larger than the atom lines (bond lines follow) */
    "short\n\n\n  4  1  0  0  0  0            999 V2000\n"
    "    0.0000    0.0000    0.0000 C   0  0\n    1.0000    0.0000    0.0000 O   0  0\n"
    "  1  2  2  0\nM  END\n$$$$\n"
    /* 8: PubChem-style partial charges and M  CHG */
    "charged\n\n\n  2  1  0  0  0  0            999 V2000\n"
    "    0.0000    0.0000    0.0000 N   0  0\n    1.0000    0.0000    0.0000 O   0  0\n"
    "  1  2  1  0\nM  CHG  2   1   1   2  -1\nM  END\n"
    "> <PUBCHEM_MMFF94_PARTIAL_CHARGES>\n2\n1 0.5\n2 -0.75\n\n$$$$\n"
    /* 9: V3000 with an RDKit atom property list */
    "v3000\n     RDKit          3D\n\n  0  0  0  0  0  0  0  0  0  0999 V3000\n"
    "M  V30 BEGIN CTAB\nM  V30 COUNTS 3 2 0 0 0\nM  V30 BEGIN ATOM\n"
    "M  V30 1 O 0 0 0.1173 0\nM  V30 2 H 0 0.7572 -0.4692 0\n"
    "M  V30 3 H 0 -0.7572 -0.4692 0 -\nM  V30 CHG=1\n"
    "M  V30 END ATOM\nM  V30 BEGIN BOND\nM  V30 1 1 1 2\nM  V30 2 1 1 3\nM  V30 END BOND\n"
    "M  V30 END CTAB\nM  END\n> <atom.dprop.PartialCharge>\n-0.8 0.4 0.4\n\n$$$$\n"
    /* 10: the last record, complete to M  END, without the final $$$$ */
    MOL_OK "> <id>\n10\n\n";
static const char *sdf_corpus_codes = "ok,parse,parse,bad_coord,too_many_atoms,no_atoms,parse,ok,ok,ok";

static void test_sdf_corpus(void)
{
    const char *path = write_text("lig_corpus.sdf", sdf_corpus);
    const char *paths[1] = {path};
    run_result res;
    vsg_ligand_reader_options opt;
    vsg_ligand_reader *r;
    vsg_ligand lig;
    int i;
    expect_codes("SDF corpus", paths, 1, VSG_LIG_AUTO, 10, sdf_corpus_codes, &res);
    CHECK(res.n == 10);
    CHECK(res.natoms[0] == 3);
    CHECK(res.has_charges[0] == 0);
    CHECK_CONTAINS(res.messages[1], "lig_corpus.sdf:15: record 2 (badcount): bad counts line");
    CHECK_CONTAINS(res.messages[2], "record 3 (letters): bad y coordinate of atom 1");
    CHECK_CONTAINS(res.messages[3], "not finite");
    CHECK_CONTAINS(res.messages[4], "12 atoms, more than the limit 10");
    CHECK_CONTAINS(res.messages[6], "atom line 3 too short");
    CHECK(res.has_charges[7] == 1 && res.natoms[7] == 2);
    CHECK(res.has_charges[8] == 1 && res.natoms[8] == 3);
    CHECK(strcmp(res.names[8], "v3000") == 0);

    /* the same records with their content, and the kept text */
    memset(&opt, 0, sizeof opt);
    opt.max_atoms = 10;
    opt.keep_text = 1;
    CHECK_STATUS(vsg_ligand_reader_open(paths, 1, &opt, &r), VSG_OK);
    vsg_ligand_init(&lig);
    for (i = 0; vsg_ligand_reader_next(r, &lig); i++) {
        if (i == 0) {
            CHECK(lig.nbonds == 2 && lig.record == 1 && lig.line == 1);
            CHECK_NEAR(lig.atoms[1].y, 0.7572, 0);
            CHECK_NEAR(lig.atoms[2].z, -0.4692, 0);
            CHECK(strcmp(lig.atoms[0].element, "O") == 0 && strcmp(lig.atoms[1].element, "H") == 0);
            CHECK(lig.text && strncmp(lig.text, "water\n", 6) == 0);
            CHECK(lig.text_len > 5 && strcmp(lig.text + lig.text_len - 5, "$$$$\n") == 0);
            CHECK(lig.format == VSG_LIG_SDF && strcmp(lig.source, path) == 0);
        }
        if (i == 1) CHECK(lig.text && strstr(lig.text, "badcount\n") == lig.text);
        if (i == 7) {
            CHECK_NEAR(lig.atoms[0].charge, 0.5, 0);
            CHECK_NEAR(lig.atoms[1].charge, -0.75, 0);
            CHECK(lig.atoms[0].formal == 1 && lig.atoms[1].formal == -1);
            CHECK(lig.bonds[0].a == 0 && lig.bonds[0].b == 1 && lig.bonds[0].order == 1);
        }
        if (i == 8) {
            CHECK_NEAR(lig.atoms[2].y, -0.7572, 0);
            CHECK(lig.atoms[2].formal == 1);
            CHECK_NEAR(lig.atoms[0].charge, -0.8, 0);
            CHECK(lig.nbonds == 2 && lig.bonds[1].b == 2);
        }
        if (i == 9) CHECK(lig.record == 10 && lig.natoms == 3);
    }
    CHECK(i == 10);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);

    /* standard input: the same file through "-" */
    {
        const char *dash[1] = {"-"};
        FILE *saved = NULL;
        int fd = dup(0);
        if (fd >= 0 && freopen(path, "rb", stdin)) {
            expect_codes("SDF corpus on standard input", dash, 1, VSG_LIG_SDF, 10, sdf_corpus_codes, &res);
            CHECK_CONTAINS(res.messages[1], "<stdin>:15: record 2");
            dup2(fd, 0);
        } else {
            fprintf(stderr, "cannot redirect standard input\n");
            check_failures++;
        }
        if (fd >= 0) close(fd);
        (void)saved;
    }
}

static void test_sdf_truncations(void)
{
    run_result res;
    const char *p1[1], *p3[3];
    /* end of file inside the atom block */
    p1[0] = write_text("lig_trunc.sdf", MOL_OK "$$$$\n" "cut\n\n\n  3  2  0  0  0  0            999 V2000\n"
                                                  "    0.0000    0.0000    0.1173 O   0  0  0  0  0  0\n");
    expect_codes("SDF cut in the atom block", p1, 1, VSG_LIG_AUTO, 0, "ok,parse", &res);
    CHECK_CONTAINS(res.messages[1], "atom block ends after 1 of 3 atoms (end of file)");
    /* end of file before M  END */
    p1[0] = write_text("lig_nomend.sdf", MOL_OK "$$$$\n" "cut\n\n\n  1  0  0  0  0  0            999 V2000\n"
                                                    "    0.0000    0.0000    0.1173 O   0  0  0  0  0  0\n");
    expect_codes("SDF without M  END", p1, 1, VSG_LIG_AUTO, 0, "ok,parse", &res);
    /* empty and blank files, a missing file between good ones */
    p3[0] = write_text("lig_empty.sdf", "");
    p3[1] = write_text("lig_blank.sdf", "\n   \n\t\n\n");
    p3[2] = scratch("lig_does_not_exist.sdf");
    remove(p3[2]);
    expect_codes("empty, blank, missing file", p3, 3, VSG_LIG_AUTO, 0, "no_atoms,no_atoms,io", &res);
    CHECK_CONTAINS(res.messages[2], "cannot open");
    /* trailing blank lines after the last record are no record */
    p1[0] = write_text("lig_trailing.sdf", MOL_OK "$$$$\n\n\n");
    expect_codes("SDF with trailing blank lines", p1, 1, VSG_LIG_AUTO, 0, "ok", &res);
}

static void test_gzip_damage(void)
{
    static unsigned char gz[1 << 16];
    const char *pieces[5] = {MOL_OK "$$$$\n", MOL_OK "$$$$\n", MOL_OK "$$$$\n", MOL_OK "$$$$\n", MOL_OK "$$$$\n"};
    char whole[4096];
    run_result res;
    const char *paths[3];
    size_t n, m1, m2;
    int i;
    whole[0] = '\0';
    for (i = 0; i < 3; i++) strcat(whole, pieces[i]);
    pieces[0] = whole;
    /* one member, trailer cut: every record is there, then the stream is found short */
    n = gzip_pieces(pieces, 1, gz, sizeof gz);
    CHECK(n > 20);
    paths[0] = write_bytes("lig_trailer_cut.sdf.gz", gz, n - 4);
    paths[1] = write_bytes("lig_good.sdf.gz", gz, n);
    /* CRC damaged: the data read fine, then the check fails */
    gz[n - 8] ^= 0x5a;
    paths[2] = write_bytes("lig_bad_crc.sdf.gz", gz, n);
    expect_codes("gzip: trailer cut, good, bad CRC", paths, 3, VSG_LIG_AUTO, 0, "ok,ok,ok,io,ok,ok,ok,io",
                 &res);
    CHECK_CONTAINS(res.messages[3], "truncated or corrupt gzip");
    CHECK_CONTAINS(res.messages[3], "lig_trailer_cut.sdf.gz");
    CHECK_CONTAINS(res.messages[7], "lig_bad_crc.sdf.gz");
    /* five members, cut in the middle of the third: two records, then io for the third */
    pieces[0] = pieces[1];
    m1 = gzip_pieces(pieces, 2, gz, sizeof gz);
    m2 = gzip_pieces(pieces, 5, gz, sizeof gz);
    CHECK(m2 > m1 + 40);
    paths[0] = write_bytes("lig_member_cut.sdf.gz", gz, m1 + 30);
    expect_codes("gzip: cut inside member 3 of 5", paths, 1, VSG_LIG_AUTO, 0, "ok,ok,io", &res);
    /* damaged deflate data: never a crash, and the file ends with an io record */
    n = gzip_pieces(pieces, 1, gz, sizeof gz);
    for (i = 12; i < (int)n - 8; i += 7) gz[i] ^= 0xff;
    paths[0] = write_bytes("lig_corrupt.sdf.gz", gz, n);
    read_all(paths, 1, VSG_LIG_AUTO, 0, &res);
    CHECK(res.n >= 1);
    CHECK(res.n >= 1 && strcmp(strrchr(res.codes, ',') ? strrchr(res.codes, ',') + 1 : res.codes, "io") == 0);
    printf("  %-34s %2d records: %s\n", "gzip: damaged deflate data", res.n, res.codes);
}

static void test_mol2_corpus(void)
{
    static const char *text =
        "# written by hand\n\n"
        "@<TRIPOS>MOLECULE\nmol1\n 3 2 1 0 0\nSMALL\nGASTEIGER\n\n"
        "@<TRIPOS>ATOM\n"
        "      1 O1          0.0000    0.0000    0.1173 O.3       1 HOH1       -0.8340\n"
        "      2 H1          0.0000    0.7572   -0.4692 H         1 HOH1        0.4170\n"
        "      3 H2          0.0000   -0.7572   -0.4692 H         1 HOH1        0.4170\n"
        "@<TRIPOS>BOND\n     1     1     2    1\n     2     1     3    1\n"
        "@<TRIPOS>SUBSTRUCTURE\n     1 HOH1        1 GROUP\n"
        /* 2: bonds announced, no BOND section */
        "@<TRIPOS>MOLECULE\nnobonds\n 2 1 0 0 0\nSMALL\nUSER_CHARGES\n\n"
        "@<TRIPOS>ATOM\n      1 C1  0.0 0.0 0.0 C.ar 1 LIG 0.1\n      2 N1  1.4 0.0 0.0 N.am 1 LIG -0.1\n"
        /* 3: NO_CHARGES, aromatic and amide bonds */
        "@<TRIPOS>MOLECULE\nnocharge\n 2 1\nSMALL\nNO_CHARGES\n\n"
        "@<TRIPOS>ATOM\n      1 C1  0.0 0.0 0.0 C.ar 1 LIG 0.0\n      2 CL1  1.4 0.0 0.0 Cl 1 LIG 0.0\n"
        "@<TRIPOS>BOND\n 1 1 2 am\n"
        /* 4: zero atoms */
        "@<TRIPOS>MOLECULE\nnothing\n 0 0\nSMALL\nNO_CHARGES\n\n"
        /* 5: letters in a coordinate */
        "@<TRIPOS>MOLECULE\nletters\n 1 0\nSMALL\nUSER_CHARGES\n\n"
        "@<TRIPOS>ATOM\n      1 C1  0.0 1.O 0.0 C.3 1 LIG 0.0\n"
        /* 6: fewer atom lines than announced, last record of the file */
        "@<TRIPOS>MOLECULE\nfewer\n 3 0\nSMALL\nUSER_CHARGES\n\n"
        "@<TRIPOS>ATOM\n      1 C1  0.0 0.0 0.0 C.3 1 LIG 0.0\n";
    const char *paths[1];
    run_result res;
    vsg_ligand_reader *r;
    vsg_ligand_reader_options opt;
    vsg_ligand lig;
    paths[0] = write_text("lig_corpus.mol2", text);
    expect_codes("MOL2 corpus", paths, 1, VSG_LIG_AUTO, 0, "ok,parse,ok,no_atoms,parse,parse", &res);
    CHECK(res.has_charges[0] == 1 && res.natoms[0] == 3);
    CHECK(res.has_charges[2] == 0);
    CHECK_CONTAINS(res.messages[1], "record 2 (nobonds): 1 bonds announced but no @<TRIPOS>BOND section");
    CHECK_CONTAINS(res.messages[5], "3 atoms announced, 1 atom lines");
    memset(&opt, 0, sizeof opt);
    CHECK_STATUS(vsg_ligand_reader_open(paths, 1, &opt, &r), VSG_OK);
    vsg_ligand_init(&lig);
    CHECK(vsg_ligand_reader_next(r, &lig) == 1);
    CHECK_NEAR(lig.atoms[0].charge, -0.834, 0);
    CHECK(strcmp(lig.atoms[0].name, "O1") == 0 && strcmp(lig.atoms[0].element, "O") == 0);
    CHECK(lig.line == 3 && lig.record == 1);
    CHECK(vsg_ligand_reader_next(r, &lig) == 1);
    CHECK(vsg_ligand_reader_next(r, &lig) == 1);
    CHECK(strcmp(lig.atoms[1].element, "Cl") == 0 && lig.bonds[0].order == VSG_BOND_AMIDE);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);
}

static void test_pdbqt_pdb_corpus(void)
{
    static const char *atom1 =
        "ATOM      1  N   UNL     1      16.714  51.912  14.876  1.00  0.00    -0.322 N \n";
    static const char *atom2 =
        "ATOM      2  C   UNL     1      15.686  51.716  15.784  1.00  0.00     0.255 A \n";
    char text[4096];
    const char *paths[1];
    run_result res;
    int i;
    vsg_ligand_reader_options opt;
    vsg_ligand_reader *r;
    vsg_ligand lig;
    /* three models, the last without ENDMDL */
    text[0] = '\0';
    for (i = 1; i <= 3; i++) {
        char m[32];
        snprintf(m, sizeof m, "MODEL %d\n", i);
        strcat(text, m);
        strcat(text, "REMARK VINA RESULT:   -13.234      0.000      0.000\nROOT\n");
        strcat(text, atom1);
        strcat(text, "ENDROOT\nBRANCH   1   2\n");
        strcat(text, atom2);
        strcat(text, "ENDBRANCH   1   2\nTORSDOF 1\n");
        if (i < 3) strcat(text, "ENDMDL\n");
    }
    paths[0] = write_text("lig_poses.pdbqt", text);
    expect_codes("PDBQT, last ENDMDL missing", paths, 1, VSG_LIG_AUTO, 0, "ok,ok,parse", &res);
    CHECK(res.model[0] == 1 && res.model[1] == 2 && res.model[2] == 3);
    CHECK(strcmp(res.names[1], "lig_poses#2") == 0);
    CHECK(res.has_charges[0] == 1 && res.natoms[0] == 2);
    CHECK_CONTAINS(res.messages[2], "no ENDMDL");
    /* concatenated single ligands (split at TORSDOF), a bad charge, a name */
    snprintf(text, sizeof text,
             "REMARK  Name = first\nROOT\n%sENDROOT\nTORSDOF 0\n"
             "ROOT\nATOM      1  N   UNL     1      16.714  51.912  14.876  1.00  0.00    -0.3x2 N \nTORSDOF 0\n"
             "REMARK  Name = third\nROOT\n%s%sENDROOT\nTORSDOF 0\n",
             atom1, atom1, atom2);
    paths[0] = write_text("lig_singles.pdbqt", text);
    expect_codes("PDBQT concatenated ligands", paths, 1, VSG_LIG_AUTO, 0, "ok,parse,ok", &res);
    CHECK(strcmp(res.names[0], "first") == 0);
    CHECK(res.natoms[2] == 2);
    CHECK_CONTAINS(res.messages[1], "bad partial charge");
    /* an atom line cut after its charge (70 characters, no type columns): "no AutoDock atom type",
     * never bytes from past the line's end */
    snprintf(text, sizeof text, "ROOT\nATOM      1  N   UNL     1      16.714  51.912  14.876  1.00  0.00    -0.322\n"
                                "ENDROOT\nTORSDOF 0\n");
    paths[0] = write_text("lig_short.pdbqt", text);
    expect_codes("PDBQT atom line without its type columns", paths, 1, VSG_LIG_AUTO, 0, "parse", &res);
    CHECK_CONTAINS(res.messages[0], "no AutoDock atom type (columns 78-79)");
    CHECK(strstr(res.messages[0], "(columns 78-79)") && !strstr(res.messages[0], "(columns 78-79):"));
    /* PDB: records by END and by MODEL; elements from columns 77-78 or the name; too many atoms
     * are counted, not stored */
    text[0] = '\0';
    strcat(text, "COMPND    biotin\n");
    strcat(text, "HETATM  903  C11 BTN A 300       9.051   4.576 -14.459  1.00 21.57           C  \n");
    strcat(text, "HETATM  904 FE   BTN A 300       8.147   5.373 -14.172  1.00 21.65\n");
    strcat(text, "HETATM  905  O12 BTN A 300       8.697   3.498 -15.132  1.00 22.67\n");
    strcat(text, "END\n");
    strcat(text, "MODEL        7\n");
    for (i = 0; i < 40; i++)
        strcat(text, "ATOM      1  CA  GLY A   1       1.000   2.000   3.000  1.00  0.00\n");
    strcat(text, "ENDMDL\nMODEL        8\nATOM      1  CA  GLY A   1       1.000   2.000     inf  1.00  0.00\nENDMDL\n");
    paths[0] = write_text("lig_corpus.pdb", text);
    expect_codes("PDB corpus", paths, 1, VSG_LIG_AUTO, 20, "ok,too_many_atoms,bad_coord", &res);
    CHECK(strcmp(res.names[0], "biotin") == 0 && res.natoms[0] == 3 && res.has_charges[0] == 0);
    CHECK_CONTAINS(res.messages[1], "40 atoms, more than the limit 20");
    memset(&opt, 0, sizeof opt);
    opt.max_atoms = 20;
    CHECK_STATUS(vsg_ligand_reader_open(paths, 1, &opt, &r), VSG_OK);
    vsg_ligand_init(&lig);
    CHECK(vsg_ligand_reader_next(r, &lig) == 1);
    CHECK(strcmp(lig.atoms[0].element, "C") == 0 && strcmp(lig.atoms[1].element, "Fe") == 0 &&
          strcmp(lig.atoms[2].element, "O") == 0);
    CHECK_NEAR(lig.atoms[2].z, -15.132, 0);
    CHECK(vsg_ligand_reader_next(r, &lig) == 1);
    CHECK(lig.model == 7 && lig.atoms_cap <= 64); /* bounded: atoms past the limit not stored */
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);
}

static void test_arguments(void)
{
    const char *bad[1] = {"library.txt"};
    const char *dash[1] = {"-"};
    vsg_ligand_reader *r = NULL;
    vsg_ligand a, b;
    CHECK_STATUS(vsg_ligand_reader_open(bad, 1, NULL, &r), VSG_E_ARG);
    CHECK_STATUS(vsg_ligand_reader_open(dash, 1, NULL, &r), VSG_E_ARG);
    CHECK_STATUS(vsg_ligand_reader_open(bad, 0, NULL, &r), VSG_E_ARG);
    CHECK(vsg_ligand_format_of("x/lib.SDF.gz") == VSG_LIG_SDF);
    CHECK(vsg_ligand_format_of("a.mol2") == VSG_LIG_MOL2);
    CHECK(vsg_ligand_format_of("poses.pdbqt.gz") == VSG_LIG_PDBQT);
    CHECK(vsg_ligand_format_of("x.ent") == VSG_LIG_PDB);
    CHECK(vsg_ligand_format_of("x.gz") == VSG_LIG_AUTO);
    CHECK(strcmp(vsg_ligand_format_name(VSG_LIG_MOL2), "mol2") == 0);
    /* deep copy */
    vsg_ligand_init(&a);
    vsg_ligand_init(&b);
    a.atoms = calloc(4, sizeof *a.atoms);
    a.atoms_cap = 4;
    a.natoms = 2;
    a.atoms[1].x = 3.5;
    strcpy(a.name, "copy");
    CHECK_STATUS(vsg_ligand_copy(&b, &a), VSG_OK);
    CHECK(b.natoms == 2 && b.atoms != a.atoms && b.atoms[1].x == 3.5 && strcmp(b.name, "copy") == 0);
    vsg_ligand_fail(&b, VSG_E_DATA, VSG_LIG_ZERO_CHARGES, "all %d charges are 0", 2);
    CHECK(b.status == VSG_E_DATA && strcmp(b.code, "zero_charges") == 0 && strcmp(b.message, "all 2 charges are 0") == 0);
    vsg_ligand_release(&a);
    vsg_ligand_release(&b);
}

/* ---- real files ----------------------------------------------------------------------------- */

/* Counts lines of a (gz) file that start with prefix: the independent count. */
static int count_prefix(const char *path, const char *prefix)
{
    char line[4096];
    int n = 0;
    gzFile g = gzopen(path, "rb");
    if (!g) return -1;
    while (gzgets(g, line, sizeof line))
        if (strncmp(line, prefix, strlen(prefix)) == 0) n++;
    gzclose(g);
    return n;
}

static void test_real_files(void)
{
    const char *egfr = data_path("ligands_rdkit/egfr.sdf.gz");
    const char *decoys = data_path("dude/inha/decoys_final.mol2.gz");
    const char *actives = data_path("dude/inha/actives_final.mol2.gz");
    const char *xiap = data_path("dude_xiap_docked/actives_docked.sdf");
    const char *vina = data_path("autodock_vina/1iep/1iep_ligand_vina_out.pdbqt");
    const char *ad4 = data_path("autodock_vina/1iep/1iep_ligand_ad4_out.pdbqt");
    const char *single = data_path("autodock_vina/1iep/1iep_ligand.pdbqt");
    const char *pdb = data_path("autodock_gpu/1stp/1stp_ligand.pdb");
    const char *all[8];
    vsg_ligand_reader_options opt;
    vsg_ligand_reader *r;
    vsg_ligand lig;
    long long atoms[8] = {0}, bonds[8] = {0};
    int records[8] = {0}, failed = 0, charged[8] = {0}, f = -1;
    const char *last = NULL;
    uint64_t done, total;
    double qsum = 0;
    all[0] = egfr, all[1] = actives, all[2] = decoys, all[3] = xiap;
    all[4] = vina, all[5] = ad4, all[6] = single, all[7] = pdb;
    memset(&opt, 0, sizeof opt);
    CHECK_STATUS(vsg_ligand_reader_open(all, 8, &opt, &r), VSG_OK);
    vsg_ligand_init(&lig);
    while (vsg_ligand_reader_next(r, &lig)) {
        if (lig.source != last) f++, last = lig.source;
        if (f < 0 || f > 7) break;
        records[f]++;
        atoms[f] += lig.natoms;
        bonds[f] += lig.nbonds;
        charged[f] += lig.has_charges;
        if (lig.status != VSG_OK) {
            failed++;
            fprintf(stderr, "unexpected failure: %s\n", lig.message);
        }
        if (f == 0 && lig.record == 1 && lig.status == VSG_OK) {
            CHECK(strcmp(lig.name, "ZINC02640583") == 0 && lig.natoms == 25 && lig.nbonds == 27);
            CHECK_NEAR(lig.atoms[0].x, -2.2098, 0);
            CHECK_NEAR(lig.atoms[0].z, 0.8918, 0);
            CHECK(strcmp(lig.atoms[6].element, "Br") == 0);
            CHECK(lig.bonds[0].a == 0 && lig.bonds[0].b == 5 && lig.bonds[0].order == 2);
        }
        if (f == 0 && lig.record == 365) CHECK(strcmp(lig.name, "ZINC03815325") == 0);
        if (f == 1 && lig.record == 1) {
            CHECK(strcmp(lig.name, "CHEMBL264679") == 0 && lig.natoms == 41 && lig.nbonds == 42);
            CHECK_NEAR(lig.atoms[0].y, 1.4348, 0);
            CHECK_NEAR(lig.atoms[0].charge, -0.1545, 0);
            CHECK(strcmp(lig.atoms[6].element, "C") == 0);
        }
        if (f == 2 && lig.record == 1) {
            int i;
            CHECK(strcmp(lig.name, "ZINC06277300") == 0 && lig.natoms == 38 && lig.nbonds == 40);
            CHECK_NEAR(lig.atoms[0].x, 1.7293, 0);
            CHECK_NEAR(lig.atoms[0].charge, -0.1127, 0);
            for (i = 0; i < lig.natoms; i++) qsum += lig.atoms[i].charge;
        }
        if (f == 4) {
            CHECK(lig.model == lig.record && lig.natoms == 40);
            if (lig.record == 1) {
                CHECK_NEAR(lig.atoms[0].x, 16.714, 0);
                CHECK_NEAR(lig.atoms[0].charge, -0.322, 0);
                CHECK(strcmp(lig.atoms[0].ad_type, "N") == 0 && strcmp(lig.atoms[2].ad_type, "OA") == 0);
                CHECK(strcmp(lig.atoms[2].element, "O") == 0);
            }
            if (lig.record == 4) CHECK_NEAR(lig.atoms[0].y, 50.625, 0);
        }
        if (f == 7) CHECK(strcmp(lig.atoms[0].name, "C11") == 0 && strcmp(lig.atoms[0].element, "C") == 0);
    }
    CHECK(f == 7);
    CHECK(failed == 0);
    /* independent counts: $$$$ lines, @<TRIPOS>MOLECULE lines, MODEL lines, ATOM lines (grep);
     * atoms and bonds from the counts lines (awk) */
    CHECK(records[0] == count_prefix(egfr, "$$$$") && records[0] == 365);
    CHECK(atoms[0] == 14958 && bonds[0] == 15843);
    CHECK(records[1] == count_prefix(actives, "@<TRIPOS>MOLECULE") && records[1] == 71);
    CHECK(records[2] == count_prefix(decoys, "@<TRIPOS>MOLECULE") && records[2] == 2318);
    CHECK(atoms[2] == 102792 && bonds[2] == 106878);
    /* 14 decoys declare NO_CHARGES (grep -c '^NO_CHARGES'): no charges for them */
    CHECK(charged[1] == 71 && charged[2] == 2318 - count_prefix(decoys, "NO_CHARGES") && charged[2] == 2304);
    CHECK_NEAR(qsum, -1.0003, 1e-9);
    CHECK(records[3] == count_prefix(xiap, "$$$$") && records[3] == 100 && atoms[3] == 4362 && charged[3] == 0);
    CHECK(records[4] == count_prefix(vina, "MODEL") && records[4] == 4 && atoms[4] == count_prefix(vina, "ATOM"));
    CHECK(records[5] == count_prefix(ad4, "MODEL") && records[5] == 3 && atoms[5] == 120 && charged[5] == 3);
    CHECK(records[6] == 1 && atoms[6] == 40 && charged[6] == 1);
    CHECK(records[7] == 1 && atoms[7] == 16 && charged[7] == 0);
    vsg_ligand_reader_progress(r, &done, &total);
    CHECK(total > 0 && done == total);
    printf("  real files: %d + %d + %d SDF/MOL2 records, %d + %d + %d + %d poses/ligands, progress %llu/%llu bytes\n",
           records[0], records[1], records[2] + records[3], records[4], records[5], records[6], records[7],
           (unsigned long long)done, (unsigned long long)total);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);
}

int main(void)
{
    printf("ligand reader corpus (scratch files in %s):\n", scratch_path(""));
    test_arguments();
    test_sdf_corpus();
    test_sdf_truncations();
    test_gzip_damage();
    test_mol2_corpus();
    test_pdbqt_pdb_corpus();
    if (!shared_data_dir()) {
        VSG_SKIP_PART("real-file checks", VSG_NO_SHARED);
        CHECK_EXIT();
    }
    test_real_files();
    CHECK_EXIT();
}
