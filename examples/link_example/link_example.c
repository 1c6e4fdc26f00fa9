/* link_example.c — a program outside the vsgrid tree, linked with the installed library.
 *
 *   link_example MOLECULE      reads a molecule (.pqr, .pdbqt, .mol2), prints what
 *                              `vsgrid info` prints: its atoms, net charge and CRC-32
 *
 * Built by CMakeLists.txt here (find_package(vsgrid)) or by hand:
 *   cc link_example.c $(pkg-config --cflags --libs vsgrid) -o link_example
 * tests/install_package.sh builds it both ways against an installed copy and compares the output
 * with the installed command's.
 */
#include <stdio.h>
#include <string.h>

#include <vsgrid/vsgrid.h>

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
    vsg_molecule_free(m);
    return 0;
}
