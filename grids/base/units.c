/* units.c — the unit conversions of the public API (constants.h holds the constants). */
#include "grids/base/constants.h"
#include "grids/base/vsgrid.h"

double vsg_kt_kcal(double temperature) { return VSG_R_KCAL * temperature; }
