/* cli_dock_flex.c — `vsgrid dock PREFIX LIG --flex FLEX.pdbqt`: the ligand docked with flexible
 * receptor side chains (vsg_dock_flex_gpu on a GPU, else vsg_dock_flex_cpu), each pose written as vina writes it with --flex:
 * a MODEL with the ligand and then the flex residues (BEGIN_RES ... END_RES, the flex file's own
 * lines at the pose's coordinates), so vina, PyMOL and `vina --score_only --flex` read it. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "engine/cli/dock_options.h"
#include "grids/base/vsgrid.h"

/* Pose k's MODEL block: the ligand as vsg_pose_write_pdbqt writes it, its ENDMDL held back, the
 * flex residues, then ENDMDL. 1 on success. */
static int write_model(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, int k, double rmsd, const vsg_flex *fx,
                       const vsg_flex_pose *fp)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return 0;
    const int ok = vsg_pose_write_pdbqt(m, lig, r, k, k + 1, rmsd, -1);
    if (fclose(m) || !ok || !buf) {
        free(buf);
        return 0;
    }
    static const char end[] = "ENDMDL\n";
    const size_t ne = sizeof end - 1;
    if (len >= ne && !memcmp(buf + len - ne, end, ne)) len -= ne;
    fwrite(buf, 1, len, f);
    free(buf);
    const int w = vsg_flex_write_pdbqt(f, fx, fp->xyz);
    fputs(end, f);
    return w && !ferror(f);
}

