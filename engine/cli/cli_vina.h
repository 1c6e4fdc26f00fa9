/* cli_vina.h — `vsgrid screen PREFIX ... --scoring vina|vinardo` and `vsgrid rescore RECEPTOR
 * ... --scoring vina|vinardo` (cli_screen_options.c): Vina / Vinardo pose scores on the CPU;
 * `--placement flexible`: each record docked (cli_screen_flexible.c). */
#ifndef VSG_CLI_VINA_H
#define VSG_CLI_VINA_H

/* The --scoring value in argv ("vina", "ad4", ...), or NULL when absent. */
const char *vsg_cli_scoring_arg(int argc, char **argv);
/* Runs the Vina command: rescore = 0: the first operand is a map-set PREFIX; 1: a receptor.
 * Returns the exit code. */
int vsg_cli_vina_command(int argc, char **argv, const char *cmd, int rescore);
extern const char vsg_cli_vina_help[];

/* `vsgrid screen PREFIX LIBRARY... --scoring vina|vinardo --placement flexible`
 * (cli_screen_flexible.c): every record docked (vsg_dock_cpu), one row each. The last
 * --placement value in argv, or NULL when absent. Returns the exit code (−2 after --help). */
const char *vsg_cli_placement_arg(int argc, char **argv);
/* `vsgrid screen` of any kind (cli_screen.c): the options handed to the screen job. Returns the
 * exit code (−2 after --help). */
int vsg_cli_screen_command(int argc, char **argv, const char *cmd);
int vsg_cli_vina_flexible_command(int argc, char **argv, const char *cmd);
extern const char vsg_cli_vina_flexible_help[];

#endif
