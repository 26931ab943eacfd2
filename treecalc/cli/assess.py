"""``treecalc assess``: the tree law applied to a survey, section by section.

No domain logic here: arguments → :func:`treecalc.assessment.assess` → text, JSON or the
Excel statement (:func:`treecalc.report.statement.write_statement`).
"""

from __future__ import annotations

import argparse
import codecs
import datetime as dt
import functools
import os
import re
import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, BinaryIO

from treecalc.cli.common import (
    STDIN_NAME,
    _json_default,
    add_benefit_params,
    add_options,
    add_switches,
    benefit_kwargs,
    dump_json,
    repeatable,
    stderr_progress,
    survey_source,
)
from treecalc.cli.fee_schedule import add_db_flag, in_force_for
from treecalc.cli.survey import (
    add_column_map,
    add_layer,
    add_limits,
    add_species_map,
    check_file_arg,
    column_map_arg,
    species_map_arg,
)
from treecalc.cli.words import render
from treecalc.law import cites, readings
from treecalc.law import registry as jurisdictions
from treecalc.law.access import law
from treecalc.law.cites import head as whole
from treecalc.law.registry import DEFAULT
from treecalc.law.schema import as_date


def _site_pairs(items: list[str]) -> dict[str, Any]:
    site: dict[str, Any] = {}
    raw: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--site {item!r}: expected field=value, e.g. subdividable=false")
        v: Any = value.strip()
        if key.strip() in raw and raw[key.strip()] != v:  # the last would win without a word
            raise ValueError(f"--site {key.strip()} is given twice, as {raw[key.strip()]!r} and {v!r}; give it once")
        raw[key.strip()] = v
        try:
            v = float(v) if any(ch in v for ch in ".eE") else int(v)
        except ValueError:
            pass
        site[key.strip()] = v
    return site


def register(subparsers: argparse._SubParsersAction) -> None:
    laws = ", ".join(r.chapter for r in jurisdictions.records())
    p = subparsers.add_parser("assess", help=f"permits, replacement, fund and penalties for a survey ({laws})")

    def outputs() -> None:
        add_options(
            p,
            (
                "--out",
                "FILE",
                "write the Excel statement (report.xlsx), or the trees as a GIS layer of points with their "
                "assessment and the summary (trees.gpkg; trees.geojson or trees.fgb with trees.summary.json)",
            ),
            ("--pdf", "report.pdf", "write the printable report (PDF) to attach and sign"),
        )

    def switches() -> None:
        add_switches(
            p,
            ("--json", "print one JSON object"),
            ("--trees", "print a line for every tree (default: trees with the same finding on one line)"),
        )

    add_assess_flags(p, outputs, switches)

    add_db_flag(p)
    p.set_defaults(func=_cmd_assess)


def _jurisdiction_help() -> str:
    default = jurisdictions.default()
    keys = [r.key + (" (default)" if r is default else "") for r in jurisdictions.records()]
    return ", ".join(keys[:-1]) + " or " + keys[-1] if len(keys) > 1 else keys[0]


