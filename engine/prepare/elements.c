/* elements.c — per-element data for groups without force-field parameters: Bondi radii, the
 * formal charges of lone ions, covalent radii for bonds from distances. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

double prep_bondi_radius(const char *el)
{
    static const struct { const char *e; double r; } t[] = {
        {"H", 1.20}, {"C", 1.70}, {"N", 1.55}, {"O", 1.52}, {"F", 1.47}, {"P", 1.80}, {"S", 1.80},
        {"Cl", 1.75}, {"Br", 1.85}, {"I", 1.98}, {"Se", 1.90}, {"B", 1.92}, {"Si", 2.10},
        {"Na", 2.27}, {"K", 2.75}, {"Mg", 1.73}, {"Ca", 2.31}, {"Zn", 1.39}, {"Fe", 1.94},
        {"Mn", 1.97}, {"Cu", 1.40}, {"Ni", 1.63}, {"Co", 1.92}, {"Cd", 1.58}, {"Hg", 1.55}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].e, el) == 0)
            return t[i].r;
    return 1.80;
}

/* Formal charge of a lone metal or halide ion, or 99 when el is not one. */
int prep_ion_charge(const char *el)
{
    static const struct { const char *e; int q; } t[] = {
        {"Li", 1}, {"Na", 1}, {"K", 1}, {"Rb", 1}, {"Cs", 1}, {"Mg", 2}, {"Ca", 2}, {"Sr", 2},
        {"Ba", 2}, {"Zn", 2}, {"Mn", 2}, {"Fe", 2}, {"Co", 2}, {"Ni", 2}, {"Cu", 2}, {"Cd", 2},
        {"Hg", 2}, {"Al", 3}, {"F", -1}, {"Cl", -1}, {"Br", -1}, {"I", -1}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].e, el) == 0)
            return t[i].q;
    return 99;
}

double prep_covalent_radius(const char *el)
{
    static const struct { const char *e; double r; } t[] = {
        {"H", 0.31}, {"C", 0.76}, {"N", 0.71}, {"O", 0.66}, {"F", 0.57}, {"P", 1.07}, {"S", 1.05},
        {"Cl", 1.02}, {"Br", 1.20}, {"I", 1.39}, {"B", 0.84}, {"Se", 1.20}, {"Si", 1.11}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].e, el) == 0)
            return t[i].r;
    return 0; /* metals: no covalent bonds inferred */
}
