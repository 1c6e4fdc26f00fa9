/* link_example.c — a program outside the vsgrid tree, linked with the installed library.
 *
 *   link_example MOLECULE      reads a molecule (.pqr, .pdbqt, .mol2), prints what
 *                              `vsgrid info` prints: its atoms, net charge and CRC-32; then its
 *                              Coulomb potential (ε = 4r) on a small grid around its centre, on
 *                              the CPU and, where a GPU is present, on the GPU (the kernels run
 *                              from the installed library), which must agree
 *
 * Built by CMakeLists.txt here (find_package(vsgrid)) or by hand:
 *   cc link_example.c $(pkg-config --cflags --libs vsgrid) -o link_example
 * tests/install_package.sh builds it both ways against an installed copy and compares the output
 * with the installed command's.
 */
#include <stdio.h>
#include <string.h>

#include <vsgrid/vsgrid.h>

static double absd(double x) { return x < 0 ? -x : x; }

static int fail(const char *what, vsg_status s)
{
    fprintf(stderr, "link_example: %s: %s: %s\n", what, vsg_status_name(s), vsg_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: link_example MOLECULE\n");
        return 2;
    }
    /* The header's version and the library's: the same major version (the ABI contract). */
    char major[16];
    snprintf(major, sizeof major, "%d.", VSG_VERSION_MAJOR);
    if (strncmp(vsg_version(), major, strlen(major)) != 0) {
        fprintf(stderr, "link_example: header %d.%d.%d, library %s\n", VSG_VERSION_MAJOR, VSG_VERSION_MINOR,
                VSG_VERSION_PATCH, vsg_version());
        return 1;
    }

    /* A failure is a status, with the detail in vsg_last_error(). */
    vsg_molecule *m = NULL;
    vsg_status s = vsg_molecule_read("/nonexistent/none.pqr", NULL, &m);
    if (s != VSG_E_IO || m != NULL) {
        fprintf(stderr, "link_example: reading a missing file gave %s, not io\n", vsg_status_name(s));
        return 1;
    }

    if ((s = vsg_molecule_read(argv[1], NULL, &m)) != VSG_OK) return fail(argv[1], s);
    printf("vsgrid %s\n", vsg_version());
    printf("  atoms %zu\n", vsg_molecule_atom_count(m));
    printf("  net charge %+.4f e\n", vsg_molecule_net_charge(m));
    printf("  crc32 %08x\n", (unsigned)vsg_molecule_checksum(m));

    /* Coulomb potential on 16³ nodes, 1 Å apart, around the atoms' centroid. */
    double c[3] = {0, 0, 0};
    size_t n = vsg_molecule_atom_count(m);
    for (size_t i = 0; i < n; i++) {
        vsg_atom_info a;
        if ((s = vsg_molecule_atom(m, i, &a)) != VSG_OK) return fail("atom", s);
        c[0] += a.x / (double)n, c[1] += a.y / (double)n, c[2] += a.z / (double)n;
    }
    const int dims[3] = {16, 16, 16};
    const double h[3] = {1.0, 1.0, 1.0}, origin[3] = {c[0] - 7.5, c[1] - 7.5, c[2] - 7.5};
    vsg_coulomb_kernel k;
    if ((s = vsg_coulomb_kernel_make(VSG_DIEL_DISTANCE_4R, 1.0, 0, &k)) != VSG_OK) return fail("kernel", s);
    vsg_grid *cpu = vsg_grid_new(dims, origin, h, "kcal/mol/e");
    if (!cpu) return fail("grid", VSG_E_NOMEM);
    if ((s = vsg_coulomb_cpu(m, &k, cpu)) != VSG_OK) return fail("coulomb (CPU)", s);
    double sum = 0;
    const float *v = vsg_grid_values(cpu);
    for (size_t i = 0; i < vsg_grid_nodes(cpu); i++) sum += v[i];
    printf("  coulomb mean %.4f kcal/mol/e\n", sum / (double)vsg_grid_nodes(cpu));

    int rc = 0;
    if (vsg_gpu_count() > 0) {
        vsg_grid *gpu = vsg_grid_new(dims, origin, h, "kcal/mol/e");
        if (!gpu) return fail("grid", VSG_E_NOMEM);
        if ((s = vsg_coulomb_gpu(m, &k, gpu, -1, NULL)) != VSG_OK) return fail("coulomb (GPU)", s);
        /* float on the GPU: within 1e-5 of the largest value (tests/test_gpu_coulomb.c) */
        const float *w = vsg_grid_values(gpu);
        double worst = 0, largest = 0;
        for (size_t i = 0; i < vsg_grid_nodes(gpu); i++) {
            if (absd((double)w[i] - v[i]) > worst) worst = absd((double)w[i] - v[i]);
            if (absd(v[i]) > largest) largest = absd(v[i]);
        }
        printf("  coulomb GPU vs CPU: max difference %.2e of %.4g\n", worst, largest);
        if (!(worst <= 1e-5 * largest + 1e-6)) {
            fprintf(stderr, "link_example: the GPU's Coulomb grid differs from the CPU's\n");
            rc = 1;
        }
        vsg_grid_free(gpu);
    } else {
        printf("  coulomb GPU: no GPU\n");
    }
    vsg_grid_free(cpu);
    vsg_coulomb_kernel_free(&k);
    vsg_molecule_free(m);
    return rc;
}
