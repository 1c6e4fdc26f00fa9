/* json.h — a small streaming JSON writer for the --json summaries (keys snake_case, the
 * unit in the key's name: seconds, total_energy_kt, solvation_energy_kcal_mol, ...). */
#ifndef VSG_JSON_H
#define VSG_JSON_H

#include <stdio.h>

typedef struct {
    FILE *f;
    int depth;
    int first[32];   /* no member written yet at this depth */
} vsg_json;

void vsg_json_open(vsg_json *j, FILE *f);          /* writes "{" */
void vsg_json_close(vsg_json *j);                  /* writes "}\n" */
void vsg_json_object(vsg_json *j, const char *key); /* "key": { */
void vsg_json_array(vsg_json *j, const char *key);  /* "key": [ ; key NULL inside arrays */
void vsg_json_end(vsg_json *j, char bracket);       /* '}' or ']' */
void vsg_json_str(vsg_json *j, const char *key, const char *value);
void vsg_json_num(vsg_json *j, const char *key, double value);   /* NaN/inf -> null */
void vsg_json_int(vsg_json *j, const char *key, long long value);
void vsg_json_bool(vsg_json *j, const char *key, int value);

#endif
