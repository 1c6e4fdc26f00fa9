/* cli_rescore_flexible.c — `vsgrid rescore RECEPTOR.pdbqt LIBRARY... --scoring vina|vinardo
 * --placement flexible (--box ...|--around LIG) -o RESULTS.csv`: docking in one command. The
 * Vina / Vinardo map set of the box is built in a private temporary folder (or at --keep-maps
 * PREFIX) by `vsgrid maps` itself (all 19 XS types), then the library is docked on it by `vsgrid
 * screen PREFIX LIBRARY --placement flexible --receptor RECEPTOR` itself
 * (vsg_cli_vina_flexible_command): the same options, rows and poses as those two commands run one
 * after the other with the same seed. The receptor is at hand, so the final poses are refined and
 * scored on its atoms and checked against it, as `vina --receptor` ends its docking. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "engine/cli/cli_vina.h"
#include "engine/cli/dock_options.h"

int vsg_cli_rescore_flexible(int argc, char **argv);

static const char usage[] =
    "usage: vsgrid rescore RECEPTOR.pdbqt LIBRARY... --scoring vina|vinardo --placement flexible\n"
    "                      (--box CX,CY,CZ,SX,SY,SZ | --around LIGAND) -o RESULTS.csv\n"
    "                      [--spacing 0.375] [--padding 4] [--keep-maps PREFIX] [--poses-out F]\n"
    "                      [flexible-screen options]\n"
    "Docks every record of LIBRARY into RECEPTOR in one command: 'vsgrid maps RECEPTOR --scoring\n"
    "vina|vinardo (--box|--around) [--spacing] [--padding] -o P' (all 19 XS types, on the GPU when\n"
    "--devices allows) into a temporary folder (removed after; --keep-maps PREFIX keeps the set\n"
    "there), then 'vsgrid screen P LIBRARY --scoring vina|vinardo --placement flexible --receptor\n"
    "RECEPTOR' with the other options (the best poses refined and scored on the receptor's atoms\n"
    "and checked for clashes with it, as vina --receptor does): the same rows and poses as those\n"
    "two commands with the same seed.\n"
    "  --box, --around, --spacing, --padding   the box, as 'vsgrid maps'\n"
    "  --keep-maps PREFIX  write the map set there and keep it\n"
    "The flexible screen's options:\n";

/* 1 when argv[i] is one of the maps options that take a value. */
static int maps_option(const char *arg)
{
    return !strcmp(arg, "--box") || !strcmp(arg, "--around") || !strcmp(arg, "--spacing") || !strcmp(arg, "--padding");
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX + 256];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

