/* json.c — streaming JSON writer. */
#include "engine/report/json.h"

#include <math.h>

static void escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c == '\t') fputs("\\t", f);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void member(vsg_json *j, const char *key)
{
    if (!j->first[j->depth]) fputc(',', j->f);
    j->first[j->depth] = 0;
    fputc('\n', j->f);
    for (int i = 0; i <= j->depth; i++) fputs("  ", j->f);
    if (key) {
        escaped(j->f, key);
        fputs(": ", j->f);
    }
}

void vsg_json_open(vsg_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->first[0] = 1;
    fputc('{', f);
}

void vsg_json_close(vsg_json *j) { fputs("\n}\n", j->f); }

static void open_nested(vsg_json *j, const char *key, char bracket)
{
    member(j, key);
    fputc(bracket, j->f);
    if (j->depth < 30) j->depth++;
    j->first[j->depth] = 1;
}

void vsg_json_object(vsg_json *j, const char *key) { open_nested(j, key, '{'); }
void vsg_json_array(vsg_json *j, const char *key) { open_nested(j, key, '['); }

void vsg_json_end(vsg_json *j, char bracket)
{
    int empty = j->first[j->depth];
    if (j->depth > 0) j->depth--;
    if (!empty) {
        fputc('\n', j->f);
        for (int i = 0; i <= j->depth; i++) fputs("  ", j->f);
    }
    fputc(bracket, j->f);
}

void vsg_json_str(vsg_json *j, const char *key, const char *value)
{
    member(j, key);
    escaped(j->f, value);
}

void vsg_json_num(vsg_json *j, const char *key, double value)
{
    member(j, key);
    if (isfinite(value)) fprintf(j->f, "%.10g", value);
    else fputs("null", j->f);
}

void vsg_json_int(vsg_json *j, const char *key, long long value)
{
    member(j, key);
    fprintf(j->f, "%lld", value);
}

void vsg_json_bool(vsg_json *j, const char *key, int value)
{
    member(j, key);
    fputs(value ? "true" : "false", j->f);
}