def add_assess_flags(
    p: argparse.ArgumentParser, outputs: Any = None, switches: Any = None, *, survey_arg: bool = True
) -> None:
    """The survey argument and every flag of an assessment (``treecalc assess``, ``treecalc plan`` and
    ``treecalc case new`` share them); ``outputs`` and ``switches`` add a command's own flags where assess has
    them; ``survey_arg=False`` leaves out the survey argument for a command that names it otherwise."""
    if survey_arg:
        p.add_argument(
            "file",
            nargs="?",
            help="survey spreadsheet or GIS layer; - reads it from standard input (default: the sample)",
        )
    add_layer(p)
    p.add_argument("--jurisdiction", help=_jurisdiction_help())
    p.add_argument(
        "--on",
        metavar="YYYY-MM-DD",
        help="the date of the application or violation: the law and fee schedule in force then (default today)",
    )
    repeatable(
        p,
        "--site",
        "FIELD=VALUE",
        "a site fact, e.g. subdividable=false, has_residence=true, prior_removals_12mo=2, "
        "permit_held=true, department_approval=true, village_work=true, lot_area_acres=0.8, "
        "normal_farming=true (repeatable; the Site sheet takes the same fields)",
    )
    # yes/no facts: None when the flag is not given, so the survey's Site sheet or the default applies
    sec = _cited()
    b7 = sec("penalty.doubling_factor")
    add_switches(
        p,
        (
            "--violation",
            f"apply the {sec(VIOLATION)} violation standard (default: when trees were harmed without a permit)",
        ),
        ("--application-pending", f"a permit application was pending when trees were harmed ({b7})"),
        (
            "--clear-cutting",
            f"clear cutting has been determined to have taken place ({sec('permit.clear_cutting_min_trees')}, {b7})",
        ),
        default=None,
    )
    # the dest of every option of the assessment is its keyword of treecalc.assess (see _cmd_assess)
    p.add_argument(
        "--days", dest="continuing_days", default="1", metavar="N", help="days of continuing violation (default 1)"
    )
    p.add_argument(
        "--value-basis",
        default="annual",
        metavar="B",
        help="annual (default), cumulative:N (N years with growth) or appraised (CTLA)",
    )
    _add_replacement_flags(p, sec)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--plantable", type=int, metavar="N", help="how many replacement trees the site can take")
    g.add_argument(
        "--plantable-area",
        dest="plantable_area_sqft",
        type=float,
        metavar="SQFT",
        help=f"plantable area, sq ft (divided by the {sec('spacing_ft.small', _whole)} spacing of each size class)",
    )
    p.add_argument(
        "--mortality",
        type=float,
        metavar="RATE",
        help="annual tree mortality, 0-1, of the projection, payback and cumulative basis "
        "(default 0.043, Roman & Scatena 2011; or the fee schedule's mortality_rate)",
    )
    p.add_argument(
        "--fee-schedule", metavar="F.toml", help=f"fee schedule for payments in lieu ({sec('sections.fee_schedule')})"
    )
    p.add_argument(
        "--fee-per-tree",
        dest="fee_per_tree_usd",
        metavar="USD",
        help="fee per replacement tree not planted (overrides the schedule)",
    )
    if outputs:
        outputs()
    add_limits(p)
    if switches:
        switches()

    add_column_map(p)
    add_species_map(p)
    add_benefit_params(p)


#: The entries of the law the flags' help cites (their sections read from the law, never retyped)
VIOLATION, CONIFER = "replacement.violation_percent", "replacement.conifer_min_height_ft"


def _cited() -> Callable[..., str]:
    """The sections the flags' help cites, of the default law in force today: ``sec(key)`` (``sec(key, head)`` the
    whole section); a data folder that cannot be read is refused by the command itself (exit 2), and its help
    names the chapter instead."""
    try:
        held = cites.sections(DEFAULT, dt.date.today())
    except Exception:  # noqa: BLE001 - any failure to read the data is said by the command's own check
        held = {}

    def sec(key: str, form: Callable[[str], str] | None = None) -> str:
        if key not in held:
            return "Chapter 208"
        return form(held[key]) if form else held[key]

    return sec


def _whole(section: str) -> str:
    """The whole section a subsection is of (:func:`treecalc.law.cites.head`)."""
    return whole(section)


def _add_replacement_flags(p: argparse.ArgumentParser, sec: Callable[..., str]) -> None:
    """The replacement stock's flags (§208-22D/F), their help naming the defaults the law in force today holds."""
    # the defaults the help names, as the law (and treecalc's readings of it) in force today hold them; a data
    # folder that cannot be read is refused by the command itself (exit 2), not while its help is written
    try:
        rep = law(DEFAULT)["replacement"]  # the default law's replacement rule, whose defaults the flags take
        stock = readings(DEFAULT)["replacement"]["default_stock"]  # treecalc's reading, not the law's
        pct, species = f"{rep['violation_percent']:g}", stock["species"]
        dbh, conifer = f"{stock['dbh_in']:g}", f"{rep['conifer_min_height_ft']:g} ft"
    except Exception:  # noqa: BLE001 - any failure to read the data is said by the command's own check
        pct, species, dbh, conifer = "Chapter 208's", "the readings'", "the readings'", "the height Chapter 208 sets"
    replacement: tuple[tuple[str, str, type | None, str, str], ...] = (
        (
            "--replacement-percent",
            "replacement_percent",
            float,
            "PCT",
            f"the Village Engineer's percentage after a violation ({sec(VIOLATION)}; default {pct})",
        ),
        (
            "--replacement-species",
            "replacement_species",
            None,
            "NAME",
            f"replacement species (default {species})",
        ),
        (
            "--replacement-dbh",
            "replacement_dbh_in",
            float,
            "IN",
            f"replacement DBH, inches (default {dbh})",
        ),
        (
            "--replacement-height",
            "replacement_height_ft",
            float,
            "FT",
            f"replacement height, feet (a conifer must be at least {conifer}, {sec(CONIFER)})",
        ),
        (
            "--replacement-cost",
            "replacement_cost_usd",
            None,
            "USD",
            "unit cost of a replacement tree, supplied and planted",
        ),
    )
    for flag, dest, kind, metavar, why in replacement:
        p.add_argument(flag, dest=dest, type=kind or str, metavar=metavar, help=why)
    add_switches(
        p,
        (
            "--size-waiver",
            f"the Village Engineer has waived the minimum size of the replacement trees ({sec('sections.in_lieu')})",
        ),
    )


