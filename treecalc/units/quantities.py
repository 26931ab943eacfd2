"""Conversions between the units treecalc reads and writes, each stated once.

The exact ones are definitions (1 in = 2.54 cm, 1 ft = 0.3048 m, 1 yd = 0.9144 m: the international yard and
pound agreement of 1959; 1 therm = 100,000 Btu). Two are rounded: i-Tree Streets' resource units are m³ and kg,
and the gallons and pounds its benefits are read and priced in are m³ x 264.172 and kg x 2.20462 (six figures;
exactly 264.172052... and 2.20462262...). OpenTreeMap's treemap code, which prices the same tables, has
LBS_PER_KG = 2.20462 and GAL_PER_CUBIC_M = 264.172052; benchmarks/peer_otm_go.py compares treecalc's
benefits with its Go service at these factors. A change here moves every benefit's gallons or pounds.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------------------- length
#: 1 in = 2.54 cm exactly.
CM_PER_IN = 2.54
#: 1 in = 25.4 mm exactly.
MM_PER_IN = 25.4
CM_PER_M = 100
IN_PER_FT = 12
#: 1 ft = 0.3048 m exactly.
M_PER_FT = 0.3048
FT_PER_M = 1 / M_PER_FT
#: 1 yd = 0.9144 m exactly.
M_PER_YD = 0.9144

#: A length in each unit a survey gives a trunk's diameter in, as inches (1 m = 100 / 2.54 = 39.37 in).
IN_PER_UNIT = {
    "in": 1.0,
    "cm": 1 / CM_PER_IN,
    "mm": 1 / MM_PER_IN,
    "ft": float(IN_PER_FT),
    "m": CM_PER_M / CM_PER_IN,
}

# ------------------------------------------------------------------------------------------- area
#: 1 m² = 1 / 0.3048² = 10.7639... sq ft.
SQFT_PER_M2 = 1 / M_PER_FT**2

# ----------------------------------------------------------------------------------------- volume
#: 1 cu yd = 3 ft x 3 ft x 3 ft.
CU_FT_PER_CU_YD = 27
#: 1 cu yd = 0.9144³ m³ = 0.764554857984 m³.
M3_PER_CU_YD = M_PER_YD**3
#: US gallons in a cubic metre, as i-Tree rounds it (exactly 1 / 0.003785411784 = 264.172052...).
GAL_PER_M3 = 264.172

# ----------------------------------------------------------------------------------- energy, mass
#: 1 therm = 100,000 Btu = 100 kBtu exactly (natural gas is priced per therm, i-Tree gives kBtu).
KBTU_PER_THERM = 100.0
#: Pounds in a kilogram, as i-Tree rounds it (exactly 1 / 0.45359237 = 2.20462262...).
LB_PER_KG = 2.20462