int vsg_cli_rescore_flexible(int argc, char **argv)
{
    const char *cmd = "rescore";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            fputs(vsg_cli_vina_flexible_help, stdout);
            fputs(vsg_cli_dock_options_help, stdout);
            return 0;
        }
    if (argc > 4000) return vsg_cli_usage_error(cmd, "too many arguments");
    char **margs = malloc(sizeof(char *) * 16), **sargs = malloc(sizeof(char *) * (size_t)(argc + 4));
    if (!margs || !sargs) {
        free(margs), free(sargs);
        fprintf(stderr, "vsgrid rescore: out of memory\n");
        return VSG_EXIT_LIMIT;
    }
    int nm = 0, ns = 0, has_box = 0, quiet = 0, cpu = 0, has_receptor = 0;
    const char *receptor = NULL, *keep = NULL, *scoring = "vina";
    margs[nm++] = "maps";
    sargs[ns++] = "screen";
    sargs[ns++] = NULL; /* the map-set prefix, below */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strchr(arg, '=');
        char name[32] = "";
        if (arg[0] == '-' && arg[1] == '-' && eq && (size_t)(eq - arg) < sizeof name) snprintf(name, (size_t)(eq - arg) + 1, "%s", arg);
        if (maps_option(arg) || (name[0] && maps_option(name))) {
            if (!eq && i + 1 >= argc) {
                free(margs), free(sargs);
                return vsg_cli_usage_error(cmd, "%s needs a value", arg);
            }
            if (nm + 2 > 14) {
                free(margs), free(sargs);
                return vsg_cli_usage_error(cmd, "%s given too often", arg);
            }
            has_box |= !strcmp(name[0] ? name : arg, "--box") || !strcmp(name[0] ? name : arg, "--around");
            margs[nm++] = argv[i];
            if (!eq) margs[nm++] = argv[++i];
            continue;
        }
        if (!strcmp(arg, "--keep-maps") || !strncmp(arg, "--keep-maps=", 12)) {
            if (arg[11] == '=') keep = arg + 12;
            else if (i + 1 < argc) keep = argv[++i];
            else {
                free(margs), free(sargs);
                return vsg_cli_usage_error(cmd, "--keep-maps needs a PREFIX");
            }
            continue;
        }
        if (!strcmp(arg, "--quiet")) quiet = 1;
        if (!strcmp(arg, "--receptor") || !strncmp(arg, "--receptor=", 11)) has_receptor = 1;
        if ((!strcmp(arg, "--devices") || !strcmp(arg, "--device")) && i + 1 < argc) cpu = !strcmp(argv[i + 1], "cpu");
        if (!strcmp(arg, "--scoring") && i + 1 < argc) scoring = argv[i + 1];
        if (!receptor && (arg[0] != '-' || !strcmp(arg, "-")) && (i == 1 || argv[i - 1][0] != '-' || !strcmp(argv[i - 1], "-") ||
                                                                  !strcmp(argv[i - 1], "--quiet"))) {
            receptor = arg; /* the first operand */
            continue;
        }
        sargs[ns++] = argv[i];
    }
    int rc = 0;
    if (!receptor) rc = vsg_cli_usage_error(cmd, "no RECEPTOR.pdbqt given");
    else if (!has_box) rc = vsg_cli_usage_error(cmd, "--placement flexible needs the docking box: --box CX,CY,CZ,SX,SY,SZ or --around LIGAND");
    else if (strcmp(scoring, "vina") && strcmp(scoring, "vinardo"))
        rc = vsg_cli_usage_error(cmd, "--placement flexible docks with --scoring vina or vinardo, not '%s'", scoring);
    if (rc) {
        free(margs), free(sargs);
        return rc;
    }
    char tmpdir[PATH_MAX] = "", prefix[PATH_MAX];
    if (keep) {
        snprintf(prefix, sizeof prefix, "%s", keep);
    } else {
        const char *t = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/vsgrid-rescore-XXXXXX", t && t[0] && strlen(t) < 512 ? t : "/tmp");
        if (!mkdtemp(tmpdir)) {
            fprintf(stderr, "vsgrid rescore: cannot make a temporary folder %s for the maps: %s (set TMPDIR, or give --keep-maps)\n",
                    tmpdir, strerror(errno));
            free(margs), free(sargs);
            return VSG_EXIT_INPUT;
        }
        snprintf(prefix, sizeof prefix, "%s/receptor", tmpdir);
    }
    margs[nm++] = (char *)receptor;
    margs[nm++] = "--scoring";
    margs[nm++] = (char *)scoring;
    margs[nm++] = "-o";
    margs[nm++] = prefix;
    if (cpu) margs[nm++] = "--device", margs[nm++] = "cpu";
    if (quiet || !keep) margs[nm++] = "--quiet"; /* a temporary set: its 'wrote' lines would name a folder about to go */
    margs[nm] = NULL;
    rc = vsg_cmd_maps(nm, margs);
    if (rc == 0) {
        sargs[1] = prefix;
        if (!has_receptor) sargs[ns++] = "--receptor", sargs[ns++] = (char *)receptor;
        sargs[ns] = NULL;
        rc = vsg_cli_vina_flexible_command(ns, sargs, cmd);
        if (rc == -2) rc = 0;
    }
    if (tmpdir[0]) remove_dir(tmpdir);
    free(margs), free(sargs);
    return rc;
}