def _fmt(v: Any, unit: str) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)) and unit.startswith("USD"):
        s = f"{v:,.2f}" if isinstance(v, float) else f"{v:,}"
        return f"${s}" + ("" if unit == "USD" else unit[3:])
    if isinstance(v, float):
        return f"{v:,.2f} {unit}".rstrip()
    if isinstance(v, int):
        from treecalc.report.content import count_unit  # start-up: the report's words, read only when a line is printed

        return f"{v:,} {count_unit(v, unit)}".rstrip()
    return f"{v} {unit}".rstrip()


_PER_TREE = re.compile(r"^tree (?P<tag>.+?) \((?P<code>[^()]*)\)$")


def summarise_lines(lines: list[dict[str, Any]], first: int = 12) -> list[dict[str, Any]]:
    """The assessment's lines with the per-tree ones ("Not counted: tree 3 (ACPL)") folded into one
    line per section, statement and note: "Not counted: 608 trees (3, 13, 21, …)"."""
    out: list[dict[str, Any]] = []
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for ln in lines:
        m = _PER_TREE.match(ln["value"]) if isinstance(ln["value"], str) else None
        if not m:
            out.append(ln)
            continue
        key = (ln["section"], ln["item"], ln["note"])
        g = groups.get(key)
        if g is None:
            g = groups[key] = {**ln, "tags": []}
            out.append(g)
        g["tags"].append(m.group("tag"))
    for g in groups.values():
        tags = g.pop("tags")
        if len(tags) > 1:
            shown = ", ".join(tags[:first]) + (", …" if len(tags) > first else "")
            g["value"] = f"{len(tags):,} trees ({shown})"
    return out


def _dbh(d: float) -> str:
    """A DBH as given: one decimal at least (as before), more when the survey gave more (12.99 is not 13.0, which is
    across a class bound)."""
    return f"{d:.1f}" if d == round(d, 1) else f"{d:g}"


def tree_lines(trees: Any) -> list[str]:
    """One line per tree: tag, species, DBH, action, value, and what the law found for it."""
    cols = [c for c in ("permit_triggers", "exclusion", "offence_sections", "offence_status") if c in trees]
    out = ["", "Trees (tag, species, DBH, action, value, findings):"]
    for r in trees.itertuples(index=False):
        value = getattr(r, "value_usd", None)
        found = "; ".join(str(getattr(r, c)) for c in cols if str(getattr(r, c, "") or "").strip())
        out.append(
            f"  tree {r.tag!s:<10} {r.species_code!s:<9} {_dbh(r.dbh_in):>6} in  {r.action:<18} "
            + (f"${value:,.2f}" if isinstance(value, (int, float)) and value == value else "")
            + (f"  [{found}]" if found else "")
        )
    return out


def reading_lines(items: list[dict[str, str]]) -> list[str]:
    """treecalc's readings of unclear text the assessment applied, each under its section (as the JSON's
    ``readings``, the statement and the PDF list them), so the text answer states them too."""
    if not items:
        return []
    out = ["Readings of unclear text (treecalc's, each under the section it reads):"]
    for r in items:
        text, section = str(r["reading"]), str(r["section"])
        # most readings open with their section already ("§208-19A(1) and (8): ..." under "§208-19A(1), (8)"):
        # those are not prefixed with it again; the others are
        head = re.split(r"[(,]", section, maxsplit=1)[0].strip()
        out.append(f"  - {text}" if head and text.startswith(head) else f"  - {section}: {text}")
    return out


