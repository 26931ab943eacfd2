"""``treecalc survey FILE``: read a survey and report what was read and rejected.

Registered by :mod:`treecalc.cli` through :func:`register`.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

from treecalc.cli.common import STDIN_NAME, dump_json, repeatable, stderr_progress, survey_source
from treecalc.cli.words import render
from treecalc.law.registry import records


def _pairs(items: list[str], flag: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{flag} {item!r}: expected NAME=VALUE")
        if key.strip() in out and out[key.strip()] != value.strip():  # the last would win without a word
            raise ValueError(
                f"{flag} {key.strip()} is given twice, as {out[key.strip()]!r} and {value.strip()!r}; give it once"
            )
        out[key.strip()] = value.strip()
    return out


def add_column_map(p: argparse.ArgumentParser) -> None:
    """--map HEADER=FIELD (repeatable): the flag of every command that reads a survey, so that the refusal naming
    the ``--map`` that settles a reading (two action columns) is settled on the command that gave it."""
    repeatable(p, "--map", "HEADER=FIELD", 'map a column, e.g. --map "Diam. cm=dbh_cm" (repeatable)')


def column_map_arg(items: list[str] | None) -> dict[str, str] | None:
    """The column map --map gives (None: none given)."""
    return _pairs(items or [], "--map") or None


def check_file_arg(path: str | None) -> None:
    """The survey file argument: left out (the sample) or a name; "" (an unset variable) is not the sample."""
    if path is not None and not path.strip():
        raise ValueError(
            f"survey file {path!r} is empty (an unset variable?): give the survey's file name, or leave it out "
            "to read the sample"
        )


def species_map_arg(items: list[str]) -> dict[str, str]:
    """--species-map: "TEXT=SPECIES" pairs, or CSV files of two columns (the text as written, the
    species to read it as; a first row naming the columns is skipped). Every row with the same text
    is corrected at once."""
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if sep and key.strip():
            out[key.strip()] = value.strip()
            if not value.strip():
                raise ValueError(f"--species-map {item!r}: give the species after '=', e.g. \"Oak sp.=Quercus\"")
            continue
        path = Path(item)
        if not path.exists():
            raise ValueError(
                f'--species-map {item!r}: expected TEXT=SPECIES (e.g. "Oak sp.=Quercus") or a CSV file of two columns'
            )
        from treecalc.ingest import isolated  # start-up: with the command that runs, not every command

        rows = isolated.run(_species_map_rows, str(path), item, what=f"--species-map {item}")
        for n, row in enumerate(rows, start=1):
            cells = [c.strip() for c in row]
            if not any(cells) or (n == 1 and len(cells) >= 2 and cells[1].lower() in {"species", "to", "as"}):
                continue
            if len(cells) < 2 or not cells[0] or not cells[1]:
                raise ValueError(f"--species-map {item}: line {n} needs two cells, the text and the species")
            out[cells[0]] = cells[1]
    return out


def _species_map_rows(path: str, item: str) -> list[list[str]]:
    """The rows of a species-map CSV, read through the bounded reader (type and size first: /dev/zero or a FIFO
    is refused, never read); run in the bounded child of :mod:`treecalc.ingest.isolated`."""
    from treecalc.files import read_limited  # start-up: with the command that runs, not every command

    raw = read_limited(path, "--species-map", 10_000_000)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"--species-map {item}: not UTF-8 text; save the CSV as UTF-8") from None
    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise ValueError(f"--species-map {item}: not a readable CSV ({e})") from None


def add_species_map(p: argparse.ArgumentParser) -> None:
    repeatable(
        p,
        "--species-map",
        "TEXT=SPECIES|FILE.csv",
        'read every row whose species is TEXT as SPECIES, e.g. --species-map "Oak sp.=Quercus" '
        "(repeatable), or a CSV file of two columns: text, species",
    )


def add_layer(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--layer",
        help="the layer of a GIS file (GeoPackage, Shapefile zip, GeoJSON, FlatGeobuf, KML) that holds the trees "
        "(default: its only layer)",
    )


def add_limits(p: argparse.ArgumentParser) -> None:
    repeatable(
        p,
        "--limit",
        "NAME=N",
        "raise a limit on what the survey file may hold: rows, columns, cells, strings, strings_mb, text, "
        "memory_gb, seconds (repeatable; see treecalc.ingest.limits)",
    )


def _positive_mb(text: str) -> float:
    """--max-mb: a positive number of megabytes within :data:`treecalc.quantities.RANGES` ``["max_mb"]``."""
    from treecalc.quantities import RANGES, in_range  # start-up: with the command that runs, not every command

    try:
        x = in_range("--max-mb", text, "max_mb")
    except ValueError:
        r = RANGES["max_mb"]
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a positive number of megabytes up to {r.high:,g} ({r.why})"
        ) from None
    if x * 1e6 < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is less than one byte")
    return x


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "survey",
        help="read a tree survey spreadsheet: trees, rejected rows and why",
        description="Read a survey (xlsx, xlsm, xls, ods, csv, tsv, txt, or a GIS layer of points: gpkg, zipped "
        "shp, geojson, fgb, kml) and print how many rows became "
        "trees, every rejected row with its reason, unresolved species with suggestions, "
        "warnings and site facts.",
    )
    p.add_argument(
        "file",
        nargs="?",
        help="survey file; - reads it from standard input (default: the sample, data/examples/sample_survey.xlsx)",
    )
    p.add_argument(
        "--sheet",
        help="sheet name (default: a sheet named like Trees/Survey/Inventory, "
        "else the first with a recognisable header)",
    )
    add_column_map(p)
    add_layer(p)
    p.add_argument(
        "--dbh-unit", choices=("in", "cm", "mm", "ft", "m"), help="unit of the DBH column (overrides the file)"
    )

    repeatable(
        p,
        "--site",
        "FIELD=VALUE",
        f"a site fact, e.g. --site jurisdiction={records()[-1].user_spelling} (repeatable; wins over the Site sheet)",
    )
    add_species_map(p)
    p.add_argument("--max-mb", type=_positive_mb, default=50.0, help="refuse files larger than this (default 50)")
    add_limits(p)
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument(
        "--zone",
        metavar="CODE",
        help="i-Tree Streets climate zone (code or name); default: the site fact climate_zone, the trees' "
        "coordinates, else the Northeast",
    )
    p.add_argument(
        "--export",
        choices=("benefits", "opentreemap", "itree-eco"),
        help="write the trees as CSV instead of the summary: benefits (per tree, with i-Tree codes and zone), "
        "opentreemap (OpenTreeMap's tree import columns) or itree-eco (an existing inventory for i-Tree Eco's "
        "import: tree ID, species, DBH, coordinates, 100 %% dieback for a dead tree)",
    )
    p.add_argument(
        "--out",
        help="the file --export writes, CSV (.csv) or an Excel workbook (.xlsx) as its name ends "
        "(default: CSV on standard output)",
    )
    p.set_defaults(func=run)


def run(a: argparse.Namespace) -> int:
    from treecalc.ingest import SurveyError  # start-up: with the command that runs, not every command
    from treecalc.ingest.limits import Limits  # start-up: with the command that runs, not every command

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.reference import data

    limits = Limits.parse(a.limit, Limits.from_env())
    check_file_arg(a.file)
    if a.out is not None:  # before the survey is read: a name that cannot be written is said at once
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.report.exports import out_suffix

        if not a.export:
            raise ValueError("--out is the file --export writes: give --export benefits, opentreemap or itree-eco")
        out_suffix(a.out)
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.ingest.zone import read_survey_in_zone

    max_bytes = int(a.max_mb * 1e6)
    # the sample of the data folder (TREECALC_DATA) when none is given: a copy without it is named, as with `assess`
    source = survey_source(a.file, max_bytes) if a.file is not None else data.sample_survey()
    try:
        s = read_survey_in_zone(
            source,
            a.zone,
            filename=STDIN_NAME if isinstance(source, bytes) else None,
            sheet=a.sheet,
            column_map=column_map_arg(a.map),
            dbh_unit=a.dbh_unit,
            site=_pairs(a.site, "--site") or None,
            max_bytes=max_bytes,
            progress=stderr_progress(),
            species_map=species_map_arg(a.species_map) or None,
            limits=limits,
            isolated=True,
            layer=a.layer,
        )
    except SurveyError as e:
        print(f"error: {render(str(e))}", file=sys.stderr)
        return 2
    # start-up: with the command that runs, not every command
    from treecalc.ingest import NoTreeReadError, require_trees

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.models.benefits import survey_zone

    try:
        require_trees(s)
    except NoTreeReadError as e:  # the summary (without --export) names every rejected row; then the refusal
        if a.json and not a.export:
            dump_json(s.summary())
        elif not a.export:
            print(render(format_summary(s.summary())))
        print(f"error: {render(str(e))}", file=sys.stderr)
        return 2
    if a.export:
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.report.exports import csv_text, export_frame, write_table

        frame = export_frame(s.trees, a.export, s.site, a.zone)
        if a.out:
            write_table(frame, a.out, sheet=a.export)
        else:
            sys.stdout.write(csv_text(frame))
        if len(s.rejected):  # the file holds the trees read; the rows left out are said, each with its reason
            print(f"note: {len(s.rejected)} of the {s.rows_read} rows are not exported (rejected):", file=sys.stderr)
            for reason in s.rejected["reason"]:
                print(f"  - {render(reason)}", file=sys.stderr)
        return 0
    summary = s.summary()
    if s.site.get("jurisdiction"):  # a fact only another law reads is said here too, as assess says it
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.ingest.site import site_facts_not_read

        summary["warnings"] = [*summary["warnings"], *site_facts_not_read(str(s.site["jurisdiction"]), s.site)]
    zone = survey_zone(s.trees, s.site, a.zone)
    summary["zone"] = {"zone": zone.zone, "source": zone.source, "notes": list(zone.notes)}
    if zone.counts:  # trees in several zones, each valued in its own
        summary["zone"]["zones"] = dict(zone.counts)
    if a.json:
        dump_json(summary)
        return 0
    print(render(format_summary(summary)))
    return 0


def _pruned_words(d: dict) -> str:
    """The trees counted as retained whose cell states a pruned share: the law decides whether it is excessive."""
    n = int(d.get("pruned_by_share") or 0)
    if not n:
        return ""
    return (
        f" ({n} of the retained pruned by a stated share: whether that is excessive pruning is the law's share, "
        "read when the survey is assessed)"
    )


def format_summary(d: dict) -> str:
    lines = [
        f"{d['file']} ({d['format']}), layer {d['sheet']!r}"  # a GIS layer's fields are its header
        if d["format"] in ("gpkg", "shp", "geojson", "fgb", "kml")
        else f"{d['file']} ({d['format']}), sheet {d['sheet']!r}, header on row {d['header_row']}",
        f"rows read {d['rows_read']}: {d['trees']} trees, {d['rejected']} rejected",
        "actions: " + ", ".join(f"{k} {v}" for k, v in d["actions"].items() if v) + _pruned_words(d)
        if d["actions"]
        else "",
        f"DBH unit: {d['dbh_unit']} ({d['dbh_unit_source']}); multi-stem trees: {d['multi_stem_trees']}",
        "columns: " + ", ".join(f"{h!r}→{f}" for h, f in d["columns"].items()),
    ]
    if d["unmapped_columns"]:
        lines.append("columns not used: " + ", ".join(repr(h) for h in d["unmapped_columns"]))
    if d["rejected_reasons"]:
        lines += ["", "rejected:"] + [f"  {k}: {v}" for k, v in d["rejected_reasons"].items()]
        lines += [f"  - {r['reason']}" for r in d["rejected_rows"]]
    if d["unresolved_species"]:
        lines += ["", "unresolved species:"]
        for name in d["unresolved_species"]:
            sugg = d["unresolved_suggestions"].get(name) or []
            lines.append(f"  {name!r}" + (f": did you mean {'; '.join(sugg)}" if sugg else ""))
    if d["warnings"]:
        lines += ["", "warnings:"] + [f"  - {w}" for w in d["warnings"]]
    lines += ["", "site: " + (", ".join(f"{k}={v}" for k, v in d["site"].items()) or "nothing given")]
    if d.get("zone"):
        z = d["zone"]
        if z.get("zones"):  # trees in several zones, each valued in its own
            each = ", ".join(f"{c} {n}" for c, n in z["zones"].items())
            lines.append(f"climate zones, each tree its own: {each} ({z['source']})")
        else:
            lines.append(f"climate zone: {z['zone']} ({z['source']})")
        lines += [f"  - {x}" for x in z["notes"]]
    if d["site_assumptions"]:
        lines += ["assumptions:"] + [f"  - {x}" for x in d["site_assumptions"]]
    return "\n".join(x for x in lines if x is not None)
