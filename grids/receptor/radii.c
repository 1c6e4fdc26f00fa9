/* radii.c — atomic radii for formats that carry none: AutoDock 4 types (PDBQT) and elements
 * (MOL2). PQR files carry their own radii and never come here. */
#include <ctype.h>
#include <string.h>

#include "grids/receptor/molecule.h"

typedef struct {
    const char *key;
    double radius;
} radius_entry;

/* AutoDock 4 atom_par Rii / 2 (AD4_parameters.dat / AD4.1_bound.dat, Rii is the
 * equilibrium separation of two like atoms). Types are case-sensitive in AutoDock, but
 * both spellings of the metals and halogens appear in the parameter file itself. */
static const radius_entry ad4_radii[] = {
    {"H", 1.00},   {"HD", 1.00},  {"HS", 1.00},   {"C", 2.00},    {"A", 2.00},
    {"N", 1.75},   {"NA", 1.75},  {"NS", 1.75},   {"OA", 1.60},   {"OS", 1.60},
    {"F", 1.545},  {"Mg", 0.65},  {"MG", 0.65},   {"P", 2.10},    {"SA", 2.00},
    {"S", 2.00},   {"Cl", 2.045}, {"CL", 2.045},  {"Ca", 0.99},   {"CA", 0.99},
    {"Mn", 0.65},  {"MN", 0.65},  {"Fe", 0.65},   {"FE", 0.65},   {"Zn", 0.74},
    {"ZN", 0.74},  {"Br", 2.165}, {"BR", 2.165},  {"I", 2.36},
};

double vsg_radius_for_ad_type(const char *ad_type)
{
    size_t i;
    if (!ad_type) return 0.0;
    for (i = 0; i < sizeof ad4_radii / sizeof ad4_radii[0]; i++)
        if (strcmp(ad4_radii[i].key, ad_type) == 0) return ad4_radii[i].radius;
    return 0.0;
}

/* van der Waals radii: Bondi (1964) where he gave one; B, Ca and the other alkaline earths
 * from Mantina et al. (2009); Fe, Mn and Co, which neither tabulates, get the Blue Obelisk
 * default 2.0 Å that Open Babel and RDKit use. Keys are upper case. */
static const radius_entry element_radii[] = {
    {"H", 1.20},  {"HE", 1.40}, {"LI", 1.82}, {"B", 1.92},  {"C", 1.70},  {"N", 1.55},
    {"O", 1.52},  {"F", 1.47},  {"NE", 1.54}, {"NA", 2.27}, {"MG", 1.73}, {"AL", 1.84},
    {"SI", 2.10}, {"P", 1.80},  {"S", 1.80},  {"CL", 1.75}, {"AR", 1.88}, {"K", 2.75},
    {"CA", 2.31}, {"MN", 2.00}, {"FE", 2.00}, {"CO", 2.00}, {"NI", 1.63}, {"CU", 1.40},
    {"ZN", 1.39}, {"GA", 1.87}, {"AS", 1.85}, {"SE", 1.90}, {"BR", 1.85}, {"KR", 2.02},
    {"SR", 2.49}, {"PD", 1.63}, {"AG", 1.72}, {"CD", 1.58}, {"IN", 1.93}, {"SN", 2.17},
    {"TE", 2.06}, {"I", 1.98},  {"XE", 2.16}, {"PT", 1.72}, {"AU", 1.66}, {"HG", 1.55},
    {"TL", 1.96}, {"PB", 2.02},
};

double vsg_radius_for_element(const char *element)
{
    char key[3];
    size_t i, n;
    if (!element) return 0.0;
    n = strlen(element);
    if (n == 0 || n > 2) return 0.0;
    for (i = 0; i < n; i++) key[i] = (char)toupper((unsigned char)element[i]);
    key[n] = '\0';
    for (i = 0; i < sizeof element_radii / sizeof element_radii[0]; i++)
        if (strcmp(element_radii[i].key, key) == 0) return element_radii[i].radius;
    return 0.0;
}