def render_text(a: Any, per_tree: bool = False) -> str:
    """The assessment as text: a summary (per-tree lines folded, :func:`summarise_lines`), or every
    line with ``per_tree``."""
    out: list[str] = []
    current = None
    for ln in a.lines if per_tree else summarise_lines(a.lines):
        head = ln["section"].split("(")[0] if ln["section"].startswith("§") else ln["section"]
        if head != current:
            out.append("")
            current = head
        note = f"  [{ln['note']}]" if ln["note"] else ""
        out.append(f"{ln['section']:<16} {ln['item']}: {_fmt(ln['value'], ln['unit'])}{note}")
    rep = a.replacement
    for n in a.permit.notes or []:
        out.append(f"note: {n}")
    for n in rep.notes or []:
        out.append(f"note: {n}")
    for n in (a.fund.notes or []) + (a.penalties.notes or []):
        out.append(f"note: {n}")
    out.append("")
    out.append(f"Value basis: {a.options['value_basis_label']}")
    if a.assumptions:
        out.append("Assumptions (site facts not given; the conservative reading):")
        out.extend(f"  - {s}" for s in a.assumptions)
    out.extend(reading_lines(a.method.get("reading_items") or []))
    if a.warnings:
        out.extend(f"warning: {w}" for w in a.warnings)
    if per_tree and len(getattr(a, "trees", ())):
        out.extend(tree_lines(a.trees))
    return "\n".join(out).lstrip("\n")


def _days(text: Any) -> int:
    """--days: a whole number of days within :data:`treecalc.quantities.RANGES` ``["days"]``."""
    from treecalc.quantities import in_range  # start-up: with the command that runs, not every command

    return int(in_range("--days", text, "days"))


def _check_numbers(a: argparse.Namespace) -> None:
    """Every number given within its plausible range (:data:`treecalc.quantities.RANGES`), naming the flag."""
    from treecalc.quantities import in_range, small_file  # start-up: with the command that runs, not every command

    checks = (
        ("--replacement-percent", a.replacement_percent, "percent"),
        ("--plantable", a.plantable, "plantable"),
        ("--plantable-area", a.plantable_area_sqft, "area_sqft"),
        ("--replacement-dbh", a.replacement_dbh_in, "dbh_in"),
        ("--replacement-height", a.replacement_height_ft, "height_ft"),
        ("--replacement-cost", a.replacement_cost_usd, "usd"),
        ("--fee-per-tree", a.fee_per_tree_usd, "usd"),
        ("--mortality", a.mortality, "fraction"),
    )
    for flag, value, kind in checks:
        if value is not None:
            in_range(flag, value, kind)
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.assessment import parse_value_basis

    # before the survey is read: a bad basis is said at once (its N within range, naming the option)
    parse_value_basis(a.value_basis)
    if a.fee_schedule:
        small_file("--fee-schedule", a.fee_schedule, 1_000_000)


