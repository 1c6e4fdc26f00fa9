/* read_pdb.c — PDB files have coordinates but neither charges nor radii, and guessing them
 * would give a potential nobody asked for. The file is read (so I/O and gzip errors still
 * show, and the message can say how many atoms it holds) and then refused with the way out. */
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"

vsg_status vsg_read_pdb(const char *path, vsg_molecule *m)
{
    vsg_lines *in;
    vsg_status st;
    char *line;
    size_t len, atoms = 0;
    int r;
    (void)m;
    st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    while ((r = vsg_lines_next(in, &line, &len)) == 1) {
        if ((len >= 6 && memcmp(line, "HETATM", 6) == 0) ||
            (len >= 4 && memcmp(line, "ATOM", 4) == 0 && (len == 4 || line[4] == ' ')))
            atoms++;
        else if (len >= 3 && memcmp(line, "END", 3) == 0 && (len == 3 || line[3] == ' '))
            break; /* 1mbo.pdb carries a FASTA sequence after END */
    }
    if (r < 0) st = (vsg_status)r;
    else if (atoms == 0) st = vsg_fail(VSG_E_FORMAT, "%s: no atoms", vsg_lines_path(in));
    else
        st = vsg_fail(VSG_E_DATA,
                      "%s: %zu atoms, but PDB files carry no charges or radii; make a PQR first, "
                      "e.g. `pdb2pqr --ff=AMBER in.pdb out.pqr`, or use a PDBQT",
                      vsg_lines_path(in), atoms);
    vsg_lines_close(in);
    return st;
}
