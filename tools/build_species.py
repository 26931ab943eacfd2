"""Build ``data/species/`` from the i-Tree Streets Northeast reference tables.

Usage::

    python tools/build_species.py [--source ../shared/reference/itree-streets-northeast]

Reads the published resource tables (one wide CSV per benefit, DBH classes as
columns) and writes the project's own tidy tables:

* ``catalogue.csv``       one row per species of the zone's master list
* ``benefit_tables.csv``  (value_row, factor, land_use, dbh_cm, value, unit)
* ``prices.csv``          the zone's default prices
* ``growth_utd.csv``      Urban Tree Database DBH-from-age equations
* ``growth_age_class.csv``  i-Tree Streets DBH at age, per value row
* ``provenance.csv``      every source file with its SHA-256

``local_status.csv`` (nativity and 6 NYCRR Part 575 status) is edited by hand
by the Village and is only checked here: every catalogue code must have a row.

The script is deterministic: running it twice gives identical files.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = REPO / "data" / "species"
DEFAULT_SOURCE = REPO.parent / "shared" / "reference" / "itree-streets-northeast"

DBH_CLASSES_CM = ("3.81", "11.43", "22.86", "38.10", "53.34", "68.58", "83.82", "99.06", "114.30")
AGE_CLASSES_YR = ("5", "10", "20", "30", "40", "50", "60", "70", "80")

# factor name -> (source stem, unit as published)
BASE_FACTORS: dict[str, tuple[str, str]] = {
    "hydro_interception": ("hydro_interception", "m3/yr"),
    "electricity": ("electricity", "kWh/yr"),
    "natural_gas": ("natural_gas", "kBtu/yr"),
    "co2_sequestered": ("co2_sequestered", "kg/yr"),
    "co2_avoided": ("co2_avoided", "kg/yr"),
    "co2_storage": ("co2_storage", "kg"),
    "co2_decomp": ("co2_decomp", "kg/yr"),
    "co2_maint": ("co2_maint", "kg/yr"),
    "net_co2_sequestered": ("net_co2_sequestered", "kg/yr"),
    "aq_ozone_dep": ("aq_ozone_dep", "kg/yr"),
    "aq_nox_dep": ("aq_nox_dep", "kg/yr"),
    "aq_pm10_dep": ("aq_pm10_dep", "kg/yr"),
    "aq_sox_dep": ("aq_sox_dep", "kg/yr"),
    "aq_nox_avoided": ("aq_nox_avoided", "kg/yr"),
    "aq_pm10_avoided": ("aq_pm10_avoided", "kg/yr"),
    "aq_sox_avoided": ("aq_sox_avoided", "kg/yr"),
    "aq_voc_avoided": ("aq_voc_avoided", "kg/yr"),
    "bvoc": ("bvoc", "kg/yr"),
    "net_vocs": ("net_vocs", "kg/yr"),
    "property_value": ("property_value", "m2/yr"),
    "lsa": ("lsa", "m2"),
    "cpa": ("cpa", "m2"),
    "numbers": ("numbers", "trees"),
}

# Land-use variants: factor -> {land_use: source stem}
LAND_USE_STEMS = {
    "single_family": ("sfr", "sf"),
    "multi_family": ("mfr", "mf"),
    "commercial_industrial": ("ci", "ci"),
    "institutional": ("it", "it"),
}
VARIANT_FACTORS = {
    # factor: (pattern with {dash} for energy/co2 files, {us} for pollutant files)
    "electricity": "electricity-{dash}",
    "natural_gas": "natural_gas-{dash}",
    "co2_avoided": "co2_avoided-{dash}",
    "aq_nox_avoided": "nox_avoided_{us}",
    "aq_pm10_avoided": "pm10_avoided_{us}",
    "aq_sox_avoided": "sox_avoided_{us}",
    "aq_voc_avoided": "voc_avoided_{us}",
}
# voc/pm10/sox/nox "_sf" etc. tables carry the same unit as the base table
VARIANT_UNITS = {f: BASE_FACTORS[f][1] for f in VARIANT_FACTORS}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        return list(csv.reader(fh))


def value_rows(source: Path) -> list[str]:
    """The 41 value rows (species codes and type groups) of species_codes.csv."""
    rows = read_rows(source / "benefits" / "species_codes.csv")
    return [r[0].strip() for r in rows[1:] if r and r[0].strip()]


def wide_table(path: Path, columns: tuple[str, ...], known_rows: set[str]) -> list[tuple[str, str, float]]:
    """Rows of a published wide table, keeping only known value rows.

    The published sheets carry notes and row numbers under the data (and some
    columns to the right); those are not data and are dropped here.
    """
    rows = read_rows(path)
    header = [h.strip() for h in rows[0]]
    idx = [header.index(c) for c in columns]
    out = []
    for r in rows[1:]:
        if not r or r[0].strip() not in known_rows:
            continue
        for c, i in zip(columns, idx):
            out.append((r[0].strip(), c, float(r[i])))
    return out


def tree_type_parts(tree_type: str) -> dict[str, str]:
    leaf = {"B": "broadleaf", "C": "conifer", "P": "palm"}[tree_type[0]]
    habit = {"D": "deciduous", "E": "evergreen"}[tree_type[1]]
    size = {"S": "small", "M": "medium", "L": "large"}[tree_type[2]]
    return {"leaf_type": leaf, "leaf_habit": habit, "size_class": size}


# Synonyms in current use and other common names. Keys are i-Tree codes.
# Misspellings are deliberately absent: the fuzzy resolver handles them.
EXTRA_ALIASES: dict[str, list[str]] = {
    "PLAC": [
        "Platanus x acerifolia",
        "Platanus × acerifolia",
        "Platanus acerifolia",
        "London plane",
        "London plane tree",
    ],
    "GLTR": ["Gleditsia triacanthos var. inermis", "Thornless honeylocust", "Honey locust", "Thornless honey locust"],
    "LITU": ["Tulip poplar", "Tuliptree", "Yellow poplar", "Tulip-tree", "Yellow-poplar", "Tulip magnolia"],
    "ACRU": ["Swamp maple", "Scarlet maple"],
    "ACSA2": ["Rock maple", "Hard maple"],
    "ACSA1": ["Soft maple", "White maple"],
    "ACNE": ["Box elder", "Ash-leaved maple"],
    "ACGI": ["Acer tataricum subsp. ginnala", "Acer tataricum ssp. ginnala"],
    "AIAL": ["Tree-of-heaven", "Ailanthus"],
    "AEHI": ["Horse chestnut", "Horse-chestnut"],
    "FRPE": ["Red ash"],
    "GIBI": ["Maidenhair tree"],
    "JUVI": ["Red cedar", "Eastern redcedar"],
    "LIST": ["Sweet gum", "American sweetgum"],
    "NYSY": ["Black tupelo", "Black gum", "Blackgum", "Sour gum"],
    "PIST": ["White pine"],
    "PRSE2": ["Japanese flowering cherry", "Kwanzan cherry", "Japanese cherry"],
    "PYCA": ["Bradford pear", "Callery pear"],
    "QUPA": ["Pin oak"],
    "QURU": ["Red oak", "Quercus borealis"],
    "TICO": ["Little-leaf linden", "Small-leaved lime"],
    "TSCA": ["Canadian hemlock", "Hemlock"],
    "ULAM": ["White elm"],
    "ZESE": ["Zelkova"],
    "CECA": ["Redbud"],
    "COFL": ["Dogwood"],
    "BEPA": ["White birch", "Canoe birch"],
    "PRSE": ["Wild black cherry", "Black cherry"],
    "ROPS": ["Locust", "Yellow locust"],
    "CAOV": ["Shagbark"],
    "PHAM": ["Amur cork tree", "Amur cork-tree"],
    "ACPS": ["Planetree maple"],
    "ACPL": ["Norway"],
}


# Corrections to the source species list: code -> (field, source value, corrected value, reason).
# Each is written to the catalogue's ``correction`` column so every output that shows the species can say so.
# The benefit value row (``SppValueAssignment``) is kept as the source assigns it, so the benefits stay
# i-Tree Streets' own; only the tree type and leaf habit (which the law reads) are corrected.
CORRECTIONS: dict[str, tuple[str, str, str, str]] = {
    "ELUM": (
        "tree_type",
        "BES",
        "BDS",
        (
            "autumn olive is deciduous (USDA PLANTS; New York Flora Atlas) but the i-Tree Streets Northeast "
            "species list types it evergreen; its benefits still read the source's value row BES OTHER"
        ),
    ),
}

# Prices the source holds wrongly: factor_group -> (the source's value, the value written), USD per unit.
# Stormwater: the source's $0.0008/gal is OpenTreeMap's Northeast figure (otm-core
# treemap/species/codes.py, ITREE_REGIONS['NoEastXXX']), a tenth of the Northeast Community Tree Guide's
# "$0.01 per gallon of treated and controlled runoff" (McPherson et al. 2007, PSW-GTR-202, as the i-Tree
# team quotes it) and of every other zone's price in that same table ($0.00183-0.02779); $0.008 is the
# figure i-Tree-based tools price Northeast runoff at. See data/species/README.md.
PRICE_CORRECTIONS: dict[str, tuple[str, str]] = {"hydro_interception": ("0.0008", "0.008")}


def build(source: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows_known = set(value_rows(source))
    provenance: list[tuple[str, str]] = []

    def src(rel: str) -> Path:
        p = source / rel
        provenance.append((f"shared/reference/itree-streets-northeast/{rel}", sha256(p)))
        return p

    # --- benefit tables --------------------------------------------------------
    tidy: list[tuple[str, str, str, str, float, str]] = []
    for factor, (stem, unit) in BASE_FACTORS.items():
        for row, dbh, value in wide_table(src(f"benefits/{stem}.csv"), DBH_CLASSES_CM, rows_known):
            tidy.append((row, factor, "", dbh, value, unit))
    for factor, pattern in VARIANT_FACTORS.items():
        for land_use, (dash, us) in LAND_USE_STEMS.items():
            stem = pattern.format(dash=dash, us=us)
            for row, dbh, value in wide_table(src(f"benefits/{stem}.csv"), DBH_CLASSES_CM, rows_known):
                tidy.append((row, factor, land_use, dbh, value, VARIANT_UNITS[factor]))
    with (out / "benefit_tables.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["value_row", "factor", "land_use", "dbh_cm", "value", "unit"])
        for r in tidy:
            w.writerow([r[0], r[1], r[2], r[3], repr(r[4]), r[5]])

    # --- growth: i-Tree Streets DBH at age -------------------------------------
    with (out / "growth_age_class.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["value_row", "age_yr", "dbh_cm"])
        for row, age, dbh in wide_table(src("benefits/dbh_by_age_class.csv"), AGE_CLASSES_YR, rows_known):
            w.writerow([row, age, repr(dbh)])

    # --- growth: Urban Tree Database -------------------------------------------
    utd = read_rows(src("growth_urban_tree_database.csv"))
    with (out / "growth_utd.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        # The source names these min_age / max_age, but their values are DBH (cm):
        # QURU 2.89687 + 0.91156 x 150 = 139.63 = "max_age". Named for what they hold.
        w.writerow(["species_code", "form", "a", "b", "c", "d", "min_dbh_cm", "max_dbh_cm", "dbh_unit"])
        for r in utd[1:]:
            if r and r[0].strip():
                w.writerow([c.strip() for c in r[:8]] + ["cm"])

    # --- prices ------------------------------------------------------------------
    prices = read_rows(src("prices.csv"))
    with (out / "prices.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["factor_group", "unit", "price_usd_per_unit"])
        for r in prices[1:]:
            if r and r[0].strip():
                row = [c.strip() for c in r[:3]]
                if row[0] in PRICE_CORRECTIONS:
                    was, now = PRICE_CORRECTIONS[row[0]]
                    if row[2] != was:
                        raise SystemExit(f"prices.csv {row[0]}: correction expects {was} in the source, found {row[2]}")
                    row[2] = now
                w.writerow(row)

    # --- catalogue -----------------------------------------------------------------
    master = read_rows(src("species_master_list.csv"))
    src("benefits/species_codes.csv")
    header = master[0]
    col = {h: i for i, h in enumerate(header)}
    cat_rows = []
    genus_codes: dict[str, str] = {}
    for r in master[1:]:
        code = r[col["SpeciesCode"]].strip()
        sci = re.sub(r"\s+", " ", r[col["ScientificName"]].strip())
        if sci.endswith(" species"):
            genus_codes[sci.split()[0]] = code
    for r in master[1:]:
        code = r[col["SpeciesCode"]].strip()
        sci = re.sub(r"\s+", " ", r[col["ScientificName"]].strip())
        common = r[col["CommonName"]].strip()
        tree_type = r[col["Tree Type"]].strip()
        if tree_type not in {"BDL", "BDM", "BDS", "BEL", "BEM", "BES", "CEL", "CEM", "CES", "PEL", "PEM", "PES"}:
            # GIBI(F) in the list carries its common name in the type column;
            # the female ginkgo is a large broadleaf deciduous like GIBI.
            tree_type = "BDL"
        correction = ""
        if code in CORRECTIONS:
            field_name, was, now, reason = CORRECTIONS[code]
            if field_name != "tree_type" or tree_type != was:
                raise SystemExit(f"{code}: correction expects {field_name} {was!r} in the source, found {tree_type!r}")
            tree_type, correction = now, f"typed {was} in the source, corrected to {now}: {reason}"
        value_row = r[col["SppValueAssignment"]].strip()
        if value_row not in rows_known:
            raise SystemExit(f"{code}: value row {value_row!r} has no benefit tables")
        aliases: list[str] = []
        is_genus = sci.endswith(" species")
        if is_genus:
            genus = sci.split()[0]
            sci = f"{genus} sp."
            aliases += [f"{genus} spp.", f"{genus} species", genus]
        aliases += EXTRA_ALIASES.get(code, [])
        cat_rows.append(
            {
                "code": code,
                "scientific_name": sci,
                "common_name": common,
                "aliases": "; ".join(dict.fromkeys(aliases)),
                "is_genus": "yes" if is_genus else "no",
                "tree_type": tree_type,
                "value_row": value_row,
                **tree_type_parts(tree_type),
                "species_rating_pct": r[col["Species Rating (%)"]].strip(),
                "basic_price_usd_per_sqin": r[col["Basic Price ($/sq in)"]].strip(),
                "palm_trunk_cost_usd_per_ft": r[col["Palm Trunk Cost($/ft)"]].strip(),
                "replacement_cost_usd": r[col["Replacement Cost ($)"]].strip(),
                "replacement_trunk_area_sqin": r[col["TAr (sq Inches)"]].strip(),
                "region": r[col["region"]].strip(),
                "correction": correction,
            }
        )
    fields = list(cat_rows[0])
    with (out / "catalogue.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(cat_rows)

    # --- local status is hand-edited: check coverage only --------------------------
    status = out / "local_status.csv"
    if status.exists():
        have = {r["code"] for r in csv.DictReader(status.open(encoding="utf-8"))}
        missing = [r["code"] for r in cat_rows if r["code"] not in have]
        if missing:
            print(f"warning: local_status.csv has no row for {', '.join(missing)}", file=sys.stderr)

    with (out / "provenance.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["source_file", "sha256"])
        for p, h in sorted(set(provenance)):
            w.writerow([p, h])
    print(f"wrote {len(cat_rows)} species, {len(tidy)} benefit values to {out}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    build(a.source, a.out)


if __name__ == "__main__":
    main()