int vsg_cli_dock_flex(const char *prefix, const char *ligpath, const char *flexpath, const char *outpath,
                      const char *csvpath, long record, const char *recpath, vsg_vina_scoring sf, const vsg_dock_params *p,
                      vsg_device device, int quiet, int (*read_record)(vsg_ligand_reader *, const char *, const char *, long, vsg_ligand *))
{
    vsg_vina_target *t = NULL;
    vsg_molecule *rec = NULL;
    vsg_flex *fx = NULL;
    vsg_status st = vsg_flex_read(flexpath, &fx);
    if (st == VSG_OK) st = vsg_cli_receptor_not_grid(prefix);
    if (st == VSG_OK) st = vsg_vina_target_maps(prefix, sf, &t);
    if (st == VSG_OK) st = vsg_flex_check_maps(t, fx); /* maps of the rigid part only */
    if (st == VSG_OK && recpath) {
        st = vsg_cli_read_receptor(recpath, VSG_PREP_PDBQT, quiet, &rec);
        /* the rigid part only: a receptor that still holds the side chains would score them against themselves */
        if (st == VSG_OK) st = vsg_flex_check_rigid(fx, rec);
        if (st == VSG_OK) st = vsg_vina_target_add_receptor(t, rec);
    }
    if (st != VSG_OK) {
        vsg_molecule_free(rec);
        vsg_vina_target_free(t);
        vsg_flex_free(fx);
        return vsg_cli_fail(st);
    }
    const char *paths[1] = {ligpath};
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0}; /* SMILES: the defaults */
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_dock_result res;
    memset(&res, 0, sizeof res);
    vsg_flex_pose *fp = NULL;
    vsg_vina_ligand *vl = NULL;
    FILE *f = NULL, *csv = NULL;
    int rc = VSG_EXIT_OK, nkept = 0;
    if ((st = vsg_ligand_reader_open(paths, 1, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((rc = read_record(rd, ligpath, prefix, record, &lig)) != VSG_EXIT_OK) goto done;
    if ((st = vsg_ligand_complete_hydrogens(&lig, NULL, 1)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((st = vsg_vina_ligand_new(&lig, &vl)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    /* the GPU as `dock` chooses it for the Vina function; a record over the GPU's limits falls back to
     * the CPU unless the GPU was asked for */
    int on_gpu = device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && vsg_dock_auto_device(p) == VSG_DEVICE_GPU);
    if (on_gpu) {
        st = vsg_dock_flex_gpu(t, &lig, fx, p, -1, &res, &fp);
        if (vsg_cli_dock_gpu_fallback(st, device, quiet)) {
            on_gpu = 0;
        } else if (st != VSG_OK) {
            rc = vsg_cli_fail(st);
            goto done;
        }
    }
    if (!on_gpu && (st = vsg_dock_flex_cpu(t, &lig, fx, p, &res, &fp)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    nkept = res.npose;
    {
        char why[320];
        if (vsg_dock_pose_check(t, &res, 0, why, sizeof why) != VSG_OK) { /* never a meaningless best score */
            fprintf(stderr, "vsgrid dock: %s: best %.3f kcal/mol means nothing: %s\n", ligpath, res.pose[0].score.total, why);
            rc = VSG_EXIT_NOTHING_SCORED;
            goto done;
        }
        for (int k = 1; k < res.npose; k++)
            if (vsg_dock_pose_check(t, &res, k, NULL, 0) != VSG_OK) {
                for (int j = k; j < res.npose; j++) free(res.pose[j].xyz), res.pose[j].xyz = NULL;
                res.npose = k;
                break;
            }
    }
    if ((st = vsg_pose_model_ligand(&lig, &res)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!(f = vsg_fopen_out(outpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", outpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csvpath && !(csv = fopen(csvpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", csvpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csv) fprintf(csv, "pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,search_energy_kcal_mol,"
                          "num_tors,ligand_flex_kcal_mol,flex_rigid_kcal_mol,flex_intra_kcal_mol,rmsd_best_A,rmsd_input_A\n");
    for (int k = 0; k < res.npose; k++) {
        const vsg_dock_pose *ps = &res.pose[k];
        const double rb = vsg_pose_rmsd_heavy(&res, vl, ps->xyz, res.pose[0].xyz);
        if (!write_model(f, &lig, &res, k, rb, fx, &fp[k])) {
            fprintf(stderr, "vsgrid dock: %s: cannot write pose %d (the record's atom lines do not match its model, or a "
                            "write error)\n", outpath, k + 1);
            rc = VSG_EXIT_FAILURE;
            goto done;
        }
        if (csv)
            fprintf(csv, "%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f\n", k + 1, ps->score.total,
                    ps->score.inter, ps->score.intra, ps->score.torsional, ps->energy, ps->score.num_tors,
                    fp[k].ligand_flex, fp[k].flex_rigid, fp[k].flex_intra, rb, ps->rmsd_input);
    }
    if (ferror(f) || (csv && ferror(csv))) { fprintf(stderr, "vsgrid dock: write error\n"); rc = VSG_EXIT_FAILURE; goto done; }
    if (!quiet) {
        vsg_flex_info fi;
        vsg_flex_get_info(fx, &fi);
        char effort[96];
        printf("dock: %s: %d poses, best %.3f kcal/mol (inter %.3f of which ligand-flex %.3f, intra %.3f), %d torsions + "
               "%d of %d flex residue%s, %s, %ld evaluations, %.2f s on the %s\n",
               ligpath, res.npose, res.pose[0].score.total, res.pose[0].score.inter, fp[0].ligand_flex,
               res.pose[0].score.intra, res.rotors, fi.torsions, fi.residues, fi.residues == 1 ? "" : "s",
               vsg_cli_dock_effort(p, &res, effort, sizeof effort), res.evaluations, res.seconds, on_gpu ? "GPU" : "CPU");
    }
done:
    if (f && fclose(f) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    if (csv && fclose(csv) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    vsg_flex_poses_free(fp, nkept);
    vsg_dock_result_release(&res);
    vsg_vina_ligand_free(vl);
    vsg_ligand_release(&lig);
    if (rd) vsg_ligand_reader_close(rd);
    vsg_molecule_free(rec);
    vsg_vina_target_free(t);
    vsg_flex_free(fx);
    return rc;
}