def _check_out(
    path: str, suffix: str = ".xlsx", flag: str = "--out", what: str = "the statement is an Excel workbook"
) -> None:
    """--out (an .xlsx) or --pdf (a .pdf): a file in a folder that exists and can be written."""
    p = Path(path)
    if not path.strip():
        raise ValueError(f"{flag} {path!r} is empty (an unset variable?): give a file name ending in {suffix}")
    if p.suffix.lower() != suffix:
        raise ValueError(f"{flag} {path}: {what}; give a file name ending in {suffix}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"{flag} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{flag} {path}: folder {folder} is not writable")
    if p.is_dir():
        raise ValueError(f"{flag} {path} is a folder")


def _check_not_the_survey(a: Any) -> None:
    """--out or --pdf naming the survey read (the same file, by any path or link): refused before any work, since
    writing the statement there would replace the survey it was derived from."""
    if not a.file or a.file == "-" or not Path(a.file).exists():
        return
    survey = Path(a.file).resolve()
    for flag, out in (("--out", getattr(a, "out", None)), ("--pdf", getattr(a, "pdf", None))):
        if out and Path(out).exists() and Path(out).resolve() == survey:
            raise ValueError(f"{flag} {out} is the survey being read: write the output to another file")


_OUT_WHAT = "the statement is an Excel workbook (.xlsx), the trees a GIS layer (.gpkg, .geojson, .fgb)"


def _write_out(result: Any, path: str) -> None:
    """Build the workbook in memory, write it to a temporary file beside ``path``, then rename it in place; a GIS
    layer (.gpkg, .geojson, .fgb) of the trees and their assessment is written by :mod:`treecalc.report.layers`."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.report.layers import FORMATS, write_layers

    if Path(path).suffix.lower() in FORMATS:
        write_layers(result, path)
        return
    from treecalc.files import Replacing  # start-up: with the command that runs, not every command

    # start-up: with the command that runs, not every command (pandas, numpy, xlsxwriter, ...)
    from treecalc.report.statement import statement_bytes

    data = statement_bytes(result)
    with Replacing(path, user_mode=True) as tmp:  # the statement gets the user's usual mode (0644), not 0600
        Path(tmp).write_bytes(data)


@functools.cache
def _flags() -> dict[str, str]:
    """Each keyword of :func:`treecalc.assess` -> the flag of ``treecalc assess`` that gives it."""
    p = argparse.ArgumentParser(add_help=False)
    add_assess_flags(p)
    return {a.dest: a.option_strings[0] for a in p._actions if a.option_strings}


def _flag(keyword: str) -> str:
    """The flag of a keyword the library names (the keyword itself when no flag gives it)."""
    return _flags().get(keyword, keyword)


def _choose(record: Any) -> str:
    return f"give --jurisdiction {record.user_spelling}"


def _check_jurisdiction_options(jurisdiction: str | None, opts: Any, site: dict[str, Any]) -> None:
    """An option only another law reads (:func:`treecalc.law.registry.check_options`) is an error naming its flag;
    a ``--site`` fact the law applied does not read (another law's, :attr:`~treecalc.law.registry.Jurisdiction.
    site_facts`) is one too: before the survey is read, and again with the jurisdiction the assessment applied (the
    Site sheet's, or the default law's), before anything is printed or written. The Site sheet's own facts are the
    survey's, not flags: they are not refused."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.ingest.site import facts_not_read

    if not jurisdiction:
        return
    record = jurisdictions.get(jurisdiction)
    # the options' labels cite each law's sections in force on the date assessed
    on = dt.date.fromisoformat(str(opts.on)[:10]) if getattr(opts, "on", None) else dt.date.today()
    try:
        jurisdictions.check_options(record.key, opts, lambda k: cites.sections(k, on))
    except jurisdictions.OptionsNotRead as e:
        raise ValueError(e.message(word=_flag, choose=_choose)) from None
    # each --site name as given, with the sections the law reading it cites; an unknown one is assess()'s error
    unread = facts_not_read(record.key, list(site))
    if unread:
        other = unread[0].reader
        named = ", ".join(f"--site {f.given}" + (f" ({f.sections})" if f.sections else "") for f in unread)
        one = len(unread) == 1
        raise ValueError(
            f"{named} {'is a site fact' if one else 'are site facts'} of {other.chapter} that "
            f"{record.chapter} does not read, so {'it' if one else 'they'} would not be used; leave "
            f"{'it' if one else 'them'} out, or {_choose(other)}"
        )


def _village_schedule(a: argparse.Namespace, options: dict[str, Any]) -> None:
    """The register's fee schedule in force on the date assessed (``fee_schedule_in_force``), where a register is
    configured; a case (``case new``) is opened on it alone: a fee given that charges otherwise is refused."""
    case = getattr(a, "case_command", None) == "new"
    village = in_force_for(a, options["on"], always=case)
    if village is None:
        return
    options["fee_schedule_in_force"] = village
    if case:
        from treecalc.register import fees  # start-up: with the command that runs, not every command (sqlalchemy)

        differs = fees.differs(options, village, options["on"])
        if differs:
            raise ValueError(
                f"a case is opened on the Village's fee schedule in force: {differs[0].split(': these')[0]}; "
                "leave out --fee-per-tree and --fee-schedule"
            )


def assess_inputs(a: argparse.Namespace) -> tuple[str | bytes, Any, dict[str, Any]]:
    """The flags of :func:`add_assess_flags` checked, and the survey read: (its path, or the bytes piped in for
    ``-``; the survey; the keyword arguments of :func:`treecalc.assessment.assess`)."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.assessment import AssessOptions, prepare

    kw = benefit_kwargs(a)
    land_use = kw.pop("land_use")
    if land_use:
        kw["land_use"] = land_use
    # every flag whose dest is an option of assess(), passed under that name
    options = {f.name: getattr(a, f.name) for f in fields(AssessOptions) if hasattr(a, f.name)}
    options["continuing_days"] = _days(a.continuing_days)

    # today's date written out, so that `treecalc verify` derives the statement again with the law of that day
    if a.on is not None and not str(a.on).strip():  # an unset variable ("") is refused, not taken as today
        raise ValueError("--on is empty: give the date YYYY-MM-DD of the application or violation (or leave --on out)")
    options["on"] = (as_date(a.on, "--on") or dt.date.today()).isoformat()
    _check_numbers(a)
    _village_schedule(a, options)
    if getattr(a, "out", None) is not None:  # "" (an unset variable) is refused, not taken as "no statement"
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.report.layers import FORMATS

        suffix = Path(a.out).suffix.lower()
        # before any work: a bad path is reported once, cleanly
        _check_out(a.out, suffix if suffix in FORMATS else ".xlsx", what=_OUT_WHAT)
    if getattr(a, "pdf", None) is not None:
        _check_out(a.pdf, ".pdf", "--pdf", "the report is a PDF")

    check_file_arg(a.file)
    _check_not_the_survey(a)
    site = _site_pairs(a.site)
    _check_jurisdiction_options(a.jurisdiction, AssessOptions(**options), site)
    path = a.file
    if path is None:  # the sample of the data folder (TREECALC_DATA): a copy without it is named
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.reference import data

        path = data.sample_survey()
    from treecalc.ingest.limits import Limits  # start-up: with the command that runs, not every command

    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.ingest.zone import read_survey_in_zone

    source = survey_source(path)
    from treecalc.reference.species import load_index  # start-up: the species tables, only for a survey read

    # both the reader and the assessment read the species index: built here, the child forked below inherits it
    load_index()
    # the survey is read in a bounded child process (treecalc.ingest.limits): a hostile file cannot take us down
    survey = read_survey_in_zone(
        source,
        kw.get("zone") or (site or {}).get("climate_zone"),
        filename=STDIN_NAME if isinstance(source, bytes) else None,
        progress=stderr_progress(),
        isolated=True,
        limits=Limits.parse(a.limit, Limits.from_env()),
        species_map=species_map_arg(a.species_map) or None,
        column_map=column_map_arg(a.map),
        layer=a.layer,
        meanwhile=lambda: prepare(a.jurisdiction),  # the tables load while the child reads
    )
    from treecalc.ingest.errors import require_trees  # start-up: with the command that runs, not every command

    require_trees(survey)  # before any work on it (plan, case new): no tree read is refused, exit 2
    return source, survey, {"jurisdiction": a.jurisdiction, "site": site, **options, **kw}


def assess_args(a: argparse.Namespace, *, json_spool: BinaryIO | None = None) -> tuple[Any, str]:
    """The assessment the flags of :func:`add_assess_flags` ask for, and the survey file read (``a.file``; the
    sample when it is None): every flag checked first, naming it (``treecalc assess`` and ``case new``).

    ``json_spool``, when given, receives the UTF-8 of the assessment's JSON text without its fingerprint
    (:func:`treecalc.report.json_text.assessment_json_chunks`) as the fingerprint hashes it: the caller prints it
    with the fingerprint added, so that the text is written once (not once for the hash and once to print) and
    never held whole."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.assessment import AssessOptions, assess

    source, survey, kwargs = assess_inputs(a)
    result = assess(survey, progress=stderr_progress(), **kwargs)
    options = {k: kwargs[k] for k in AssessOptions.__dataclass_fields__ if k in kwargs}
    site = kwargs["site"]
    if not a.jurisdiction:  # the jurisdiction the survey's Site sheet named: the same check, before any output
        _check_jurisdiction_options(result.jurisdiction, AssessOptions(**options), site)
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.report.fingerprint import attach

    # what `treecalc verify` derives the assessment again with: the keyword arguments given to assess() and the reader
    read: dict[str, Any] = {"species_map": species_map_arg(a.species_map) or None, "column_map": column_map_arg(a.map)}
    if a.layer is not None:  # the layer of a GIS file of several: verify reads the same one
        read["layer"] = a.layer
    call = {**kwargs, "read": read}
    sha = None
    if json_spool is not None:
        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.report.fingerprint import text_sha256

        # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
        from treecalc.report.json_text import assessment_json_chunks

        sha = text_sha256(assessment_json_chunks(result, default=_json_default), json_spool)
    if isinstance(source, bytes):  # piped in: the very bytes read, named as read
        attach(result, source, call, survey_name=STDIN_NAME, result_sha=sha)
        return result, STDIN_NAME
    if Path(source).is_file():  # (a reader given no file, as the tests' stand-in survey, has no bytes to fingerprint)
        attach(result, source, call, result_sha=sha)
    return result, source


def _cmd_assess(a: argparse.Namespace) -> int:
    import tempfile  # start-up: with the command that runs, not every command

    with tempfile.TemporaryFile() as spool:
        return _assess_command(a, spool)


def _print_spooled(spool: BinaryIO, fingerprint: Any) -> None:
    """The JSON text spooled by :func:`assess_args` (UTF-8, without its fingerprint) printed with the fingerprint
    added as its last key: the same text ``json.dumps`` gives of the whole object, read back a block at a time."""
    # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
    from treecalc.report.json_text import fingerprint_tail

    end = spool.tell() - 1  # the object's closing "}", which the fingerprint's tail ends with instead
    spool.seek(0)
    tail = fingerprint_tail(fingerprint, _json_default) + "\n"
    out = getattr(sys.stdout, "buffer", None)
    if out is not None and codecs.lookup(sys.stdout.encoding or "ascii").name == "utf-8":
        # the spooled UTF-8 copied as it is: decoded and encoded again it cost ~0.15 s of 50 MB at 50,000 trees
        sys.stdout.flush()
        while spool.tell() < end:
            out.write(spool.read(min(1 << 20, end - spool.tell())))
        out.write(tail.encode("utf-8"))
        out.flush()
        return
    text = codecs.getincrementaldecoder("utf-8")()
    while spool.tell() < end:
        sys.stdout.write(text.decode(spool.read(min(1 << 20, end - spool.tell()))))
    sys.stdout.write(text.decode(b"", final=True) + tail)


def _assess_command(a: argparse.Namespace, spool: BinaryIO) -> int:
    # into a pipe or file, the JSON text is written once: hashed for the fingerprint as it is spooled, then printed
    piped = bool(a.json) and not sys.stdout.isatty()
    result, path = assess_args(a, json_spool=spool if piped else None)
    if a.out:
        _write_out(result, a.out)
    if getattr(a, "pdf", None):
        from treecalc.report import write_pdf  # start-up: with the command that runs, not every command

        write_pdf(result, a.pdf, survey_name=Path(path).name)
    if a.json:
        if not piped:
            # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
            from treecalc.report.json import assessment_json

            dump_json(assessment_json(result))  # indented, for a reader
        else:  # the same text json.dumps gives, written a column at a time (50,000 trees: ~0.25 s, not ~0.8 s)
            _print_spooled(spool, getattr(result, "fingerprint", None))
    else:
        print(render(render_text(result, per_tree=a.trees)))
        if a.out:
            # start-up: with the command that runs, not every command (pandas, numpy, pyarrow, ...)
            from treecalc.report.layers import FORMATS, sidecar

            if Path(a.out).suffix.lower() not in FORMATS:
                print(f"\nstatement written to {a.out}")
            else:
                beside = "" if Path(a.out).suffix.lower() == ".gpkg" else f", the summary to {sidecar(a.out)}"
                print(f"\ntrees written to {a.out} (one point per tree with its assessment){beside}")
        if getattr(a, "pdf", None):
            print(f"report written to {a.pdf}")
    return 0
