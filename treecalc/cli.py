"""Command line: ``treecalc benefits | survey | assess | water-penalty | excavation``.

The CLI holds no domain logic: it parses arguments, calls the library and
prints what it returns. Errors are printed as one ``error:`` line (exit 2),
never as a traceback.

Start-up is kept light: this module and the subcommand modules import only the
standard library at the top; pandas, numpy, scipy and openpyxl are imported by
the command that runs, so ``treecalc --help`` answers at once.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from treecalc.units import in_range  # standard library only: --help stays fast

#: Modules that add subcommands with ``register(subparsers)``.
SUBCOMMAND_MODULES = ("treecalc.cli_survey", "treecalc.cli_assess", "treecalc.cli_companions")


def _json_default(o: Any) -> Any:
    import datetime
    import decimal

    import numpy as np

    if isinstance(o, decimal.Decimal):
        return str(o)
    if isinstance(o, (datetime.date, datetime.datetime)):
        return o.isoformat()
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.bool_):
        return bool(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def dump_json(obj: Any) -> None:
    """Print ``obj`` as JSON: indented on a terminal, one line into a pipe or file.

    Indented output goes through the json module's pure-Python encoder (its C
    encoder does not indent): for a 50,000-tree assessment that is seconds
    instead of a fraction of one, so output meant for programs is not indented.
    """
    indent = 2 if sys.stdout.isatty() else None
    print(json.dumps(obj, indent=indent, default=_json_default, ensure_ascii=False))


def stderr_progress() -> Any:
    """A ``progress(fraction, message)`` callback drawing one line on a terminal's stderr.

    None when stderr is not a terminal (CI, pipes), so logs stay clean.
    """
    if not sys.stderr.isatty():
        return None

    def show(fraction: float, message: str) -> None:
        end = "\n" if fraction >= 1 else ""
        print(f"\r{fraction:4.0%}  {message[:70]:<70}", end=end, file=sys.stderr, flush=True)

    return show


def add_benefit_params(p: argparse.ArgumentParser) -> None:
    """Flags shared by every command that values trees."""
    p.add_argument(
        "--land-use",
        help="single_family, multi_family, small_commercial, industrial_large_commercial, "
        "commercial_industrial (not said which), institutional, park_vacant_other "
        "(default: unspecified)",
    )
    p.add_argument(
        "--home-price",
        type=float,
        metavar="USD",
        help="median single-family home sale price for the aesthetic benefit "
        "(default $500,000: a placeholder the Village sets)",
    )
    p.add_argument(
        "--large-tree-leaf-area",
        type=float,
        metavar="M2",
        help="leaf area of the large reference tree (default: BDL OTHER at 40 years, 583.8 m2)",
    )
    p.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="NAME=USD",
        help="override a price of prices.csv, e.g. electricity=0.21 (repeatable)",
    )


def benefit_kwargs(a: argparse.Namespace) -> dict[str, Any]:
    prices = {}
    for item in a.price:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--price {item!r}: expected NAME=USD")
        try:
            float(value)
        except ValueError:
            raise ValueError(f"--price {item!r}: {value!r} is not a number") from None
        prices[name.strip()] = in_range(f"--price {name.strip()}", value, "price_usd")
    if a.home_price is not None:
        in_range("--home-price", a.home_price, "home_price_usd")
    if a.large_tree_leaf_area is not None:
        in_range("--large-tree-leaf-area", a.large_tree_leaf_area, "leaf_area_m2")
    return {
        "home_price_usd": a.home_price,
        "large_tree_leaf_area_m2": a.large_tree_leaf_area,
        "prices": prices or None,
        "land_use": a.land_use,
    }


def _cmd_benefits(a: argparse.Namespace) -> int:
    from treecalc.benefits import benefits

    in_range("--dbh", a.dbh, "dbh_in")
    in_range("--years", a.years, "years")
    in_range("--mortality", a.mortality, "fraction")
    kw = benefit_kwargs(a)
    land_use = kw.pop("land_use")
    r = benefits(
        a.species,
        a.dbh,
        land_use=land_use,
        condition=a.condition,
        horizon_years=a.years,
        mortality_rate=a.mortality,
        **kw,
    )
    if a.json:
        dump_json(r)
        return 0
    d, by, flags = r["dollars"], r["dollars_by_line"], r.get("disclosure_flags", [])

    def line(label: str, amount: float | None, fmt: str, unit: str, usd: float | None) -> str:
        a = "" if amount is None else format(amount, fmt)
        return f"{label:<26}{a:>14}  {unit:<12}{'' if usd is None else format(usd, ',.2f'):>10}"

    lines = [
        f"{r['common_name']} ({r['scientific_name']}, {r['species_code']}), DBH {r['dbh_in']:g} in, "
        f"land use {r['land_use']}; benefits from i-Tree row {r['itree_code']}",
        *(
            [
                "DBH beyond the model's range: the tables end at 45 in and hold their last value"
                + ("; over 100 in is implausible, check the measurement" if "implausible_dbh" in flags else "")
            ]
            if "beyond_last_class" in flags
            else []
        ),
        "",
        f"{'Benefit':<26}{'Amount':>14}  {'Unit':<12}{'USD/yr':>10}",
        line("Stormwater", r["stormwater_gal"], ",.1f", "gal/yr", d["stormwater"]),
        line("Energy: electricity", r["electricity_kwh"], ",.2f", "kWh/yr", by["electricity"]),
        line("Energy: natural gas", r["natural_gas_therms"], ",.2f", "therms/yr", by["natural_gas"]),
        line("  Energy, total", None, "", "", d["energy"]),
        line("Air quality (net)", r["air_quality_lb"], ",.3f", "lb/yr", d["air_quality"]),
        line("CO2 sequestered", r["co2_sequestered_lb"], ",.1f", "lb/yr", by["co2_sequestered"]),
        line("CO2 avoided", r["co2_avoided_lb"], ",.1f", "lb/yr", by["co2_avoided"]),
        line("  CO2, total", None, "", "", d["co2"]),
        line("Property / aesthetic", r["leaf_area_increase_m2"], ",.2f", "m2/yr leaf", d["property"]),
        line("Total annual benefits", None, "", "", d["total_annual"]),
        line("CO2 stored to date", r["co2_stored_lb"], ",.1f", "lb", None) + "  (a stock, not valued per year)",
        "",
        f"Benefits over {r['cumulative_years']} years with growth: ${r['cumulative_usd']:,.2f}"
        f" (annual mortality {r['cumulative_mortality_rate']:.1%})",
        f"Replacement value (CTLA trunk formula, condition {r['replacement_value_condition']}): "
        f"${r['replacement_value_usd']:,.2f}",
        "",
        # a value given on the command line is the user's, not the placeholder
        f"Property value: home price ${r['parameters']['home_price_usd']:,.0f} "
        f"({'as given' if a.home_price is not None else 'placeholder the Village sets'}), "
        f"large-tree leaf area {r['parameters']['large_tree_leaf_area_m2']:.1f} m2"
        f"{' (as given)' if a.large_tree_leaf_area is not None else ''}.",
        f"Source: {r['source']}.",
    ]
    if r.get("disclosures"):
        lines += ["", "Limits of the model for this tree:"] + [f"  - {x}" for x in r["disclosures"]]
    lines += [f"warning: {w}" for w in r["warnings"]]
    print("\n".join(lines))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from treecalc import __version__

    ap = argparse.ArgumentParser(
        prog="treecalc",
        description="Tree survey to environmental value (i-Tree Streets, Northeast), Chapter 208 permits, "
        "replacement, Tree Preservation Fund and penalties; companions for water-bill penalties "
        "and excavation.",
        epilog="Run 'treecalc COMMAND --help' for the options of one command.",
    )
    ap.add_argument("--version", action="version", version=f"treecalc {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("benefits", help="annual benefits of one tree (i-Tree Streets, Northeast)")
    b.add_argument("--species", required=True, help="code, scientific or common name")
    b.add_argument("--dbh", required=True, type=float, help="DBH, inches")
    b.add_argument(
        "--condition",
        default="good",
        help="for the replacement value: excellent, very good, good, fair, poor, critical, dead (default good)",
    )
    b.add_argument("--years", type=int, default=20, help="horizon of the cumulative benefits (default 20)")
    b.add_argument("--mortality", type=float, default=0.0, help="annual mortality rate, 0-1 (default 0)")
    b.add_argument("--json", action="store_true")
    add_benefit_params(b)
    b.set_defaults(func=_cmd_benefits)
    for mod in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
            continue  # that part of treecalc is not installed in this build
        module.register(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    a = ap.parse_args(argv)
    try:
        return int(a.func(a) or 0)
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError, KeyError) as e:
        from treecalc.species import UnknownSpecies  # (a ValueError) imported only when there is an error

        if isinstance(e, UnknownSpecies):
            print(f"error: unknown species {e.name!r}", file=sys.stderr)
            if e.suggestions:
                print("did you mean: " + "; ".join(e.suggestions), file=sys.stderr)
            return 2
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
