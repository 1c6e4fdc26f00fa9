/* prepare.h — internals of receptor preparation (engine/prepare/): the embedded pdb2pqr tables
 * (ff_data.c, generated from data/forcefields/ by embed_forcefields.py). */
#ifndef VSG_PREPARE_H
#define VSG_PREPARE_H

/* NULL-terminated arrays of lines: residue templates ("RES ATOM x y z BONDS"), AMBER.DAT and
 * PARSE.DAT ("RES ATOM charge radius [type]"). */
extern const char *const vsg_ff_templates[];
extern const char *const vsg_ff_amber[];
extern const char *const vsg_ff_parse[];

#endif
