"""Build ``data/species/zones/`` from the 16 i-Tree Streets climate zones' public tables.

Usage::

    git clone https://github.com/OpenTreeMap/otm-ecoservice /tmp/otm-ecoservice
    git clone https://github.com/OpenTreeMap/otm-core /tmp/otm-core
    python tools/build_zones.py --ecoservice /tmp/otm-ecoservice --otm-core /tmp/otm-core

The USDA Forest Service resource tables (i-Tree Streets / NTBC, one wide CSV per zone and
factor: value rows x DBH class midpoints), the zones' species lists and their default prices
are read as OpenTreeMap distributes them: the tables and species list from otm-ecoservice
``data/``, the prices and zone names from otm-core ``treemap/species/codes.py`` (its
``ITREE_REGIONS`` literal, read as data with :func:`ast.literal_eval`), the zone polygons from
otm-core ``assets/fixtures/itree_regions_expanded.json``. Only data is carried over.

Written, per zone ``Z`` (the codes as the data spells them):

* ``Z/benefit_tables.csv``   (value_row, factor, land_use, dbh_cm, value, unit), as the Northeast's
* ``Z/species.csv``          the zone's species list: code, names, tree type, value row
* ``Z/growth_age_class.csv`` i-Tree Streets DBH at age per value row

and for all zones ``zones.csv`` (code, name, reference city, guide), ``prices.csv`` (zone, group,
unit, price, source, ruling), ``regions.csv`` (code, WKT in EPSG:3857 as published),
``build_log.csv`` (every row or cell the build cleaned or refused, with the reason) and
``provenance.csv`` (repository, commit, path and SHA-256 of every source file read).

The script is deterministic: running it twice on the same sources gives identical files.
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from build_species import BASE_FACTORS, DBH_CLASSES_CM, LAND_USE_STEMS, VARIANT_FACTORS, VARIANT_UNITS  # noqa: E402

OUT = HERE.parent / "data" / "species" / "zones"
AGE_CLASSES_YR = ("5", "10", "20", "30", "40", "50", "60", "70", "80")
TREE_TYPES = {"BDL", "BDM", "BDS", "BEL", "BEM", "BES", "CEL", "CEM", "CES", "PEL", "PEM", "PES"}

#: Reference city of each zone's Community Tree Guide (USDA Forest Service, Center for Urban Forest
#: Research), whose tree-growth and benefit models the zone's tables are.
CITIES = {
    "CaNCCoJBK": "Berkeley, CA",
    "CenFlaXXX": "Orlando, FL",
    "GulfCoCHS": "Charleston, SC",
    "InlEmpCLM": "Claremont, CA",
    "InlValMOD": "Modesto, CA",
    "InterWABQ": "Albuquerque, NM",
    "LoMidWXXX": "Indianapolis, IN",
    "MidWstMSP": "Minneapolis, MN",
    "NMtnPrFNL": "Fort Collins, CO",
    "NoEastXXX": "Queens, NY",
    "PacfNWLOG": "Longview, WA",
    "PiedmtCLT": "Charlotte, NC",
    "SoCalCSMA": "Santa Monica, CA",
    "SWDsrtGDL": "Glendale, AZ",
    "TpIntWBOI": "Boise, ID",
    "TropicPacXXX": "Honolulu, HI",
}

# OpenTreeMap's price keys -> the price groups of data/species/prices.csv (and their units)
PRICE_KEYS = {
    "electricity_kwh_to_currency": ("electricity", "kWh"),
    "natural_gas_kbtu_to_currency": ("natural_gas", "kBtu"),
    "h20_gal_to_currency": ("hydro_interception", "gal"),
    "co2_lb_to_currency": ("co2", "lb"),
    "o3_lb_to_currency": ("o3", "lb"),
    "nox_lb_to_currency": ("nox", "lb"),
    "pm10_lb_to_currency": ("pm10", "lb"),
    "sox_lb_to_currency": ("sox", "lb"),
    "voc_lb_to_currency": ("voc", "lb"),
}

#: Prices ruled different from OpenTreeMap's: (zone, group) -> (published, used, ruling).
PRICE_RULINGS: dict[tuple[str, str], tuple[float, float, str]] = {
    ("NMtnPrFNL", "electricity"): (
        0.636,
        0.0636,
        "ruled a decimal slip: 0.636 $/kWh is 3-12 times every other zone's electricity price, and at it the "
        "reference city's average tree would save about $53 a year in energy where its published analysis "
        "(McPherson et al. 2003, Fort Collins) reports about $4",
    ),
    ("NoEastXXX", "hydro_interception"): (
        0.0008,
        0.008,
        "ruled a decimal slip: 0.0008 $/gal is 4-35 times below every other zone's stormwater price; the "
        "Northeast's own table (data/species/prices.csv) is corrected to 0.008 alongside",
    ),
}

#: Prices kept as published but flagged: (zone, group) -> what was checked (data/species/README.md, "Prices").
PRICE_FLAGS: dict[tuple[str, str], str] = {
    ("CenFlaXXX", "natural_gas"): (
        "kept as published and flagged: $0.002678/kBtu ($0.27/therm) is 2.5-9 times below every other zone's "
        "natural-gas price and below the gas commodity charge alone of a central Florida utility then (Clearwater "
        "Gas System, July 2007: $1.08/therm purchased-gas adjustment); the price table of the Central Florida "
        "Community Tree Guide (Peper et al. 2010, PSW-GTR-230) was not found to check it, so the published value "
        "is not replaced by a guess; a local rate can be set (--price natural_gas=USD)"
    ),
    ("TpIntWBOI", "sox"): (
        "kept as published and flagged: $0.06/lb is 16-360 times below every other zone's SOx price; the price "
        "table of the Temperate Interior West Community Tree Guide (Vargas et al. 2007, PSW-GTR-206; Boise, ID) was "
        "not found to check it; SOx is a small part of a tree's air-quality dollars, so the effect is cents"
    ),
}

#: A species listed twice in a zone under two codes: (zone, code dropped) -> reason.
DUPLICATE_SPECIES: dict[tuple[str, str], str] = {
    ("SoCalCSMA", "BROC"): (
        "Brachychiton populneum is listed twice, as BRPO (value row CICA) and BROC (BEM OTHER); OpenTreeMap's "
        "species.json keeps BRPO, so BRPO is kept and BROC dropped"
    ),
    ("SoCalCSMA", "HACA4"): (
        "Harpephyllum caffrum is listed twice, as HACA3 and HACA4, both BES OTHER; HACA3 (species.json's) is kept"
    ),
    ("SoCalCSMA", "MAPU"): (
        "Malus sylvestris is listed twice, as MASY2 and MAPU, both BDS OTHER; MASY2, the code of the name, is kept"
    ),
    ("SoCalCSMA", "PRDU"): (
        "Prunus amygdalus is listed twice, as PRAM2 and PRDU, both BDS OTHER; PRAM2, the code of the name, is kept"
    ),
}

LOG: list[tuple[str, str, str, str]] = []

#: Areas a zone covers that OpenTreeMap's polygons leave out, as WGS84 boxes (west, south, east, north), each
#: with its source. The Tropical zone's reference city is Honolulu (Tropical Community Tree Guide, Vargas et al.
#: 2008, USDA FS PSW-GTR-216), yet OpenTreeMap's Tropical polygon is southern Florida only (24.2-27.9 N);
#: otm-ecoservice issue #45 ("Add shapefiles for Hawaii and Puerto Rico and assign the Tropical climate zone",
#: open) records the gap. The box is the State of Hawaii's extent, latitude 18 deg 55' N to 28 deg 27' N,
#: longitude 154 deg 48' W to 178 deg 22' W, with 0.1 deg to spare: a box, not a coastline (no other zone lies
#: within 2,000 km of it, so no point is given the wrong zone or a false boundary warning).
ADDED_AREAS: dict[str, list[tuple[tuple[float, float, float, float], str]]] = {
    "TropicPacXXX": [
        (
            (-178.47, 18.82, -154.70, 28.55),
            "Hawaii (the State's extent, 18.92-28.45 N, 154.80-178.37 W, +0.1 deg), added: the Tropical zone's "
            "reference city is Honolulu (PSW-GTR-216); OpenTreeMap's polygon omits Hawaii (otm-ecoservice issue #45)",
        )
    ]
}
_R = 6378137.0  # EPSG:3857's sphere, metres


def _box_wkt(west: float, south: float, east: float, north: float) -> str:
    """A WGS84 box as a WKT polygon body in EPSG:3857 metres (spherical Mercator), to the centimetre."""
    import math

    def xy(lon: float, lat: float) -> str:
        x = _R * math.radians(lon)
        y = _R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
        return f"{x:.2f} {y:.2f}"

    ring = [(west, south), (east, south), (east, north), (west, north), (west, south)]
    return "((" + ", ".join(xy(lon, lat) for lon, lat in ring) + "))"


def log(zone: str, file: str, item: str, reason: str) -> None:
    LOG.append((zone, file, item, reason))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def commit_of(repo: Path) -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def read_rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8-sig") as fh:
        return list(csv.reader(fh))


def clean_text(zone: str, file: str, text: str) -> str:
    """A name with non-breaking, doubled or trailing spaces, cleaned (and logged)."""
    new = re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()
    if new != text:
        log(zone, file, repr(text), f"spaces cleaned to {new!r}")
    return new


def wide_table(zone: str, path: Path, columns: tuple[str, ...], known: list[str]) -> dict[str, list[float]]:
    """The known value rows of one published wide table; every other row logged and dropped."""
    rows = read_rows(path)
    header = [h.strip() for h in rows[0]]
    if header[0] not in ("", "#VALUE!"):
        raise SystemExit(f"{path.name}: unexpected first header cell {header[0]!r}")
    if header[0] == "#VALUE!":
        log(zone, path.name, "header cell A1 '#VALUE!'", "a spreadsheet error in the row-name column's header; ignored")
    idx = []
    for c in columns:
        if c not in header:
            raise SystemExit(f"{path.name}: no column {c!r}")
        idx.append(header.index(c))
    out: dict[str, list[float]] = {}
    for n, r in enumerate(rows[1:], start=2):
        name = r[0].strip() if r else ""
        if name not in known:
            if name:
                log(zone, path.name, f"row {n} {name!r}", "not a value row of the zone's species_codes.csv; dropped")
            continue
        if name in out:
            raise SystemExit(f"{path.name}: value row {name} given twice")
        try:
            out[name] = [float(r[i]) for i in idx]
        except (ValueError, IndexError):
            raise SystemExit(f"{path.name}: row {n} {name}: a cell is not a number: {r[: len(idx) + 1]}") from None
    missing = [k for k in known if k not in out]
    if missing:
        raise SystemExit(f"{path.name}: no row for value rows {missing}")
    return out


def zone_prices(codes_py: Path) -> dict[str, dict]:
    tree = ast.parse(codes_py.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "ITREE_REGIONS" for t in node.targets):
            value = ast.literal_eval(node.value)
            if not isinstance(value, dict):
                break
            return value
    raise SystemExit(f"{codes_py}: no ITREE_REGIONS literal")


def build_zone(zone: str, data: Path, out: Path, src) -> dict[str, int]:
    """One zone's tables; returns counts for zones.csv."""
    zdir = out / zone
    zdir.mkdir(parents=True, exist_ok=True)
    codes = read_rows(src(f"data/output__{zone}__species_codes.csv"))
    known = [r[0].strip() for r in codes[1:] if r and r[0].strip()]
    tidy: list[tuple[str, str, str, str, float, str]] = []
    for factor, (stem, unit) in BASE_FACTORS.items():
        table = wide_table(zone, src(f"data/output__{zone}__{stem}.csv"), DBH_CLASSES_CM, known)
        for row in known:
            tidy += [(row, factor, "", c, v, unit) for c, v in zip(DBH_CLASSES_CM, table[row])]
    has_variants = (data / f"output__{zone}__electricity-sfr.csv").exists()
    if has_variants:
        for factor, pattern in VARIANT_FACTORS.items():
            for land_use, (dash, us) in LAND_USE_STEMS.items():
                stem = pattern.format(dash=dash, us=us)
                table = wide_table(zone, src(f"data/output__{zone}__{stem}.csv"), DBH_CLASSES_CM, known)
                for row in known:
                    tidy += [
                        (row, factor, land_use, c, v, VARIANT_UNITS[factor]) for c, v in zip(DBH_CLASSES_CM, table[row])
                    ]
    with (zdir / "benefit_tables.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["value_row", "factor", "land_use", "dbh_cm", "value", "unit"])
        for r in tidy:
            w.writerow([r[0], r[1], r[2], r[3], repr(r[4]), r[5]])
    ages = wide_table(zone, src(f"data/output__{zone}__dbh_by_age_class.csv"), AGE_CLASSES_YR, known)
    with (zdir / "growth_age_class.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["value_row", "age_yr", "dbh_cm"])
        for row in known:
            w.writerows([row, a, repr(d)] for a, d in zip(AGE_CLASSES_YR, ages[row]))
    return {"value_rows": len(known), "land_use_variants": int(has_variants)}


def build_species(zones: list[str], ecoservice: Path, out: Path, src) -> dict[str, int]:
    master = read_rows(src("data/species_master_list.csv"))
    kept_json = json.loads(src("data/species.json").read_text(encoding="utf-8"))
    col = {h: i for i, h in enumerate(master[0])}
    by_zone: dict[str, list[dict[str, str]]] = {z: [] for z in zones}
    for r in master[1:]:
        if not r or not r[col["SpeciesCode"]].strip():
            continue
        zone = r[col["region"]].strip()
        if zone not in by_zone:
            raise SystemExit(f"species_master_list.csv: unknown region {zone!r}")
        by_zone[zone].append({k: r[i] for k, i in col.items()})
    counts = {}
    for zone in zones:
        rows_known = {
            r[0].strip()
            for r in read_rows(ecoservice / f"data/output__{zone}__species_codes.csv")[1:]
            if r and r[0].strip()
        }
        out_rows = []
        seen: dict[str, str] = {}
        for r in by_zone[zone]:
            code = r["SpeciesCode"].strip()
            sci = clean_text(zone, "species_master_list.csv", r["ScientificName"])
            common = clean_text(zone, "species_master_list.csv", r["CommonName"])
            tree_type = r["Tree Type"].strip()
            value_row = r["SppValueAssignment"].strip()
            if (zone, code) in DUPLICATE_SPECIES:
                log(zone, "species_master_list.csv", code, DUPLICATE_SPECIES[zone, code])
                continue
            if sci.lower() in seen:
                raise SystemExit(f"{zone}: {sci} listed twice ({seen[sci.lower()]}, {code}) with no ruling")
            if tree_type not in TREE_TYPES:
                raise SystemExit(f"{zone} {code}: tree type {tree_type!r}")
            if value_row not in rows_known:
                raise SystemExit(f"{zone} {code}: value row {value_row!r} has no tables in the zone")
            if code not in kept_json.get(zone, {}):
                log(zone, "species_master_list.csv", code, "not in OpenTreeMap's species.json for the zone; kept")
            seen[sci.lower()] = code
            out_rows.append([code, sci, common, tree_type, value_row])
        with (out / zone / "species.csv").open("w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["code", "scientific_name", "common_name", "tree_type", "value_row"])
            w.writerows(sorted(out_rows))
        counts[zone] = len(out_rows)
    return counts


def build(
    ecoservice: Path, otm_core: Path, out: Path, eco_commit: str | None = None, core_commit: str | None = None
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    LOG.clear()
    provenance: set[tuple[str, str, str, str]] = set()
    commits = {
        "OpenTreeMap/otm-ecoservice": commit_of(ecoservice) if eco_commit is None else eco_commit,
        "OpenTreeMap/otm-core": commit_of(otm_core) if core_commit is None else core_commit,
    }

    def from_repo(repo: str, root: Path):
        def src(rel: str) -> Path:
            p = root / rel
            provenance.add((repo, commits[repo], rel, sha256(p)))
            return p

        return src

    eco, core = from_repo("OpenTreeMap/otm-ecoservice", ecoservice), from_repo("OpenTreeMap/otm-core", otm_core)
    regions = zone_prices(core("opentreemap/treemap/species/codes.py"))
    zones = sorted(regions)
    found = sorted({p.name.split("__")[1] for p in (ecoservice / "data").glob("output__*__species_codes.csv")})
    if found != zones:
        raise SystemExit(f"zones with tables {found} differ from zones with prices {zones}")
    counts = {z: build_zone(z, ecoservice / "data", out, eco) for z in zones}
    species = build_species(zones, ecoservice, out, eco)

    with (out / "zones.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["zone", "name", "reference_city", "guide", "value_rows", "species", "land_use_variants"])
        for z in zones:
            name = regions[z]["name"]
            w.writerow(
                [
                    z,
                    name,
                    CITIES[z],
                    f"i-Tree Streets {name} climate zone ({CITIES[z]} reference city)",
                    counts[z]["value_rows"],
                    species[z],
                    "yes" if counts[z]["land_use_variants"] else "no",
                ]
            )

    with (out / "prices.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["zone", "factor_group", "unit", "price_usd_per_unit", "published_usd_per_unit", "source", "ruling"])
        for z in zones:
            conv = regions[z]["currency_conversion"]
            if set(conv) != set(PRICE_KEYS):
                raise SystemExit(f"{z}: prices {sorted(conv)}")
            for key, (group, unit) in PRICE_KEYS.items():
                published = float(conv[key])
                price, ruling = published, PRICE_FLAGS.get((z, group), "")
                if (z, group) in PRICE_RULINGS:
                    was, price, ruling = PRICE_RULINGS[z, group]
                    if was != published:
                        raise SystemExit(f"{z} {group}: ruling expects {was} in the source, found {published}")
                    log(z, "codes.py", f"{group} {published:g}", f"price set to {price:g}: {ruling}")
                source = (
                    "OpenTreeMap otm-core opentreemap/treemap/species/codes.py ITREE_REGIONS (i-Tree Streets defaults)"
                )
                w.writerow([z, group, unit, repr(price), repr(published), source, ruling])

    fixture = core("assets/fixtures/itree_regions_expanded.json")
    with (out / "regions.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["zone", "crs", "wkt"])
        items = json.loads(fixture.read_text(encoding="utf-8"))
        by_code = {}
        for it in items:
            f = it["fields"]
            srid, _, wkt = f["geometry"].partition(";")
            if srid != "SRID=3857" or not wkt.startswith("MULTIPOLYGON"):
                raise SystemExit(f"{fixture.name}: {f['code']}: geometry {f['geometry'][:40]!r}")
            # 16 significant digits of a metre are the source's float noise: a centimetre is kept
            by_code[f["code"]] = re.sub(r"(-?\d+\.\d\d)\d+", r"\1", wkt)
        if sorted(by_code) != zones:
            raise SystemExit(f"{fixture.name}: zones {sorted(by_code)}")
        for z, areas in ADDED_AREAS.items():
            for box, why in areas:
                if not by_code[z].endswith(")))"):
                    raise SystemExit(f"{fixture.name}: {z}: geometry does not end as a MULTIPOLYGON")
                by_code[z] = by_code[z][:-1] + ", " + _box_wkt(*box) + ")"
                log(z, fixture.name, f"box {box}", why)
        for z in zones:
            w.writerow([z, "EPSG:3857", by_code[z]])

    with (out / "build_log.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["zone", "file", "item", "reason"])
        w.writerows(LOG)
    with (out / "provenance.csv").open("w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["repository", "commit", "source_file", "sha256"])
        w.writerows(sorted(provenance))
    print(f"wrote {len(zones)} zones to {out}; {len(LOG)} cleaned or refused items in build_log.csv")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ecoservice", type=Path, required=True, help="a checkout of OpenTreeMap/otm-ecoservice")
    ap.add_argument("--otm-core", type=Path, required=True, help="a checkout of OpenTreeMap/otm-core")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--ecoservice-commit", help="the commit of a source that is an export, not a git checkout")
    ap.add_argument("--otm-core-commit", help="likewise for otm-core")
    a = ap.parse_args(argv)
    build(a.ecoservice, a.otm_core, a.out, a.ecoservice_commit, a.otm_core_commit)


if __name__ == "__main__":
    main()
