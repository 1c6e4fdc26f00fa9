/* bench_parse.c — single-thread speed of the ligand readers: reads each file N times through
 * vsg_ligand_reader (format from the extension, gzip transparently) and prints, per file,
 * molecules/s, atoms/s and MB/s (of the uncompressed text and of the file as stored).
 *
 *   bench_parse [-n N] [--max-atoms M] [--split] FILE...
 *
 * Every record is read completely (coordinates, charges, bonds), as a screen would. The best
 * of the N passes is reported (the others are warm-up for the page cache and allocator).
 * --split times the splitter of the parallel parse alone (read or inflate, and cut into chunks,
 * as `vsgrid screen --parse-threads` does): the ceiling of the parallel parse on one input. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "ligands/ligand.h"
#include "ligands/readers/ligand_reader.h"
#include "grids/base/vsgrid.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Uncompressed size of a (possibly gzipped) file. */
static double text_bytes(const char *path)
{
    static char buf[1 << 16];
    double total = 0;
    int n;
    gzFile g = gzopen(path, "rb");
    if (!g) return 0;
    while ((n = gzread(g, buf, sizeof buf)) > 0) total += n;
    gzclose(g);
    return total;
}

/* One pass of the splitter alone over path (the screen's chunk limits); the records cut. */
static long split_pass(const char *path, const vsg_ligand_reader_options *opt)
{
    vsg_ligand_reader *r;
    vsg_lig_chunk ch;
    long recs = 0;
    memset(&ch, 0, sizeof ch);
    if (vsg_ligand_reader_open(&path, 1, opt, &r) != VSG_OK) return -1;
    while (vsg_ligand_reader_next_chunk(r, &ch, 1024, 65536) == 1) recs += ch.records;
    vsg_lig_chunk_free(&ch);
    vsg_ligand_reader_close(r);
    return recs;
}

int main(int argc, char **argv)
{
    int passes = 5, i, first = 1, split = 0;
    vsg_ligand_reader_options opt;
    memset(&opt, 0, sizeof opt);
    for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) passes = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-atoms") == 0 && i + 1 < argc) opt.max_atoms = atoi(argv[++i]);
        else if (strcmp(argv[i], "--split") == 0) split = 1;
        else {
            fprintf(stderr, "usage: bench_parse [-n N] [--max-atoms M] [--split] FILE...\n");
            return 2;
        }
    }
    first = i;
    if (first >= argc || passes < 1) {
        fprintf(stderr, "usage: bench_parse [-n N] [--max-atoms M] [--split] FILE...\n");
        return 2;
    }
    printf("%-40s %8s %6s %9s %10s %12s %12s %9s %9s\n", "file", "records", "failed", "atoms", "s/pass",
           "molecules/s", "atoms/s", "MB/s_text", "MB/s_file");
    for (i = first; i < argc; i++) {
        const char *path = argv[i];
        struct stat sb;
        double best = 1e30, tb = text_bytes(path), fb = stat(path, &sb) == 0 ? (double)sb.st_size : 0;
        size_t records = 0, failed = 0;
        long long atoms = 0;
        const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        int p;
        for (p = 0; p < passes; p++) {
            vsg_ligand_reader *r;
            vsg_ligand lig;
            double t0 = now(), t;
            long long a = 0;
            if (split) {
                long n = split_pass(path, &opt);
                if (n < 0) {
                    fprintf(stderr, "bench_parse: %s\n", vsg_last_error());
                    return 1;
                }
                t = now() - t0;
                if (t < best) best = t;
                records = (size_t)n;
                atoms = a;
                continue;
            }
            if (vsg_ligand_reader_open(&path, 1, &opt, &r) != VSG_OK) {
                fprintf(stderr, "bench_parse: %s\n", vsg_last_error());
                return 1;
            }
            vsg_ligand_init(&lig);
            while (vsg_ligand_reader_next(r, &lig)) a += lig.natoms;
            records = vsg_ligand_reader_count(r, &failed);
            vsg_ligand_release(&lig);
            vsg_ligand_reader_close(r);
            t = now() - t0;
            if (t < best) best = t;
            atoms = a;
        }
        printf("%-40s %8zu %6zu %9lld %10.5f %12.0f %12.0f %9.1f %9.1f\n", name, records, failed, atoms, best,
               (double)records / best, (double)atoms / best, tb / best / 1e6, fb / best / 1e6);
    }
    return 0;
}
