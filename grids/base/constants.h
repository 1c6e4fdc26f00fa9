/* constants.h — physical constants and unit conversions (see README "Units"). */
#ifndef VSG_CONSTANTS_H
#define VSG_CONSTANTS_H

#define VSG_PI 3.14159265358979323846
/* e²/(4πε₀) in kcal·Å/mol (AMBER/APBS value) */
#define VSG_COULOMB_KCAL 332.0637
/* Molar gas constant in kcal/(mol·K) */
#define VSG_R_KCAL 1.987204259e-3
/* Avogadro's number × 1e-27: ions per Å³ for a 1 mol/L concentration */
#define VSG_MOLAR_TO_A3 6.02214076e-4

/* Bjerrum length in vacuum (Å) at temperature T: λ_B = e²/(4πε₀ kT) = 560.4 Å at 298.15 K. */
static inline double vsg_bjerrum(double temperature)
{
    return VSG_COULOMB_KCAL / (VSG_R_KCAL * temperature);
}

#endif
